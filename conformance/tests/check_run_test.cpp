// run_check, tlbf check's whole run as one call (check_run.hpp): what the
// command prints comes from what it returns, and its refusals name the option.
#include "tlbf/conformance/check_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "shared_fixtures.hpp"
#include "tlbf/conformance/check_suite.hpp"

namespace tlbf::conformance {
namespace {

// Counts what the run told while it went on.
class Counting : public CheckObserver {
 public:
  void starting(const std::string& impl) override { started.push_back(impl); }
  void checked(const CheckReport& report) override { reported.push_back(report.command); }
  std::vector<std::string> started, reported;
};

CheckRunOptions oracle_on(const std::string& filter) {
  CheckRunOptions o;
  o.impls = {TLBF_ORACLE_IMPL};
  o.filter = filter;
  o.timeout_ms = 120'000;  // no time limit may decide these
  o.budget_s = 1800;
  return o;
}

const CheckError& error_of(const std::variant<CheckRun, CheckError>& outcome) {
  return std::get<CheckError>(outcome);
}

TEST(CheckRun, ListsWhatTheSelectionSelects) {
  CheckRunOptions o = oracle_on("vectors/union/*");
  o.list = true;
  Counting seen;
  const auto outcome = run_check(o, seen);
  const auto& run = std::get<CheckRun>(outcome);
  EXPECT_EQ(run.mode, CheckRun::Mode::Listed);
  CheckSelection selection;
  selection.filter = "vectors/union/*";
  std::vector<std::string> names;
  const auto suite = select_check_cases(selection);
  for (const auto& c : suite.value().cases) names.push_back(c.name);
  EXPECT_EQ(run.case_names, names);
  EXPECT_EQ(run.case_names.front(), "vectors/union/UnionTest/1");
  EXPECT_TRUE(seen.started.empty()) << "a list runs nothing";
}

TEST(CheckRun, ChecksEachImplementationAndTellsAsItGoes) {
  CheckRunOptions o = oracle_on("vectors/hash/*");
  o.impls.push_back(TLBF_ORACLE_IMPL);
  Counting seen;
  const auto outcome = run_check(o, seen);
  const auto& run = std::get<CheckRun>(outcome);
  EXPECT_EQ(run.mode, CheckRun::Mode::Checked);
  ASSERT_EQ(run.reports.size(), 2U);
  EXPECT_TRUE(run.passed);
  EXPECT_EQ(seen.started, (std::vector<std::string>{TLBF_ORACLE_IMPL, TLBF_ORACLE_IMPL}));
  EXPECT_EQ(seen.reported, seen.started);
  EXPECT_EQ(run.reports[0].selected_by, "--filter 'vectors/hash/*'");
}

TEST(CheckRun, RefusesWhatDoesNotFitBeforeAnythingRuns) {
  Counting seen;
  CheckRunOptions two = oracle_on("vectors/hash/*");
  two.impls.push_back(TLBF_ORACLE_IMPL);
  two.report_files["--junit"] = "j.xml";
  EXPECT_EQ(error_of(run_check(two, seen)).why,
            "--junit describes one implementation's cases; give one --impl");
  CheckRunOptions blank;
  blank.tlbf_impl = "  ";
  EXPECT_EQ(error_of(run_check(blank, seen)).kind, CheckError::Kind::Usage);
  CheckRunOptions replay = oracle_on("");
  replay.transcripts = {"t.txt"};
  replay.report_files["--tap"] = "t.tap";
  EXPECT_EQ(error_of(run_check(replay, seen)).why,
            "--tap reports a check; --transcript only replays (its report is the text)");
  CheckRunOptions missing = oracle_on("vectors/hash/*");
  missing.expected_file = "/nonexistent/expected.txt";
  const CheckError unreadable = error_of(run_check(missing, seen));
  EXPECT_EQ(unreadable.kind, CheckError::Kind::Unreadable);
  EXPECT_TRUE(unreadable.about_a_file);
  EXPECT_TRUE(seen.started.empty());
}

TEST(CheckRun, JudgesTheExpectedFailuresWithTheirReasons) {
  const auto list = std::filesystem::temp_directory_path() / ("tlbf_check_run_" + std::to_string(::getpid()));
  std::ofstream(list) << "vectors/union/UnionTest/1  # expected 'ok 00'\n";
  CheckRunOptions o = oracle_on("vectors/union/*");
  o.impls = {test_support::misbehaving("s05")};
  o.expected_file = list.string();
  Counting seen;
  const auto outcome = run_check(o, seen);
  std::filesystem::remove(list);
  const auto& run = std::get<CheckRun>(outcome);
  EXPECT_FALSE(run.passed);
  ASSERT_TRUE(run.expected_verdict.has_value());
  ASSERT_EQ(run.expected_verdict->other_reasons.size(), 1U);
  EXPECT_EQ(run.expected_verdict->other_reasons[0].name, "vectors/union/UnionTest/1");
  // s05 also gets UnionTest/2, 4 and 5 wrong, none of them listed.
  EXPECT_EQ(run.expected_verdict->unexpected_failures,
            (std::vector<std::string>{"vectors/union/UnionTest/2", "vectors/union/UnionTest/4",
                                      "vectors/union/UnionTest/5"}));
}

}  // namespace
}  // namespace tlbf::conformance
