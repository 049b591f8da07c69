// Whole-file reads and writes with error messages that name the file.
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

namespace tlbf::cli {

// The bytes of the file, or nullopt after printing "tlbf: cannot read PATH: reason".
std::optional<std::vector<std::uint8_t>> read_file(const std::string& path);

// The bytes of the file read straight into a filter's storage, for
// Bloom::from_bytes(BitArray&&): a large filter is loaded with one copy in
// memory, not two. nullopt after printing why not.
std::optional<BitArray> read_filter_file(const std::string& path);

// Writes bytes to PATH ("-" is standard output); false after printing why not.
bool write_file(const std::string& path, std::span<const std::uint8_t> bytes);
// Writes `first` then `second`, as one file (a filter's header, then its bits).
bool write_file(const std::string& path, std::span<const std::uint8_t> first, std::span<const std::uint8_t> second);
bool write_file(const std::string& path, std::string_view text);

// A stream of lines to read: PATH, or standard input for "-".
class Input {
 public:
  // Opens PATH; ok() is false, after printing why, when it cannot.
  explicit Input(const std::string& path);
  bool ok() const noexcept { return ok_; }
  std::istream& stream() noexcept;

 private:
  std::ifstream file_;
  bool from_stdin_;
  bool ok_;
};

}  // namespace tlbf::cli
