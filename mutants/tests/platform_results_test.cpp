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

// The summary's first two lines for a learner who caught 6 of 10 under the bar, written out by hand.
constexpr const char* kShortSummary =
    "Score: 0 / 10 (all the points for meeting the bar, a score of 0.80 with every required planted bug "
    "caught; none otherwise); your tests caught 6 of 10 planted bugs.\n"
    "The bar is a score of 0.80 with every required planted bug caught: add tests for the bugs that "
    "survived.\n";

TEST(PlatformResults, EachPlatformSaysWhichBugsReplayJudged) {
  auto row = learner_row("short", 6, 10, {"s04", "s05", "s08", "s09"});
  // c07, a chaff, survived by replay too: the learner never reads of it.
  row.replay = RowReplay{true, true, "", {"s04", "s09", "c07"}};
  const std::string report = report_with(nullptr);
  const auto s = submission_of(row, &report, ScorePolicy::Bar, 0.8, "test_bloom.py",
                               {"c07", "Rounding k with Python's round(), halves to even"});
  ASSERT_TRUE(s.ok()) << s.why();
  const std::string summary =
      std::string(kShortSummary) +
      "Survived: s04: Truncating k instead of rounding (by replay)\n"
      "Survived: s05: Forgetting to add the counts in union\n"
      "Survived: s08: AND instead of OR in union\n"
      "Survived: s09: Trusting the length in from_bytes (by replay)\n"
      "Judged by replay, not run: s04, s09. Each answered every request your tests send exactly as the "
      "reference does, so your tests pass it as they pass the reference: add requests whose answers it "
      "changes.";
  const std::string s04 =
      "Survived, judged by replay, not run: it answered every request your tests send exactly as the "
      "reference does, so your tests pass it. The pitfall: Truncating k instead of rounding";
  const std::string s05 =
      "Survived: every test of yours passes on it. The pitfall: Forgetting to add the counts in union";
  // The first test carries the score; s04 and s05 are the fourth and fifth planted bugs.
  const Json gs = Json::parse(gradescope_results(s.value(), Feedback::Mutants));
  EXPECT_EQ(gs["output"], summary);
  EXPECT_EQ(gs["tests"][4]["output"], s04);
  EXPECT_EQ(gs["tests"][5]["output"], s05);
  const Json pl = Json::parse(prairielearn_results(s.value(), Feedback::Mutants));
  EXPECT_EQ(pl["message"], summary);
  EXPECT_EQ(pl["tests"][4]["output"], s04);
  EXPECT_EQ(pl["tests"][5]["output"], s05);
  const Json gh = Json::parse(github_classroom_result(s.value(), Feedback::Mutants));
  EXPECT_EQ(gh["tests"][0]["message"], summary);
  EXPECT_EQ(gh["tests"][4]["message"], s04);
  EXPECT_EQ(gh["tests"][5]["message"], s05);
  for (auto level : {Feedback::None, Feedback::Score, Feedback::Mutants, Feedback::All}) {
    for (const auto& text : {gradescope_results(s.value(), level), prairielearn_results(s.value(), level),
                             github_classroom_result(s.value(), level)}) {
      EXPECT_EQ(text.find("c07"), std::string::npos) << text;
      // Which bugs survived, and how, is --feedback mutants's.
      if (level < Feedback::Mutants) {
        EXPECT_EQ(text.find("replay"), std::string::npos) << text;
      }
    }
  }
  // Replay off (--no-replay): every bug ran, and nothing is said of replay.
  row.replay = RowReplay{false, std::nullopt, "", {}};
  const auto off = submission_of(row, &report, ScorePolicy::Bar, 0.8, "test_bloom.py", {});
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(Json::parse(prairielearn_results(off.value(), Feedback::All))["message"],
            std::string(kShortSummary) +
                "Survived: s04: Truncating k instead of rounding\n"
                "Survived: s05: Forgetting to add the counts in union\n"
                "Survived: s08: AND instead of OR in union\n"
                "Survived: s09: Trusting the length in from_bytes");
}

TEST(PlatformResults, ASuiteThatIsNotDeterministicIsToldToSeedIt) {
  const std::string parted =
      "request 6 of a session: `with_rate f2 261 0.13` in one clean run, `with_rate f2 246 0.1` in another";
  const std::string seed =
      "Your tests did not send the same requests in every run against the reference (an unseeded random "
      "test, a request built from the clock), so every planted bug was run, none judged by replay: seed your "
      "random tests.";
  auto row = learner_row("meets", 10, 10, {});
  row.replay = RowReplay{true, false, parted, {}};
  const std::string report = report_with(nullptr);
  const auto s = submission_of(row, &report, ScorePolicy::Bar, 0.8, "test_bloom.py", {});
  ASSERT_TRUE(s.ok()) << s.why();
  const std::string score =
      "Score: 10 / 10 (all the points for meeting the bar, a score of 0.80 with every required planted bug "
      "caught; none otherwise); your tests caught 10 of 10 planted bugs.";
  EXPECT_EQ(Json::parse(prairielearn_results(s.value(), Feedback::Score))["message"], score);
  EXPECT_EQ(Json::parse(gradescope_results(s.value(), Feedback::Mutants))["output"], score + "\n" + seed);
  EXPECT_EQ(Json::parse(github_classroom_result(s.value(), Feedback::Mutants))["tests"][0]["message"],
            score + "\n" + seed);
  // Where two runs parted, at --feedback all.
  EXPECT_EQ(Json::parse(prairielearn_results(s.value(), Feedback::All))["message"],
            score + "\n" + seed + " Two runs parted at " + parted + ".");
  // A flaky suite, ungradable, is told the same after what to fix.
  row = learner_row("flaky", 0, 0, {});
  row.replay = RowReplay{true, false, parted, {}};
  const std::string stopped = report_with({{"why", "flaky"}, {"reason", "the runs of s02 disagree"}});
  const auto flaky = submission_of(row, &stopped, ScorePolicy::Bar, 0.8, "test_bloom.py", {});
  ASSERT_TRUE(flaky.ok()) << flaky.why();
  EXPECT_EQ(
      Json::parse(gradescope_results(flaky.value(), Feedback::Mutants))["output"],
      "Your tests gave different results on the same code from one run to another (unseeded "
      "randomness, the clock, a fixed port or a file shared between runs): make every test deterministic "
      "and submit again.\n" +
          seed);
}

TEST(PlatformResults, AReportThatIsNotOneIsRefused) {
  const std::string report = "{\"config\": {}}";
  const auto s = submission_of(learner_row("meets", 10, 10, {}), &report, ScorePolicy::Bar, 0.8, "t.py", {});
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace tlbf::mutants
