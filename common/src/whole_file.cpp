#include "tlbf/whole_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace tlbf {
namespace {

Failure cannot(const char* verb, const std::string& path, int error) {
  return failure(std::string("cannot ") + verb + " " + path + ": " + std::strerror(error));
}

// What a file that is not a regular one is, in words, for the refusal.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (a named pipe), not a regular file";
  if (S_ISSOCK(mode)) return "a socket, not a regular file";
  if (S_ISCHR(mode)) return "a character device, not a regular file";
  if (S_ISBLK(mode)) return "a block device, not a regular file";
  return "not a regular file";
}

Failure too_long(const std::string& path, std::size_t limit, std::string_view what) {
  return failure("cannot read " + path + ": longer than " + size_in_words(limit) + ", more than any " +
                 std::string(what) + " could be");
}

// Closes the descriptor however the read ends.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// Opens `path` for reading without blocking; open(2) refuses a socket with
// ENXIO, which says less than naming it.
Outcome<int> open_nonblocking(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd >= 0) return fd;
  const int error = errno;
  struct stat st {};
  if (error == ENXIO && ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return failure("cannot read " + path + ": it is " + kind_of(st.st_mode));
  return cannot("open", path, error);
}

// Reads to the end of `fd`, taking no more than limit + 1 bytes: one past the
// limit is enough to know the file is too long.
Outcome<std::string> read_to_end(int fd, const std::string& path, std::size_t expected, std::size_t limit,
                                 std::string_view what) {
  constexpr std::size_t kFirstChunk = std::size_t{1} << 16;
  std::string bytes(std::min(std::max(expected + 1, kFirstChunk), limit + 1), '\0');
  std::size_t filled = 0;
  for (;;) {
    if (filled == bytes.size()) {
      if (filled > limit) return too_long(path, limit, what);
      bytes.resize(std::min(bytes.size() * 2, limit + 1));
    }
    const ssize_t n = ::read(fd, bytes.data() + filled, bytes.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return cannot("read", path, errno);
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  if (filled > limit) return too_long(path, limit, what);
  bytes.resize(filled);
  return bytes;
}

}  // namespace

std::string size_in_words(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (std::size_t{1} << 10) && bytes % (std::size_t{1} << 10) == 0)
    return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

Outcome<std::string> read_whole_file(const std::string& path, std::size_t limit, std::string_view what) {
  const auto opened = open_nonblocking(path);
  if (!opened.ok()) return opened.failure();
  const Descriptor file{opened.value()};
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) return cannot("read", path, errno);
  if (!S_ISREG(st.st_mode)) return failure("cannot read " + path + ": it is " + kind_of(st.st_mode));
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > limit) return too_long(path, limit, what);
  return read_to_end(file.fd, path, static_cast<std::size_t>(size), limit, what);
}

}  // namespace tlbf
