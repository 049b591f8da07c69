// How the implementation under test differs from what it must be: an answer
// (transcript.hpp's mismatch, judge.hpp's unprintable_in) or the end of its
// session (session.hpp's Session::finish).
//
// A Difference is data, not a Failure (common/include/tlbf/outcome.hpp): the
// call that finds one did its work, and what it found is a fact about the
// implementation under test, which the harness exists to report. A Failure
// is tlbf itself unable to go on (a file it cannot read, a process it cannot
// start), passed up and shown; a Difference is judged (it may be acceptable,
// judge.hpp), counted and written into the results, and the run goes on.
#pragma once

#include <string>

namespace tlbf::conformance {

struct Difference {
  std::string what;  // in words, quoting the answer: "expected ok true, got ok false"
  friend bool operator==(const Difference&, const Difference&) = default;
};

}  // namespace tlbf::conformance
