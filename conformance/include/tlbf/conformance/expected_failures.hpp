// The expected-failure list of tlbf check --expected (docs/check.md,
// "Expected failures"): read, judged against a report, and written by
// --update-expected, so that it cannot go stale.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "tlbf/conformance/runner.hpp"

namespace tlbf::conformance {

// Case names, one a line; blank lines and text after '#' are ignored.
std::set<std::string> parse_expected_failures(const std::string& text);

// The report judged against a list of expected failures.
struct ExpectedVerdict {
  std::vector<std::string> expected_and_failed;  // allowed
  std::vector<std::string> unexpected_failures;  // failed, not listed
  std::vector<std::string> unexpected_passes;    // listed, but passed: the list is stale
  std::vector<std::string> unknown;              // listed, but no such case ran: the list is stale
  // Did not run, listed or not: nothing was checked, so nothing is as
  // expected (a run cut short must not pass because of the list).
  std::vector<std::string> not_run;
  int listed_not_run = 0;  // of those, how many the list names
  // Nothing unexpected, every case ran, and a clean session.
  bool ok(const CheckReport& report) const;
};

ExpectedVerdict judge_expected(const CheckReport& report, const std::set<std::string>& expected);

// The list that would make this report's failures expected, in case order.
// A case that did not run is never written: it was not seen to fail.
std::string expected_failures_text(const CheckReport& report);

}  // namespace tlbf::conformance
