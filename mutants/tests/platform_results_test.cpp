// The platforms' results from rows and reports made here: what a real
// grading (mutants/tests/test_grade_platforms.py) cannot be made to give on
// purpose, such as a stop whose reason names a chaff.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tlbf/mutants/platform_results.hpp"

namespace tlbf::mutants {
namespace {

using Json = nlohmann::ordered_json;

ClassRow learner_row(std::string verdict, int killed, int ran, std::vector<std::string> survivors) {
  ClassRow r;
  r.name = "bob";
  r.verdict = std::move(verdict);
  r.killed = killed;
  r.ran = ran;
  r.score = ran > 0 ? static_cast<double>(killed) / ran : 0;
  r.survivors = std::move(survivors);
  return r;
}

// A report's config with the fields the results read, `stopped` as given.
std::string report_with(const Json& stopped) {
  const Json config = {{"threshold", 0.8},
                       {"selected", {"s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08", "s09", "s10"}},
                       {"stopped", stopped}};
  return Json{{"config", config}}.dump();
}

TEST(PlatformResults, Base64IsRfc4648s) {
  // RFC 4648, section 10's test vectors.
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foob"), "Zm9vYg==");
  EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
}

TEST(PlatformResults, EachPolicyScoresAShortLearner) {
  const auto row = learner_row("short", 6, 10, {"s04", "s05", "s08", "s09"});
  const std::string report = report_with(nullptr);
  const auto bar = submission_of(row, &report, ScorePolicy::Bar, 0.8, "test_bloom.py", {});
  const auto share = submission_of(row, &report, ScorePolicy::Share, 0.8, "test_bloom.py", {});
  ASSERT_TRUE(bar.ok() && share.ok());
  EXPECT_EQ(bar.value().points, 0);
  EXPECT_EQ(share.value().points, 6);
  EXPECT_EQ(share.value().max_points, 10);
  EXPECT_EQ(Json::parse(prairielearn_results(share.value(), Feedback::Score))["score"], 0.6);
  int survived = 0;
  for (const auto& bug : bar.value().bugs) survived += bug.caught ? 0 : 1;
  EXPECT_EQ(survived, 4);
}

TEST(PlatformResults, AChaffNamedInAStopReachesNoLearnerAtAnyLevel) {
  const std::string chaff = "c07", description = "Rounding k with Python's round(), halves to even";
  const std::string report =
      report_with({{"why", "flaky"},
                   {"reason", "the runs of " + chaff + " (" + description + ") disagree"},
                   {"failingOutput", "AssertionError under " + chaff}});
  const auto s = submission_of(learner_row("flaky", 0, 0, {}), &report, ScorePolicy::Bar, 0.8,
                               "test_bloom.py", {chaff, description});
  ASSERT_TRUE(s.ok()) << s.why();
  EXPECT_FALSE(s.value().gradable);
  EXPECT_NE(s.value().details.find("(a hidden bug)"), std::string::npos);
  for (auto level : {Feedback::None, Feedback::Score, Feedback::Mutants, Feedback::All}) {
    for (const auto& text : {gradescope_results(s.value(), level), prairielearn_results(s.value(), level),
                             github_classroom_result(s.value(), level)}) {
      EXPECT_EQ(text.find(chaff), std::string::npos) << text;
      EXPECT_EQ(text.find("Rounding k"), std::string::npos) << text;
    }
  }
  // The reason itself, scrubbed, at --feedback all.
  EXPECT_NE(prairielearn_results(s.value(), Feedback::All).find("disagree"), std::string::npos);
  EXPECT_FALSE(Json::parse(prairielearn_results(s.value(), Feedback::None))["gradable"].get<bool>());
}

TEST(PlatformResults, AHarnessErrorIsUngradableAndNotTheLearnersFault) {
  const std::string report = report_with({{"why", "harness-error"}, {"reason", "c03.patch does not apply"}});
  const auto s = submission_of(learner_row("harness-error", 0, 0, {}), &report, ScorePolicy::Share, 0.8,
                               "test_bloom.py", {"c03"});
  ASSERT_TRUE(s.ok());
  const Json gh = Json::parse(github_classroom_result(s.value(), Feedback::Score));
  EXPECT_EQ(gh["status"], "error");
  EXPECT_NE(gh["tests"][0]["message"].get<std::string>().find("not in your tests"), std::string::npos);
  EXPECT_EQ(gh.dump().find("c03"), std::string::npos);
}

TEST(PlatformResults, ALearnerWithNoReportIsToldWhatToHandIn) {
  auto row = learner_row("no-tests", 0, 0, {});
  row.reason = "no file named test_bloom.py in /autograder/submission";
  const auto s = submission_of(row, nullptr, ScorePolicy::Bar, 0.8, "test_bloom.py", {});
  ASSERT_TRUE(s.ok());
  const Json pl = Json::parse(prairielearn_results(s.value(), Feedback::None));
  EXPECT_FALSE(pl["gradable"].get<bool>());
  EXPECT_NE(pl["message"].get<std::string>().find("hand in your tests as test_bloom.py"), std::string::npos);
  EXPECT_EQ(Json::parse(gradescope_results(s.value(), Feedback::Score))["max_score"], 10);
}

TEST(PlatformResults, AReportThatIsNotOneIsRefused) {
  const std::string report = "{\"config\": {}}";
  const auto s = submission_of(learner_row("meets", 10, 10, {}), &report, ScorePolicy::Bar, 0.8, "t.py", {});
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace tlbf::mutants
