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

// A report as tlbf grade writes one, cut to what a row reads.
std::string report(const std::string& stopped) {
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
         stopped + R"(, "learner": {"name": "ann", "key": "k", "verdict": "short"}}})";
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

}  // namespace
}  // namespace tlbf::mutants
