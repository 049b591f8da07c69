#include "tlbf/protocol/serve.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "tlbf/protocol/values.hpp"

namespace tlbf::protocol {
namespace {

bool write_all(int fd, std::string& pending) {
  std::size_t done = 0;
  while (done < pending.size()) {
    const ssize_t n = ::write(fd, pending.data() + done, pending.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::cerr << "tlbf serve: cannot write responses: " << std::strerror(errno) << "\n";
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  pending.clear();
  return true;
}

}  // namespace

int serve_lines(int in_fd, int out_fd, const std::function<std::string(std::string_view)>& handle) {
  constexpr std::size_t kChunk = 1 << 16;
  std::string input;      // bytes read but not yet answered
  std::string output;     // responses not yet written
  std::size_t scanned = 0;  // input[0, scanned) holds no "\n"
  bool discarding = false;  // inside an overlong line, dropping bytes up to its "\n"

  auto respond = [&](std::string_view request) {
    output += discarding ? "err Protocol request line longer than 64 MiB" : handle(request);
    output += '\n';
    discarding = false;
  };

  for (;;) {
    if (!write_all(out_fd, output)) return 3;  // about to wait: flush first
    const std::size_t old_size = input.size();
    input.resize(old_size + kChunk);
    ssize_t n;
    do {
      n = ::read(in_fd, input.data() + old_size, kChunk);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      std::cerr << "tlbf serve: cannot read requests: " << std::strerror(errno) << "\n";
      return 3;
    }
    input.resize(old_size + static_cast<std::size_t>(n));
    if (n == 0) break;

    std::size_t start = 0;
    for (std::size_t nl; (nl = input.find('\n', scanned)) != std::string::npos; scanned = start) {
      respond(std::string_view(input).substr(start, nl - start));
      start = nl + 1;
    }
    input.erase(0, start);
    scanned = input.size();
    if (input.size() >= MAX_LINE) {  // no "\n" within the limit: drop what we have
      discarding = true;
      input.clear();
      scanned = 0;
    }
  }
  if (!input.empty() || discarding) respond(input);  // a last line without "\n"
  return write_all(out_fd, output) ? 0 : 3;
}

}  // namespace tlbf::protocol
