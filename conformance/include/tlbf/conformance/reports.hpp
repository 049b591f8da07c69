// What tlbf check writes besides its summary: a failure list that cannot go
// stale, and JUnit XML for CI systems.
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
  bool ok(const CheckReport& report) const;      // nothing unexpected and a clean session
};

ExpectedVerdict judge_expected(const CheckReport& report, const std::set<std::string>& expected);

// The list that would make this report's failures expected, in case order.
std::string expected_failures_text(const CheckReport& report);

// JUnit XML: one testsuite for the implementation, a testcase per case.
std::string to_junit(const CheckReport& report);

}  // namespace tlbf::conformance
