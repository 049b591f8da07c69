// The runner's promises against implementations that misbehave for real:
// a bounded run whatever they do, bounded memory whatever they write, no
// process left behind however tlbf ends, readable reports, and
// counterexamples that replay from a fresh start. Each test runs `tlbf check`
// as a user would and asserts the time, the memory or the processes, not only
// the exit code. The times asserted are the budgets tlbf promises (with room
// for a loaded machine), not speed goals.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "live_processes.hpp"
#include "shared_fixtures.hpp"
#include "tlbf/address_sanitizer.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/runner.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::conformance {
namespace {

using test_support::misbehaving;

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A tag of its own in the command line, so that only this test's processes are looked for.
std::string tag_for(const std::string& what) { return "budget-" + std::to_string(::getpid()) + "-" + what; }

using test_support::processes_with;

// Waits up to `grace` for the processes to go; how many are left. Gone means
// none seen for 100 ms: a process in the middle of an exec can have no
// command line to read for a moment.
int left_after(const std::string& tag, std::chrono::milliseconds grace) {
  const auto until = std::chrono::steady_clock::now() + grace;
  int quiet_polls = 0;
  while (quiet_polls < 5 && std::chrono::steady_clock::now() < until) {
    quiet_polls = processes_with(tag) == 0 ? quiet_polls + 1 : 0;
    std::this_thread::sleep_for(20ms);
  }
  return processes_with(tag);
}

struct Checked {
  RunResult run;
  std::chrono::duration<double> took{};
  nlohmann::json report;  // --json
};

// `tlbf check ARGS --impl IMPL` as a child process, with its JSON report.
Checked tlbf_check(const std::string& impl, const std::string& args = "") {
  static int serial = 0;
  const fs::path json = fs::temp_directory_path() / ("tlbf_budget_" + std::to_string(::getpid()) + "_" +
                                                     std::to_string(serial++) + ".json");
  const std::string command = std::string(TLBF_BINARY) + " check " + args + " --json " + json.string() +
                              " --impl " + shell_quote(impl);
  Checked c;
  const auto start = std::chrono::steady_clock::now();
  c.run = run_with_input(command, "", 600s);  // a hang guard only
  c.took = std::chrono::steady_clock::now() - start;
  std::ifstream in(json);
  if (in) c.report = nlohmann::json::parse(in, nullptr, false);
  fs::remove(json);
  return c;
}

std::string failures_of(const nlohmann::json& report) {
  std::string out;
  if (!report.is_object()) return out;
  for (const auto& c : report["cases"]) {
    if (c["outcome"] == "FAIL") out += c["name"].get<std::string>() + ": " + c.value("reason", "") + "\n";
  }
  return out + "session: " + report.value("session", "") +
         "\nstopped: " + report.value("stopped_because", "");
}

// The tests of a whole run's budget give one of a few seconds: the default
// (60 s) is a number, not a behaviour, and waiting it out made these tests a
// fifth of the suite's time. The room above the budget is measured in the same
// run: a correct check of the built-in reference, times four, and never under
// ten seconds (the process starts and the report on a loaded machine).
// A hang costs at most the first answer's timeout, here a second, so that
// several fit in the budget.
constexpr auto kBudget = 8s;
const std::string kBudgetOption = " --time-budget 8 --timeout 1000";

std::chrono::duration<double> room() {
  static const std::chrono::duration<double> measured = [] {
    const Checked c = tlbf_check(std::string(TLBF_BINARY) + " serve", "--runs 0");
    return std::max<std::chrono::duration<double>>(10s, 4 * c.took);
  }();
  return measured;
}

TEST(Budgets, RepeatedHangsEndTheRunWithinTheBudget) {
  // Each process hangs at its 50th request, however often it is restarted:
  // each hang costs its case and a wait, and the budget ends the run.
  const std::string tag = tag_for("hang_every_50");
  const Checked c = tlbf_check(misbehaving("hang_every_50", tag), kBudgetOption);
  EXPECT_EQ(c.run.exit_code, 1) << c.run.out;
  EXPECT_LT(c.took, kBudget + room());
  const std::string why = c.report.value("stopped_because", "");
  EXPECT_NE(why.find("the time budget of"), std::string::npos) << why << failures_of(c.report);
  EXPECT_GT(c.report.value("failed", 0), 3);
  EXPECT_GT(c.report.value("not_run", 0), 10);
  // The text report lists the cases not run by group.
  EXPECT_NE(c.run.out.find("NOT RUN: "), std::string::npos) << c.run.out;
  EXPECT_NE(c.run.out.find("vectors/filter "), std::string::npos) << c.run.out;
  EXPECT_EQ(left_after(tag, 2s), 0) << "a process outlived tlbf check";
}

TEST(Budgets, ABudgetRunOutInABatchLeavesItsLaterCasesNotRun) {
  // With --max-failures the cases go out 64 at a time. When the time budget
  // ran out in a batch that was not the last, the cases after the one in
  // flight were skipped over, left unjudged and counted as passed (63 of
  // them, with no name, in a run that had judged 72).
  const std::string tag = tag_for("hang_every_50");
  const Checked c = tlbf_check(misbehaving("hang_every_50", tag), kBudgetOption + " --max-failures 1000");
  EXPECT_EQ(c.run.exit_code, 1) << c.run.out;
  for (const auto& r : c.report["cases"]) EXPECT_FALSE(r.value("name", "").empty()) << r.dump();
  EXPECT_EQ(left_after(tag, 2s), 0) << "a process outlived tlbf check";
}

TEST(Budgets, FaultsStopTheRunAfterTheCountGiven) {
  const std::string tag = tag_for("hang_every_50");
  // The count is under test, not the wait: each hang waits --timeout (1 s), not the default 3 s and more.
  const Checked c = tlbf_check(misbehaving("hang_every_50", tag), "--faults 3 --timeout 1000");
  EXPECT_EQ(c.run.exit_code, 1) << c.run.out;
  EXPECT_LT(c.took, 60s + room());  // the faults end it, not the default budget
  EXPECT_NE(c.report.value("stopped_because", "").find("unreliable: hung 3 times"), std::string::npos)
      << failures_of(c.report);
  EXPECT_GT(c.report.value("not_run", 0), 100);
  EXPECT_NE(c.run.out.find("NOT RUN: "), std::string::npos) << c.run.out;
  EXPECT_EQ(left_after(tag, 2s), 0) << "a process outlived tlbf check";
}

TEST(Budgets, HalfAnAnswerThenAHangIsNamed) {
  const std::string tag = tag_for("no_newline_then_hang");
  const Checked c = tlbf_check(misbehaving("no_newline_then_hang", tag), kBudgetOption);
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_LT(c.took, kBudget + room());
  EXPECT_NE(failures_of(c.report).find("its last output had no newline"), std::string::npos)
      << failures_of(c.report);
  EXPECT_EQ(left_after(tag, 2s), 0);
}

TEST(Budgets, AnImplementationThatIgnoresSigtermIsKilled) {
  const std::string tag = tag_for("ignore_sigterm");
  const Checked c = tlbf_check(misbehaving("ignore_sigterm", tag), kBudgetOption);
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_LT(c.took, kBudget + room());
  EXPECT_NE(failures_of(c.report).find("gave no answer"), std::string::npos) << failures_of(c.report);
  EXPECT_EQ(left_after(tag, 2s), 0);
}

TEST(Budgets, StdoutClosedWhileReadingGoesOn) {
  const std::string tag = tag_for("close_stdout_keep_reading");
  // exec: no wrapper shell may hold the pipe, or a closed output looks like a hang.
  const Checked c = tlbf_check("exec " + misbehaving("close_stdout_keep_reading", tag), kBudgetOption);
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_LT(c.took, kBudget + room());
  EXPECT_NE(failures_of(c.report).find("closed its standard output while still running"), std::string::npos)
      << failures_of(c.report);
  EXPECT_EQ(left_after(tag, 2s), 0);
}

TEST(Budgets, AGrandchildHoldingStdoutDoesNotHoldTheRun) {
  const std::string tag = tag_for("grandchild_holds_pipe");
  const Checked c = tlbf_check(misbehaving("grandchild_holds_pipe", tag), kBudgetOption);
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_LT(c.took, kBudget + room());
  EXPECT_NE(failures_of(c.report).find("exited with status 0"), std::string::npos) << failures_of(c.report);
  EXPECT_EQ(left_after(tag, 2s), 0);
  EXPECT_EQ(left_after("grandchild-of-" + tag, 2s), 0) << "the grandchild outlived tlbf check";
}

// Memory: tlbf reads no further than a right answer could go. The process
// measured is the shell that runs tlbf check: Linux reports the largest of
// it and what it waited for, so the implementation here writes its flood a
// MiB at a time and stays small itself.
constexpr long kMemoryCeilingKib = 64 * 1024;

// AddressSanitizer keeps freed memory in quarantine (256 MB by default), so
// under it resident memory says nothing about what tlbf keeps.
constexpr bool kMemoryIsMeaningful = !tlbf::kAddressSanitized;

TEST(Budgets, A200MBLineIsRefusedInBoundedMemory) {
  // The vector cases only: the rule cases send a 16 MiB line, and the
  // implementation's own memory for it would count in the figure.
  const Checked c = tlbf_check(misbehaving("long_line"), "--filter 'vectors/*'");
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_NE(failures_of(c.report).find("longer than any right answer"), std::string::npos)
      << failures_of(c.report);
  EXPECT_GT(c.run.max_rss_kib, 0);
  if (kMemoryIsMeaningful) {
    EXPECT_LT(c.run.max_rss_kib, kMemoryCeilingKib);
  }
}

TEST(Budgets, A200MBStderrFloodIsNoFailureAndCostsNoMemory) {
  const Checked c = tlbf_check(misbehaving("stderr_flood"), "--runs 0 --filter 'vectors/*'");
  EXPECT_EQ(c.run.exit_code, 0) << failures_of(c.report);
  EXPECT_GT(c.run.max_rss_kib, 0);
  if (kMemoryIsMeaningful) {
    EXPECT_LT(c.run.max_rss_kib, kMemoryCeilingKib);
  }
}

TEST(Budgets, BinaryGarbageIsEscapedInTheReport) {
  const Checked c = tlbf_check(misbehaving("binary_garbage"), "--runs 0");
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_NE(c.run.out.find("\\x00\\xff\\xfe\\x80 garbage \\x01"), std::string::npos) << c.run.out;
  const bool all_text = std::all_of(c.run.out.begin(), c.run.out.end(), [](char ch) {
    const auto b = static_cast<unsigned char>(ch);
    return ch == '\n' || (b >= 0x20 && b < 0x7f);
  });
  EXPECT_TRUE(all_text) << "a byte that is not printable ASCII reached the report";
}

TEST(Budgets, LongRequestsAreShortenedInTheTextAndWholeInJson) {
  // s10 fails hash cases; some have items of 4 KiB and more.
  const Checked c = tlbf_check(misbehaving("s10"), "--runs 0 --filter 'vectors/hash/*'");
  EXPECT_EQ(c.run.exit_code, 1);
  std::size_t longest_line = 0;
  for (std::size_t start = 0, nl; (nl = c.run.out.find('\n', start)) != std::string::npos; start = nl + 1) {
    longest_line = std::max(longest_line, nl - start);
  }
  EXPECT_LT(longest_line, 4100U) << "a report line was not shortened";
  EXPECT_NE(c.run.out.find(" bytes in all]"), std::string::npos);
  std::size_t longest_request = 0;
  for (const auto& k : c.report["cases"])
    longest_request = std::max(longest_request, k.value("request", std::string()).size());
  EXPECT_GT(longest_request, 8000U) << "--json keeps requests whole";
}

TEST(Budgets, NoFlushGetsAHint) {
  const Checked c = tlbf_check(misbehaving("no_flush"), "--timeout 3000");
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_LT(c.took, 3s + room());
  EXPECT_NE(c.run.out.find("does it flush its output"), std::string::npos) << c.run.out;
}

TEST(Budgets, FlushingOnlyNowAndThenGetsAHint) {
  // It has answered, so the hint for one that writes nothing does not apply;
  // the hang it causes must still point at the buffer.
  const Checked c = tlbf_check(misbehaving("flush_every_8"), "--timeout 3000");
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_NE(c.run.out.find("if it flushes its output only now and then"), std::string::npos) << c.run.out;
}

TEST(Budgets, ACorrectButSlowImplementationPasses) {
  // 20 ms an answer: far slower than a real implementation, and still no hang.
  const Checked c = tlbf_check(misbehaving("slow_20ms"), "--runs 0 --filter 'vectors/sizing/OptimalK*'");
  EXPECT_EQ(c.run.exit_code, 0) << failures_of(c.report);
  EXPECT_GT(c.report.value("passed", 0), 10);
}

TEST(Budgets, ASlowFirstAnswerPasses) {
  // A JIT or an interpreter may take seconds to answer its first request.
  const Checked c = tlbf_check(misbehaving("slow_start_2s"), "--runs 0 --filter 'vectors/hash/*'");
  EXPECT_EQ(c.run.exit_code, 0) << failures_of(c.report);
}

TEST(Budgets, ACaseSlowByNatureWaitsItsOwnPatience) {
  // An implementation whose bits are one Python int takes seconds for each
  // insert into state/index_past_2_pow_31's filter of 2^31 + 64 bits, after
  // answering everything before in milliseconds: 6 s with no answer, twice
  // the adaptive timeout's floor, which the case's patience (30 s) allows.
  const Checked c = tlbf_check(misbehaving("slow_past_2_pow_31"), "--runs 0 --filter 'state/*'");
  EXPECT_EQ(c.run.exit_code, 0) << failures_of(c.report);
}

TEST(Budgets, TheTimeBudgetEndsARunThatWouldGoOn) {
  // A correct but slow implementation and a 3 s budget: what is left is not
  // run, and the verdict says so.
  const Checked c = tlbf_check(misbehaving("slow_20ms"), "--runs 0 --time-budget 3");
  EXPECT_EQ(c.run.exit_code, 1);
  EXPECT_LT(c.took, 3s + room());
  EXPECT_NE(c.report.value("stopped_because", "").find("time budget"), std::string::npos)
      << failures_of(c.report);
  EXPECT_GT(c.report.value("not_run", 0), 0);
}

TEST(Budgets, SigkillOfTlbfLeavesNothingRunning) {
  const std::string tag = tag_for("sigkill");
  const std::string check =
      std::string(TLBF_BINARY) + " check --timeout 60000 --impl " + shell_quote(misbehaving("hang", tag));
  const RunResult run = run_with_input(
      "( exec " + check + " >/dev/null ) & p=$!; sleep 1.5; kill -KILL $p; wait $p; echo $?", "", 60s);
  EXPECT_EQ(run.out, "137\n") << run.err;  // 128 + SIGKILL
  EXPECT_EQ(left_after(tag, 2s), 0) << "the implementation outlived tlbf check";
}

TEST(Budgets, SigkillOfTlbfTakesGrandchildrenInTheGroupToo) {
  // The implementation starts a helper that holds its pipes; tlbf is killed
  // while the helper sleeps.
  const std::string tag = tag_for("sigkill-grandchild");
  const std::string impl = "sleep 3601 & " + misbehaving("hang", tag) + "; wait";
  const std::string check = std::string(TLBF_BINARY) + " check --timeout 60000 --impl " + shell_quote(impl);
  const RunResult run = run_with_input(
      "( exec " + check + " >/dev/null ) & p=$!; sleep 1.5; kill -KILL $p; wait $p; echo $?", "", 60s);
  EXPECT_EQ(run.out, "137\n") << run.err;
  EXPECT_EQ(left_after(tag, 2s), 0);
  EXPECT_EQ(left_after("sleep 3601", 2s), 0);
}

TEST(Budgets, SigkillOfTlbfMutateLeavesNoSuiteRunningAndNoScratchFolder) {
  // The suite hangs; tlbf mutate is killed while it runs the baseline, in
  // served mode and in patch mode, each in a TMPDIR of its own. The kill
  // waits for the suite to say it has started, rather than a fixed time: a
  // sanitizer build on a loaded machine may still be copying, or starting the
  // suite, after 1.5 s.
  const std::string tag = tag_for("sigkill-mutate");
  // Not named by the tag: the watchdog's `rm -rf` of the scratch folder in it
  // is no suite that outlived tlbf.
  const std::filesystem::path tmp =
      std::filesystem::temp_directory_path() / ("scratch-of-" + std::to_string(::getpid()));
  const std::filesystem::path work = tmp / "work";
  const std::filesystem::path started = tmp / "suite-started";
  std::filesystem::create_directories(work);
  // Writable by anyone, as /tmp is: run by root, tlbf runs the suite as
  // nobody (docs/mutants.md, "Who a suite runs as"), which must be able to
  // say it started.
  std::filesystem::permissions(tmp, std::filesystem::perms::all | std::filesystem::perms::sticky_bit);
  std::ofstream(work / "impl.py") << "x = 1\n";
  std::filesystem::create_directories(tmp / "patches");
  std::ofstream(tmp / "patches" / "s01.patch")
      << "--- a/impl.py\n+++ b/impl.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n";
  const std::string patch_mode =
      " --require s01 --patches " + (tmp / "patches").string() + " --workdir " + work.string();
  // Patch mode twice: as it is, and sandboxed (bubblewrap, the default where
  // it runs), where the suite can write only in its own copy, so it says it
  // started there, in tmp/tlbf-mutate-*/warm, and the test looks for it.
  for (const std::string& mode : {std::string(), " --no-sandbox" + patch_mode, patch_mode}) {
    std::filesystem::remove(started);
    const bool sandboxed = mode == patch_mode;
    const std::string signal = sandboxed ? "suite-started" : started.string();
    const std::string suite = "sh -c 'touch " + signal + "; sleep 3603; :' " + tag;
    const std::string mutate =
        "env TMPDIR=" + tmp.string() + " " + TLBF_BINARY + " mutate" + mode + " -- " + suite;
    const std::string has_started =
        sandboxed ? "[ -z \"$(find " + tmp.string() + " -name suite-started -print -quit)\" ]"
                  : "[ ! -e " + started.string() + " ]";
    // At most 60 s for the suite to start (a hang guard), then a moment for
    // tlbf to have told its watchdog about it.
    const RunResult run = run_with_input(
        "( exec " + mutate + " >/dev/null 2>&1 ) & p=$!; i=0; while " + has_started +
            " && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; " + "[ $i -lt 1200 ] && touch " +
            started.string() + "; " + "sleep 0.3; kill -KILL $p; wait $p; echo $?",
        "", 90s);
    EXPECT_TRUE(std::filesystem::exists(started)) << "the suite never started" << mode;
    EXPECT_EQ(run.out, "137\n") << run.err;
    EXPECT_EQ(left_after(tag, 2s), 0) << "the suite outlived tlbf mutate" << mode << "\n"
                                      << test_support::describe_processes_with(tag);
    EXPECT_EQ(left_after("sleep 3603", 2s), 0);
    // The watchdog removes the scratch folder once tlbf is gone.
    std::vector<std::string> left;
    for (int tries = 0; tries < 100; ++tries) {
      left.clear();
      for (const auto& entry : std::filesystem::directory_iterator(tmp)) {
        if (entry.path().filename().string().rfind("tlbf-mutate-", 0) == 0)
          left.push_back(entry.path().string());
      }
      if (left.empty()) break;
      std::this_thread::sleep_for(20ms);
    }
    EXPECT_EQ(left, std::vector<std::string>{}) << "tlbf mutate" << mode << " left its scratch folder";
  }
  std::filesystem::remove_all(tmp);
}

TEST(Budgets, SigkillOfAFuzzTargetLeavesNothingRunning) {
  // fuzz_diff's replay driver, its implementation hanging on the first input.
  const std::string tag = tag_for("sigkill-fuzz");
  const std::string replay = "TLBF_IMPL=" + shell_quote(misbehaving("hang", tag)) + " " +
                             TLBF_REPLAY_FUZZ_DIFF + " " + TLBF_FUZZ_CORPUS;
  const RunResult run = run_with_input(
      "( exec env " + replay + " >/dev/null 2>&1 ) & p=$!; sleep 1.5; kill -KILL $p; wait $p; echo $?", "",
      60s);
  EXPECT_EQ(run.out, "137\n") << run.err;
  EXPECT_EQ(left_after(tag, 2s), 0) << "the implementation outlived the fuzz target";
}

TEST(Budgets, AStateDependentFailureIsReplayedFromAFreshStart) {
  // Wrong contains answers after the process's 1000th request: a shrunk
  // sequence passes in a fresh process, so the report must give one that
  // fails from a fresh start, and that one must really fail there.
  const Checked c =
      tlbf_check(misbehaving("wrong_after_1000"), "--filter 'model/*' --runs 300 --time-budget 600");
  EXPECT_EQ(c.run.exit_code, 1);
  ASSERT_TRUE(c.report.is_object());
  const auto& model = c.report["cases"][0];
  const std::string reason = model.value("reason", "");
  EXPECT_NE(reason.find("depends on earlier state"), std::string::npos) << reason;
  const std::string transcript = model.value("transcript", "");
  const auto requests = std::count(transcript.begin(), transcript.end(), '>');
  EXPECT_GE(requests, 1000) << "a sequence shorter than 1000 requests cannot fail from a fresh start";
  const fs::path file =
      fs::temp_directory_path() / ("tlbf_state_" + std::to_string(::getpid()) + ".transcript");
  std::ofstream(file) << transcript;
  const RunResult replayed =
      run_with_input(std::string(TLBF_BINARY) + " check --impl " +
                         shell_quote(misbehaving("wrong_after_1000")) + " --transcript " + file.string(),
                     "", 120s);
  fs::remove(file);
  EXPECT_EQ(replayed.exit_code, 1) << "the reported sequence does not fail from a fresh start:\n"
                                   << replayed.out;
}

}  // namespace
}  // namespace tlbf::conformance
