#include "tlbf/conformance/connection.hpp"

#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kStderrKept = 64 * 1024;

}  // namespace

std::string describe(const Ending& e) {
  if (e.signal != 0) return "was killed by signal " + std::to_string(e.signal);
  std::string out = "exited with status " + std::to_string(e.exit_code);
  // A wrapper shell reports its child's death by signal N as status 128 + N.
  if (e.exit_code > 128 && e.exit_code < 128 + 65) out += " (a shell's report of signal " + std::to_string(e.exit_code - 128) + "?)";
  return out;
}

Connection::Connection(const std::string& command, std::chrono::milliseconds request_timeout, bool pipelined)
    : request_timeout_(request_timeout), pipelined_(pipelined) {
  child_ = Child::start(command);
}

std::vector<std::string> Connection::exchange(const std::vector<std::string>& requests, std::optional<Fault>& fault) {
  std::vector<std::string> responses;
  responses.reserve(requests.size());
  std::size_t sent = 0;       // requests handed to the writer
  std::string out;            // bytes not yet written
  std::size_t written = 0;
  auto last_progress = Clock::now();
  auto queue = [&] {
    // Pipelined: everything. Otherwise: the next request once the last is answered.
    while (sent < requests.size() && (pipelined_ || sent == responses.size())) {
      out += requests[sent++];
      out += '\n';
    }
  };
  queue();
  while (responses.size() < requests.size()) {
    if (written < out.size() && child_->input() < 0) written = out.size();  // its input is closed: nothing more to say
    std::array<pollfd, 3> fds{{{child_->output(), POLLIN, 0},
                               {child_->errors(), POLLIN, 0},
                               {written < out.size() ? child_->input() : -1, POLLOUT, 0}}};
    if (::poll(fds.data(), fds.size(), 50) < 0 && errno != EINTR) {
      fault = Fault{"poll failed"};
      return responses;
    }
    if (fds[2].revents) {
      const ssize_t n = ::write(child_->input(), out.data() + written, std::min<std::size_t>(out.size() - written, 1 << 16));
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 && errno != EAGAIN && errno != EINTR) child_->close_input();  // it stopped reading; an exit follows
    }
    if (fds[1].revents && child_->errors() >= 0) {
      if (!drain(child_->errors(), stderr_)) child_->close_errors();
      if (stderr_.size() > 2 * kStderrKept) stderr_.erase(0, stderr_.size() - kStderrKept);
    }
    bool output_closed = false;
    if (fds[0].revents && child_->output() >= 0) {
      const std::size_t before = partial_.size();
      output_closed = !drain(child_->output(), partial_);
      if (partial_.size() != before) last_progress = Clock::now();
      std::size_t start = 0;
      for (std::size_t nl; (nl = partial_.find('\n', start)) != std::string::npos; start = nl + 1) {
        if (responses.size() == requests.size()) {
          // More lines than requests so far: keep them for the next exchange to see.
          break;
        }
        responses.push_back(partial_.substr(start, nl - start));
      }
      partial_.erase(0, start);
      if (partial_.size() >= protocol::MAX_LINE) {
        fault = Fault{"wrote a line longer than 64 MiB (the protocol's cap); it was not read to its end"};
        return responses;
      }
      queue();
    }
    if (output_closed || (child_->has_exited() && !readable(child_->output()))) {
      if (child_->output() >= 0) drain_rest(child_->output(), partial_);
      if (child_->errors() >= 0) drain_rest(child_->errors(), stderr_);
      // An output closed at exit reaches us a moment before the exit does.
      for (int i = 0; i < 50 && !child_->has_exited(); ++i) ::usleep(2000);
      const bool still_running = !child_->has_exited();
      const Ending e = child_->finish(true);
      fault = Fault{(still_running ? std::string("closed its output while still running") : describe(e)) +
                    " with " + std::to_string(requests.size() - responses.size()) + " requests unanswered" +
                    (partial_.empty() ? "" : "; its last output had no newline: '" + partial_.substr(0, 80) + "'")};
      return responses;
    }
    if (Clock::now() - last_progress > request_timeout_) {
      fault = Fault{"gave no response for " + std::to_string(request_timeout_.count()) +
                    " ms (hung?) and was killed" +
                    (partial_.empty() ? "" : "; its last output had no newline: '" + partial_.substr(0, 80) + "'")};
      return responses;
    }
  }
  return responses;
}

std::string Connection::finish() {
  child_->close_input();
  const auto deadline = Clock::now() + request_timeout_;
  while (!child_->has_exited() && Clock::now() < deadline) {
    std::array<pollfd, 2> fds{{{child_->output(), POLLIN, 0}, {child_->errors(), POLLIN, 0}}};
    ::poll(fds.data(), fds.size(), 20);
    if (fds[0].revents && !drain(child_->output(), partial_)) child_->close_output();
    if (fds[1].revents && !drain(child_->errors(), stderr_)) child_->close_errors();
  }
  const bool exited = child_->has_exited();
  if (child_->output() >= 0) drain_rest(child_->output(), partial_);
  const Ending e = child_->finish(true);
  if (!exited) return "did not exit within " + std::to_string(request_timeout_.count()) + " ms of the end of its input";
  if (!partial_.empty()) return "wrote output that answers no request: '" + partial_.substr(0, 80) + "'";
  if (e.signal != 0 || e.exit_code != 0) return "at the end of its input it " + describe(e) + " (want status 0)";
  return {};
}

bool Connection::readable(int fd) {
  if (fd < 0) return false;
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

}  // namespace tlbf::conformance
