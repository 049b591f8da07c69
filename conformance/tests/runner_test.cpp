// The runner's logic against a fake Session: the oracle's own session as the
// implementation, with faults scripted by request, so that pinning, restarts,
// the fault limit and the time budget are tested exactly and in no time.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>

#include "shared_fixtures.hpp"
#include "tlbf/conformance/runner.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::conformance {
namespace {

using test_support::all_cases;

// A fault to inject before answering a request: by the request's number in
// its process (1-based) and its text.
using Script = std::function<std::optional<FaultKind>(int number, const std::string& line)>;

class FakeSession final : public Session {
 public:
  // `unflushed`: how many answers before a fault are lost with the process
  // when pipelined, as with an implementation that buffers its output.
  explicit FakeSession(Script script, std::size_t unflushed = 0)
      : script_(std::move(script)), unflushed_(unflushed) {}

  Answers exchange(std::span<const Request> requests, Pace pace) override {
    Answers a;
    ++exchanges;
    if (!alive_) {
      a.fault = Fault{FaultKind::NotStarted, "not started"};
      return a;
    }
    for (const auto& r : requests) {
      ++requests_sent_;
      if (auto kind = script_(++number_, std::string(r.line))) {
        alive_ = false;
        if (*kind == FaultKind::OutOfTime) out_of_time_ = true;
        const std::size_t lost = pace == Pace::Pipelined ? std::min(unflushed_, a.lines.size()) : 0;
        a.lines.resize(a.lines.size() - lost);
        a.fault =
            Fault{*kind, "scripted " + std::string(to_string(*kind)) + " at '" + std::string(r.line) + "'"};
        return a;
      }
      a.lines.push_back(oracle_.handle(r.line));
    }
    return a;
  }
  std::optional<Fault> restart(Why why) override {
    if (why == Why::AfterFault) ++restarts_;
    if (cannot_restart)
      return Fault{FaultKind::NotStarted, "could not be restarted (cannot make a pipe: Too many open files)"};
    alive_ = true;
    number_ = 0;
    oracle_ = {};
    requests_sent_ = 0;
    return std::nullopt;
  }
  std::optional<Difference> finish() override {
    alive_ = false;
    return std::nullopt;
  }
  bool alive() const override { return alive_; }
  int restarts() const override { return restarts_; }
  std::string stderr_tail() const override { return ""; }
  std::size_t requests_sent() const override { return requests_sent_; }
  bool out_of_time() const override { return out_of_time_; }

  int exchanges = 0;
  bool cannot_restart = false;  // as when the machine has no pipe or process left

 private:
  Script script_;
  std::size_t unflushed_;
  protocol::OracleSession oracle_;
  bool alive_ = true;
  bool out_of_time_ = false;
  int number_ = 0;
  int restarts_ = 0;
  std::size_t requests_sent_ = 0;
};

const Script kNever = [](int, const std::string&) { return std::optional<FaultKind>(); };

// The name of the case whose steps include `request`, the first such.
std::string case_with(const std::string& request) {
  for (const auto& c : all_cases()) {
    for (const auto& s : c.steps) {
      if (s.request == request) return c.name;
    }
  }
  return "";
}

std::vector<std::string> failed(const CheckReport& r) {
  std::vector<std::string> out;
  for (const auto& c : r.results) {
    if (c.outcome == CaseOutcome::Failed) out.push_back(c.name);
  }
  return out;
}

TEST(Runner, ACleanFakePasses) {
  FakeSession fake(kNever);
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{});
  EXPECT_TRUE(r.conforms()) << r.session_problem;
  EXPECT_EQ(r.count(CaseOutcome::Passed), static_cast<int>(all_cases().size()));
  EXPECT_EQ(r.restarts, 0);
  EXPECT_EQ(fake.exchanges, 2);  // the probe, then every case in one pipelined exchange
}

TEST(Runner, CasesThatMakeTheirStepsLateAreMadeAndACaseWithoutStepsFails) {
  Case late;
  late.name = "late/made";
  late.needs = {Capability::Hashing};
  late.make_steps = [] { return std::vector<Step>{{"fnv1a64 61", "ok af63dc4c8601ec8c"}}; };
  Case empty;
  empty.name = "late/never_made";
  std::vector<std::string> sent;
  FakeSession fake([&sent](int, const std::string& line) {
    sent.push_back(line);
    return std::optional<FaultKind>();
  });
  const CheckReport r = check(fake, "fake", {late, empty}, RunnerOptions{});
  std::map<std::string, CaseResult> by_name;
  for (const auto& c : r.results) by_name[c.name] = c;
  EXPECT_EQ(by_name.at("late/made").outcome, CaseOutcome::Passed);
  EXPECT_EQ(std::count(sent.begin(), sent.end(), "fnv1a64 61"), 1);
  EXPECT_EQ(by_name.at("late/never_made").outcome, CaseOutcome::Failed);
  EXPECT_NE(by_name.at("late/never_made").reason.find("no steps"), std::string::npos);
  EXPECT_FALSE(r.conforms());
}

TEST(Runner, AFaultIsPinnedOnItsCaseEvenWhenAnswersBeforeItWereLost) {
  // The process crashes at one request; pipelined, it loses the 40 answers
  // before it. The runner must blame the case of the request, not the case of
  // the first answer it lacks.
  const std::string culprit = "optimal_k 20 4";
  const std::string name = case_with(culprit);
  ASSERT_FALSE(name.empty());
  bool crashed = false;
  FakeSession fake(
      [&](int, const std::string& line) -> std::optional<FaultKind> {
        if (line == culprit && !crashed) {
          crashed = true;
          return FaultKind::Exited;
        }
        return std::nullopt;
      },
      40);
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{});
  // It crashed once; replayed one request at a time it did not crash again,
  // so the fault is pinned, with a note, on the case first in flight.
  ASSERT_EQ(failed(r).size(), 1U);
  for (const auto& c : r.results) {
    if (c.outcome == CaseOutcome::Failed) {
      EXPECT_NE(c.reason.find("did not happen again"), std::string::npos) << c.reason;
    }
  }
  EXPECT_FALSE(r.conforms());
}

TEST(Runner, AFaultThatRecursIsPinnedOnTheCaseThatCausesIt) {
  const std::string culprit = "optimal_k 20 4";
  const std::string name = case_with(culprit);
  FakeSession fake(
      [&](int, const std::string& line) -> std::optional<FaultKind> {
        if (line == culprit) return FaultKind::Killed;
        return std::nullopt;
      },
      40);
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{});
  EXPECT_EQ(failed(r), std::vector<std::string>{name});
  for (const auto& c : r.results) {
    if (c.name == name) {
      EXPECT_EQ(c.request, culprit);
      EXPECT_EQ(c.reason.find("did not happen again"), std::string::npos) << c.reason;
    }
  }
  EXPECT_EQ(r.count(CaseOutcome::NotRun), 0);
  EXPECT_FALSE(r.conforms());
}

TEST(Runner, RepeatedFaultsOfOneKindStopTheRun) {
  // Every 50th request of each process hangs.
  FakeSession fake([](int number, const std::string&) -> std::optional<FaultKind> {
    if (number % 50 == 0) return FaultKind::Hung;
    return std::nullopt;
  });
  RunnerOptions options;
  options.faults_before_unreliable = 3;
  const CheckReport r = check(fake, "fake", all_cases(), options);
  EXPECT_EQ(failed(r).size(), 3U);
  EXPECT_NE(r.stopped_because.find("unreliable: hung 3 times"), std::string::npos) << r.stopped_because;
  EXPECT_GT(r.count(CaseOutcome::NotRun), 150);
  EXPECT_EQ(r.count(CaseOutcome::Passed) + r.count(CaseOutcome::Failed) + r.count(CaseOutcome::NotRun),
            static_cast<int>(all_cases().size()));
  EXPECT_FALSE(r.conforms());
  // Each hang is seen pipelined, then once more one request at a time: no more.
  EXPECT_LE(r.restarts, 6);
}

TEST(Runner, ByDefaultEachFaultCostsOneCaseAndTheRunGoesOn) {
  // Every 50th request of each process hangs or exits, alternately: no count stops the run.
  int faults = 0;
  FakeSession fake([&faults](int number, const std::string&) -> std::optional<FaultKind> {
    if (number % 50 != 0) return std::nullopt;
    return ++faults % 2 == 0 ? FaultKind::Hung : FaultKind::Exited;
  });
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{});
  EXPECT_TRUE(r.stopped_because.empty()) << r.stopped_because;
  EXPECT_EQ(r.count(CaseOutcome::NotRun), 0);
  EXPECT_GT(failed(r).size(), 3U);
  for (const auto& c : r.results) {
    if (c.outcome == CaseOutcome::Failed) {
      EXPECT_FALSE(c.reason.empty()) << c.name;
    }
  }
}

TEST(Runner, AProcessTlbfCannotMakeStopsTheRunAsTheHarnessesFault) {
  // The implementation crashes once; tlbf then cannot start it again.
  FakeSession fake([](int number, const std::string&) -> std::optional<FaultKind> {
    if (number == 100) return FaultKind::Killed;
    return std::nullopt;
  });
  fake.cannot_restart = true;
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{});
  EXPECT_NE(r.harness_problem.find("Too many open files"), std::string::npos) << r.harness_problem;
  EXPECT_NE(r.stopped_because.find("say nothing about the implementation"), std::string::npos)
      << r.stopped_because;
  EXPECT_GT(r.count(CaseOutcome::NotRun), 100);
  EXPECT_FALSE(r.conforms());
}

TEST(Runner, AnImplementationThatRunsNeedsNoHarnessProblem) {
  bool crashed = false;  // once only: restarted, it runs on
  FakeSession fake([&crashed](int number, const std::string&) -> std::optional<FaultKind> {
    if (number == 100 && !crashed) {
      crashed = true;
      return FaultKind::Killed;
    }
    return std::nullopt;
  });
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{});
  EXPECT_EQ(r.harness_problem, "");
  EXPECT_EQ(failed(r).size(), 1U);
}

TEST(Runner, FaultsOfDifferentKindsAreCountedApart) {
  int faults = 0;
  FakeSession fake([&](int number, const std::string&) -> std::optional<FaultKind> {
    if (number % 200 != 0 || faults >= 4) return std::nullopt;
    ++faults;
    return faults % 2 == 0 ? FaultKind::Hung : FaultKind::Exited;
  });
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{});
  EXPECT_TRUE(r.stopped_because.empty()) << r.stopped_because;
  EXPECT_EQ(r.count(CaseOutcome::NotRun), 0);
}

TEST(Runner, RunningOutOfTimeLeavesTheRestNotRun) {
  FakeSession fake([](int number, const std::string&) -> std::optional<FaultKind> {
    if (number == 500) return FaultKind::OutOfTime;
    return std::nullopt;
  });
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{}, behavioural_cases(1));
  EXPECT_FALSE(r.conforms());
  EXPECT_NE(r.stopped_because.find("scripted out of time"), std::string::npos) << r.stopped_because;
  EXPECT_EQ(failed(r).size(), 1U);
  EXPECT_GT(r.count(CaseOutcome::NotRun), 150);
  EXPECT_EQ(r.results.back().outcome, CaseOutcome::NotRun) << "interactive cases are not run either";
  EXPECT_EQ(r.restarts, 0) << "no restart after the budget ran out";
}

TEST(Runner, AFaultInAnInteractiveCaseIsReportedAndTheNextOneRunsFresh) {
  // The first behavioural case dies at its 100th request; the rest pass.
  bool died = false;
  FakeSession fake([&](int number, const std::string&) -> std::optional<FaultKind> {
    if (number == 100 && !died) {
      died = true;
      return FaultKind::Killed;
    }
    return std::nullopt;
  });
  const CheckReport r = check(fake, "fake", {}, RunnerOptions{}, behavioural_cases(1));
  ASSERT_EQ(r.results.size(), behavioural_cases(1).size());
  EXPECT_EQ(r.results[0].outcome, CaseOutcome::Failed);
  EXPECT_NE(r.results[0].reason.find("scripted killed by a signal"), std::string::npos)
      << r.results[0].reason;
  for (std::size_t i = 1; i < r.results.size(); ++i)
    EXPECT_EQ(r.results[i].outcome, CaseOutcome::Passed) << r.results[i].name;
  EXPECT_EQ(r.restarts, 1);
}

TEST(Runner, NoHelloIsNoProtocol) {
  FakeSession fake([](int number, const std::string&) -> std::optional<FaultKind> {
    if (number == 1) return FaultKind::Hung;
    return std::nullopt;
  });
  const CheckReport r = check(fake, "fake", all_cases(), RunnerOptions{});
  EXPECT_FALSE(r.speaks_protocol);
  EXPECT_FALSE(r.conforms());
  EXPECT_NE(r.session_problem.find("before any case: scripted hung"), std::string::npos) << r.session_problem;
  EXPECT_TRUE(r.results.empty());
}

}  // namespace
}  // namespace tlbf::conformance
