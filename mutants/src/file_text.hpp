// Reading a small file whole, for the sources of mutants/ that need one.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace tlbf::mutants {

// The bytes of the file at `path`, or "" when it cannot be opened: the callers
// read files they have just listed or written, or patches whose absence an
// earlier check has reported.
inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace tlbf::mutants
