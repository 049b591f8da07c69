// Whole-file reads and writes whose Failures name the file. They print
// nothing: a command shows their Failure with fail_with(kIo, kFileSpeaker, ...)
// as "tlbf: cannot read PATH: reason".
#pragma once

#include <cstdint>
#include <fstream>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/bit_array.hpp"
#include "tlbf/error.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::cli {

// Who speaks when a file helper's Failure is shown: "tlbf: cannot read PATH: ...".
inline constexpr std::string_view kFileSpeaker = "tlbf";

// The bytes of the file, or a Failure "cannot read PATH: reason" (common's
// read_whole_file: a directory, a FIFO, a socket or a device is refused
// unread, and so is a file longer than kWholeFileLimit; the transcripts,
// lists, reports and viewer read whole are far shorter).
inline constexpr std::size_t kWholeFileLimit = std::size_t{256} << 20;
Outcome<std::string> read_file(const std::string& path);

// A filter file as read: its bytes, or why it is refused unread.
struct FilterFile {
  BitArray bytes;                // for Bloom::from_bytes(BitArray&&), which checks the padding
  std::uint64_t size = 0;        // the file's length (of a pipe or device: the bytes read)
  std::optional<Error> refused;  // from_bytes's error for this file, found from its header and length
};

// Reads a filter file no further than its header says it holds (+1 byte to
// see trailing data), straight into a filter's storage: a large filter is
// loaded with one copy in memory, not two, and junk (a huge file, /dev/zero)
// is refused from its first 32 bytes. A Failure says why it cannot be read.
Outcome<FilterFile> read_filter_file(const std::string& path);

// Writes bytes to PATH ("-" is standard output); a Failure says why not.
// A regular file (or a new one) is written beside PATH under a temporary name
// and renamed over it once complete, so a failed write leaves PATH as it was
// (the replaced file's mode is kept; a symbolic link is followed, not
// replaced). A device or a FIFO is written in place.
Outcome<Done> write_file(const std::string& path, std::span<const std::uint8_t> bytes);
// Writes `first` then `second`, as one file (a filter's header, then its bits).
Outcome<Done> write_file(const std::string& path, std::span<const std::uint8_t> first,
                         std::span<const std::uint8_t> second);
Outcome<Done> write_file(const std::string& path, std::string_view text);

// A stream of lines to read: PATH, or standard input for "-".
class Input {
 public:
  // Opens PATH, or says why it cannot.
  static Outcome<Input> open(const std::string& path);
  std::istream& stream() noexcept;

 private:
  explicit Input(bool from_stdin) : from_stdin_(from_stdin) {}
  std::ifstream file_;
  bool from_stdin_;
};

}  // namespace tlbf::cli
