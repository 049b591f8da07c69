#include "files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tlbf/bloom.hpp"
#include "tlbf/whole_file.hpp"

namespace tlbf::cli {
namespace {

Failure cannot(const char* verb, const std::string& path) {
  const int error = errno;  // before the allocations below, which may set it
  return failure(std::string("cannot ") + verb + " " + path + ": " + std::strerror(error));
}

// The file, opened for reading, or why not.
Outcome<std::ifstream> open_for_reading(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    return failure("cannot read " + path + ": it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return cannot("open", path);
  return in;
}

}  // namespace

Outcome<std::string> read_file(const std::string& path) {
  return read_whole_file(path, kWholeFileLimit, "transcript, list or report");
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

Outcome<FilterFile> read_filter_file(const std::string& path) {
  auto in = open_for_reading(path);
  if (!in) return in.failure();
  std::error_code ec;
  const bool regular = std::filesystem::is_regular_file(path, ec);
  const std::uintmax_t stat_size = regular ? std::filesystem::file_size(path, ec) : 0;
  FilterFile file;
  errno = 0;
  if (!read_more(in.value(), file.bytes, HEADER_LEN)) return cannot("read", path);
  if (regular && !ec) {
    file.size = stat_size;
  } else {
    // A pipe or a device: its length is what it holds up to what the header
    // asks for, and one byte more, which is enough to refuse it as too long.
    file.size = file.bytes.size();
    if (const auto want = Bloom::file_size_from_header(file.bytes); want && file.size == HEADER_LEN) {
      if (!read_more(in.value(), file.bytes, want.value() + 1 - HEADER_LEN)) return cannot("read", path);
      file.size = file.bytes.size();
    }
  }
  if (const auto checked = Bloom::check_header(file.bytes, file.size); !checked) {
    file.refused = checked.error();
    return file;
  }
  // The length is right: the rest of the file is the bit array, as long as the header says.
  if (file.bytes.size() < file.size && !read_more(in.value(), file.bytes, file.size - file.bytes.size()))
    return cannot("read", path);
  if (file.bytes.size() != file.size || in->peek() != std::char_traits<char>::eof())
    return failure("cannot read " + path + ": it changed size while being read");
  return file;
}

Outcome<Done> write_file(const std::string& path, std::span<const std::uint8_t> bytes) {
  return write_file(path, bytes, {});
}

namespace {

// Writes all of `bytes` to `fd`; false, with errno set, when it cannot.
bool write_all(int fd, std::span<const std::uint8_t> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
  return true;
}

// Standard output, or a file that is not a regular one (a device, a pipe):
// written in place, since there is nothing to rename over.
Outcome<Done> write_in_place(const std::string& path, std::span<const std::uint8_t> first,
                             std::span<const std::uint8_t> second) {
  errno = 0;
  std::ofstream file;
  std::ostream* out = &std::cout;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) return cannot("open", path);
    out = &file;
  }
  out->write(reinterpret_cast<const char*>(first.data()), static_cast<std::streamsize>(first.size()));
  out->write(reinterpret_cast<const char*>(second.data()), static_cast<std::streamsize>(second.size()));
  out->flush();
  if (!*out) return cannot("write", path);
  return done();
}

}  // namespace

Outcome<Done> write_file(const std::string& path, std::span<const std::uint8_t> first,
                         std::span<const std::uint8_t> second) {
  namespace fs = std::filesystem;
  std::error_code not_there;
  const fs::file_status status = fs::status(path, not_there);  // through symbolic links
  if (path == "-" || (fs::exists(status) && !fs::is_regular_file(status)))
    return write_in_place(path, first, second);
  // A link to a regular file is kept, and its target replaced.
  std::error_code ec;
  const fs::path target = fs::exists(status) ? fs::canonical(path, ec) : fs::path(path);
  if (ec) return cannot("open", path);
  std::string temporary =
      (target.parent_path() / ("." + target.filename().string() + ".tlbf-XXXXXX")).string();
  errno = 0;
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return cannot("open", path);
  // mkstemp makes it 0600: give it the mode of the file it replaces, or what
  // the umask lets through, as open(2) would.
  mode_t mode = static_cast<mode_t>(status.permissions() & fs::perms::mask);
  if (!fs::exists(status)) {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  bool ok = ::fchmod(fd, mode) == 0 && write_all(fd, first) && write_all(fd, second);
  int why = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) ok = false, why = errno;
  if (ok && ::rename(temporary.c_str(), target.c_str()) != 0) ok = false, why = errno;
  if (ok) return done();
  ::unlink(temporary.c_str());
  errno = why;
  return cannot("write", path);
}

Outcome<Done> write_file(const std::string& path, std::string_view text) {
  return write_file(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

Outcome<Input> Input::open(const std::string& path) {
  Input input(path == "-");
  if (input.from_stdin_) return input;
  auto opened = open_for_reading(path);
  if (!opened) return opened.failure();
  input.file_ = std::move(opened.value());
  return input;
}

std::istream& Input::stream() noexcept { return from_stdin_ ? std::cin : file_; }

}  // namespace tlbf::cli
