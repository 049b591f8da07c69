// What tlbf reads back of its own making (shards' reports to merge, a
// class's earlier reports) and what a course author writes (a kit): each
// read strictly, none taken on faith, none able to crash the reader.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tlbf/mutants/grade.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/mutants/scorer.hpp"

namespace tlbf::mutants {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// A whole run's report of one mutant, as tlbf mutate --json writes it.
Json one_mutant_report() {
  return Json::parse(R"({
    "schemaVersion": "2", "thresholds": {"high": 80, "low": 80},
    "files": {"tlbf_impl.py": {"language": "python", "source": "x = 1\n", "mutants": [
      {"id": "s01", "mutatorName": "PlantedBug", "description": "d", "replacement": "x = 2",
       "location": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 6}},
       "status": "Killed", "statusReason": "failed", "duration": 120}]}},
    "framework": {"name": "tlbf mutate", "version": "test"},
    "performance": {"setup": 0, "initialRun": 100, "mutation": 240},
    "config": {"tool": "tlbf mutate", "mode": "served", "suite": ["true"], "threshold": 0.8,
      "require": ["s01"], "selected": ["s01"], "shard": null, "baselineRuns": 3, "baselinePasses": 3,
      "controlRuns": 2, "controlPasses": 2, "killed": 1, "ran": 1, "score": 1.0, "meets": true,
      "exitCode": 0, "stopped": null, "confirmRuns": 2, "sandbox": "off", "survivors": [], "wheats": [],
      "chaffs": null, "learner": null}})");
}

Json& the_mutant(Json& report) { return report["files"]["tlbf_impl.py"]["mutants"][0]; }

std::string merge_failure(const Json& report) {
  const auto merged = merge_reports({{"r.json", report.dump()}});
  return merged.ok() ? "merged" : merged.why();
}

TEST(Merge, TakesAWellFormedReport) {
  const auto merged = merge_reports({{"r.json", one_mutant_report().dump()}});
  ASSERT_TRUE(merged.ok()) << merged.why();
  EXPECT_EQ(merged->score.runs.size(), 1U);
  EXPECT_DOUBLE_EQ(merged->score.mutants_seconds, 0.24);
}

// "mutate --merge merges reports with a negative or absurd duration": each
// would go into the whole's times as it is.
TEST(Merge, RefusesADurationOutOfRange) {
  const std::string range = ", not a duration in milliseconds in 0 ..= 604800000 (a week)";
  for (const Json& bad : {Json(-1), Json(1e300), Json(604800001), Json("12")}) {
    Json report = one_mutant_report();
    the_mutant(report)["duration"] = bad;
    EXPECT_EQ(merge_failure(report),
              "r.json: files[\"tlbf_impl.py\"].mutants[0].duration is " + bad.dump() + range);
    report = one_mutant_report();
    report["performance"]["mutation"] = bad;
    EXPECT_EQ(merge_failure(report), "r.json: performance.mutation is " + bad.dump() + range);
  }
  Json report = one_mutant_report();
  the_mutant(report)["duration"] = 604800000;
  EXPECT_EQ(merge_failure(report), "merged");
}

TEST(Merge, RefusesCountsOutOfRange) {
  for (const auto& [key, value, why] : std::vector<std::tuple<std::string, Json, std::string>>{
           {"killed", 2, "config.killed is 2, not a count in 0 ..= 1"},
           {"ran", 3, "config.ran is 3, but the report holds 1 mutants"},
           {"baselinePasses", 4, "config.baselinePasses is 4, not a count in 0 ..= 3"},
           {"controlRuns", -1, "config.controlRuns is -1, not a count in 0 ..= 1000000"},
           {"confirmRuns", 21, "config.confirmRuns is 21, not a count in 0 ..= 20"}}) {
    Json report = one_mutant_report();
    report["config"][key] = value;
    EXPECT_EQ(merge_failure(report), "r.json: " + why) << key;
  }
}

// What the report schema requires of a mutant and the report around it.
TEST(Merge, RefusesWhatTheReportSchemaDoesNotAllow) {
  Json report = one_mutant_report();
  the_mutant(report)["location"]["start"]["line"] = 0;
  EXPECT_NE(merge_failure(report).find("mutants[0].location is not"), std::string::npos);
  report = one_mutant_report();
  the_mutant(report).erase("mutatorName");
  EXPECT_EQ(merge_failure(report),
            "r.json: files[\"tlbf_impl.py\"].mutants[0].mutatorName is missing or not a string");
  report = one_mutant_report();
  report["thresholds"]["high"] = 101;
  EXPECT_EQ(merge_failure(report), "r.json: thresholds is not {\"high\": 0 ..= 100, \"low\": 0 ..= 100}");
  report = one_mutant_report();
  report["files"]["tlbf_impl.py"].erase("source");
  EXPECT_NE(merge_failure(report).find("files[\"tlbf_impl.py\"] is not {"), std::string::npos);
}

std::string merge_text_failure(const std::string& text) {
  const auto merged = merge_reports({{"r.json", text}});
  return merged.ok() ? "merged" : merged.why();
}

// A million arrays deep crashed the merge (a copy of the tree recursed); a
// key twice let a report say one thing to the merge and another to a reader
// that keeps the first.
TEST(Merge, RefusesDeepNestingAndDuplicateKeys) {
  EXPECT_EQ(merge_text_failure(std::string(1000000, '[') + std::string(1000000, ']')),
            "r.json: nested deeper than 8 levels at /0/0/0/0/0/0/0/0, deeper than any report of tlbf mutate "
            "can be");
  std::string text = one_mutant_report().dump();
  text.insert(text.find("\"duration\""), "\"duration\": -5, ");
  EXPECT_EQ(
      merge_text_failure(text),
      "r.json: the key \"duration\" appears twice in the object at /files/tlbf_impl.py/mutants/0 (readers "
      "differ on which one counts, so the file has no one meaning)");
}

// tlbf grade reuses a learner's earlier report: read as strictly.
TEST(ClassRow, RefusesDeepNestingAndDuplicateKeys) {
  const auto deep = class_row(std::string(1000000, '{'));
  ASSERT_FALSE(deep.ok());
  const auto twice = class_row(R"({"config": {"learner": {}, "learner": {}}})");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.why().find("the key \"learner\" appears twice in the object at /config"), std::string::npos)
      << twice.why();
}

class Kit : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("tlbf_kit_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string kit(const std::string& text) {
    std::ofstream(dir_ / "kit.json", std::ios::binary) << text;
    return (dir_ / "kit.json").string();
  }

  fs::path dir_;
};

TEST_F(Kit, DeepNestingAndDuplicateKeysAreRefused) {
  const std::string deep = kit(R"({"kind": "python", "suite": [[[["x"]]]]})");
  auto read = read_kit(deep);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.why(),
            "the kit " + deep + ": nested deeper than 3 levels at /suite/0/0, deeper than any kit can be");
  const std::string twice = kit(R"({"kind": "python", "reference": "a", "reference": "b"})");
  read = read_kit(twice);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.why(),
            "the kit " + twice +
                ": the key \"reference\" appears twice in the object at / (readers differ on which one "
                "counts, so the file has no one meaning)");
}

// Runs that confirm a required mutant's kill, at most, from the two options,
// by the rule docs/mutants.md gives ("A kill must be reproducible").
TEST(ConfirmKills, AreKillConfirmRunsButNeverFewerThanConfirmRunsAndNoneWithOne) {
  for (const auto& [confirm_runs, confirm_kills, most] :
       std::vector<std::tuple<int, int, int>>{{2, 6, 6}, {1, 6, 1}, {3, 2, 3}, {2, 2, 2}, {4, 9, 9}}) {
    ScoreOptions options;
    options.confirm_runs = confirm_runs;
    options.kill_confirm_runs = confirm_kills;
    EXPECT_EQ(kill_confirmations(options), most) << confirm_runs << " " << confirm_kills;
  }
}

// Nothing but the places a report names.
class NoSubjects final : public Subjects {
 public:
  std::vector<std::string> ids() const override { return {}; }
  Outcome<SuiteRun> clean() override { return SuiteRun{}; }
  std::optional<Outcome<SuiteRun>> broken() override { return std::nullopt; }
  Outcome<SuiteRun> mutant(const std::string&) override { return SuiteRun{}; }
  void finish(const SuiteRun&) override {}
  Place place(const std::string& id) const override {
    Place p;
    p.file = "tlbf_impl.py";
    p.source = "x = 1\n";
    p.start_line = p.end_line = 1;
    p.start_column = 1;
    p.end_column = 6;
    p.description = id;
    p.replacement = "x = 2";
    return p;
  }
  std::string broken_description() const override { return ""; }
};

// confirmRuns is the option; confirmKills and killsConfirmedBy say how many
// runs confirmed each required mutant's kill, which a merge keeps.
TEST(Report, SaysTheRunsThatConfirmedEachRequiredKillBesideTheOption) {
  Score score;
  const auto run = [](const char* id, MutantVerdict verdict, int confirmed_by) {
    MutantRun r;
    r.id = id;
    r.verdict = verdict;
    r.confirmed_by = confirmed_by;
    return r;
  };
  score.runs = {run("s01", MutantVerdict::Killed, 6), run("s02", MutantVerdict::Killed, 2),
                run("s03", MutantVerdict::Survived, 2), run("s04", MutantVerdict::Timeout, 2)};
  ReportContext context;
  context.required = {"s01", "s03", "s04"};
  context.selected = {"s01", "s02", "s03", "s04"};
  context.mode = "served";
  context.confirm_runs = 2;
  context.confirm_kills = 6;
  context.meets = false;
  const Json config = Json::parse(mutation_report_json(NoSubjects{}, score, context))["config"];
  EXPECT_EQ(config["confirmRuns"], 2);
  EXPECT_EQ(config["confirmKills"], 6);
  // s02 is not required (two runs, as every other outcome); s03 survived; a timeout runs twice.
  EXPECT_EQ(config["killsConfirmedBy"], Json::parse(R"({"s01": 6, "s04": 2})"));

  Json report = one_mutant_report();
  report["config"]["confirmKills"] = 6;
  report["config"]["killsConfirmedBy"] = {{"s01", 5}};
  const auto merged = merge_reports({{"r.json", report.dump()}});
  ASSERT_TRUE(merged.ok()) << merged.why();
  const Json whole = Json::parse(merged->json)["config"];
  EXPECT_EQ(whole["confirmRuns"], 2);
  EXPECT_EQ(whole["confirmKills"], 6);
  EXPECT_EQ(whole["killsConfirmedBy"], Json::parse(R"({"s01": 5})"));
  for (const Json& bad : {Json(0), Json(21), Json("6")}) {
    report["config"]["killsConfirmedBy"] = {{"s01", bad}};
    EXPECT_EQ(merge_failure(report),
              "r.json: config.killsConfirmedBy.s01 is " + bad.dump() + ", not a count in 1 ..= 20");
  }
}

// A FIFO with no writer used to block tlbf grade; a directory and a device are refused alike.
TEST_F(Kit, WhatIsNotARegularFileIsRefusedAtOnce) {
  const std::string fifo = (dir_ / "fifo.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& [path, words] : std::vector<std::pair<std::string, std::string>>{
           {fifo, "it is a FIFO (a named pipe), not a regular file"},
           {dir_.string(), "it is a directory"},
           {"/dev/zero", "it is a character device, not a regular file"}}) {
    const auto read = read_kit(path);
    ASSERT_FALSE(read.ok()) << path;
    EXPECT_EQ(read.why(), "the kit: cannot read " + path + ": " + words);
  }
}

}  // namespace
}  // namespace tlbf::mutants
