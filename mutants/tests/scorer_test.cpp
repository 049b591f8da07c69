// The scorer against fake subjects: a run's failure counts as a kill only
// when the subject could have caused it (ServingRecord), and the hidden server says
// when it could not serve.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "tlbf/mutants/hidden.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "relay_hello.hpp"

namespace tlbf::mutants {
namespace {

using namespace std::chrono_literals;

// Each run is a shell line that passes (`true`) or fails (`false`); what the
// subject saw of it is set per subject. Every run gets a command of its own,
// as the served subjects' runs do, so serving_record() finds the right one.
class FakeSubjects : public Subjects {
 public:
  struct Subject {
    bool suite_passes = true;
    ServingRecord serving;
  };
  std::map<std::string, Subject> by_id;  // "" clean, "broken", or a mutant id

  // At first, a suite that passes the clean subject and fails the broken one
  // and every mutant, having started each of them.
  FakeSubjects() {
    by_id[""] = {true, {}};
    by_id["broken"] = {false, {}};
    for (const char* id : {"s01", "s02", "s03"}) by_id[id] = {false, {}};
  }

  std::vector<std::string> ids() const override {
    std::vector<std::string> out;
    for (const auto& [id, subject] : by_id) {
      if (!id.empty() && id != "broken") out.push_back(id);
    }
    return out;
  }
  Outcome<SuiteRun> clean() override { return make(""); }
  std::optional<Outcome<SuiteRun>> broken() override { return make("broken"); }
  Outcome<SuiteRun> mutant(const std::string& id) override { return make(id); }
  ServingRecord serving_record(const SuiteRun& run) override {
    std::lock_guard<std::mutex> lock(mutex_);
    return by_id.at(subject_of_.at(run.command)).serving;
  }
  void finish(const SuiteRun&) override {}
  Place place(const std::string&) const override { return {}; }
  std::string broken_description() const override { return "a broken fake"; }

 private:
  SuiteRun make(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    SuiteRun run;
    run.command =
        std::string(by_id.at(id).suite_passes ? "true" : "false") + " run-" + std::to_string(++runs_);
    subject_of_[run.command] = id;
    return run;
  }
  std::mutex mutex_;
  int runs_ = 0;
  std::map<std::string, std::string> subject_of_;
};

ScoreOptions options_for(const Subjects& subjects) {
  ScoreOptions options;
  options.mutants = subjects.ids();
  options.jobs = 2;
  return options;
}

TEST(Scorer, AFailureTheSubjectSawIsAKill) {
  FakeSubjects fake;
  const Score score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_EQ(score.killed(), 3);
}

// A suite compiled once before its runs (the served Rust kind): the warm-up is
// its build, and a build that fails is the suite's failure, before any run.
class BuiltOnce final : public FakeSubjects {
 public:
  bool builds = false;
  std::string exit = "false";  // how a failing build ends
  std::optional<Outcome<SuiteRun>> warm_up() override {
    SuiteRun run;
    run.command = builds ? "true" : "echo 'error[E0308]: mismatched types' >&2; echo '{}'; " + exit;
    return run;
  }
  std::string after_warm_up(const SuiteRun&, bool succeeded, const std::string& out) override {
    if (out != "{}\n" && !builds) return "the build's standard output was not handed over";
    return succeeded ? "" : "the suite does not build";
  }
};

TEST(Scorer, ASuiteThatDoesNotBuildFailsCleanWithTheCompilersErrorBeforeAnyRun) {
  BuiltOnce fake;
  Score score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kFailsClean);
  EXPECT_EQ(score.stop_reason,
            "the suite does not build; first failing lines:\nerror[E0308]: mismatched types");
  EXPECT_EQ(score.baseline_runs, 0);
  EXPECT_EQ(score.baseline_output, "error[E0308]: mismatched types\n");  // its standard error, not the JSON
  fake.builds = true;
  score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_EQ(score.killed(), 3);
}

// A build whose program the shell could not find (127) or run (126) where
// the suite runs (no cargo on the suite user's PATH, in the sandbox) is the
// machine's fault, not the suite's.
TEST(Scorer, ABuildWhoseProgramCannotBeRunIsAHarnessErrorNotTheSuites) {
  for (const char* exit : {"exit 127", "exit 126"}) {
    BuiltOnce fake;
    fake.exit = exit;
    const Score score = score_suite(fake, options_for(fake));
    EXPECT_EQ(score.stopped, kHarness) << exit << ": " << score.stop_reason;
    EXPECT_NE(score.stop_reason.find("which is not the suite's doing"), std::string::npos)
        << score.stop_reason;
  }
  BuiltOnce compiler_error;
  compiler_error.exit = "exit 101";  // cargo's, for an error in the tests file
  EXPECT_EQ(score_suite(compiler_error, options_for(compiler_error)).stopped, kFailsClean);
}

TEST(Scorer, AFailureAfterTheHarnessCouldNotServeIsNoKillAndNoGrade) {
  FakeSubjects fake;
  fake.by_id["s02"].serving.harness_fault =
      "could not start the served process: Resource temporarily unavailable";
  const Score score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kHarness);
  EXPECT_NE(score.stop_reason.find("s02"), std::string::npos) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("Resource temporarily unavailable"), std::string::npos)
      << score.stop_reason;
  ASSERT_EQ(score.runs.size(), 3U);
  EXPECT_EQ(score.runs[1].verdict, MutantVerdict::Error);
}

TEST(Scorer, AFailureWithoutEverStartingTheSubjectIsNotTheMutantsDoing) {
  FakeSubjects fake;
  fake.by_id["s03"].serving.reached = false;
  const Score score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kFlaky);
  EXPECT_NE(score.stop_reason.find("s03 without ever starting TLBF_IMPL"), std::string::npos)
      << score.stop_reason;
  EXPECT_FALSE(score.baseline_output.empty());  // the failing run's output is shown
}

TEST(Scorer, APassWithoutStartingTheSubjectIsStillASurvivor) {
  FakeSubjects fake;
  fake.by_id["s01"] = {true, {false, "", std::nullopt}};
  const Score score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_EQ(score.runs[0].verdict, MutantVerdict::Survived);
  EXPECT_EQ(score.killed(), 2);
}

TEST(Scorer, TheHarnessFailingACleanRunStopsAsAHarnessError) {
  FakeSubjects fake;
  fake.by_id[""] = {false, {true, "could not accept a connection: Too many open files", std::nullopt}};
  const Score score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kHarness) << score.stop_reason;  // not "the suite fails on the clean reference"
  EXPECT_NE(score.stop_reason.find("Too many open files"), std::string::npos) << score.stop_reason;
}

TEST(Scorer, TheHarnessFailingTheSanityCheckStopsAsAHarnessError) {
  FakeSubjects fake;
  fake.by_id["broken"].serving.harness_fault = "could not start the served process: Cannot allocate memory";
  const Score score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kHarness) << score.stop_reason;
}

TEST(Scorer, ASanityFailureWithoutStartingTheSubjectProvesNothing) {
  FakeSubjects fake;
  fake.by_id["broken"].serving.reached = false;
  const Score score = score_suite(fake, options_for(fake));
  EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("sanity check"), std::string::npos) << score.stop_reason;
}

TEST(Scorer, TheHarnessFailingAControlRunStopsAsAHarnessError) {
  // The clean subject's first runs are served; the controls, later, are not.
  class LateFault final : public Subjects {
   public:
    std::vector<std::string> ids() const override { return {"s01"}; }
    Outcome<SuiteRun> clean() override { return SuiteRun{"true clean-" + std::to_string(++cleans_), "", -1}; }
    std::optional<Outcome<SuiteRun>> broken() override { return SuiteRun{"false broken", "", -1}; }
    Outcome<SuiteRun> mutant(const std::string&) override { return SuiteRun{"false s01", "", -1}; }
    ServingRecord serving_record(const SuiteRun& run) override {
      const bool control = run.command.rfind("true clean-", 0) == 0 && std::stoi(run.command.substr(11)) > 3;
      return {true, control ? "could not start the served process: Resource temporarily unavailable" : "",
              std::nullopt};
    }
    void finish(const SuiteRun&) override {}
    Place place(const std::string&) const override { return {}; }
    std::string broken_description() const override { return "broken"; }

   private:
    std::atomic<int> cleans_{0};
  } subjects;
  ScoreOptions options;
  options.mutants = {"s01"};
  const Score score = score_suite(subjects, options);
  EXPECT_EQ(score.stopped, kHarness) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("control run"), std::string::npos) << score.stop_reason;
}

// Subjects whose runs are shell lines of the test's choosing: `commands`
// maps "" (clean), "broken", each mutant, chaff and wheat id to one.
class ScriptedSubjects final : public Subjects {
 public:
  std::map<std::string, std::string> commands;
  std::vector<std::string> mutants{"s01", "s02"};
  std::vector<std::string> chaffs, wheats;
  std::set<std::string> unpreparable;  // ids whose runs cannot be prepared (a patch that does not apply)

  std::vector<std::string> ids() const override { return mutants; }
  std::vector<std::string> chaff_ids() const override { return chaffs; }
  std::vector<std::string> wheat_ids() const override { return wheats; }
  Outcome<SuiteRun> clean() override { return make(""); }
  std::optional<Outcome<SuiteRun>> broken() override { return make("broken"); }
  Outcome<SuiteRun> mutant(const std::string& id) override { return make(id); }
  Outcome<SuiteRun> wheat(const std::string& id) override { return make(id); }
  void finish(const SuiteRun&) override {}
  Place place(const std::string&) const override { return {}; }
  std::string broken_description() const override { return "broken"; }
  // The subjects' ids in the order their runs were prepared.
  std::vector<std::string> prepared() {
    std::lock_guard<std::mutex> lock(order_mutex_);
    return prepared_;
  }

 private:
  std::mutex order_mutex_;
  std::vector<std::string> prepared_;
  Outcome<SuiteRun> make(const std::string& id) {
    {
      std::lock_guard<std::mutex> lock(order_mutex_);
      prepared_.push_back(id);
    }
    SuiteRun run;
    if (unpreparable.count(id)) return failure(id + ".patch does not apply");
    const auto found = commands.find(id);
    run.command = found != commands.end() ? found->second : id.empty() ? "true" : "false";
    return run;
  }
};

// A folder for a test's marker files, removed with it.
struct Scratch {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("tlbf-scorer-" + std::to_string(::getpid()) + "-" + std::to_string(++count));
  Scratch() { std::filesystem::create_directories(dir); }
  ~Scratch() { std::filesystem::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
  static inline int count = 0;
};

ScoreOptions options_for(const ScriptedSubjects& subjects) {
  ScoreOptions options;
  options.mutants = subjects.mutants;
  options.chaffs = subjects.chaffs;
  options.wheats = subjects.wheats;
  options.jobs = 2;
  return options;
}

TEST(Scorer, EveryMutantRunsTwiceAndTwoRunsThatDisagreeMakeTheGradingFlaky) {
  Scratch scratch;
  ScriptedSubjects subjects;
  // s02 is caught by its first run only (mkdir succeeds once, even for two
  // runs at once): one failing run is no proof.
  const std::string marker = scratch.file("s02-ran");
  subjects.commands["s02"] = "if mkdir " + marker + " 2>/dev/null; then echo caught; exit 1; fi; exit 0";
  const Score score = score_suite(subjects, options_for(subjects));
  EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("against s02"), std::string::npos) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("caught"), std::string::npos)
      << score.stop_reason;  // the failing run's output
}

TEST(Scorer, AgreeingRunsAreOneOutcomeConfirmedByBoth) {
  ScriptedSubjects subjects;
  subjects.commands["s02"] = "true";
  const Score score = score_suite(subjects, options_for(subjects));
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  ASSERT_EQ(score.runs.size(), 2U);
  EXPECT_EQ(score.runs[0].verdict, MutantVerdict::Killed);
  EXPECT_EQ(score.runs[1].verdict, MutantVerdict::Survived);
  EXPECT_EQ(score.runs[0].confirmed_by, 2);
}

// A shell line that fails (kills) in the runs `pattern` marks K and passes
// in those it marks S, in the order the runs start: each run takes the next
// number with mkdir, which succeeds once even for two runs at once.
std::string kills_in_turn(const Scratch& scratch, const std::string& pattern) {
  std::string line =
      "n=0; while ! mkdir " + scratch.file("turn-") + "$n 2>/dev/null; do n=$((n+1)); done; case $n in ";
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == 'K') line += std::to_string(i) + ") echo caught in run $n; exit 1;; ";
  }
  return line + "esac; exit 0";
}

int turns_taken(const Scratch& scratch) {
  int n = 0;
  while (std::filesystem::exists(scratch.file("turn-" + std::to_string(n)))) ++n;
  return n;
}

TEST(Scorer, ARequiredMutantsKillIsConfirmedBySixRuns) {
  Scratch scratch;
  ScriptedSubjects subjects;
  subjects.commands["s02"] = kills_in_turn(scratch, "KKKKKKKKKK");
  ScoreOptions options = options_for(subjects);
  options.required = {"s01", "s02"};
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_EQ(turns_taken(scratch), 6);
  EXPECT_EQ(score.runs[1].confirmed_by, 6);
  EXPECT_EQ(score.runs[1].verdict, MutantVerdict::Killed);
}

TEST(Scorer, OnlyKillsOfRequiredMutantsAreConfirmedFurther) {
  Scratch scratch, other;
  ScriptedSubjects subjects;
  subjects.mutants = {"s01", "s02", "s03"};
  subjects.chaffs = {"c01"};
  subjects.commands["s01"] = kills_in_turn(scratch, "KKKKKKKKKK");  // not required
  subjects.commands["s02"] = "true";                                // required, survives
  subjects.commands["c01"] = kills_in_turn(other, "KKKKKKKKKK");    // a chaff
  ScoreOptions options = options_for(subjects);
  options.required = {"s02", "s03"};
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_EQ(turns_taken(scratch), 2);
  EXPECT_EQ(turns_taken(other), 2);
  EXPECT_EQ(score.runs[1].verdict, MutantVerdict::Survived);
  EXPECT_EQ(score.runs[1].confirmed_by, 2);  // a survivor is not run again
  EXPECT_EQ(score.runs[2].confirmed_by, 6);  // s03, killed by `false` every run
}

// A suite that kills s02 in half its runs, and in its first two: two runs
// that agree took it for a kill; the third run disagrees, and the grading
// is flaky, with no more runs of s02.
TEST(Scorer, ASuiteThatKillsARequiredMutantHalfTheTimeIsFlaggedFlaky) {
  Scratch scratch;
  ScriptedSubjects subjects;
  subjects.commands["s02"] = kills_in_turn(scratch, "KKSKSS");
  ScoreOptions options = options_for(subjects);
  options.jobs = 1;  // the runs in the order the pattern gives them
  options.required = {"s01", "s02"};
  const Score score = score_suite(subjects, options);
  EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("against s02"), std::string::npos) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("caught in run"), std::string::npos) << score.stop_reason;
  EXPECT_EQ(turns_taken(scratch), 3);  // stopped at the first disagreement

  Scratch again;
  ScriptedSubjects once_required;
  once_required.commands["s02"] = kills_in_turn(again, "KKSKSS");
  ScoreOptions old_rule = options_for(once_required);
  old_rule.jobs = 1;
  old_rule.required = {"s01", "s02"};
  old_rule.kill_confirm_runs = 2;  // two runs that agree, as before: it would have met the bar
  const Score fooled = score_suite(once_required, old_rule);
  ASSERT_EQ(fooled.stopped, kNotStopped) << fooled.stop_reason;
  EXPECT_EQ(fooled.killed(), 2);
}

// What a grading of a suite whose every run of s02 appends K (it killed) or
// S (it passed) to `log` must be: meets after six kills, short after two
// survivors (a survivor is not run again), else flaky, naming s02, stopped at
// the first run that disagreed (every run before the last agrees). True when flaky.
bool check_coin_grading(const Score& score, const std::string& log) {
  std::ifstream in(log);
  std::string runs;
  for (std::string line; std::getline(in, line);) runs += line;
  EXPECT_GE(runs.size(), 2U);
  EXPECT_LE(runs.size(), 6U);
  if (runs == "KKKKKK" || runs == "SS") {
    EXPECT_EQ(score.stopped, kNotStopped) << runs << ": " << score.stop_reason;
    if (runs == "SS" && score.runs.size() > 1) {
      EXPECT_EQ(score.runs[1].verdict, MutantVerdict::Survived);
    }
    return false;
  }
  EXPECT_EQ(score.stopped, kFlaky) << runs << ": " << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("against s02"), std::string::npos) << score.stop_reason;
  EXPECT_EQ(runs.find(runs.back() == 'K' ? 'K' : 'S'), runs.size() - 1) << runs;
  return true;
}

// An unseeded random choice that kills s02 in half its runs: each run
// appends K (it failed) or S (it passed) to a log, so each grading is checked
// against what its runs did. It meets the bar only when all six runs kill
// (1 grading in 64), is short when its first two both pass, and is flaky
// whenever its runs disagree, with no run of s02 after the first that
// disagrees. Over eight gradings one at least is flaky but for 1 time in
// 40,000 ((17/64)^8).
TEST(Scorer, AnUnseededSuiteThatKillsARequiredMutantHalfTheTimeIsFlaggedFlakyWhenItsRunsDisagree) {
  int flaky = 0;
  for (int grading = 0; grading < 8; ++grading) {
    Scratch scratch;
    const std::string log = scratch.file("log");
    ScriptedSubjects subjects;
    subjects.commands["s02"] = "if [ $(od -An -N1 -tu1 /dev/urandom) -lt 128 ]; then echo K >> " + log +
                               "; echo caught; exit 1; fi; echo S >> " + log + "; exit 0";
    ScoreOptions options = options_for(subjects);
    options.jobs = 1;
    options.required = {"s01", "s02"};
    const Score score = score_suite(subjects, options);
    flaky += check_coin_grading(score, log);
  }
  EXPECT_GT(flaky, 0);
}

TEST(Scorer, ASuiteThatFailsAWheatRejectsACorrectImplementationAndGetsNoScore) {
  ScriptedSubjects subjects;
  subjects.wheats = {"lenient", "rewritten"};
  subjects.commands["lenient"] = "true";
  subjects.commands["rewritten"] = "echo 'FAIL: test_source_hash'; exit 1";
  const Score score = score_suite(subjects, options_for(subjects));
  EXPECT_EQ(score.stopped, kRejectsCorrect) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("'rewritten'"), std::string::npos) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("and again run alone"), std::string::npos) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("test_source_hash"), std::string::npos) << score.stop_reason;
  EXPECT_TRUE(score.runs.empty());
  ASSERT_EQ(score.wheats.size(), 2U);
  EXPECT_EQ(score.wheats[0].passes, 3);
  EXPECT_EQ(score.wheats[1].passes, 0);
}

// A command that fails its first three runs and passes every later one (each
// mkdir succeeds once, even for two runs at once).
std::string fails_its_first_three_runs(Scratch& scratch) {
  std::string command = "if false";
  for (const char* marker : {"a", "b", "c"}) command += " || mkdir " + scratch.file(marker) + " 2>/dev/null";
  return command + "; then exit 1; fi";
}

TEST(Scorer, ASuiteThatFailsAWheatInSomeRunsOnlyIsFlakyNotRejectingIt) {
  Scratch scratch;
  ScriptedSubjects subjects;
  subjects.wheats = {"lenient"};
  // Fails the wheat's first run only (mkdir succeeds once, even for two runs at once).
  subjects.commands["lenient"] =
      "if mkdir " + scratch.file("ran") + " 2>/dev/null; then echo lost; exit 1; fi";
  const Score score = score_suite(subjects, options_for(subjects));
  EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("'lenient' in 1 of 3 runs"), std::string::npos) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("lost"), std::string::npos) << score.stop_reason;
}

TEST(Scorer, ASuiteThatFailsAWheatOnlyBesideOtherRunsIsFlaky) {
  Scratch scratch;
  ScriptedSubjects subjects;
  subjects.wheats = {"lenient"};
  // Fails the wheat's three graded runs, passes the fourth: the run alone.
  subjects.commands["lenient"] = fails_its_first_three_runs(scratch);
  const Score beside = score_suite(subjects, options_for(subjects));
  EXPECT_EQ(beside.stopped, kFlaky) << beside.stop_reason;
  EXPECT_NE(beside.stop_reason.find("then passed it run alone"), std::string::npos) << beside.stop_reason;
}

TEST(Scorer, AtOneJobAWheatFailedInEveryRunIsRejectedWithoutARunAlone) {
  Scratch scratch;
  ScriptedSubjects subjects;
  subjects.wheats = {"lenient"};
  subjects.commands["lenient"] = fails_its_first_three_runs(scratch);
  ScoreOptions options = options_for(subjects);
  options.jobs = 1;
  const Score score = score_suite(subjects, options);
  EXPECT_EQ(score.stopped, kRejectsCorrect) << score.stop_reason;
}

TEST(Scorer, ABaselineThatFailsOnlyWhenTwoRunsShareTheMachineIsFlaky) {
  Scratch scratch;
  ScriptedSubjects subjects;
  // A fixed resource held for a second: two runs at once cannot both have it.
  const std::string lock = scratch.file("port");
  subjects.commands[""] = "mkdir " + lock + " 2>/dev/null || exit 1; sleep 1; rmdir " + lock;
  ScoreOptions options = options_for(subjects);
  options.baseline_runs = 4;
  const Score two_at_a_time = score_suite(subjects, options);
  EXPECT_EQ(two_at_a_time.stopped, kFlaky) << two_at_a_time.stop_reason;
  options.jobs = 1;
  options.control_runs = 0;
  const Score one_at_a_time = score_suite(subjects, options);
  EXPECT_EQ(one_at_a_time.stopped, kNotStopped) << one_at_a_time.stop_reason;
}

TEST(Scorer, ARunThatCannotBePreparedIsUngradableNotASurvivor) {
  ScriptedSubjects subjects;
  subjects.unpreparable = {"s02"};
  const Score score = score_suite(subjects, options_for(subjects));
  EXPECT_EQ(score.stopped, kUngradable) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("s02.patch does not apply"), std::string::npos) << score.stop_reason;
}

// The same Failure is the harness's when the run was a clean one: the suite
// did nothing wrong, so it neither fails clean nor gets a grade.
TEST(Scorer, ACleanRunThatCannotBePreparedIsAHarnessErrorNotTheSuites) {
  ScriptedSubjects subjects;
  subjects.unpreparable = {""};
  const Score score = score_suite(subjects, options_for(subjects));
  EXPECT_EQ(score.stopped, kHarness) << score.stop_reason;
  EXPECT_EQ(score.stop_reason, "a clean run could not be prepared: .patch does not apply");
  EXPECT_EQ(score.baseline_runs, 0);
  EXPECT_TRUE(score.runs.empty());
}

// A stop decided in a phase reaches the report whole: its word, its reason,
// and the output of the run it stopped at (the wheat's, here), as
// docs/mutants.md's config.stopped says.
TEST(Scorer, AStopsReasonAndItsRunsOutputReachTheReport) {
  ScriptedSubjects subjects;
  subjects.wheats = {"rewritten"};
  subjects.commands["rewritten"] = "echo 'FAIL: test_source_hash'; exit 1";
  ScoreOptions options = options_for(subjects);
  options.jobs = 1;  // no run alone after the three that failed
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kRejectsCorrect) << score.stop_reason;
  ReportContext context;
  context.mode = "served";
  context.exit_code = 6;
  const auto report = nlohmann::json::parse(mutation_report_json(subjects, score, context));
  const auto& stopped = report["config"]["stopped"];
  EXPECT_EQ(stopped["why"], "rejects-correct");
  EXPECT_EQ(stopped["exitCode"], 6);
  EXPECT_EQ(
      stopped["reason"],
      "fails the correct variant 'rewritten' (3 of 3 runs): the suite rejects a correct implementation, "
      "so it tests something the documents leave open, or recognises the reference by its source; "
      "first failing lines:\nFAIL: test_source_hash");
  EXPECT_EQ(stopped["failingOutput"], "FAIL: test_source_hash\n");
  EXPECT_FALSE(stopped.contains("passingOutput"));  // the clean runs said nothing
}

TEST(Scorer, ChaffsAreRunLikeMutantsAndKeptOutOfTheScore) {
  ScriptedSubjects subjects;
  subjects.chaffs = {"c01", "c02", "c03"};
  subjects.commands["c02"] = "true";
  const Score score = score_suite(subjects, options_for(subjects));
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_EQ(score.runs.size(), 2U);
  EXPECT_DOUBLE_EQ(score.score(), 1.0);
  ASSERT_EQ(score.chaff_runs.size(), 3U);
  EXPECT_EQ(score.chaffs_killed(), 2);
  EXPECT_EQ(score.chaff_runs[1].verdict, MutantVerdict::Survived);
}

TEST(Scorer, ProgressCountsEveryRunOfBothPhases) {
  ScriptedSubjects subjects;
  ScoreOptions options = options_for(subjects);
  std::mutex mutex;
  std::map<std::string, int> last_done, totals;
  int mutants_done = 0;
  options.progress = [&](const Progress& p) {
    std::lock_guard<std::mutex> lock(mutex);
    last_done[p.phase] = p.done;
    totals[p.phase] = p.total;
    mutants_done = std::max(mutants_done, p.mutants_done);
  };
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_EQ(totals["baseline"], 3);
  EXPECT_EQ(last_done["baseline"], 3);
  // Each mutant twice, the two controls, and the sanity check's run.
  EXPECT_EQ(totals["mutants"], 2 * 2 + 2 + 1);
  EXPECT_EQ(last_done["mutants"], 7);
  EXPECT_EQ(mutants_done, 2);
}

// After the baseline's clean runs, the wheats', the sanity check's, the
// controls' and the mutants' runs are one phase: none of them can be told
// from the others by when it runs.
TEST(Scorer, AfterTheBaselineEveryRunIsInOnePhase) {
  ScriptedSubjects subjects;
  subjects.wheats = {"lenient", "rewritten"};
  subjects.commands["lenient"] = subjects.commands["rewritten"] = "true";
  ScoreOptions options = options_for(subjects);
  options.jobs = 1;
  std::vector<std::pair<std::string, int>> phases;
  options.progress = [&](const Progress& p) { phases.emplace_back(p.phase, p.total); };
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  const auto order = subjects.prepared();
  ASSERT_EQ(order.size(), 3U + 2 * 2 + 2 + 2 * 3 + 1);  // baseline, mutants, controls, wheats, sanity
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(order[i], "") << "the baseline is the clean runs alone";
  ASSERT_FALSE(phases.empty());
  EXPECT_EQ(phases.back(), std::make_pair(std::string("mutants"), 2 * 2 + 2 + 2 * 3 + 1));
  for (const auto& [phase, total] : phases) EXPECT_TRUE(phase == "baseline" || phase == "mutants") << phase;
}

// A suite that passes its three clean runs and fails every later one: the
// control runs hidden among the mutants' catch it, and the report shows a
// failing control run's output, not another run's.
TEST(Scorer, AControlRunFailedStopsAsFlakyWithThatRunsOutput) {
  Scratch scratch;
  ScriptedSubjects subjects;
  std::string first_three = "if false";
  for (const char* marker : {"a", "b", "c"})
    first_three += " || mkdir " + scratch.file(marker) + " 2>/dev/null";
  subjects.commands[""] = first_three + "; then exit 0; fi; echo 'counted: a control run'; exit 1";
  const Score score = score_suite(subjects, options_for(subjects));
  EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
  EXPECT_EQ(score.baseline_passes, 3);
  EXPECT_EQ(score.control_runs, 2);
  EXPECT_EQ(score.control_passes, 0);
  EXPECT_NE(score.stop_reason.find("failed 2 of the 2 clean runs hidden among them"), std::string::npos)
      << score.stop_reason;
  EXPECT_EQ(score.baseline_output, "counted: a control run\n");
}

// A suite that counts its runs and passes all of the first nine, then only
// the clean reference: the old order ran the three clean runs and both wheats'
// three each first, so it met the bar testing nothing. Now the wheats run
// among the mutants, and it fails them. (It meets only if the first six runs
// after the baseline are the six wheat runs: about once in 600,000.)
TEST(Scorer, ASuiteThatPassesOnlyItsFirstRunsFailsTheWheatsAmongTheMutants) {
  Scratch scratch;
  ScriptedSubjects subjects;
  subjects.mutants = {"s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08", "s09", "s10"};
  subjects.wheats = {"lenient", "rewritten"};
  const std::string claim =
      "i=1; while ! mkdir " + scratch.file("run-") + "$i 2>/dev/null; do i=$((i+1)); done; ";
  subjects.commands[""] = claim + "exit 0";
  for (const char* id : {"broken", "lenient", "rewritten", "s01", "s02", "s03", "s04", "s05", "s06", "s07",
                         "s08", "s09", "s10"})
    subjects.commands[id] = claim + "[ $i -le 9 ]";
  const Score score = score_suite(subjects, options_for(subjects));
  EXPECT_TRUE(score.stopped == kRejectsCorrect || score.stopped == kFlaky || score.stopped == kPassesBroken)
      << to_string(score.stopped) << ": " << score.stop_reason;
}

// Subjects whose suite's tests can also run alone (Subjects::runs_tests_alone):
// `commands` are the whole suite's shell lines, as ScriptedSubjects' (a
// mutant's by default fails naming its test, t_ and its id), and `alone`
// the lines of runs of only some tests, by subject id ("" the clean subject,
// which passes alone by default; a mutant fails). A run's failed tests are the words
// after "FAILED " in its output; every run alone and every whole run of a
// mutant is logged. The clean runs are recorded: the same sessions in each
// when `deterministic`, else other requests in each.
class AloneSubjects final : public Subjects {
 public:
  std::map<std::string, std::string> commands, alone;
  std::vector<std::string> mutants{"s01", "s02"};
  bool deterministic = true;
  struct AloneRun {
    std::string id;  // "" for a clean run alone
    std::vector<std::string> tests;
    int form = -1;  // a clean run's
  };

  std::vector<std::string> ids() const override { return mutants; }
  Outcome<SuiteRun> clean() override { return line(commands, "", "true"); }
  std::optional<Outcome<SuiteRun>> broken() override { return line(commands, "broken", "false"); }
  Outcome<SuiteRun> mutant(const std::string& id) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++whole_runs_[id];
    }
    return line(commands, id, "echo FAILED t_" + id + "; exit 1");
  }
  Outcome<SuiteRun> clean_recorded() override {
    SuiteRun run = line(commands, "", "true");
    std::lock_guard<std::mutex> lock(mutex_);
    run.command += " # recorded " + std::to_string(++recorded_);
    return run;
  }
  ServingRecord serving_record(const SuiteRun& run) override {
    ServingRecord record;
    const auto at = run.command.find(" # recorded ");
    if (at == std::string::npos) return record;
    const std::string k = deterministic ? "3" : run.command.substr(at + 12);
    record.transcript = Transcript{{"new f 64 " + k + "\n", "ok\n"}};
    return record;
  }
  bool runs_tests_alone() const override { return true; }
  std::vector<std::string> failed_tests(const std::string& out) const override {
    std::vector<std::string> names;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);) {
      if (l.rfind("FAILED ", 0) == 0) names.push_back(l.substr(7));
    }
    return names;
  }
  Outcome<SuiteRun> mutant_only(const std::string& id, const std::vector<std::string>& tests) override {
    log({id, tests, -1});
    return line(alone, id, "exit 1");
  }
  Outcome<SuiteRun> clean_only(const std::vector<std::string>& tests, int form) override {
    log({"", tests, form});
    return line(alone, "", "true");
  }
  void finish(const SuiteRun&) override {}
  Place place(const std::string&) const override { return {}; }
  std::string broken_description() const override { return "broken"; }
  std::vector<AloneRun> alone_runs() {
    std::lock_guard<std::mutex> lock(mutex_);
    return alone_runs_;
  }
  int whole_runs(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    return whole_runs_[id];
  }

 private:
  static SuiteRun line(const std::map<std::string, std::string>& lines, const std::string& id,
                       const std::string& otherwise) {
    const auto found = lines.find(id);
    return {found != lines.end() ? found->second : otherwise, "", -1};
  }
  void log(AloneRun run) {
    std::lock_guard<std::mutex> lock(mutex_);
    alone_runs_.push_back(std::move(run));
  }
  std::mutex mutex_;
  std::vector<AloneRun> alone_runs_;
  std::map<std::string, int> whole_runs_;
  int recorded_ = 0;
};

ScoreOptions required_both(const AloneSubjects& subjects) {
  ScoreOptions options;
  options.mutants = subjects.mutants;
  options.required = subjects.mutants;
  options.jobs = 2;
  return options;
}

// Two whole runs of each mutant, as every other outcome; then the four more
// runs a required kill needs, each of only the tests that caught it, and two
// clean runs of those tests alone, one in each form. s01's failure named no
// test (a crash): the whole suite confirms it, beside two whole clean runs.
TEST(ScorerAlone, ARequiredKillIsConfirmedByTheTestsThatCaughtItRunAlone) {
  AloneSubjects subjects;
  subjects.commands["s01"] = "exit 1";
  const Score score = score_suite(subjects, required_both(subjects));
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  ASSERT_EQ(score.runs.size(), 2U);
  EXPECT_EQ(score.runs[0].confirmed_by, 6);
  EXPECT_EQ(score.runs[1].confirmed_by, 6);
  EXPECT_EQ(score.confirmed_alone,
            (std::map<std::string, std::vector<std::string>>{{"s01", {}}, {"s02", {"t_s02"}}}));
  std::map<std::string, int> mutant_alone;
  std::multiset<std::pair<std::vector<std::string>, int>> clean_alone;
  for (const auto& run : subjects.alone_runs()) {
    if (run.id.empty()) {
      clean_alone.insert({run.tests, run.form});
    } else {
      ++mutant_alone[run.id];
      EXPECT_EQ(run.tests, std::vector<std::string>{"t_" + run.id});
    }
  }
  EXPECT_EQ(mutant_alone, (std::map<std::string, int>{{"s02", 4}}));  // s01's four more ran whole
  const std::vector<std::string> whole, t_s02{"t_s02"};
  EXPECT_EQ(clean_alone, (std::multiset<std::pair<std::vector<std::string>, int>>{
                             {whole, 0}, {whole, 1}, {t_s02, 0}, {t_s02, 1}}));
  EXPECT_EQ(score.alone_control_runs, 4);
  EXPECT_EQ(score.alone_control_passes, 4);
}

TEST(ScorerAlone, ARequiredSurvivorAndAKillThatDisagreesAreNotRunAlone) {
  Scratch scratch;
  AloneSubjects subjects;
  subjects.commands["s01"] = "true";
  subjects.commands["s02"] = kills_in_turn(scratch, "KS") + " # FAILED";
  ScoreOptions options = required_both(subjects);
  options.jobs = 1;
  const Score score = score_suite(subjects, options);
  EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
  for (const auto& r : subjects.alone_runs()) ADD_FAILURE() << "ran alone: '" << r.id << "' form " << r.form;
  EXPECT_TRUE(score.confirmed_alone.empty());
}

// A suite whose clean runs sent other requests (its tests share a random
// state: a budget of cases the tests before one spend) may catch a mutant
// every time alone and by luck when whole: its kills are confirmed whole.
TEST(ScorerAlone, ASuiteWhoseCleanRunsSentOtherRequestsIsConfirmedByWholeRuns) {
  AloneSubjects subjects;
  subjects.deterministic = false;
  const Score score = score_suite(subjects, required_both(subjects));
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_FALSE(score.transcript.deterministic);
  EXPECT_TRUE(subjects.alone_runs().empty());
  EXPECT_TRUE(score.confirmed_alone.empty());
  EXPECT_EQ(subjects.whole_runs("s02"), 6);
  EXPECT_EQ(score.runs[1].confirmed_by, 6);
}

// --no-runs-alone: a course that wants every kill confirmed whole gets it,
// whatever the kit names.
TEST(ScorerAlone, WithoutRunsAloneEveryConfirmingRunIsWhole) {
  AloneSubjects subjects;
  ScoreOptions options = required_both(subjects);
  options.runs_alone = false;
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_TRUE(score.transcript.deterministic);
  EXPECT_TRUE(subjects.alone_runs().empty());
  EXPECT_TRUE(score.confirmed_alone.empty());
  EXPECT_EQ(subjects.whole_runs("s02"), 6);
}

// A timeout is two runs that timed out: a required mutant's is confirmed by
// three such places, six runs, as a kill is; before, its two places (four
// runs) were taken for a kill, and a suite that hangs on a coin met the bar
// 1 time in 16.
TEST(ScorerAlone, ARequiredMutantsTimeoutsAreConfirmedBySixRunsToo) {
  for (const bool alone : {true, false}) {
    AloneSubjects subjects;
    subjects.deterministic = alone;
    subjects.commands["s02"] = "sleep 30";
    ScoreOptions options = required_both(subjects);
    options.jobs = 1;  // at -j2 a place may start while the one before it runs
    options.timeout_floor = std::chrono::milliseconds(300);
    options.timeout_factor = 0;
    const Score score = score_suite(subjects, options);
    ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
    EXPECT_EQ(score.runs[1].verdict, MutantVerdict::Timeout);
    EXPECT_EQ(subjects.whole_runs("s02"), 6) << (alone ? "deterministic" : "not deterministic");
    EXPECT_EQ(score.runs[1].confirmed_by, 3);  // places, each two runs
    EXPECT_EQ(score.confirmed_alone.count("s02"), alone ? 1U : 0U);
  }
}

// A suite that fails whenever only some of its tests run would have every
// kill it made once confirmed alone: the clean runs alone catch it.
TEST(ScorerAlone, ASuiteThatFailsWheneverOnlySomeOfItsTestsRunIsFlaky) {
  AloneSubjects subjects;
  subjects.alone[""] = "echo 'run alone: failing'; exit 1";
  const Score score = score_suite(subjects, required_both(subjects));
  EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("fails when only some of its tests run: run alone, t_s0"),
            std::string::npos)
      << score.stop_reason;
  EXPECT_EQ(score.baseline_output, "run alone: failing\n");
  EXPECT_EQ(score.alone_control_passes, 0);
}

// A test that catches s02 only after the tests before it have run passes
// alone: its kill is not reproduced, and the grading says which run passed.
TEST(ScorerAlone, ATestThatCatchesAMutantOnlyAfterOtherTestsIsFlaky) {
  AloneSubjects subjects;
  subjects.alone["s02"] = "true";
  const Score score = score_suite(subjects, required_both(subjects));
  EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("against s02"), std::string::npos) << score.stop_reason;
  EXPECT_NE(score.stop_reason.find("the run that passed ran only t_s02"), std::string::npos)
      << score.stop_reason;
}

// An unseeded test that kills s02 in half its runs, whole or alone: each run
// appends K or S to a log. It meets the bar only when all six runs kill (1
// grading in 64) and is flaky whenever they disagree, stopping at the first
// run that does. Over eight gradings one at least is flaky but for 1 time in
// 40,000, as when every run is whole.
TEST(ScorerAlone, AnUnseededTestThatKillsHalfTheTimeIsFlaggedFlakyWhenItsRunsDisagree) {
  int flaky = 0;
  for (int grading = 0; grading < 8; ++grading) {
    Scratch scratch;
    const std::string log = scratch.file("log");
    const std::string half = "if [ $(od -An -N1 -tu1 /dev/urandom) -lt 128 ]; then echo K >> " + log +
                             "; echo FAILED t_coin; exit 1; fi; echo S >> " + log + "; exit 0";
    AloneSubjects subjects;
    subjects.commands["s02"] = subjects.alone["s02"] = half;
    ScoreOptions options = required_both(subjects);
    options.jobs = 1;
    const Score score = score_suite(subjects, options);
    flaky += check_coin_grading(score, log);
  }
  EXPECT_GT(flaky, 0);
}

// The same coin in whole runs, and a suite that fails every run alone, so
// that a kill made once by luck is confirmed four times over: the clean runs
// alone fail too, and it never meets the bar (short when both whole runs
// pass, flaky otherwise).
TEST(ScorerAlone, ACoinWhoseTestsFailWheneverTheyRunAloneNeverMeetsTheBar) {
  for (int grading = 0; grading < 8; ++grading) {
    AloneSubjects subjects;
    subjects.commands["s02"] =
        "if [ $(od -An -N1 -tu1 /dev/urandom) -lt 128 ]; then echo FAILED t_coin; exit 1; fi; exit 0";
    subjects.alone[""] = subjects.alone["s02"] = "exit 1";
    const Score score = score_suite(subjects, required_both(subjects));
    if (score.stopped == kNotStopped) {
      EXPECT_EQ(score.runs[1].verdict, MutantVerdict::Survived);
    } else {
      EXPECT_EQ(score.stopped, kFlaky) << score.stop_reason;
    }
  }
}

// What tlbf-relay sends first: the hello and two descriptors (here a pipe's
// ends), which become the served process's standard input and output.
void send_relay_hello(int sock) {
  int pipe_ends[2];
  ASSERT_EQ(::pipe2(pipe_ends, O_CLOEXEC), 0);  // no copy in a process the server forks meanwhile
  test_support::hand_over(sock, pipe_ends[0], pipe_ends[1]);
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
}

// The real server: a connection it cannot serve (tlbf-mutant cannot be run)
// is a fault it reports, and connections are counted.
TEST(HiddenServer, ReportsAServedProcessItCouldNotRun) {
  const std::string dir =
      std::filesystem::temp_directory_path() / ("tlbf-scorer-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto started = HiddenServer::start(dir, "/nonexistent/tlbf-mutant", "");
  ASSERT_TRUE(started.ok()) << started.why();
  auto server = std::move(started).value();
  EXPECT_EQ(server->connections(), 0);

  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strcpy(address.sun_path, server->socket_path().c_str());
  const int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_EQ(::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  send_relay_hello(sock);
  char byte;
  EXPECT_EQ(::read(sock, &byte, 1), 0);  // the served process could not run: the connection ends at once
  ::close(sock);

  EXPECT_EQ(server->connections(), 1);
  // It cannot even be copied into the unreadable image the served processes run from (hidden.cpp).
  EXPECT_NE(server->fault().find("cannot make an unreadable copy of /nonexistent/tlbf-mutant"),
            std::string::npos)
      << server->fault();
  server.reset();

  // A program that exists and cannot run: the server learns of the failed
  // exec before it closes its end of the connection, so both are known once
  // the connection has ended.
  const std::string not_a_program = dir + "/not-a-program";
  { std::ofstream(not_a_program) << "neither ELF nor a script\n"; }
  started = HiddenServer::start(dir, not_a_program, "");
  ASSERT_TRUE(started.ok()) << started.why();
  server = std::move(started).value();
  EXPECT_EQ(server->fault(), "");
  const int again = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  std::strcpy(address.sun_path, server->socket_path().c_str());
  ASSERT_EQ(::connect(again, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  send_relay_hello(again);
  EXPECT_EQ(::read(again, &byte, 1), 0);
  ::close(again);
  EXPECT_EQ(server->connections(), 1);
  EXPECT_NE(server->fault().find("could not run " + not_a_program), std::string::npos) << server->fault();
  server.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tlbf::mutants
