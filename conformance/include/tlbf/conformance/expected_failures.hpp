// The expected-failure list of tlbf check --expected (docs/check.md,
// "Expected failures"): read, judged against a report, and written by
// --update-expected, so that it cannot go stale. A line may carry the reason
// its case is expected to fail with, as protobuf's conformance failure lists
// do ("NAME  # REASON"): a listed case that fails for another reason is
// reported, not taken as expected.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/conformance/runner.hpp"

namespace tlbf::conformance {

// Case name -> the reason it is expected to fail with ("" when its line gives none).
using ExpectedFailures = std::map<std::string, std::string>;

// One entry a line: "NAME", or "NAME # REASON". Blank lines and lines that
// start with '#' are comments; spaces around the name and the reason are not
// part of them. A name listed twice keeps its last line.
ExpectedFailures parse_expected_failures(const std::string& text);

// A failure's reason as a list holds it: on one line (each newline, carriage
// return or tab a space), without spaces at either end.
std::string reason_on_one_line(std::string_view reason);

// A listed case that failed, but not with the listed reason.
struct OtherReason {
  std::string name;
  std::string listed;  // the reason the list gives
  std::string got;     // the reason it failed with, on one line
};

// The report judged against a list of expected failures.
struct ExpectedVerdict {
  std::vector<std::string> expected_and_failed;  // allowed: listed, and failed as listed
  std::vector<std::string> unexpected_failures;  // failed, not listed
  // Listed with a reason, but its reason on one line does not start with the
  // listed one (a prefix, as protobuf's runner compares them).
  std::vector<OtherReason> other_reasons;
  std::vector<std::string> unexpected_passes;  // listed, but passed: the list is stale
  std::vector<std::string> unknown;            // listed, but no such case ran: the list is stale
  // Did not run, listed or not: nothing was checked, so nothing is as
  // expected (a run cut short must not pass because of the list).
  std::vector<std::string> not_run;
  int listed_not_run = 0;  // of those, how many the list names
  // Nothing unexpected, every case ran, and a clean session.
  bool ok(const CheckReport& report) const;
};

ExpectedVerdict judge_expected(const CheckReport& report, const ExpectedFailures& expected);

// The reason --update-expected writes for a failure: its reason on one line,
// cut before the first digit outside single quotes (tlbf's own numbers, a
// time, a count, an exit status, which may change from run to run; what an
// implementation wrote is quoted) and at 128 bytes (protobuf's limit).
std::string reason_to_list(std::string_view reason);

// The list that would make this report's failures expected, in case order,
// each with the reason reason_to_list gives it. A case that did not run is
// never written: it was not seen to fail.
std::string expected_failures_text(const CheckReport& report);

}  // namespace tlbf::conformance
