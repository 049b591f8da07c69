#include "tlbf/protocol/serve.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

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

// A request line gathered whole. malloc and realloc, not a std::string: glibc
// moves a large block by remapping its pages, so a 16 MiB line is neither
// copied each time the buffer doubles nor zero-filled as it grows.
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
  void clear() { size_ = 0; }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

// Gathers each line whole for a handler that wants it so.
class WholeLines final : public LineHandler {
 public:
  explicit WholeLines(const std::function<std::string(std::string_view)>& handle) : handle_(handle) {}
  void add(std::string_view piece) override {
    if (!line_.make_room(piece.size())) {
      out_of_memory_ = true;  // answered below; the pieces of this line are dropped
      return;
    }
    std::memcpy(line_.end(), piece.data(), piece.size());
    line_.extend(piece.size());
  }
  std::string finish() override {
    std::string answer =
        out_of_memory_ ? "err Protocol out of memory for this request line" : handle_(line_.view());
    abandon();
    return answer;
  }
  void abandon() override {
    line_.clear();
    out_of_memory_ = false;
  }

 private:
  const std::function<std::string(std::string_view)>& handle_;
  InputBuffer line_;
  bool out_of_memory_ = false;
};

Outcome<Done> read_some(int fd, char* into, std::size_t size, std::size_t& got) {
  ssize_t n;
  do {
    n = ::read(fd, into, size);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return failure(std::string("cannot read requests: ") + std::strerror(errno));
  got = static_cast<std::size_t>(n);
  return done();
}

}  // namespace

Outcome<Done> serve_lines(int in_fd, int out_fd, LineHandler& handler) {
  constexpr std::size_t kChunk = 1 << 16;
  std::vector<char> chunk(kChunk);
  std::string output;         // responses not yet written
  std::size_t line_size = 0;  // bytes of the current line so far, before its "\n"
  bool discarding = false;    // inside an overlong line, dropping bytes up to its "\n"

  auto respond = [&] {
    output += discarding ? "err Protocol request line longer than 64 MiB" : handler.finish();
    output += '\n';
    discarding = false;
    line_size = 0;
  };

  for (;;) {
    if (auto flushed = write_all(out_fd, output); !flushed) return flushed;  // about to wait: flush first
    std::size_t n = 0;
    if (auto read = read_some(in_fd, chunk.data(), kChunk, n); !read) return read;
    if (n == 0) break;
    for (std::string_view rest(chunk.data(), n); !rest.empty();) {
      const std::size_t nl = rest.find('\n');
      const std::string_view piece = rest.substr(0, nl);
      if (!discarding && line_size + piece.size() >= MAX_LINE) {  // no "\n" within the limit
        handler.abandon();
        discarding = true;
      }
      if (!discarding) handler.add(piece);
      line_size += piece.size();
      if (nl == std::string_view::npos) break;
      respond();
      rest.remove_prefix(nl + 1);
    }
  }
  if (line_size != 0 || discarding) respond();  // a last line without "\n"
  return write_all(out_fd, output);
}

Outcome<Done> serve_lines(int in_fd, int out_fd, const std::function<std::string(std::string_view)>& handle) {
  WholeLines lines(handle);
  return serve_lines(in_fd, out_fd, lines);
}

}  // namespace tlbf::protocol
