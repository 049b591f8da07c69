#include "tlbf/protocol/serve.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "tlbf/protocol/values.hpp"

namespace tlbf::protocol {
namespace {

Outcome<Done> write_all(int fd, std::string& pending) {
  std::size_t written = 0;
  while (written < pending.size()) {
    const ssize_t n = ::write(fd, pending.data() + written, pending.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failure(std::string("cannot write responses: ") + std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
  pending.clear();
  return done();
}

// Bytes read but not yet answered. malloc and realloc, not a std::string: glibc
// moves a large block by remapping its pages, so a 16 MiB line is neither
// copied each time the buffer doubles nor zero-filled before each read.
class InputBuffer {
 public:
  InputBuffer() = default;
  InputBuffer(const InputBuffer&) = delete;
  InputBuffer& operator=(const InputBuffer&) = delete;
  ~InputBuffer() { std::free(data_); }

  std::string_view view() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  // Room for at least `n` more bytes after the end; false when out of memory.
  bool make_room(std::size_t n) {
    if (capacity_ - size_ >= n) return true;
    const std::size_t wanted = std::max(size_ + n, capacity_ * 2);
    char* grown = static_cast<char*>(std::realloc(data_, wanted));
    if (!grown) return false;
    data_ = grown;
    capacity_ = wanted;
    return true;
  }
  char* end() { return data_ + size_; }
  void extend(std::size_t n) { size_ += n; }
  void drop_front(std::size_t n) {
    std::memmove(data_, data_ + n, size_ - n);
    size_ -= n;
  }
  void clear() { size_ = 0; }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace

Outcome<Done> serve_lines(int in_fd, int out_fd, const std::function<std::string(std::string_view)>& handle) {
  constexpr std::size_t kChunk = 1 << 16;
  InputBuffer input;
  std::string output;       // responses not yet written
  std::size_t scanned = 0;  // input[0, scanned) holds no "\n"
  bool discarding = false;  // inside an overlong line, dropping bytes up to its "\n"

  auto respond = [&](std::string_view request) {
    output += discarding ? "err Protocol request line longer than 64 MiB" : handle(request);
    output += '\n';
    discarding = false;
  };

  for (;;) {
    if (auto flushed = write_all(out_fd, output); !flushed) return flushed;  // about to wait: flush first
    if (!input.make_room(kChunk)) return failure("out of memory for a request line");
    ssize_t n;
    do {
      n = ::read(in_fd, input.end(), kChunk);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return failure(std::string("cannot read requests: ") + std::strerror(errno));
    if (n == 0) break;
    input.extend(static_cast<std::size_t>(n));

    const std::string_view text = input.view();
    std::size_t start = 0;
    for (std::size_t nl; (nl = text.find('\n', scanned)) != std::string_view::npos; scanned = start) {
      respond(text.substr(start, nl - start));
      start = nl + 1;
    }
    input.drop_front(start);
    scanned = input.size();
    if (input.size() >= MAX_LINE) {  // no "\n" within the limit: drop what we have
      discarding = true;
      input.clear();
      scanned = 0;
    }
  }
  if (input.size() != 0 || discarding) respond(input.view());  // a last line without "\n"
  return write_all(out_fd, output);
}

}  // namespace tlbf::protocol
