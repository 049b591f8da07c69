// run_with_input: a Child given its input and read to its end or its time
// limit, whichever comes first, keeping a bounded part of its output.
#include "tlbf/conformance/run_with_input.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <memory>
#include <utility>

#include "tlbf/conformance/child.hpp"

namespace tlbf::conformance {
namespace {

using Clock = std::chrono::steady_clock;

// A stream's text, bounded: its first `half` bytes and its last `half`,
// with a line saying how much of the middle was not kept. A suite may write
// gigabytes; what a report needs is its start and its end.
class Kept {
 public:
  explicit Kept(std::size_t half) : half_(half) {}

  void append(const char* bytes, std::size_t n) {
    const std::size_t to_head = std::min(n, half_ - std::min(half_, head_.size()));
    head_.append(bytes, to_head);
    if (to_head == n) return;
    tail_.append(bytes + to_head, n - to_head);
    if (tail_.size() > 2 * half_) {
      dropped_ += tail_.size() - half_;
      tail_.erase(0, tail_.size() - half_);
    }
  }

  std::string text() const {
    if (dropped_ == 0) return head_ + tail_;
    return head_ + "\n[... " + std::to_string(dropped_) + " bytes of output not kept ...]\n" + tail_;
  }

 private:
  std::size_t half_;
  std::string head_, tail_;
  std::size_t dropped_ = 0;
};

// Appends what is available on a non-blocking fd, up to 1 MiB a call; false
// at end of file or error.
bool drain(int fd, Kept& into) {
  char buf[1 << 16];
  // At most 1 MiB a call, so that a writer faster than us cannot keep us
  // here without bound before the caller checks the time.
  for (std::size_t taken = 0; taken < (1U << 20);) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      into.append(buf, static_cast<std::size_t>(n));
      taken += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    return false;
  }
  return true;
}

// All that is left on an fd whose writer has exited. Bounded too: a
// grandchild may hold the pipe and go on writing.
void drain_rest(int fd, Kept& into) {
  for (int round = 0; round < 64; ++round) {
    if (!drain(fd, into)) return;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return;
  }
}

}  // namespace

std::string last_lines(const std::string& text, std::size_t count) {
  std::size_t at = text.size();
  if (at > 0 && text[at - 1] == '\n') --at;  // the final newline ends the last line
  for (std::size_t seen = 0; at > 0; --at) {
    if (text[at - 1] == '\n' && ++seen == count) break;
  }
  return text.substr(at);
}

std::string RunResult::how_it_ended() const {
  if (!started) return "could not be started" + (start_error.empty() ? "" : " (" + start_error + ")");
  if (timed_out) return "timed out and was killed";
  if (signal != 0) return "killed by signal " + std::to_string(signal);
  return "exit " + std::to_string(exit_code);
}

RunResult run_with_input(const std::string& command, const std::string& input,
                         std::chrono::milliseconds limit, std::size_t keep) {
  RunResult result;
  Kept out(keep / 2), err(keep / 2);
  auto started = Child::start(command, input.empty() ? Child::Input::None : Child::Input::Pipe);
  if (!started) {
    result.start_error = started.why();
    return result;
  }
  const std::unique_ptr<Child> child = std::move(started.value());
  result.started = true;
  const auto deadline = Clock::now() + limit;
  std::size_t written = 0;

  while (!child->has_exited()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    std::array<pollfd, 3> fds{
        {{child->output(), POLLIN, 0}, {child->errors(), POLLIN, 0}, {child->input(), POLLOUT, 0}}};
    // With both outputs closed there is nothing to wait on but the exit.
    const bool outputs_open = child->output() >= 0 || child->errors() >= 0;
    const long long wait_ms = outputs_open ? std::min<long long>(left.count(), 50) : 1;
    if (::poll(fds.data(), fds.size(), static_cast<int>(wait_ms)) < 0 && errno != EINTR) break;
    if (fds[0].revents && !drain(child->output(), out)) child->close_output();
    if (fds[1].revents && !drain(child->errors(), err)) child->close_errors();
    if (child->input() >= 0 && fds[2].revents) {
      const ssize_t n = ::write(child->input(), input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) child->close_input();
    }
  }
  // What the child wrote before it exited is in the pipes now; a grandchild
  // that kept them open gets no more time.
  if (child->output() >= 0) drain_rest(child->output(), out);
  if (child->errors() >= 0) drain_rest(child->errors(), err);
  result.out = out.text();
  result.err = err.text();
  const Ending ending = child->finish(true);
  if (!result.timed_out) {
    result.exit_code = ending.exit_code;
    result.signal = ending.signal;
  }
  result.max_rss_kib = ending.max_rss_kib;
  return result;
}

}  // namespace tlbf::conformance
