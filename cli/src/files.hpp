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
#include "tlbf/error.hpp"

namespace tlbf::cli {

// The bytes of the file, or nullopt after printing "tlbf: cannot read PATH: reason".
std::optional<std::vector<std::uint8_t>> read_file(const std::string& path);

// A filter file as read: its bytes, or why it is refused unread.
struct FilterFile {
  BitArray bytes;                // for Bloom::from_bytes(BitArray&&), which checks the padding
  std::uint64_t size = 0;        // the file's length (of a pipe or device: the bytes read)
  std::optional<Error> refused;  // from_bytes's error for this file, found from its header and length
};

// Reads a filter file no further than its header says it holds (+1 byte to
// see trailing data), straight into a filter's storage: a large filter is
// loaded with one copy in memory, not two, and junk (a huge file, /dev/zero)
// is refused from its first 32 bytes. nullopt after printing why it cannot
// be read.
std::optional<FilterFile> read_filter_file(const std::string& path);

// Writes bytes to PATH ("-" is standard output); false after printing why not.
// A regular file (or a new one) is written beside PATH under a temporary name
// and renamed over it once complete, so a failed write leaves PATH as it was
// (the replaced file's mode is kept; a symbolic link is followed, not
// replaced). A device or a FIFO is written in place.
bool write_file(const std::string& path, std::span<const std::uint8_t> bytes);
// Writes `first` then `second`, as one file (a filter's header, then its bits).
bool write_file(const std::string& path, std::span<const std::uint8_t> first,
                std::span<const std::uint8_t> second);
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
