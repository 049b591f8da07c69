#include "tlbf/conformance/session.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <utility>

#include "tlbf/conformance/child.hpp"
#include "tlbf/conformance/run_with_input.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/shell_quote.hpp"

namespace tlbf::conformance {
namespace {

constexpr std::size_t kStderrKept = 64 * 1024;
constexpr std::size_t kChunk = 64 * 1024;
// At most this much is written at once: the size of a request pipe (process.cpp).
constexpr std::size_t kWriteChunk = 1024 * 1024;

// "exited with status 3", "was killed by signal 9", ...
std::string ending_text(const Ending& e) {
  if (e.signal != 0) return "was killed by signal " + std::to_string(e.signal);
  std::string out = "exited with status " + std::to_string(e.exit_code);
  // A wrapper shell reports its child's death by signal N as status 128 + N.
  if (e.exit_code > 128 && e.exit_code < 128 + 65)
    out += " (a shell's report of signal " + std::to_string(e.exit_code - 128) + "?)";
  return out;
}

std::string ms_text(Millis ms) { return std::to_string(ms.count()) + " ms"; }

class ChildSession final : public Session {
 public:
  ChildSession(std::string command, const Budget& budget, const Launch& how)
      : command_(how.own_pid_namespace ? in_own_pid_namespace(command) : std::move(command)),
        budget_(budget),
        deadline_(Clock::now() + budget.total) {
    launch();
  }

  Answers exchange(std::span<const Request> requests, Pace pace) override;
  std::optional<Fault> restart(Why why) override;
  std::optional<Difference> finish() override;
  bool alive() const override { return child_ != nullptr; }
  int restarts() const override { return restarts_; }
  std::string stderr_tail() const override { return readable_lines(last_lines(stderr_, 10)); }
  std::size_t requests_sent() const override { return requests_sent_; }
  bool out_of_time() const override { return Clock::now() >= deadline_; }

 private:
  void launch();
  Millis timeout_now() const;
  void learn(Millis waited, bool first_answer);
  Fault end_with(FaultKind kind, std::string detail);
  std::string unterminated_tail() const;
  void take_lines(std::vector<std::string>& lines, std::size_t wanted);

  // The parts of exchange().
  struct Outbox;
  void queue(Outbox& box, std::size_t answered);
  void write_some(Outbox& box, Clock::time_point& waiting_since);
  void read_errors(std::span<char> buffer);
  std::optional<Fault> read_answers(std::span<const Request> requests, std::vector<std::string>& lines,
                                    std::span<char> buffer, Clock::time_point& waiting_since,
                                    bool& output_closed);
  std::optional<Fault> after_the_end(std::span<const Request> requests, std::vector<std::string>& lines,
                                     std::span<char> buffer, bool output_closed);
  Fault timed_out(Millis limit);

  std::string command_;
  Budget budget_;
  Clock::time_point deadline_;
  std::unique_ptr<Child> child_;
  std::string launch_error_;  // why the last launch() made no child
  int restarts_ = 0;

  // Of the current process.
  Clock::time_point started_at_{};
  bool answered_ = false;      // has it written anything on stdout yet?
  bool input_broken_ = false;  // a write failed: it closed its input
  std::string partial_;        // output read but not yet a whole line (or lines ahead of the requests)
  std::size_t scanned_ = 0;    // the start of partial_ known to hold no newline
  std::string stderr_;
  std::size_t requests_sent_ = 0;

  // Of the whole Session: what it has learned of the implementation's speed.
  bool ever_answered_ = false;
  Millis slowest_first_{0};
  Millis slowest_gap_{0};
};

void ChildSession::launch() {
  auto started = Child::start(command_);
  launch_error_ = started ? std::string() : started.why();
  child_ = started ? std::move(started.value()) : nullptr;
  started_at_ = Clock::now();
  answered_ = false;
  input_broken_ = false;
  partial_.clear();
  scanned_ = 0;
  stderr_.clear();
  requests_sent_ = 0;
}

// Before anything is known, first_answer; then ten times the slowest wait
// seen, clamped. A process not yet heard from is judged by the slowest first
// answer, since starting an interpreter is slower than answering.
Millis ChildSession::timeout_now() const {
  if (!ever_answered_) return budget_.first_answer;
  const Millis seen = answered_ ? slowest_gap_ : slowest_first_;
  return std::clamp(seen * budget_.multiplier, budget_.floor, std::max(budget_.floor, budget_.first_answer));
}

void ChildSession::learn(Millis waited, bool first_answer) {
  Millis& slowest = first_answer ? slowest_first_ : slowest_gap_;
  slowest = std::max(slowest, waited);
  ever_answered_ = true;
}

// Moves whole lines from the front of partial_ to `lines`, up to `wanted`.
// Each byte is searched once, however long a line grows across reads.
void ChildSession::take_lines(std::vector<std::string>& lines, std::size_t wanted) {
  std::size_t start = 0;
  while (lines.size() < wanted) {
    const std::size_t nl = partial_.find('\n', std::max(start, scanned_));
    if (nl == std::string::npos) break;
    lines.push_back(partial_.substr(start, nl - start));
    start = nl + 1;
    scanned_ = 0;
  }
  partial_.erase(0, start);
  if (lines.size() < wanted) scanned_ = partial_.size();
}

std::string ChildSession::unterminated_tail() const {
  return partial_.empty() ? "" : "; its last output had no newline: " + readable(partial_, 80);
}

Fault ChildSession::end_with(FaultKind kind, std::string detail) {
  if (child_) child_->finish(true);
  child_.reset();
  return Fault{kind, std::move(detail)};
}

// What waits to be written to the process, in order: `out` from `written` on,
// short requests copied together; then `long_line`, a request of kWriteChunk
// bytes or more (or one with a fill), written from where it is (a copy of
// 16 MiB costs 4096 page faults); then `fill_left` bytes of its fill, written
// again and again from `fill_block`, so a line of 64 MiB costs 1 MiB here;
// and then its "\n", which starts `out` again.
struct ChildSession::Outbox {
  std::span<const Request> requests;
  Pace pace;
  std::size_t sent = 0;  // requests handed to the writer
  std::string out;
  std::size_t written = 0;
  std::string_view long_line;
  std::size_t fill_left = 0;
  std::string fill_block;

  Outbox(std::span<const Request> r, Pace p) : requests(r), pace(p) {}
  bool unwritten() const { return written < out.size() || !long_line.empty() || fill_left > 0; }
  bool writing_long() const { return !long_line.empty() || fill_left > 0; }
  void drop() { written = out.size(), long_line = {}, fill_left = 0; }
  void start_long(const Request& r) {
    long_line = r.line;
    fill_left = r.fill.count;
    if (fill_left > 0) fill_block.assign(std::min(fill_left, kWriteChunk), r.fill.byte);
  }
  std::string_view next() const {
    if (written < out.size()) return std::string_view(out).substr(written);
    if (!long_line.empty()) return long_line;
    return std::string_view(fill_block).substr(0, std::min(fill_left, fill_block.size()));
  }
  void wrote(std::size_t n) {
    if (written < out.size()) {
      written += n;
      return;
    }
    if (!long_line.empty()) {
      long_line.remove_prefix(n);
    } else {
      fill_left -= n;
    }
    if (!writing_long()) out.assign("\n"), written = 0;
  }
};

// Moves requests into the outbox as far as the pace allows.
void ChildSession::queue(Outbox& box, std::size_t answered) {
  while (box.sent < box.requests.size() && (box.pace == Pace::Pipelined || box.sent == answered)) {
    if (box.writing_long()) break;
    // Keep what is waiting to be written small: the rest waits in `requests`.
    if (!box.out.empty() && box.out.size() - box.written > (std::size_t{1} << 20)) break;
    if (box.written == box.out.size()) box.out.clear(), box.written = 0;
    const Request& request = box.requests[box.sent++];
    ++requests_sent_;
    if (request.line.size() >= kWriteChunk || request.fill.count > 0) {
      box.start_long(request);
      break;
    }
    box.out += request.line;
    box.out += '\n';
  }
}

void ChildSession::write_some(Outbox& box, Clock::time_point& waiting_since) {
  const std::string_view next = box.next();
  const ssize_t n = ::write(child_->input(), next.data(), std::min(next.size(), kWriteChunk));
  if (n > 0) {
    box.wrote(static_cast<std::size_t>(n));
    // It is reading what it is sent: working, not hung. A slow reader
    // of a 16 MiB request is timed from its last read, not its last answer.
    waiting_since = Clock::now();
  }
  if (n < 0 && errno != EAGAIN && errno != EINTR) {
    child_->close_input();  // it stopped reading; an exit, or a StoppedReading fault, follows
    input_broken_ = true;
  }
}

void ChildSession::read_errors(std::span<char> buffer) {
  // Only the tail is kept: stderr is for anything, a flood included.
  for (int rounds = 0; rounds < 16; ++rounds) {
    const ssize_t n = ::read(child_->errors(), buffer.data(), buffer.size());
    if (n > 0) {
      stderr_.append(buffer.data(), static_cast<std::size_t>(n));
      if (stderr_.size() > 2 * kStderrKept) stderr_.erase(0, stderr_.size() - kStderrKept);
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EINTR)) child_->close_errors();
    break;
  }
}

// Reads in chunks, cutting lines as they come, so that an answer longer than
// its limit is refused after at most one chunk more. Sets `output_closed` at
// the end of the output.
std::optional<Fault> ChildSession::read_answers(std::span<const Request> requests,
                                                std::vector<std::string>& lines, std::span<char> buffer,
                                                Clock::time_point& waiting_since, bool& output_closed) {
  for (int rounds = 0; rounds < 16 && lines.size() < requests.size(); ++rounds) {
    const ssize_t n = ::read(child_->output(), buffer.data(), buffer.size());
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
      output_closed = true;
      break;
    }
    if (n < 0) break;
    const auto arrived = Clock::now();
    learn(std::chrono::duration_cast<Millis>(arrived - (answered_ ? waiting_since : started_at_)),
          !answered_);
    answered_ = true;
    waiting_since = arrived;
    partial_.append(buffer.data(), static_cast<std::size_t>(n));
    take_lines(lines, requests.size());
    if (lines.size() < requests.size()) {
      const std::size_t limit = requests[lines.size()].answer_limit;
      if (partial_.size() > limit) {
        return end_with(FaultKind::LineTooLong,
                        "answered " + readable(requests[lines.size()].line, 60) +
                            " with a line of more than " + std::to_string(limit) +
                            " bytes, longer than any right answer to it; it was not read further (starts " +
                            readable(partial_, 60) + ")");
      }
    }
  }
  return std::nullopt;
}

// The output ended or the process exited: takes the whole lines it wrote
// before the end, and says why the answers stop short, if they do.
std::optional<Fault> ChildSession::after_the_end(std::span<const Request> requests,
                                                 std::vector<std::string>& lines, std::span<char> buffer,
                                                 bool output_closed) {
  // Whatever it wrote before the end is in the pipe: take the whole lines.
  if (child_->output() >= 0 && !output_closed) {
    // Bounded: a grandchild may hold the pipe and go on writing.
    for (std::size_t taken = 0; taken < (std::size_t{64} << 20);) {
      const ssize_t n = ::read(child_->output(), buffer.data(), buffer.size());
      if (n <= 0) break;
      partial_.append(buffer.data(), static_cast<std::size_t>(n));
      taken += static_cast<std::size_t>(n);
      take_lines(lines, requests.size());
      if (lines.size() == requests.size()) break;
    }
    if (lines.size() == requests.size()) return std::nullopt;
  }
  if (!child_->has_exited()) {
    // An output closed at exit reaches us a moment before the exit does.
    for (int i = 0; i < 50 && !child_->has_exited(); ++i) ::usleep(2000);
  }
  const std::size_t unanswered = requests.size() - lines.size();
  const std::string count =
      " with " + std::to_string(unanswered) + " request" + (unanswered == 1 ? "" : "s") + " unanswered";
  if (!child_->has_exited()) {
    return end_with(FaultKind::ClosedOutput,
                    "closed its standard output while still running" + count + unterminated_tail());
  }
  const Ending e = child_->finish(true);
  const std::string tail = unterminated_tail();
  child_.reset();
  return Fault{e.signal != 0 ? FaultKind::Killed : FaultKind::Exited, ending_text(e) + count + tail};
}

// No answer for `limit` with requests outstanding: a hang, or a process that
// stopped reading, with the likeliest cause when it can be guessed.
Fault ChildSession::timed_out(Millis limit) {
  std::string detail;
  FaultKind kind = FaultKind::Hung;
  if (input_broken_) {
    kind = FaultKind::StoppedReading;
    detail = "closed its standard input, kept running and gave no answer for " + ms_text(limit);
  } else {
    detail = "gave no answer for " + ms_text(limit) + " (hung?) and was killed";
  }
  if (!ever_answered_) {
    // Nothing from any process yet: the likeliest cause is output held in a buffer.
    detail +=
        "; it wrote nothing at all on its standard output: does it flush its output after each answer, "
        "or at least before it waits for more input (docs/protocol.md, section 1)?";
  } else if (kind == FaultKind::Hung) {
    // It has answered before: one that flushes only every few answers
    // stalls as soon as it waits for a request with answers unflushed.
    detail +=
        "; if it flushes its output only now and then, flush after each answer, or at least before "
        "it waits for more input (docs/protocol.md, section 1)";
  }
  detail += unterminated_tail();
  return end_with(kind, detail);
}

// The most patience any request sent and not yet answered asks for: an
// implementation that writes its answers only when its input runs dry holds
// those before a slow request back until it has answered that one too.
Millis patience_in_flight(std::span<const Request> requests, std::size_t answered, std::size_t sent) {
  Millis most{0};
  for (std::size_t i = answered; i < sent && i < requests.size(); ++i)
    most = std::max(most, requests[i].patience);
  return most;
}

Answers ChildSession::exchange(std::span<const Request> requests, Pace pace) {
  Answers result;
  if (!child_) {
    result.fault = Fault{FaultKind::NotStarted, "could not be started (" + launch_error_ + ")"};
    return result;
  }
  result.lines.reserve(requests.size());
  Outbox box{requests, pace};
  // When the implementation last showed it was working on what it was sent.
  auto waiting_since = Clock::now();
  queue(box, result.lines.size());
  take_lines(result.lines, requests.size());  // lines ahead of the requests, from the last exchange
  std::array<char, kChunk> buffer{};
  while (result.lines.size() < requests.size()) {
    const auto now = Clock::now();
    if (now >= deadline_) {
      result.fault = end_with(FaultKind::OutOfTime, "the time budget of " + ms_text(budget_.total) +
                                                        " for the whole run ran out while it was answering");
      return result;
    }
    if (box.unwritten() && child_->input() < 0) box.drop();  // its input is closed: nothing more to say
    std::array<pollfd, 3> fds{{{child_->output(), POLLIN, 0},
                               {child_->errors(), POLLIN, 0},
                               {box.unwritten() ? child_->input() : -1, POLLOUT, 0}}};
    if (::poll(fds.data(), fds.size(), 50) < 0 && errno != EINTR) {
      result.fault = end_with(FaultKind::Hung, "poll failed");
      return result;
    }
    if (fds[2].revents) {
      write_some(box, waiting_since);
      queue(box, result.lines.size());
    }
    if (fds[1].revents && child_->errors() >= 0) read_errors(buffer);
    bool output_closed = false;
    if (fds[0].revents && child_->output() >= 0) {
      result.fault = read_answers(requests, result.lines, buffer, waiting_since, output_closed);
      if (result.fault) return result;
      queue(box, result.lines.size());
    }
    if (output_closed || (child_->output() < 0) || child_->has_exited()) {
      result.fault = after_the_end(requests, result.lines, buffer, output_closed);
      return result;
    }
    const Millis limit = std::max(timeout_now(), patience_in_flight(requests, result.lines.size(), box.sent));
    if (Clock::now() - waiting_since > limit) {
      result.fault = timed_out(limit);
      return result;
    }
  }
  return result;
}

std::optional<Fault> ChildSession::restart(Why why) {
  if (child_) child_->finish(true);
  if (why == Why::AfterFault) ++restarts_;
  launch();
  if (!child_) return Fault{FaultKind::NotStarted, "could not be restarted (" + launch_error_ + ")"};
  return std::nullopt;
}

std::optional<Difference> ChildSession::finish() {
  if (!child_) return std::nullopt;  // it is gone already, and that was reported as a fault
  child_->close_input();
  const Millis limit = ever_answered_ ? timeout_now() : budget_.first_answer;
  const auto deadline = std::min(Clock::now() + limit, deadline_);
  std::array<char, kChunk> buffer{};
  while (!child_->has_exited() && Clock::now() < deadline) {
    std::array<pollfd, 2> fds{{{child_->output(), POLLIN, 0}, {child_->errors(), POLLIN, 0}}};
    // Its outputs close a moment before its exit can be seen: with both
    // closed there is nothing to wake the poll, so look again soon.
    const bool outputs_open = child_->output() >= 0 || child_->errors() >= 0;
    ::poll(fds.data(), fds.size(), outputs_open ? 20 : 1);
    if (fds[0].revents && child_->output() >= 0) {
      const ssize_t n = ::read(child_->output(), buffer.data(), buffer.size());
      if (n > 0) {
        // Output after the last answer: a little of it is kept, to show.
        if (partial_.size() < 4096) partial_.append(buffer.data(), static_cast<std::size_t>(n));
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        child_->close_output();
      }
    }
    if (fds[1].revents && child_->errors() >= 0) {
      const ssize_t n = ::read(child_->errors(), buffer.data(), buffer.size());
      if (n <= 0 && (n == 0 || (errno != EAGAIN && errno != EINTR))) child_->close_errors();
    }
  }
  const bool exited = child_->has_exited();
  if (exited && child_->output() >= 0) {
    const ssize_t n = ::read(child_->output(), buffer.data(), buffer.size());
    if (n > 0) partial_.append(buffer.data(), static_cast<std::size_t>(n));
  }
  const Ending e = child_->finish(true);
  child_.reset();
  if (!exited) return Difference{"did not exit within " + ms_text(limit) + " of the end of its input"};
  if (!partial_.empty()) return Difference{"wrote output that answers no request: " + readable(partial_, 80)};
  if (e.signal != 0 || e.exit_code != 0)
    return Difference{"at the end of its input it " + ending_text(e) + " (want status 0)"};
  return std::nullopt;
}

}  // namespace

std::string_view to_string(FaultKind kind) {
  switch (kind) {
    case FaultKind::NotStarted:
      return "not started";
    case FaultKind::Hung:
      return "hung";
    case FaultKind::Exited:
      return "exited";
    case FaultKind::Killed:
      return "killed by a signal";
    case FaultKind::LineTooLong:
      return "line too long";
    case FaultKind::ClosedOutput:
      return "closed its output";
    case FaultKind::StoppedReading:
      return "stopped reading";
    case FaultKind::OutOfTime:
      return "out of time";
  }
  return "?";
}

bool Fault::cost_a_timeout() const {
  return kind == FaultKind::Hung || kind == FaultKind::StoppedReading || kind == FaultKind::OutOfTime;
}

std::pair<std::string, std::optional<Fault>> Session::ask(const std::string& line, std::size_t limit) {
  const Request request{line, limit};
  Answers a = exchange(std::span(&request, 1), Pace::OneAtATime);
  return {a.lines.empty() ? std::string() : std::move(a.lines[0]), std::move(a.fault)};
}

std::unique_ptr<Session> start_session(const std::string& command, const Budget& budget,
                                       const Launch& launch) {
  return std::make_unique<ChildSession>(command, budget, launch);
}

std::string in_own_pid_namespace(const std::string& command) {
  // The same files (--dev-bind / /), a /proc of the namespace's own, a
  // session of its own; --die-with-parent ends the namespace when bwrap,
  // the Child, is killed. As root no user namespace is needed, and one would
  // take root's power over files it does not own.
  return std::string("exec bwrap ") + (::getuid() == 0 ? "" : "--unshare-user ") +
         "--unshare-pid --die-with-parent --new-session --dev-bind / / --proc /proc -- /bin/sh -c " +
         shell_quote(command);
}

tlbf::Outcome<tlbf::Done> own_pid_namespaces_available() {
  const RunResult probe = run_with_input(in_own_pid_namespace("exit 0"), "", std::chrono::seconds(30));
  if (probe.exited_cleanly()) return tlbf::done();
  return tlbf::failure(!probe.started ? "bwrap cannot be started (" + probe.start_error + ")"
                                      : "bwrap cannot make a PID namespace here (" + probe.how_it_ended() +
                                            ": " + last_lines(probe.out + probe.err, 2) +
                                            "); install Debian's bubblewrap and allow user namespaces");
}

}  // namespace tlbf::conformance
