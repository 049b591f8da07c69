// tlbf check's runner end to end: the bundled implementations pass; broken
// ones fail, each in the right group; misbehaving processes are reported
// correctly, in bounded time, and leave no process behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "live_processes.hpp"
#include "shared_fixtures.hpp"
#include "tlbf/conformance/check_suite.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/rule_cases.hpp"
#include "tlbf/conformance/runner.hpp"
#include "tlbf/protocol/commands.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::conformance {
namespace {

using test_support::all_cases;
using test_support::misbehaving;

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Budgets far above what a run needs on a loaded machine: these tests are
// not about budgets (budgets_test.cpp is), so no time limit may decide them.
RunnerOptions ample() {
  RunnerOptions o;
  o.budget.first_answer = 120s;
  o.budget.floor = 60s;
  o.budget.total = 1800s;
  return o;
}

// For the implementations that hang on purpose: a hang ends after 5 s, and
// the whole run still has all the time it could need.
RunnerOptions quick() {
  RunnerOptions o = ample();
  o.budget.first_answer = 5s;  // ends a hang sooner; not a speed requirement
  o.budget.floor = 5s;
  return o;
}

// Failed cases by group ("vectors/hash", ...).
std::map<std::string, int> failed_groups(const CheckReport& r) {
  std::map<std::string, int> out;
  for (const auto& c : r.results) {
    if (c.outcome == CaseOutcome::Failed) ++out[c.name.substr(0, c.name.find('/', 8))];
  }
  return out;
}

using test_support::processes_with;

struct Named {
  const char* name;
  const char* command;
  friend void PrintTo(const Named& n, std::ostream* os) { *os << n.name; }
};

class Bundled : public ::testing::TestWithParam<Named> {};

TEST_P(Bundled, Conforms) {
  if (*GetParam().command == '\0')
    GTEST_SKIP() << "cargo is missing: the Rust implementation was not built (scripts/setup installs cargo)";
  const CheckReport r = check(GetParam().command, all_cases(), ample());
  EXPECT_TRUE(r.conforms()) << r.session_problem << " " << r.count(CaseOutcome::Failed) << " failed";
  EXPECT_EQ(r.count(CaseOutcome::Passed), static_cast<int>(all_cases().size()));
  EXPECT_EQ(r.offered.size(), 5U);
  EXPECT_EQ(r.restarts, 0);
}

INSTANTIATE_TEST_SUITE_P(Check, Bundled,
                         ::testing::Values(Named{"Oracle", TLBF_ORACLE_IMPL},
                                           Named{"Python", TLBF_PYTHON_IMPL}, Named{"Rust", TLBF_RUST_IMPL}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// A broken implementation and the group where its failures must show.
struct Broken {
  const char* mode;
  const char* group;
  friend void PrintTo(const Broken& b, std::ostream* os) { *os << b.mode; }
};

class BrokenImplementation : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenImplementation, FailsInTheRightGroup) {
  const CheckReport r = check(misbehaving(GetParam().mode), all_cases(), quick());
  EXPECT_FALSE(r.conforms());
  const auto groups = failed_groups(r);
  EXPECT_TRUE(groups.count(GetParam().group)) << GetParam().mode << " did not fail in " << GetParam().group;
  for (const auto& c : r.results) {
    if (c.outcome == CaseOutcome::Failed) {
      // A shell line where it fits, else the transcript (whole in --json).
      EXPECT_FALSE(c.reproduce.empty() && c.transcript.empty()) << c.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Check, BrokenImplementation,
                         ::testing::Values(Broken{"s01", "vectors/sizing"},
                                           Broken{"s02", "vectors/positions"},
                                           Broken{"s03", "vectors/filter"}, Broken{"s04", "vectors/sizing"},
                                           Broken{"s05", "vectors/union"}, Broken{"s06", "vectors/filter"},
                                           Broken{"s07", "vectors/positions"}, Broken{"s08", "vectors/union"},
                                           Broken{"s09", "vectors/from_bytes"}, Broken{"s10", "vectors/hash"},
                                           Broken{"wrong_error_kind", "vectors/from_bytes"},
                                           Broken{"wrong_version", "vectors/filter"},
                                           Broken{"empty_item", "vectors/hash"}),
                         [](const auto& param_info) { return std::string(param_info.param.mode); });

// A process that misbehaves once, at its 60th request, and what the report must say.
struct Misbehaviour {
  const char* mode;
  const char* reason;  // a fragment of the failing case's reason, or of the session problem
  friend void PrintTo(const Misbehaviour& m, std::ostream* os) { *os << m.mode; }
};

class Misbehaving : public ::testing::TestWithParam<Misbehaviour> {};

TEST_P(Misbehaving, IsReportedAndCleanedUp) {
  const fs::path marker =
      fs::temp_directory_path() / ("tlbf_once_" + std::to_string(::getpid()) + GetParam().mode);
  fs::remove(marker);
  ::setenv("TLBF_MISBEHAVE_ONCE", marker.c_str(), 1);
  const auto start = std::chrono::steady_clock::now();
  // A tag of its own in the command line, so that only this run's processes are looked for.
  const std::string tag = "run-" + std::to_string(::getpid()) + "-" + GetParam().mode;
  const CheckReport r = check(misbehaving(GetParam().mode) + " " + tag, all_cases(), quick());
  ::unsetenv("TLBF_MISBEHAVE_ONCE");
  fs::remove(marker);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 60s);  // bounded: a hang guard, not a speed test

  EXPECT_FALSE(r.conforms());
  std::string reasons = r.session_problem;
  for (const auto& c : r.results) {
    if (c.outcome == CaseOutcome::Failed) reasons += "\n" + c.name + ": " + c.reason;
  }
  EXPECT_NE(reasons.find(GetParam().reason), std::string::npos) << reasons;
  EXPECT_LE(r.count(CaseOutcome::Failed), 1) << reasons;  // pinned on one case; the run went on
  for (int i = 0; i < 200 && processes_with(tag) > 0; ++i) ::usleep(10'000);
  EXPECT_EQ(processes_with(tag), 0) << "a process outlived the run";
  if (std::string(GetParam().mode) == "grandchild_holds_pipe") {
    // Its tag, not "sleep 3600": other tests, running at the same time, sleep too.
    EXPECT_EQ(processes_with("grandchild-of-" + tag), 0) << "a grandchild outlived the run";
  }
}

INSTANTIATE_TEST_SUITE_P(Check, Misbehaving,
                         ::testing::Values(Misbehaviour{"crash", "exited with status 3"},
                                           Misbehaviour{"signal", "signal 11"},
                                           Misbehaviour{"hang", "gave no answer"},
                                           Misbehaviour{"ignore_sigterm", "gave no answer"},
                                           Misbehaviour{"garbage", "not a protocol line"},
                                           Misbehaviour{"binary_garbage", "not a protocol line"},
                                           Misbehaviour{"long_line", "longer than any right answer"},
                                           Misbehaviour{"double_response", "out of step"},
                                           Misbehaviour{"extra_words", "extra words"},
                                           Misbehaviour{"close_stdout", "Fnv1a64Test"},
                                           Misbehaviour{"grandchild_holds_pipe", "exited with status 0"},
                                           Misbehaviour{"no_newline", "out of step"},
                                           Misbehaviour{"exit_early", "before any case"}),
                         [](const auto& param_info) { return std::string(param_info.param.mode); });

TEST(Check, AStoppedCheckTakesItsImplementationsDown) {
  // tlbf check stopped by SIGTERM while its implementation hangs.
  const std::string tag = "stopped-check-" + std::to_string(::getpid());
  const std::string check_cmd =
      std::string(TLBF_BINARY) + " check --timeout 60000 --impl '" + misbehaving("hang") + " " + tag + "'";
  const RunResult run = run_with_input(
      "( " + check_cmd + " >/dev/null ) & p=$!; sleep 1; kill -TERM $p; wait $p; echo $?", "", 60s);
  EXPECT_EQ(run.out, "143\n") << run.err;  // 128 + SIGTERM: it died of the signal, as it should
  for (int i = 0; i < 200 && processes_with(tag) > 0; ++i) ::usleep(10'000);
  EXPECT_EQ(processes_with(tag), 0) << "the implementation outlived tlbf check";
}

TEST(Cleanup, ADaemonOfTheImplementationIsEndedWithTheCheck) {
  // A process in a session of its own is out of reach of its group's kill;
  // it becomes tlbf's child when its parent ends, and check() ends it.
  const std::string tag = "setsid-daemon-" + std::to_string(::getpid());
  const std::string impl = "setsid sh -c 'sleep 3599; :' " + tag + " </dev/null >/dev/null 2>&1 & exec " +
                           std::string(TLBF_ORACLE_IMPL);
  const auto cases = cases_from_vectors(vectors::generate());
  const CheckReport r = check(impl, {cases.begin(), cases.begin() + 5}, ample(), {});
  EXPECT_TRUE(r.conforms());
  EXPECT_EQ(processes_with(tag), 0) << "a daemon of the implementation outlived its check";
}

const std::vector<InteractiveCase>& behaviour() {
  static const auto cases = behavioural_cases(20261129);
  return cases;
}

TEST(Behavioural, BundledImplementationsBehave) {
  for (const char* impl : {TLBF_ORACLE_IMPL, TLBF_RUST_IMPL, TLBF_PYTHON_IMPL}) {
    if (*impl == '\0') {
      std::cerr << "Rust skipped: cargo is missing: the Rust implementation was not built (scripts/setup "
                   "installs cargo)\n";
      continue;
    }
    const CheckReport r = check(impl, {}, ample(), behaviour());
    EXPECT_TRUE(r.conforms()) << impl;
    EXPECT_EQ(r.count(CaseOutcome::Passed), static_cast<int>(behaviour().size())) << impl;
  }
}

TEST(Behavioural, AnotherDesignPassesBehaviouralAndFailsTlbf) {
  // The behavioural profile requires what its checks use: not hashing, not sizing.
  RunnerOptions profile;
  profile.required = {Capability::Filter, Capability::Bytes, Capability::Union};
  const CheckReport behavioural = check(TLBF_FXBLOOM_IMPL, {}, profile, behaviour());
  EXPECT_TRUE(behavioural.conforms());
  EXPECT_EQ(behavioural.count(CaseOutcome::Passed), static_cast<int>(behaviour().size()));
  EXPECT_EQ(behavioural.offered,
            (std::set<Capability>{Capability::Filter, Capability::Bytes, Capability::Union}));

  const CheckReport tlbf = check(TLBF_FXBLOOM_IMPL, all_cases(), ample(), behaviour());
  EXPECT_FALSE(tlbf.conforms());
  EXPECT_GT(failed_groups(tlbf)["vectors/filter"], 0);
  EXPECT_EQ(tlbf.restarts, 0) << "the design's own implementation should not crash on TLBF's cases";
}

// Bugs that the behavioural checks catch without knowing the format.
struct BehaviouralBug {
  const char* mode;
  const char* check;
  friend void PrintTo(const BehaviouralBug& b, std::ostream* os) { *os << b.mode; }
};

class BehaviouralBugs : public ::testing::TestWithParam<BehaviouralBug> {};

TEST_P(BehaviouralBugs, AreCaught) {
  const CheckReport r = check(misbehaving(GetParam().mode), {}, quick(), behaviour());
  EXPECT_FALSE(r.conforms());
  bool caught = false;
  for (const auto& c : r.results)
    caught =
        caught || (c.outcome == CaseOutcome::Failed && c.name.find(GetParam().check) != std::string::npos);
  EXPECT_TRUE(caught) << GetParam().mode << " passed " << GetParam().check;
}

INSTANTIATE_TEST_SUITE_P(Check, BehaviouralBugs,
                         ::testing::Values(BehaviouralBug{"s03", "after_bytes_round_trip"},
                                           BehaviouralBug{"s05", "union_is_the_filter_of_both_sets"},
                                           BehaviouralBug{"s06", "no_false_negatives/direct"},
                                           BehaviouralBug{"s07", "fp_rate_within_three_sigma"},
                                           BehaviouralBug{"s08", "no_false_negatives/in_a_union"}),
                         [](const auto& param_info) { return std::string(param_info.param.mode); });

// Bit order shows in behaviour only through the padding bits of the last
// byte, which a 5000-item filter's items hit about three runs in four: the
// round trip must catch it whatever the seed, not by luck.
TEST(Behavioural, TheBitOrderBugIsCaughtWhateverTheSeed) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    std::vector<InteractiveCase> round_trip;
    for (auto& c : behavioural_cases(seed)) {
      if (c.name == "behaviour/no_false_negatives/after_bytes_round_trip") round_trip.push_back(std::move(c));
    }
    ASSERT_EQ(round_trip.size(), 1u);
    const CheckReport r = check(misbehaving("s03"), {}, quick(), round_trip);
    EXPECT_EQ(r.count(CaseOutcome::Failed), 1) << "seed " << seed;
  }
}

TEST(ModelBased, BundledImplementationsAgreeWithTheOracle) {
  for (const char* impl : {TLBF_ORACLE_IMPL, TLBF_RUST_IMPL, TLBF_PYTHON_IMPL}) {
    if (*impl == '\0') {
      std::cerr << "Rust skipped: cargo is missing: the Rust implementation was not built (scripts/setup "
                   "installs cargo)\n";
      continue;
    }
    const CheckReport r = check(impl, {}, ample(), {model_based_case(7, 100)});
    EXPECT_TRUE(r.conforms()) << impl << ": " << (r.results.empty() ? "" : r.results[0].reason);
  }
}

// A command added to the protocol's table is one the random sequences must
// send too: every word of the table but hello (sent once, at the start of a
// session), and nothing outside it.
TEST(ModelBased, SendsEveryCommandOfTheTable) {
  std::set<std::string_view> table;
  for (const auto& command : tlbf::protocol::commands())
    if (command.word != "hello") table.insert(command.word);
  const std::vector<std::string_view> sent = words_sent_at_random();
  EXPECT_EQ(std::set<std::string_view>(sent.begin(), sent.end()), table);
  EXPECT_EQ(sent.size(), table.size()) << "a word listed twice";
}

class ModelBasedFinds : public ::testing::TestWithParam<const char*> {};

TEST_P(ModelBasedFinds, AShrunkReproducer) {
  const CheckReport r = check(misbehaving(GetParam()), {}, quick(), {model_based_case(20261129, 200)});
  ASSERT_EQ(r.results.size(), 1U);
  EXPECT_EQ(r.results[0].outcome, CaseOutcome::Failed);
  const std::string& why = r.results[0].reason;
  EXPECT_NE(why.find("seed 20261129"), std::string::npos) << why;
  EXPECT_NE(why.find("\n> "), std::string::npos) << why;  // a transcript to replay
  // Shrunk: a handful of requests, not the dozens a random run makes.
  const auto requests = static_cast<int>(std::count(why.begin(), why.end(), '>'));
  EXPECT_LE(requests, 6) << why;
  // The same seed finds the same reproducer.
  const CheckReport again = check(misbehaving(GetParam()), {}, quick(), {model_based_case(20261129, 200)});
  EXPECT_EQ(again.results[0].reason, why);
}

INSTANTIATE_TEST_SUITE_P(Check, ModelBasedFinds,
                         ::testing::Values("s01", "s02", "s05", "s07", "s09", "s10", "wrong_error_kind",
                                           "empty_item"));

// The planted bugs' ids, as mutants/catalog.json lists them (through CMake).
std::vector<std::string> planted_bugs() {
  std::vector<std::string> ids;
  std::istringstream in(TLBF_MUTANT_IDS);
  for (std::string id; std::getline(in, id, ',');) ids.push_back(id);
  return ids;
}

// The cases `tlbf check` runs with no option.
const CheckSuite& default_check() {
  static const CheckSuite suite = select_check_cases(CheckSelection{}).value();
  return suite;
}

class OracleMutant : public ::testing::TestWithParam<std::string> {};

TEST_P(OracleMutant, IsKilledByTheDefaultCheck) {
  // tlbf serve --mutant: the oracle's mutant build, the way `tlbf mutate` will run it.
  const std::string command = std::string(TLBF_BINARY) + " serve --mutant " + GetParam();
  // A mutant is killed by its first failing case: the check stops there, as
  // --max-failures 1 does, rather than run the rest of the default check.
  RunnerOptions options = quick();
  options.max_failures = 1;
  const CheckReport r = check(command, default_check().cases, options, default_check().behaviour);
  EXPECT_TRUE(r.speaks_protocol) << r.session_problem;
  EXPECT_FALSE(r.conforms()) << GetParam() << " survived tlbf check";
}

INSTANTIATE_TEST_SUITE_P(Check, OracleMutant, ::testing::ValuesIn(planted_bugs()));

TEST(Check, AFloodOfStderrIsNoFailure) {
  // 200 MB on stderr is allowed: stderr is for anything. Only its tail is kept.
  const CheckReport r = check(misbehaving("stderr_flood"), all_cases(), quick());
  EXPECT_TRUE(r.conforms()) << r.session_problem;
}

const CaseResult* result_named(const CheckReport& r, const std::string& name) {
  for (const auto& c : r.results) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(Check, FewerCapabilitiesAreSkippedNeverPassed) {
  // Every capability is required unless the user leaves some out: one not
  // offered fails the check, under a case of its own.
  const CheckReport all = check(misbehaving("filter_only"), all_cases(), quick());
  EXPECT_FALSE(all.conforms());
  EXPECT_EQ(all.offered, (std::set<Capability>{Capability::Filter, Capability::Bytes}));
  for (const char* group : {"hashing", "sizing", "union"}) {
    const CaseResult* c = result_named(all, std::string("capabilities/") + group);
    ASSERT_NE(c, nullptr) << group;
    EXPECT_EQ(c->outcome, CaseOutcome::Failed) << group;
    EXPECT_NE(c->reason.find("--capabilities"), std::string::npos) << c->reason;
  }
  EXPECT_EQ(result_named(all, "capabilities/filter"), nullptr);

  // Left out by name, the same implementation conforms on what it offers.
  RunnerOptions fewer = quick();
  fewer.required = {Capability::Filter, Capability::Bytes};
  const CheckReport r = check(misbehaving("filter_only"), all_cases(), fewer);
  EXPECT_TRUE(r.conforms()) << r.session_problem;
  EXPECT_EQ(r.left_out(), (std::set<Capability>{Capability::Hashing, Capability::Sizing, Capability::Union}));
  EXPECT_EQ(result_named(r, "capabilities/hashing")->outcome, CaseOutcome::Skipped);
  EXPECT_GT(r.count(CaseOutcome::Skipped), 0);
  for (const auto& c : r.results) {
    if (c.name.rfind("vectors/hash/", 0) == 0) {
      EXPECT_EQ(c.outcome, CaseOutcome::Skipped) << c.name;
    }
  }
  // Required and not offered is still a failure, whatever else is left out.
  fewer.required = {Capability::Filter, Capability::Union};
  EXPECT_FALSE(check(misbehaving("filter_only"), all_cases(), fewer).conforms());
}

TEST(Check, OneOddAnswerCannotDeclineACapability) {
  // The bug bank's union_probe_declined answers err Unknown to a self-union
  // and nothing else: union stays offered, and the odd answer is a failure.
  const CheckReport r = check(TLBF_BUGGY_IMPL " union_probe_declined", all_cases(), quick());
  EXPECT_FALSE(r.conforms());
  EXPECT_TRUE(r.offered.count(Capability::Union));
  const CaseResult* c = result_named(r, "capabilities/union");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->outcome, CaseOutcome::Failed);
  EXPECT_NE(c->reason.find("'union tlbf_probe tlbf_probe'"), std::string::npos) << c->reason;
  EXPECT_NE(c->reason.find("'union tlbf_probe tlbf_probe_b'"), std::string::npos) << c->reason;
  EXPECT_EQ(result_named(check(TLBF_BUGGY_IMPL " none", all_cases(), quick()), "capabilities/union"),
            nullptr);
}

TEST(Check, ALineWithAFillIsShownByItsStartAndMadeByItsReproduceLine) {
  // The bug bank's line_limit_16mib refuses the default check's longest line.
  // The report never holds the line (16 MiB): the request is its start and
  // length, there is no transcript, and the reproduce line makes the line.
  auto rules = rule_cases().value();
  std::vector<Case> cases;
  for (auto& c : rules)
    if (c.name == "protocol/framing/line_above_16mib") cases.push_back(std::move(c));
  ASSERT_EQ(cases.size(), 1u);
  const std::string command = TLBF_BUGGY_IMPL " line_limit_16mib";
  const CheckReport r = check(command, cases, quick());
  const CaseResult* c = result_named(r, "protocol/framing/line_above_16mib");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->outcome, CaseOutcome::Failed);
  EXPECT_EQ(c->request, "contains absent_long aaaaaaaa...[16842751 bytes in all]");
  EXPECT_EQ(c->oracle, "err NoSuchFilter no filter 'absent_long'");
  EXPECT_EQ(c->transcript, "");
  const std::string tail = " | " + command;
  ASSERT_GT(c->reproduce.size(), tail.size());
  ASSERT_EQ(c->reproduce.substr(c->reproduce.size() - tail.size()), tail) << c->reproduce;
  const std::string writer = c->reproduce.substr(0, c->reproduce.size() - tail.size());
  // 16 MiB + 64 KiB with its "\n"; and the oracle answers it as the pattern says.
  EXPECT_EQ(run_with_input(writer + " | wc -c", "", 600s).out, "16842752\n");
  EXPECT_EQ(run_with_input(writer + " | " + TLBF_ORACLE_IMPL, "", 600s).out,
            "err NoSuchFilter no filter 'absent_long'\n");
}

TEST(Check, NotAProtocolEndpoint) {
  const CheckReport r = check("cat", all_cases(), quick());
  EXPECT_FALSE(r.speaks_protocol);
  EXPECT_FALSE(r.conforms());
  EXPECT_NE(r.session_problem.find("hello"), std::string::npos) << r.session_problem;
}

TEST(Check, OneRequestAtATimeGivesTheSameVerdicts) {
  RunnerOptions slow;
  slow.pipelined = false;
  const CheckReport a = check(TLBF_ORACLE_IMPL, all_cases(), slow);
  EXPECT_TRUE(a.conforms());
  const CheckReport b = check(misbehaving("s05"), all_cases(), slow);
  EXPECT_EQ(failed_groups(b), failed_groups(check(misbehaving("s05"), all_cases(), ample())));
}

}  // namespace
}  // namespace tlbf::conformance
