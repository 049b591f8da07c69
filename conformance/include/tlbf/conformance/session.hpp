// The implementation under test, owned. A Session is the only thing in tlbf
// that talks to an implementation: it starts the process, exchanges protocol
// lines with it, turns every way a process can misbehave into a typed Fault,
// restarts it, and keeps it inside the budgets below whatever it does. The
// runner, the model-based sequences, transcript replay and fuzz_diff all use
// it; tests use a fake one (tests/fake_session.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tlbf/conformance/difference.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::conformance {

using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

enum class FaultKind {
  NotStarted,      // no process could be made for it (no pipe, no fork): the machine's limits, not the
                   // implementation's doing
  Hung,            // no answer within the timeout while requests were outstanding
  Exited,          // exited (or its shell did) with requests unanswered
  Killed,          // killed by a signal with requests unanswered
  LineTooLong,     // a response longer than any right answer to its request
  ClosedOutput,    // closed its standard output and kept running
  StoppedReading,  // closed its standard input and stopped answering
  OutOfTime,       // the run's total time budget ran out
};

std::string_view to_string(FaultKind kind);

struct Fault {
  FaultKind kind = FaultKind::Hung;
  std::string detail;  // for people: printable, short, says what was seen

  // Faults that were only found by waiting out a timeout: they cost time, so
  // the runner stops provoking them (docs/check.md, "Budgets").
  bool cost_a_timeout() const;
};

// The rest of a request line too long to hold (one of 64 MiB): `count`
// copies of `byte`, written in pieces after the line's start and never
// held whole, so that the checker's memory stays flat whatever the length.
struct Fill {
  std::size_t count = 0;
  char byte = 'a';
};

// A request and the length past which no right answer to it can go: the
// Session reads no further than that (plus a little), so memory stays bounded
// whatever the implementation writes.
// It refers to its line, not a copy (a request may be 16 MiB): the line must
// outlive the exchange() it is passed to.
struct Request {
  std::string_view line;  // without the "\n"; with a fill, the line's start
  std::size_t answer_limit = kDefaultAnswerLimit;
  // The least time its answer may take before the process is taken for hung,
  // whatever the adaptive timeout (Budget) says: a request that is slow by
  // nature in an implementation that was fast until then.
  std::chrono::milliseconds patience{0};
  Fill fill = {};  // written after `line`, before the "\n"

  static constexpr std::size_t kDefaultAnswerLimit = std::size_t{1} << 20;
};

// The slack allowed beyond an answer's expected length: a real may be written
// with up to about 770 significant digits and still read back as its double.
inline constexpr std::size_t kAnswerSlack = 4096;

struct Answers {
  std::vector<std::string> lines;  // one for each request answered, in order
  std::optional<Fault> fault;      // why it stopped early; the process is gone then
};

enum class Pace { Pipelined, OneAtATime };

// Time limits. A user never needs to touch them (docs/check.md, "Budgets").
struct Budget {
  // Before a Session has seen any answer: how long a process may take to give
  // its first one (an interpreter or a JIT may take seconds).
  Millis first_answer{10'000};
  // Once it has answered, timeouts adapt: `multiplier` times the slowest wait
  // seen so far, never below `floor` nor above `first_answer`.
  Millis floor{3'000};
  int multiplier = 10;
  // The whole run, restarts and all.
  Millis total{60'000};
};

class Session {
 public:
  virtual ~Session() = default;

  // Sends the requests (all before reading, or each after the last is
  // answered) and collects one answer line each. Stops early at a fault; the
  // process is gone then and the next exchange needs restart().
  virtual Answers exchange(std::span<const Request> requests, Pace pace) = 0;
  // Why a process is restarted: after a fault (counted by restarts()), or
  // on purpose, for a fresh start (the random sequences and their replays).
  enum class Why { AfterFault, Fresh };
  // Ends the current process, if any, and starts a fresh one.
  virtual std::optional<Fault> restart(Why why = Why::AfterFault) = 0;
  // Closes the input of the current process; nullopt when it then exited
  // cleanly, else how its end differs from that (a bad exit, output that
  // answers nothing, no exit): a finding about the implementation, so a
  // Difference and not a Failure (difference.hpp).
  virtual std::optional<Difference> finish() = 0;

  virtual bool alive() const = 0;
  virtual int restarts() const = 0;  // after faults only
  // The current process's last lines of stderr, printable.
  virtual std::string stderr_tail() const = 0;
  // How many requests the current process has been sent since it started.
  // Not the requests themselves: a caller that wants to replay a process's
  // life keeps what it sent (a copy here would cost every 16 MiB request).
  virtual std::size_t requests_sent() const = 0;
  // True when the run's total time budget has run out.
  virtual bool out_of_time() const = 0;

  // Convenience for a single request; "" and a fault when it got no answer.
  std::pair<std::string, std::optional<Fault>> ask(const std::string& line,
                                                   std::size_t limit = Request::kDefaultAnswerLimit);
};

// How each process of a Session is started.
struct Launch {
  // In a PID namespace of its own, through bubblewrap (`tlbf check
  // --sandbox`): when the implementation's first process ends, the kernel
  // ends every process of the namespace, so nothing it started can outlive
  // it, however it daemonizes and whatever becomes of tlbf.
  bool own_pid_namespace = false;
};

// The real Session: `/bin/sh -c command`, started at once. A command that
// cannot be started gives a Session whose every exchange is a NotStarted fault.
std::unique_ptr<Session> start_session(const std::string& command, const Budget& budget,
                                       const Launch& launch = {});

// `command` as a shell line that runs it in a PID namespace of its own
// (bubblewrap; a user namespace too when not root), seeing the same files.
std::string in_own_pid_namespace(const std::string& command);
// Whether in_own_pid_namespace's lines can run here; the Failure says why not.
tlbf::Outcome<tlbf::Done> own_pid_namespaces_available();

}  // namespace tlbf::conformance
