// Reading a small file whole, for the sources of mutants/ that need one.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "tlbf/whole_file.hpp"

namespace tlbf::mutants {

// The most a source, test file or patch of a grading may hold: far above any
// a course has, far below what would exhaust memory.
inline constexpr std::size_t kMaxTextFile = std::size_t{64} << 20;

// The bytes of the file at `path`, or "" when it cannot be read: the callers
// read files they have just listed or written, or patches whose absence an
// earlier check has reported. common's bounded reader, so that a learner's
// file that is a FIFO, a device or endless is refused rather than waited on.
inline std::string file_text(const std::filesystem::path& path) {
  auto text = read_whole_file(path.string(), kMaxTextFile, "source, test file or patch");
  return text.ok() ? std::move(text).value() : std::string();
}

}  // namespace tlbf::mutants
