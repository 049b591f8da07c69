#include "session_pump.hpp"

#include <limits.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace tlbf::mutants {
namespace {

using Clock = std::chrono::steady_clock;

// At most this many bytes wait to be handed on in each direction before
// the side that sends them is read no more: the pipes' own back-pressure.
constexpr std::size_t kWindow = std::size_t{1} << 20;
constexpr std::size_t kChunk = std::size_t{1} << 16;

// One direction of a carried session: what was read, and how much of it was handed on.
struct Flow {
  std::string kept;
  std::size_t handed_on = 0;
  bool source_ended = false;
  bool sink_gone = false;
  std::size_t waiting() const { return kept.size() - handed_on; }
};

// Reads what `fd` has into `flow`; its end (or an error) ends the source.
void read_into(int fd, Flow& flow, std::atomic<long long>& budget, bool& whole) {
  char buffer[kChunk];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) {
    flow.kept.append(buffer, static_cast<std::size_t>(n));
    if ((budget -= n) < 0) whole = false;
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    flow.source_ended = true;
  }
}

// Hands on what waits in `flow` to `fd`, at most `most` bytes.
void write_from(int fd, Flow& flow, std::size_t most) {
  const ssize_t n = ::write(fd, flow.kept.data() + flow.handed_on, std::min(flow.waiting(), most));
  if (n > 0) {
    flow.handed_on += static_cast<std::size_t>(n);
  } else if (n < 0 && errno != EINTR && errno != EAGAIN) {
    flow.sink_gone = true;
  }
}

// Once the copy is no longer whole, only what waits is kept.
void forget_handed_on(Flow& flow) {
  flow.kept.erase(0, flow.handed_on);
  flow.handed_on = 0;
}

}  // namespace

Carried carry(int suite_in, int suite_out, int& to_subject, int from_subject, int stop,
              std::atomic<long long>& budget) {
  Carried out;
  Flow up, down;  // the suite's requests, the subject's answers
  for (;;) {
    if (to_subject >= 0 && (up.sink_gone || (up.source_ended && up.waiting() == 0))) {
      ::close(to_subject);
      to_subject = -1;
      up.source_ended =
          true;  // a subject that reads no more is sent no more, as when it held the pipe itself
    }
    if (down.source_ended && (down.waiting() == 0 || down.sink_gone)) break;
    pollfd fds[5] = {{!up.source_ended && up.waiting() < kWindow ? suite_in : -1, POLLIN, 0},
                     {up.waiting() > 0 ? to_subject : -1, POLLOUT, 0},
                     {!down.source_ended && down.waiting() < kWindow ? from_subject : -1, POLLIN, 0},
                     {down.waiting() > 0 && !down.sink_gone ? suite_out : -1, POLLOUT, 0},
                     {stop, POLLIN, 0}};
    if (::poll(fds, 5, -1) < 0) {
      if (errno == EINTR) continue;
      out.whole = false;
      break;
    }
    if (fds[4].revents != 0) {
      out.whole = false;
      break;
    }
    if (fds[0].revents != 0) read_into(suite_in, up, budget, out.whole);
    if (fds[1].revents != 0) write_from(to_subject, up, kChunk);
    if (fds[2].revents != 0) read_into(from_subject, down, budget, out.whole);
    if (fds[3].revents != 0) write_from(suite_out, down, PIPE_BUF);  // blocking: no more than poll promised
    if (!out.whole) forget_handed_on(up), forget_handed_on(down);
  }
  if (out.whole) out.session = {std::move(up.kept), std::move(down.kept)};
  return out;
}

namespace {

// Whether the answers hold enough past where they part to show the differing line.
bool seen_enough(const std::string& answered, std::size_t parted) {
  if (parted == std::string::npos) return false;
  constexpr std::size_t kMore = 4096;
  return answered.find('\n', parted) != std::string::npos || answered.size() > parted + kMore;
}

}  // namespace

Pumped pump(int& to_subject, int from_subject, const Session& reference, Clock::time_point deadline) {
  Pumped out;
  const std::string& sent = reference.sent;
  std::size_t agreed = 0;                  // bytes of the answers so far that are the reference's
  std::size_t parted = std::string::npos;  // where they part, once they do
  for (;;) {
    if (to_subject >= 0 && out.written == sent.size()) {
      ::close(to_subject);  // the end of its input, as when the suite closes its pipe
      to_subject = -1;
    }
    if (out.ended || seen_enough(out.answered, parted)) break;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      out.timed_out = true;
      break;
    }
    pollfd fds[2] = {{out.written < sent.size() ? to_subject : -1, POLLOUT, 0}, {from_subject, POLLIN, 0}};
    if (::poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000))) < 0 && errno != EINTR) break;
    if (fds[0].revents != 0) {
      const ssize_t n =
          ::write(to_subject, sent.data() + out.written, std::min(sent.size() - out.written, kChunk));
      if (n > 0) out.written += static_cast<std::size_t>(n);
      if (n < 0 && errno != EINTR && errno != EAGAIN) ::close(to_subject), to_subject = -1;
    }
    if (fds[1].revents != 0) {
      char buffer[kChunk];
      const ssize_t n = ::read(from_subject, buffer, sizeof buffer);
      if (n > 0) out.answered.append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) out.ended = true;
      const std::string& expected = reference.answered;
      while (agreed < out.answered.size() && agreed < expected.size() &&
             out.answered[agreed] == expected[agreed])
        ++agreed;
      if (agreed < out.answered.size()) parted = agreed;
    }
  }
  return out;
}

}  // namespace tlbf::mutants
