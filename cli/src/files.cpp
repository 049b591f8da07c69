#include "files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "tlbf/bloom.hpp"

namespace tlbf::cli {
namespace {

void complain(const char* verb, const std::string& path) {
  std::cerr << "tlbf: cannot " << verb << " " << path << ": " << std::strerror(errno) << "\n";
}

// The file, opened for reading, or nullopt after printing why not.
std::optional<std::ifstream> open_for_reading(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    std::cerr << "tlbf: cannot read " << path << ": it is a directory\n";
    return std::nullopt;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    complain("open", path);
    return std::nullopt;
  }
  return in;
}

}  // namespace

std::optional<std::vector<std::uint8_t>> read_file(const std::string& path) {
  auto in = open_for_reading(path);
  if (!in) return std::nullopt;
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(*in)), std::istreambuf_iterator<char>());
  if (in->bad()) {
    complain("read", path);
    return std::nullopt;
  }
  return bytes;
}

namespace {

// Reads up to `count` more bytes onto the end of `bytes`; false on a read error.
bool read_more(std::istream& in, BitArray& bytes, std::uint64_t count) {
  const std::size_t had = bytes.size();
  bytes.resize(had + count);
  in.read(reinterpret_cast<char*>(bytes.data() + had), static_cast<std::streamsize>(count));
  bytes.resize(had + static_cast<std::size_t>(in.gcount()));
  return !in.bad();
}

}  // namespace

std::optional<FilterFile> read_filter_file(const std::string& path) {
  auto in = open_for_reading(path);
  if (!in) return std::nullopt;
  std::error_code ec;
  const bool regular = std::filesystem::is_regular_file(path, ec);
  const std::uintmax_t stat_size = regular ? std::filesystem::file_size(path, ec) : 0;
  FilterFile file;
  errno = 0;
  if (!read_more(*in, file.bytes, HEADER_LEN)) {
    complain("read", path);
    return std::nullopt;
  }
  if (regular && !ec) {
    file.size = stat_size;
  } else {
    // A pipe or a device: its length is what it holds up to what the header
    // asks for, and one byte more, which is enough to refuse it as too long.
    file.size = file.bytes.size();
    if (const auto want = Bloom::file_size_from_header(file.bytes); want && file.size == HEADER_LEN) {
      if (!read_more(*in, file.bytes, want.value() + 1 - HEADER_LEN)) {
        complain("read", path);
        return std::nullopt;
      }
      file.size = file.bytes.size();
    }
  }
  if (const auto checked = Bloom::check_header(file.bytes, file.size); !checked) {
    file.refused = checked.error();
    return file;
  }
  // The length is right: the rest of the file is the bit array, as long as the header says.
  if (file.bytes.size() < file.size && !read_more(*in, file.bytes, file.size - file.bytes.size())) {
    complain("read", path);
    return std::nullopt;
  }
  if (file.bytes.size() != file.size || in->peek() != std::char_traits<char>::eof()) {
    std::cerr << "tlbf: cannot read " << path << ": it changed size while being read\n";
    return std::nullopt;
  }
  return file;
}

bool write_file(const std::string& path, std::span<const std::uint8_t> bytes) {
  return write_file(path, bytes, {});
}

bool write_file(const std::string& path, std::span<const std::uint8_t> bytes, std::span<const std::uint8_t> second) {
  errno = 0;
  std::ofstream file;
  std::ostream* out = &std::cout;
  if (path != "-") {
    file.open(path, std::ios::binary | std::ios::trunc);
    if (!file) {
      complain("open", path);
      return false;
    }
    out = &file;
  }
  out->write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out->write(reinterpret_cast<const char*>(second.data()), static_cast<std::streamsize>(second.size()));
  out->flush();
  if (!*out) {
    complain("write", path);
    return false;
  }
  return true;
}

bool write_file(const std::string& path, std::string_view text) {
  return write_file(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

Input::Input(const std::string& path) : from_stdin_(path == "-"), ok_(true) {
  if (from_stdin_) return;
  auto opened = open_for_reading(path);
  ok_ = opened.has_value();
  if (ok_) file_ = std::move(*opened);
}

std::istream& Input::stream() noexcept { return from_stdin_ ? std::cin : file_; }

}  // namespace tlbf::cli
