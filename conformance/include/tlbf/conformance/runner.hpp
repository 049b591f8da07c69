// Checking one implementation, case by case, over line protocol v1: probe its
// capabilities, plan the cases, run them (pipelined; after a fault, one
// request at a time to find the case that caused it), judge each.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "tlbf/conformance/behaviour.hpp"
#include "tlbf/conformance/cases.hpp"
#include "tlbf/conformance/session.hpp"

namespace tlbf::conformance {

struct RunnerOptions {
  Budget budget;
  Launch launch;
  // Send every case before reading (pipelined) or one request at a time.
  bool pipelined = true;
  // After this many faults of one kind (crashes, hangs, ...), the cases left
  // are not run. 0 (the default): no count stops the run, only the budget;
  // each fault costs its case, and the run goes on in a fresh process.
  int faults_before_unreliable = 0;
  // After this many failed cases the cases left are not run (pytest's
  // --maxfail): cases go out in batches then, so that a failure found early
  // saves the rest. 0 (the default): every case runs.
  int max_failures = 0;
  // The capabilities that must be offered (and so checked) for the verdict
  // to be "conforms": by default all of TLBF v1. A capability left out here
  // and not offered is named in the verdict as left out; one required and
  // not offered fails the check (docs/check.md, "Capabilities").
  std::set<Capability> required{std::begin(kAllCapabilities), std::end(kAllCapabilities)};
};

// Acceptable: the answer differs from the oracle's in a way the documents
// allow (judge.hpp), reported as an "acceptable difference".
enum class CaseOutcome { Passed, Failed, Acceptable, Skipped, NotRun };
std::string_view to_string(CaseOutcome o);

struct CaseResult {
  std::string name;
  CaseOutcome outcome = CaseOutcome::Passed;
  std::string reason;    // for all but Passed
  std::string request;   // the first request that went wrong, if any (whole)
  std::string expected;  // its pattern
  std::string got;       // what came back (whole, up to the answer limit)
  std::string stderr_tail;
  std::string reproduce;     // a shell line that replays the case, when one fits on a line
  std::string transcript;    // the requests and expected answers that show the failure, whole
  std::string about = {};    // what the case checks (Case::about)
  std::string oracle = {};   // the oracle's whole answer to `request`, its error's message included
  std::string allowed = {};  // the other answers that request allows (Judge::allows), "" when none
};

struct CheckReport {
  std::string command;
  std::string hello;  // the implementation's answer to hello
  bool speaks_protocol = false;
  bool not_found = false;  // the shell could not find or run the command (status 127 or 126)
  // It ended (exited, or was killed) before its first answer, hello's: it
  // never ran as an implementation (a missing script, an import error), so
  // no verdict is given on it.
  bool ended_before_answering = false;
  std::set<Capability> offered;   // some probe of it was answered other than err Unknown
  std::set<Capability> required;  // RunnerOptions::required
  // Neither offered nor required: left out by the user, named in the verdict.
  // Empty when it did not answer hello as protocol v1: nothing was probed.
  std::set<Capability> left_out() const;
  // First capabilities/GROUP for each capability not offered (failed when
  // required, skipped when left out) or answering err Unknown to some of its
  // probes and not to others (failed); then the cases, in case order.
  std::vector<CaseResult> results;
  int restarts = 0;
  std::string session_problem;  // at end of input: a bad exit, extra output
  std::string stopped_because;  // why cases were not run: unreliable, or out of time
  // Set when tlbf could not make a process for the implementation (a pipe or
  // a fork failed: ulimit -n, -u) at any point: the run stopped there, and
  // it says nothing about the implementation (tlbf check: exit 2).
  std::string harness_problem;
  // The options that chose the cases run ("--filter 'X' --skip 'Y'"), ""
  // when none did: the verdict then covers those cases only, and says so.
  std::string selected_by;

  int count(CaseOutcome o) const;
  // Whether a case was sent at all (passed, failed or differed acceptably):
  // not when every case selected was skipped, its capability left out.
  bool ran_a_case() const;
  // True when at least one case ran, every case it could run passed or
  // differed only where acceptable, every case ran, every required capability
  // was offered, and the session ended cleanly. A check that ran nothing is
  // no verdict of yes.
  bool conforms() const;
};

// Checks the implementation behind `session` (whose command, for reproduce
// lines, is `command`); cases first, then the interactive cases. Makes the
// steps of cases that make them late (Case::make_steps); a case that has no
// steps even then fails, as a fault of tlbf's.
CheckReport check(Session& session, const std::string& command, std::vector<Case> cases,
                  const RunnerOptions& options, const std::vector<InteractiveCase>& interactive = {});

// The same, on a Session of `/bin/sh -c command`.
CheckReport check(const std::string& command, std::vector<Case> cases, const RunnerOptions& options,
                  const std::vector<InteractiveCase>& interactive = {});

}  // namespace tlbf::conformance
