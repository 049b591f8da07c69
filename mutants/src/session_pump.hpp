// The two loops that stand between a suite's session and a served process
// when tlbf records a clean run or replays it against another subject
// (hidden.cpp; docs/mutants.md, "The transcript is the lever"). Ordinary
// runs have neither: the served process reads the suite's pipes itself.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>

#include "tlbf/mutants/transcript.hpp"

namespace tlbf::mutants {

// What a recorded session kept: its bytes, whole unless the recording's
// budget ran out or it was stopped before its end.
struct Carried {
  Session session;
  bool whole = true;
};

// Carries the suite's requests from `suite_in` to `to_subject` and the
// answers from `from_subject` to `suite_out`, keeping a copy of both, until
// the subject's output has ended and has been handed on (or the suite can
// take no more), or until `stop` is readable. `to_subject` and
// `from_subject` are this process's own pipe ends, non-blocking;
// `to_subject` is closed here once the suite's input has ended and been
// handed on. The suite's two are left blocking (their open file may be
// shared with the suite) and written at most PIPE_BUF bytes after poll says
// they can be. Every byte kept is taken from `budget`; once it is spent the
// copy is no longer whole, and only what is still to be handed on is kept.
// SIGPIPE must be blocked or ignored in the calling thread.
Carried carry(int suite_in, int suite_out, int& to_subject, int from_subject, int stop,
              std::atomic<long long>& budget);

// What a replayed session did: its answers (up to a line past the first that
// differs from the reference's), the bytes of the requests written, and
// whether its output ended or the deadline came first.
struct Pumped {
  std::string answered;
  std::size_t written = 0;
  bool ended = false;
  bool timed_out = false;
};

// Writes `reference.sent` to `to_subject` (closed here after its last byte)
// while reading `from_subject` (both this process's own, non-blocking), so
// that a long session cannot deadlock, until the subject's output ends, its
// answers part from the reference's (then up to the end of that line, at
// most 4 KiB more), or `deadline`. SIGPIPE must be blocked or ignored in the
// calling thread.
Pumped pump(int& to_subject, int from_subject, const Session& reference,
            std::chrono::steady_clock::time_point deadline);

}  // namespace tlbf::mutants
