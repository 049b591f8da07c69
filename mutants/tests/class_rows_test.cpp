// A learner's row of the class, read from their report.
#include "tlbf/mutants/class_rows.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "grade_fixtures.hpp"

namespace tlbf::mutants {
namespace {

using testing::says;

// A report as tlbf grade writes one, cut to what a row reads; `replay` is
// its config.replay, none when empty (a report of patch mode).
std::string report(const std::string& stopped, const std::string& replay = "") {
  return R"({"schemaVersion": "2", "thresholds": {"high": 80, "low": 60}, "files": {"bloom.py": {
    "language": "python", "source": "x", "mutants": [
      {"id": "s02", "mutatorName": "s02", "status": "Survived", "description": "two",
       "location": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}}},
      {"id": "s01", "mutatorName": "s01", "status": "Killed", "description": "one",
       "location": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}}}]}},
    "config": {"killed": 1, "ran": 2, "score": 0.5, "survivors": [{"id": "s02"}],
      "chaffs": {"killed": 1, "ran": 2, "missed": ["c02"], "runs": [
        {"id": "c02", "status": "Survived", "description": "c two"},
        {"id": "c01", "status": "Timeout", "description": "c one"}]},
      "stopped": )" +
         stopped + (replay.empty() ? "" : ", \"replay\": " + replay) +
         R"(, "learner": {"name": "ann", "key": "k", "verdict": "short"}}})";
}

TEST(ClassRows, ARowIsReadFromTheLearnersReport) {
  const auto row = class_row(report("null"));
  ASSERT_TRUE(row.ok()) << row.why();
  EXPECT_EQ(row.value().name, "ann");
  EXPECT_EQ(row.value().verdict, "short");
  EXPECT_EQ(row.value().killed, 1);
  EXPECT_EQ(row.value().ran, 2);
  EXPECT_EQ(row.value().survivors, (std::vector<std::string>{"s02"}));
  EXPECT_EQ(row.value().chaffs_missed, (std::vector<std::string>{"c02"}));
  // Mutants then chaffs, each in id order; a timeout is a catch.
  const std::vector<std::pair<std::string, std::string>> outcomes = {
      {"s01", "caught"}, {"s02", "survived"}, {"c01", "caught"}, {"c02", "survived"}};
  EXPECT_EQ(row.value().outcomes, outcomes);
  ASSERT_EQ(row.value().bugs.size(), 4U);
  EXPECT_EQ(row.value().bugs[2].kind, "chaff");
  EXPECT_EQ(bugs_of({row.value(), row.value()}).size(), 4U);
}

TEST(ClassRows, AStoppedGradingCountsNothingAndSaysWhy) {
  const auto row = class_row(report(R"({"why": "flaky", "reason": "s01 passed and failed"})"));
  ASSERT_TRUE(row.ok()) << row.why();
  EXPECT_EQ(row.value().reason, "s01 passed and failed");
  EXPECT_EQ(row.value().killed, 0);
  EXPECT_EQ(row.value().ran, 0);
  EXPECT_TRUE(row.value().outcomes.empty());
  EXPECT_TRUE(row.value().chaffs_missed.empty());
}

TEST(ClassRows, WhatIsNoReportOfTlbfGradeIsRefused) {
  EXPECT_FALSE(class_row("not json").ok());
  EXPECT_FALSE(class_row(R"({"config": {}})").ok());
  EXPECT_PRED2(says, class_row(R"({"files": {}})").why(), "not a report of tlbf grade");
}

// config.replay as tlbf grade writes it: the replayed ids in the order the
// subjects ran, a chaff before a mutant here.
std::string replay_config(const char* deterministic, const char* difference, const char* replayed,
                          bool enabled = true) {
  return std::string(R"({"enabled": )") + (enabled ? "true" : "false") + R"(, "recorded": true,
    "unrecorded": null, "deterministic": )" +
         deterministic + R"(, "difference": )" + difference + R"(, "variantRecorded": true,
    "variantUnrecorded": null, "sessions": 3, "requests": 40, "replayed": )" +
         replayed + R"(, "seconds": 0.25})";
}

TEST(ClassRows, WhatReplaySparedIsReadInTheOrderOfTheOutcomes) {
  const auto row = class_row(report("null", replay_config("true", "null", R"(["c02", "s02"])")));
  ASSERT_TRUE(row.ok()) << row.why();
  ASSERT_TRUE(row.value().replay.has_value());
  const RowReplay& replay = *row.value().replay;
  EXPECT_TRUE(replay.enabled);
  EXPECT_EQ(replay.deterministic, true);
  EXPECT_EQ(replay.difference, "");
  EXPECT_EQ(replay.replayed, (std::vector<std::string>{"s02", "c02"}));  // mutants first, as outcomes
  EXPECT_FALSE(not_deterministic(row.value()));
  // Two of the two mutants and two chaffs graded.
  EXPECT_EQ(replay_words(row.value()), "2 of 4 replayed");
  EXPECT_EQ(replay_cell(row.value()), "2/4");
}

TEST(ClassRows, ASuiteThatIsNotDeterministicIsFlaggedEvenWhenItsGradingStopped) {
  const char* difference =
      R"("request 6 of a session: `contains f2 00` in one clean run, `contains f2 01` in another")";
  const auto row = class_row(report("null", replay_config("false", difference, "[]")));
  ASSERT_TRUE(row.ok()) << row.why();
  EXPECT_TRUE(not_deterministic(row.value()));
  EXPECT_EQ(row.value().replay->difference,
            "request 6 of a session: `contains f2 00` in one clean run, `contains f2 01` in another");
  EXPECT_EQ(replay_words(row.value()), "NOT deterministic");
  EXPECT_EQ(replay_cell(row.value()), "NOT deterministic");
  const auto stopped = class_row(report(R"({"why": "flaky", "reason": "s01 passed and failed"})",
                                        replay_config("false", difference, "[]")));
  ASSERT_TRUE(stopped.ok()) << stopped.why();
  EXPECT_TRUE(not_deterministic(stopped.value()));
  EXPECT_EQ(replay_words(stopped.value()), "NOT deterministic");
}

TEST(ClassRows, AStoppedGradingReplayedNothingThatCounts) {
  const auto row = class_row(report(R"({"why": "flaky", "reason": "s01 passed and failed"})",
                                    replay_config("true", "null", R"(["s02"])")));
  ASSERT_TRUE(row.ok()) << row.why();
  ASSERT_TRUE(row.value().replay.has_value());
  EXPECT_TRUE(row.value().replay->replayed.empty());
  EXPECT_EQ(replay_words(row.value()), "");
}

TEST(ClassRows, ReplayOffOrUnrecordedOrNotInTheReport) {
  const auto off = class_row(report("null", replay_config("null", "null", "[]", /*enabled=*/false)));
  ASSERT_TRUE(off.ok()) << off.why();
  EXPECT_FALSE(off.value().replay->enabled);
  EXPECT_EQ(replay_words(off.value()), "off");
  EXPECT_EQ(replay_cell(off.value()), "off");
  // Sessions that could not be recorded: nothing known of determinism, nothing replayed.
  const auto unrecorded = class_row(report("null", replay_config("null", "null", "[]")));
  ASSERT_TRUE(unrecorded.ok()) << unrecorded.why();
  EXPECT_FALSE(unrecorded.value().replay->deterministic.has_value());
  EXPECT_FALSE(not_deterministic(unrecorded.value()));
  EXPECT_EQ(replay_words(unrecorded.value()), "");
  const auto none = class_row(report("null"));
  ASSERT_TRUE(none.ok()) << none.why();
  EXPECT_FALSE(none.value().replay.has_value());
  EXPECT_EQ(replay_words(none.value()), "");
}

}  // namespace
}  // namespace tlbf::mutants
