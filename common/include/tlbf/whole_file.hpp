// The one reader of whole files for every component: vector files, reports
// to merge, kits, transcripts, expected lists, patches and sources. What it
// reads has to fit in memory at once, so it is bounded before the first byte
// is read, and refuses anything that is not a regular file.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tlbf/outcome.hpp"

namespace tlbf {

// The bytes of the regular file at `path`, at most `limit` of them, or a
// Failure naming the file: "cannot open PATH: reason", "cannot read PATH:
// it is a FIFO (a named pipe), not a regular file", "cannot read PATH:
// longer than LIMIT, more than any WHAT could be".
//
// - A directory, a FIFO, a socket or a device is refused from fstat, before
//   any read: a FIFO with no writer would block, and /dev/zero never ends.
//   The file is opened with O_NONBLOCK, so opening a FIFO cannot hang either.
// - A size over `limit` is refused from fstat too, before any memory is
//   taken; the read is still bounded as it goes, since a file in /proc says
//   it holds 0 bytes and a file may grow while it is read.
// - `what` names what the file is meant to be ("vector file", "report"), for
//   the message about its length.
Outcome<std::string> read_whole_file(const std::string& path, std::size_t limit, std::string_view what);

// "256 MiB", "64 KiB" or "100 bytes": a limit as the messages show it.
std::string size_in_words(std::size_t bytes);

}  // namespace tlbf
