// The expected-failure list (expected_failures.hpp): names with or without a
// reason, judged as protobuf's conformance runner judges its failure lists.
// Every expected value is written by hand from docs/check.md, "Expected failures".
#include "tlbf/conformance/expected_failures.hpp"

#include <gtest/gtest.h>

namespace tlbf::conformance {
namespace {

CaseResult result(const std::string& name, CaseOutcome outcome, const std::string& reason = "") {
  CaseResult r;
  r.name = name;
  r.outcome = outcome;
  r.reason = reason;
  return r;
}

CheckReport report_of(std::vector<CaseResult> results) {
  CheckReport r;
  r.command = "./impl";
  r.speaks_protocol = true;
  r.results = std::move(results);
  return r;
}

TEST(ExpectedFailures, ALineIsANameAndMaybeAReason) {
  const std::string list =
      "# a comment line\n"
      "\n"
      "  vectors/union/UnionTest/1  \n"
      "state/answers_follow_union   # expected 'ok 64 3 1', got 'ok 64 3 0'  \n"
      "protocol/x #reason with # inside\r\n"
      "twice # first\n"
      "twice # second\n"
      "empty_reason #\n"
      "   # an indented comment\n";
  EXPECT_EQ(parse_expected_failures(list),
            (ExpectedFailures{{"vectors/union/UnionTest/1", ""},
                              {"state/answers_follow_union", "expected 'ok 64 3 1', got 'ok 64 3 0'"},
                              {"protocol/x", "reason with # inside"},
                              {"twice", "second"},
                              {"empty_reason", ""}}));
}

TEST(ExpectedFailures, AListedReasonIsAPrefixOfTheFailuresReasonOnOneLine) {
  const CheckReport report = report_of({
      result("a", CaseOutcome::Failed, "expected 'ok 1', got 'ok 2'"),
      result("b", CaseOutcome::Failed, "expected 'ok 1', got 'ok 3'"),
      result("c", CaseOutcome::Failed, "exited with status 3\nwith 5 requests unanswered"),
      result("d", CaseOutcome::Failed, "anything at all"),
      result("e", CaseOutcome::Passed),
  });
  const ExpectedFailures list = {{"a", "expected 'ok 1', got 'ok 2'"},
                                 {"b", "expected 'ok 1', got 'ok 2'"},
                                 {"c", "exited with status 3 with"},
                                 {"d", ""}};
  const ExpectedVerdict v = judge_expected(report, list);
  EXPECT_EQ(v.expected_and_failed, (std::vector<std::string>{"a", "c", "d"}));
  ASSERT_EQ(v.other_reasons.size(), 1U);
  EXPECT_EQ(v.other_reasons[0].name, "b");
  EXPECT_EQ(v.other_reasons[0].listed, "expected 'ok 1', got 'ok 2'");
  EXPECT_EQ(v.other_reasons[0].got, "expected 'ok 1', got 'ok 3'");
  EXPECT_TRUE(v.unexpected_failures.empty());
  EXPECT_TRUE(v.unexpected_passes.empty());
  EXPECT_FALSE(v.ok(report)) << "a listed case that fails for another reason is not as expected";

  ExpectedFailures fixed = list;
  fixed["b"] = "expected 'ok 1', got";
  EXPECT_TRUE(judge_expected(report, fixed).ok(report));
}

TEST(ExpectedFailures, StaleAndUnlistedEntriesAreEachReported) {
  const CheckReport report =
      report_of({result("failed", CaseOutcome::Failed, "x"), result("passed", CaseOutcome::Passed),
                 result("skipped", CaseOutcome::Skipped, "not offered"),
                 result("acceptable", CaseOutcome::Acceptable, "m one ulp off")});
  const ExpectedVerdict v =
      judge_expected(report, {{"passed", ""}, {"skipped", ""}, {"acceptable", ""}, {"gone", "x"}});
  EXPECT_EQ(v.unexpected_failures, (std::vector<std::string>{"failed"}));
  // Skipped (its capability left out) is neither a pass nor a failure.
  EXPECT_EQ(v.unexpected_passes, (std::vector<std::string>{"passed", "acceptable"}));
  EXPECT_EQ(v.unknown, (std::vector<std::string>{"gone"}));
  EXPECT_FALSE(v.ok(report));
}

TEST(ExpectedFailures, TheWrittenReasonStopsBeforeTlbfsOwnNumbers) {
  // Numbers outside quotes are tlbf's (times, counts, statuses): they may change from run to run.
  EXPECT_EQ(reason_to_list("exited with status 3 with 16505 requests unanswered"), "exited with status");
  EXPECT_EQ(reason_to_list("gave no answer for 1200 ms (hung?) and was killed"), "gave no answer for");
  // Inside quotes they are what the implementation wrote, and kept.
  EXPECT_EQ(reason_to_list("expected 'ok 8 1 128', got 'ok 8 1 127'"),
            "expected 'ok 8 1 128', got 'ok 8 1 127'");
  EXPECT_EQ(reason_to_list("two\nlines\tand a tab "), "two lines and a tab");
  EXPECT_EQ(reason_to_list("12 at once"), "");
  EXPECT_EQ(reason_to_list(std::string(300, 'x')), std::string(128, 'x'));
}

TEST(ExpectedFailures, TheWrittenListMakesTheSameRunAsExpected) {
  const CheckReport report =
      report_of({result("vectors/a/1", CaseOutcome::Failed, "expected 'ok 1', got 'ok 2'"),
                 result("vectors/a/2", CaseOutcome::Passed),
                 result("vectors/a/3", CaseOutcome::Failed, "exited with status 3 with 9")});
  const std::string list = expected_failures_text(report);
  EXPECT_EQ(list,
            "# Expected failures of ./impl\n# Written by tlbf check --update-expected.\n"
            "vectors/a/1  # expected 'ok 1', got 'ok 2'\n"
            "vectors/a/3  # exited with status\n");
  EXPECT_TRUE(judge_expected(report, parse_expected_failures(list)).ok(report));
  // The same case failing with another answer is reported.
  CheckReport other = report;
  other.results[0].reason = "expected 'ok 1', got 'ok 7'";
  const ExpectedVerdict v = judge_expected(other, parse_expected_failures(list));
  ASSERT_EQ(v.other_reasons.size(), 1U);
  EXPECT_EQ(v.other_reasons[0].name, "vectors/a/1");
  // A time or a count of tlbf's own that changed is not another reason.
  other = report;
  other.results[2].reason = "exited with status 3 with 12 requests unanswered";
  EXPECT_TRUE(judge_expected(other, parse_expected_failures(list)).ok(other));
}

}  // namespace
}  // namespace tlbf::conformance
