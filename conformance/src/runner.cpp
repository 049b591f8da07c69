#include "tlbf/conformance/runner.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "tlbf/conformance/judge.hpp"
#include "tlbf/protocol/commands.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/conformance/child.hpp"
#include "tlbf/conformance/strays.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/shell_quote.hpp"

namespace tlbf::conformance {
namespace {

const char* const kSync = "hello";  // sent after every case to prove the responses are in step
constexpr std::size_t kLongestReproduceLine = 4000;

bool has_fill(const Case& c) {
  return std::any_of(c.steps.begin(), c.steps.end(), [](const Step& s) { return s.fill.count > 0; });
}

// The shell commands that write the steps' lines, each fill made by head
// and tr rather than spelled out.
std::string writing_fills(const Case& c) {
  std::string out = "{";
  for (const auto& step : c.steps) {
    out += " printf %s " + shell_quote(step.request) + ";";
    if (step.fill.count > 0) {
      out += " head -c " + std::to_string(step.fill.count) + " /dev/zero | tr '\\0' " +
             shell_quote(std::string(1, step.fill.byte)) + ";";
    }
    out += " echo;";
  }
  return out + " }";
}

std::string reproduce_line(const Case& c, const std::string& command) {
  std::string line = "printf '%s\\n'";
  for (const auto& step : c.steps) line += " " + shell_quote(step.request);
  if (has_fill(c)) line = writing_fills(c);
  line += " | " + command;
  // A line too long to paste helps nobody; the requests are whole in --json.
  return line.size() <= kLongestReproduceLine ? line : "";
}

std::string transcript_of(const Case& c) {
  // A transcript holds each line whole: a line of 64 MiB is left to the
  // reproduce line, which makes it.
  if (has_fill(c)) return "";
  std::string out;
  for (const auto& step : c.steps) out += "> " + step.request + "\n< " + step.pattern + "\n";
  return out;
}

// The capabilities a case needs that the implementation does not offer, named.
std::string missing_capabilities(const std::set<Capability>& needs, const std::set<Capability>& offered) {
  std::string missing;
  for (auto need : needs) {
    if (!offered.count(need)) missing += (missing.empty() ? "" : ", ") + std::string(to_string(need));
  }
  return missing;
}

bool looks_like_protocol(const std::string& line) {
  return line == "ok" || line.rfind("ok ", 0) == 0 || line.rfind("err ", 0) == 0;
}

// The oracle's answer to a step alone, its fill handed over in pieces: a
// fresh session keeps none of a line whose filter does not exist.
std::string oracle_alone(const Step& step) {
  protocol::OracleSession oracle;
  oracle.add(step.request);
  const std::string block(std::min(step.fill.count, std::size_t{1} << 20), step.fill.byte);
  for (std::size_t left = step.fill.count; left > 0;) {
    const std::size_t n = std::min(left, block.size());
    oracle.add(std::string_view(block).substr(0, n));
    left -= n;
  }
  return oracle.finish();
}

std::string failure_reason(const Difference& why, const std::string& got) {
  return why.what + (looks_like_protocol(got) ? "" : " (not a protocol line: was it meant for stderr?)");
}

// A step with a fill is judged by its pattern alone (Step::fill): a
// mismatch fails it.
void fail_by_pattern(CaseResult& r, const Step& step, const Difference& why, const std::string& got) {
  r.outcome = CaseOutcome::Failed;
  r.reason = failure_reason(why, got);
  r.request = shown_request(step);
  r.expected = step.pattern;
  r.got = got;
  r.oracle = oracle_alone(step);
}

// A case judged, and whether the sync after it was not answered as a hello:
// the answers after it are then out of step, and the process is restarted.
struct Judged {
  CaseResult result;
  bool out_of_step = false;
};

// Judges one case from its answers (the last one answers the sync hello).
// Each answer that does not match its step's pattern is judged by judge.hpp,
// walking the case's steps from a fresh state: a difference it calls
// acceptable is reported and the steps after it are still judged.
Judged judge(const Case& c, const std::vector<std::string>& answers, std::size_t from) {
  CaseResult r{c.name, CaseOutcome::Passed, {}, {}, {}, {}, {}, {}, {}};
  const std::string& sync = answers[from + c.steps.size()];
  const bool out_of_step = mismatch("ok 1 *", sync).has_value();
  // The judge walks the steps only once one does not match: a case that
  // passes costs no oracle.
  std::optional<Judge> judge;
  std::size_t judged = 0;  // steps the judge has seen
  Judgement judgement;
  bool differed = false;  // the judge called an answer acceptable
  for (std::size_t i = 0; i < c.steps.size(); ++i) {
    const std::string& got = answers[from + i];
    auto why = mismatch(c.steps[i].pattern, got);
    if (!why && !judge) continue;
    if (why && c.steps[i].fill.count > 0) {
      fail_by_pattern(r, c.steps[i], *why, got);
      break;
    }
    if (!judge) judge.emplace();
    // After an acceptable difference, an answer on the filter it opened that
    // matches the oracle's may still contradict the state the implementation
    // took (a count saturated, and bits not ORed): the judge decides it.
    bool read_open = false;
    for (; judged <= i; ++judged) {
      read_open = judge->reads_open_filter(c.steps[judged].request);
      judge->expect(c.steps[judged].request);
      judgement = judge->judge(answers[from + judged]);
      differed = differed || judgement.verdict == Verdict::Acceptable;
    }
    if (!why) {
      if (!read_open || judgement.verdict != Verdict::Mismatch) continue;
      why = Difference{judgement.reason};
    }
    // Right in the judge's state though not the case's pattern: it follows
    // from an earlier acceptable difference (an m one ulp off, taken). Only
    // such a difference moves the judge's state off the oracle's course.
    const bool acceptable =
        judgement.verdict == Verdict::Acceptable || (judgement.verdict == Verdict::Match && differed);
    if (judgement.verdict == Verdict::Match)
      judgement.reason = "it follows from the state an earlier acceptable difference left";
    if (acceptable && r.outcome == CaseOutcome::Acceptable) continue;  // the first one is reported
    r.outcome = acceptable ? CaseOutcome::Acceptable : CaseOutcome::Failed;
    r.reason = failure_reason(*why, got);
    if (acceptable) r.reason += "; acceptable: " + judgement.reason;
    r.request = c.steps[i].request;
    r.expected = c.steps[i].pattern;
    r.got = got;
    r.oracle = judge->oracle_answer();
    r.allowed = judge->allows();
    if (!acceptable) break;
  }
  r.about = c.about;
  if (out_of_step) {
    r.outcome = CaseOutcome::Failed;
    r.reason = "responses out of step: the hello sent after this case was answered " + readable(sync, 80) +
               " (an extra or a missing response line?)";
  }
  return {std::move(r), out_of_step};
}

// Cases sent in one exchange when a failure limit is set.
constexpr std::size_t kBatchWithLimit = 64;

// The run of one check: the session, the report it fills, and the faults
// counted so far, which decide when to stop provoking more.
class Run {
 public:
  Run(Session& session, const std::string& command, const RunnerOptions& options, CheckReport& report)
      : session_(session), command_(command), options_(options), report_(report) {}

  bool probe();
  void run_cases(const std::vector<Case>& cases);
  void run_interactive(const std::vector<InteractiveCase>& cases);

 private:
  // Where run_cases() is between its exchanges.
  struct Pass {
    const std::vector<Case>& cases;
    std::vector<std::size_t> runnable;  // indices into cases
    bool careful;                       // one request at a time
    std::optional<std::pair<std::size_t, Fault>>
        pending;       // (case index, fault) seen pipelined, not yet pinned
    std::size_t next;  // the first runnable case not yet judged
  };
  std::vector<std::size_t> runnable_of(const std::vector<Case>& cases);
  static std::size_t batch_end(const Pass& pass, std::size_t end);
  std::vector<Request> batch_of(const Pass& pass, std::size_t end, std::vector<std::size_t>& starts) const;
  bool judge_batch(Pass& pass, std::size_t end, const std::vector<std::size_t>& starts,
                   const Answers& answers);
  bool stopped_in_flight(Pass& pass, std::size_t i, const Answers& answers, std::size_t from);
  void fail_the_case_in_flight(const Pass& pass);
  void fail_with_fault(CaseResult& result, const Case& c, const Fault& fault, std::size_t answered);
  void count_fault(const Fault& fault);
  bool stopped() const { return !report_.stopped_because.empty(); }
  // True, and the run stopped, once options_.max_failures cases have failed.
  bool reached_failure_limit() {
    if (options_.max_failures <= 0 || stopped()) return stopped();
    const auto failed = std::count_if(report_.results.begin(), report_.results.end(),
                                      [](const CaseResult& r) { return r.outcome == CaseOutcome::Failed; });
    if (failed < options_.max_failures) return false;
    report_.stopped_because = "stopped after " + std::to_string(failed) + " failed case" +
                              (failed == 1 ? "" : "s") + " (--max-failures " +
                              std::to_string(options_.max_failures) + ")";
    return true;
  }
  CaseResult not_run(const std::string& name) const {
    return {name, CaseOutcome::NotRun, report_.stopped_because, {}, {}, {}, {}, {}, {}};
  }
  bool restart();
  // tlbf, not the implementation, failed: the run stops, with no verdict.
  void stop_for_the_harness(const Fault& fault);

  Session& session_;
  const std::string& command_;
  const RunnerOptions& options_;
  CheckReport& report_;
  std::map<FaultKind, int> faults_;

 public:
  std::vector<CaseResult> capability_results_;  // one a group, from probe()
};

// The probes: hello, then several requests of each group, so that one odd
// answer cannot decline a group. A group whose every probe is answered err
// Unknown is not offered; one that answers err Unknown to some and not to
// others is offered, and that is a failure of its own. Only commands every
// design of a group has (fxbloom's filter has no `positions`).
struct Probe {
  std::string request;
  std::optional<Capability> group;
};

// From the protocol's command table, in its order (a filter made before it
// is read, dropped last).
const std::vector<Probe>& probes() {
  static const std::vector<Probe> all = [] {
    std::vector<Probe> out;
    for (const auto& command : protocol::commands()) {
      for (const auto request : command.probes) out.push_back({std::string(request), command.capability});
    }
    return out;
  }();
  return all;
}

bool Run::probe() {
  std::vector<Request> requests;
  for (const auto& p : probes()) requests.push_back({p.request, Request::kDefaultAnswerLimit});
  const Answers answers = session_.exchange(requests, Pace::Pipelined);
  report_.hello = answers.lines.empty() ? "" : answers.lines[0];
  if (answers.fault || mismatch("ok 1 *", report_.hello)) {
    std::string problem = answers.fault
                              ? answers.fault->detail
                              : "does not answer hello with 'ok 1 ...' (it answered " +
                                    readable(report_.hello, 80) + "): it does not speak protocol v1";
    report_.ended_before_answering =
        answers.fault && answers.lines.empty() &&
        (answers.fault->kind == FaultKind::Exited || answers.fault->kind == FaultKind::Killed);
    report_.not_found = answers.fault && (problem.find("exited with status 127") != std::string::npos ||
                                          problem.find("exited with status 126") != std::string::npos);
    if (answers.fault && answers.fault->kind == FaultKind::NotStarted) stop_for_the_harness(*answers.fault);
    report_.session_problem = "before any case: " + problem;
    const std::string tail = session_.stderr_tail();
    if (!tail.empty()) report_.session_problem += "\nstderr:\n" + tail;
    report_.hello = readable(report_.hello, 80);
    return false;
  }
  report_.speaks_protocol = true;
  report_.required = options_.required;
  for (auto group : kAllCapabilities) {
    std::string unknown, known;  // the probes answered err Unknown, and the others
    for (std::size_t i = 0; i < probes().size(); ++i) {
      if (probes()[i].group != group) continue;
      const bool declined = answers.lines[i].rfind("err Unknown", 0) == 0;
      (declined ? unknown : known) += (declined ? unknown : known).empty() ? "" : ", ";
      (declined ? unknown : known) += "'" + probes()[i].request + "'";
    }
    const std::string name = "capabilities/" + std::string(to_string(group));
    if (!known.empty()) report_.offered.insert(group);
    if (!known.empty() && !unknown.empty()) {
      capability_results_.push_back({name,
                                     CaseOutcome::Failed,
                                     "answered err Unknown to " + unknown + " but not to " + known +
                                         ": a capability is offered whole or not at all (docs/protocol.md, "
                                         "section 4), so its cases are run",
                                     {},
                                     {},
                                     {},
                                     {},
                                     {},
                                     {}});
    } else if (known.empty() && options_.required.count(group)) {
      capability_results_.push_back(
          {name,
           CaseOutcome::Failed,
           "not offered: every probe (" + unknown +
               ") was answered err Unknown, so none of its cases ran; "
               "to leave it out, name the capabilities to check with --capabilities",
           {},
           {},
           {},
           {},
           {},
           {}});
    } else if (known.empty()) {
      capability_results_.push_back(
          {name, CaseOutcome::Skipped, "left out (--capabilities) and not offered", {}, {}, {}, {}, {}, {}});
    }
  }
  return true;
}

void Run::count_fault(const Fault& fault) {
  if (fault.kind == FaultKind::OutOfTime) {
    report_.stopped_because = fault.detail;
    return;
  }
  if (fault.kind == FaultKind::NotStarted) {
    stop_for_the_harness(fault);
    return;
  }
  const int seen = ++faults_[fault.kind];
  if (options_.faults_before_unreliable > 0 && seen >= options_.faults_before_unreliable) {
    report_.stopped_because = "the implementation is unreliable: " + std::string(to_string(fault.kind)) +
                              " " + std::to_string(seen) + " times (the last: " + fault.detail + ")";
  }
}

bool Run::restart() {
  if (stopped()) return false;
  if (auto fault = session_.restart()) {
    if (fault->kind == FaultKind::NotStarted) {
      stop_for_the_harness(*fault);
    } else {
      report_.stopped_because = "the implementation " + fault->detail;
    }
    return false;
  }
  return true;
}

void Run::stop_for_the_harness(const Fault& fault) {
  if (!report_.harness_problem.empty()) return;
  report_.harness_problem = "tlbf could not make a process for the implementation: it " + fault.detail;
  report_.stopped_because =
      report_.harness_problem + "; the cases after it say nothing about the implementation";
}

void Run::fail_with_fault(CaseResult& result, const Case& c, const Fault& fault, std::size_t answered) {
  result = {c.name,
            CaseOutcome::Failed,
            fault.detail,
            {},
            {},
            {},
            session_.stderr_tail(),
            reproduce_line(c, command_),
            transcript_of(c),
            c.about,
            {},
            {}};
  if (answered < c.steps.size()) {
    result.request = shown_request(c.steps[answered]);
    result.expected = c.steps[answered].pattern;
  }
  count_fault(fault);
}

// The cases that can run; the others get their result at once (skipped, or
// failed for having no steps).
std::vector<std::size_t> Run::runnable_of(const std::vector<Case>& cases) {
  std::vector<std::size_t> runnable;  // indices into cases
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string missing = missing_capabilities(cases[i].needs, report_.offered);
    if (cases[i].steps.empty()) {
      // No steps would pass without a word said: never let that happen.
      report_.results[i] = {cases[i].name,
                            CaseOutcome::Failed,
                            "a fault of tlbf's: the case has no steps",
                            {},
                            {},
                            {},
                            {},
                            {},
                            {}};
    } else if (missing.empty()) {
      runnable.push_back(i);
    } else {
      report_.results[i] = {
          cases[i].name, CaseOutcome::Skipped, "not offered: " + missing, {}, {}, {}, {}, {}, {}};
    }
  }
  return runnable;
}

// `end`, or sooner: a case with patience (Case::patience) goes in a batch of
// its own, since every request of a pipelined batch is in flight at once and
// its patience would otherwise lengthen the wait for a hang anywhere before it.
std::size_t Run::batch_end(const Pass& pass, std::size_t end) {
  const auto patient = [&](std::size_t i) { return pass.cases[pass.runnable[i]].patience.count() > 0; };
  if (pass.next < end && patient(pass.next)) return pass.next + 1;
  for (std::size_t i = pass.next + 1; i < end; ++i)
    if (patient(i)) return i;
  return end;
}

// The requests of the runnable cases from pass.next to `end`, each case's
// followed by the sync request; `starts` gets the index of each case's first.
std::vector<Request> Run::batch_of(const Pass& pass, std::size_t end,
                                   std::vector<std::size_t>& starts) const {
  std::vector<Request> requests;
  for (std::size_t i = pass.next; i < end; ++i) {
    const Case& c = pass.cases[pass.runnable[i]];
    starts.push_back(requests.size());
    // An error's message may quote the request, its fill too.
    for (const auto& step : c.steps)
      requests.push_back(
          {step.request, answer_limit(step.request, step.pattern) + step.fill.count, c.patience, step.fill});
    requests.push_back({kSync, Request::kDefaultAnswerLimit});
  }
  return requests;
}

// The runnable case `i` was in flight when the exchange stopped at a fault:
// pins the fault on it, or, in a pipelined exchange, turns careful to replay
// from it. Returns whether the process must be restarted.
bool Run::stopped_in_flight(Pass& pass, std::size_t i, const Answers& answers, std::size_t from) {
  const Case& c = pass.cases[pass.runnable[i]];
  CaseResult& result = report_.results[pass.runnable[i]];
  const Fault fault = answers.fault.value_or(Fault{FaultKind::Exited, "no answer"});
  const std::size_t answered = answers.lines.size() > from ? answers.lines.size() - from : 0;
  if (fault.kind == FaultKind::OutOfTime) {
    fail_with_fault(result, c, fault, answered);
    pass.next = i + 1;
    return false;
  }
  if (!pass.careful) {
    pass.careful = true;
    pass.pending = {pass.runnable[i], fault};
    pass.next = i;
    return true;
  }
  pass.careful = !options_.pipelined;
  pass.pending.reset();
  fail_with_fault(result, c, fault, answered);
  pass.next = i + 1;
  return true;
}

// Judges the cases of one exchange, from pass.next to `end`, up to the first
// that is out of step or was in flight. Returns whether the process must be
// restarted.
bool Run::judge_batch(Pass& pass, std::size_t end, const std::vector<std::size_t>& starts,
                      const Answers& answers) {
  const std::size_t first = pass.next;
  for (std::size_t i = first; i < end; ++i) {
    const Case& c = pass.cases[pass.runnable[i]];
    const std::size_t from = starts[i - first];
    if (from + c.steps.size() >= answers.lines.size()) return stopped_in_flight(pass, i, answers, from);
    CaseResult& result = report_.results[pass.runnable[i]];
    Judged judged = judge(c, answers.lines, from);
    result = std::move(judged.result);
    if (result.outcome == CaseOutcome::Failed) {
      result.stderr_tail = session_.stderr_tail();
      result.reproduce = reproduce_line(c, command_);
      result.transcript = transcript_of(c);
    }
    if (judged.out_of_step) {
      pass.next = i + 1;
      return true;
    }
  }
  return false;
}

// A fault seen pipelined that did not show again one request at a time is
// pinned on the case that was first in flight all the same.
void Run::fail_the_case_in_flight(const Pass& pass) {
  if (!pass.pending) return;
  const std::size_t index = pass.pending->first;
  const Fault& fault = pass.pending->second;
  CaseResult& result = report_.results[index];
  result = {pass.cases[index].name,
            CaseOutcome::Failed,
            fault.detail +
                " (while this case was in flight in a pipelined run; replayed one request at a "
                "time it did not happen again, so it may depend on load or on earlier requests)",
            {},
            {},
            {},
            {},
            reproduce_line(pass.cases[index], command_),
            transcript_of(pass.cases[index]),
            pass.cases[index].about};
  count_fault(fault);
}

// After a fault in a pipelined exchange, the first unanswered request need
// not be the one that caused it (an implementation may buffer its answers),
// so the cases from there on are replayed one request at a time until the
// fault shows again, and it is pinned on the case then in flight. If it does
// not show again, it is pinned on the case first in flight all the same.
void Run::run_cases(const std::vector<Case>& cases) {
  report_.results.resize(cases.size());
  Pass pass{cases, runnable_of(cases), !options_.pipelined, std::nullopt, 0};
  while (pass.next < pass.runnable.size() && !stopped()) {
    std::vector<std::size_t> starts;  // index of each case's first request
    // With a failure limit, a batch at a time, so that the limit can stop what is not yet sent.
    const std::size_t end = batch_end(pass, options_.max_failures > 0
                                                ? std::min(pass.runnable.size(), pass.next + kBatchWithLimit)
                                                : pass.runnable.size());
    const std::vector<Request> requests = batch_of(pass, end, starts);
    const Answers answers = session_.exchange(requests, pass.careful ? Pace::OneAtATime : Pace::Pipelined);
    const bool restart_needed = judge_batch(pass, end, starts, answers);
    if (!restart_needed) {
      // Stopped (the time budget ran out in this batch): pass.next is the
      // case after the one in flight, and the cases from there on are not run,
      // not skipped over as if judged.
      if (end == pass.runnable.size() || stopped()) break;
      pass.next = end;
    }
    if (reached_failure_limit()) break;
    if (restart_needed && pass.next < pass.runnable.size() && !restart()) break;
  }
  fail_the_case_in_flight(pass);
  for (std::size_t i = pass.next; i < pass.runnable.size(); ++i) {
    CaseResult& result = report_.results[pass.runnable[i]];
    if (result.name.empty()) result = not_run(cases[pass.runnable[i]].name);
  }
}

void Run::run_interactive(const std::vector<InteractiveCase>& cases) {
  for (const InteractiveCase& ic : cases) {
    if (reached_failure_limit()) {
      report_.results.push_back(not_run(ic.name));
      continue;
    }
    CaseResult result{ic.name, CaseOutcome::Passed, {}, {}, {}, {}, {}, {}, {}};
    const std::string missing = missing_capabilities(ic.needs, report_.offered);
    if (!missing.empty()) {
      result.outcome = CaseOutcome::Skipped;
      result.reason = "not offered: " + missing;
      report_.results.push_back(result);
      continue;
    }
    if (ic.run_alone) {
      if (session_.out_of_time()) {
        report_.stopped_because = "the time budget of " + std::to_string(options_.budget.total.count()) +
                                  " ms for the whole run ran out";
        report_.results.push_back(not_run(ic.name));
        continue;
      }
      // Started as the Session starts its processes: under --sandbox, in a PID namespace too.
      const std::string alone = options_.launch.own_pid_namespace ? in_own_pid_namespace(command_) : command_;
      if (std::optional<Finding> finding = ic.run_alone(alone, options_.budget)) {
        result = {ic.name, CaseOutcome::Failed, finding->reason, {}, {}, {}, finding->stderr_tail,
                  {},      finding->transcript};
        if (finding->fault) count_fault(*finding->fault);
      }
      report_.results.push_back(result);
      continue;
    }
    if (!session_.alive() && !restart()) {
      report_.results.push_back(not_run(ic.name));
      continue;
    }
    std::optional<Finding> finding = ic.run(session_, report_.offered);
    // In step after it, failed or not? If not, the next case starts afresh.
    if (session_.alive()) {
      const auto [sync, fault] = session_.ask(kSync);
      if (fault && !finding) {
        finding = Finding{fault->detail + " (after this case)", fault, {}};
      } else if (!fault && mismatch("ok 1 *", sync)) {
        if (!finding) {
          finding = Finding{"responses out of step after this case: the hello sent after it was answered " +
                                readable(sync, 80),
                            std::nullopt,
                            {}};
        }
        restart();
      }
    }
    if (finding) {
      result.outcome = CaseOutcome::Failed;
      result.reason = finding->reason;
      result.transcript = finding->transcript;
      result.stderr_tail = session_.stderr_tail();
      if (finding->fault) count_fault(*finding->fault);
    }
    report_.results.push_back(result);
  }
}

}  // namespace

std::string_view to_string(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::Passed:
      return "pass";
    case CaseOutcome::Failed:
      return "FAIL";
    case CaseOutcome::Acceptable:
      return "acceptable difference";
    case CaseOutcome::Skipped:
      return "skipped";
    case CaseOutcome::NotRun:
      return "not run";
  }
  return "?";
}

int CheckReport::count(CaseOutcome o) const {
  int n = 0;
  for (const auto& r : results) n += r.outcome == o;
  return n;
}

std::set<Capability> CheckReport::left_out() const {
  std::set<Capability> out;
  if (!speaks_protocol) return out;  // nothing was probed, so nothing was left out either
  for (auto c : kAllCapabilities) {
    if (!offered.count(c) && !required.count(c)) out.insert(c);
  }
  return out;
}

bool CheckReport::ran_a_case() const {
  return count(CaseOutcome::Passed) + count(CaseOutcome::Acceptable) + count(CaseOutcome::Failed) > 0;
}

bool CheckReport::conforms() const {
  return speaks_protocol && count(CaseOutcome::Failed) == 0 && count(CaseOutcome::NotRun) == 0 &&
         stopped_because.empty() && session_problem.empty() && !offered.empty() && ran_a_case();
}

CheckReport check(Session& session, const std::string& command, std::vector<Case> cases,
                  const RunnerOptions& options, const std::vector<InteractiveCase>& interactive) {
  for (Case& c : cases) make_steps_now(c);
  CheckReport report;
  report.command = command;
  Run run(session, command, options, report);
  if (!run.probe()) {
    (void)session.finish();  // the probe's finding is the report
    end_strays();            // a daemon it started before it failed the probe, too
    return report;
  }
  run.run_cases(cases);
  run.run_interactive(interactive);
  report.results.insert(report.results.begin(), run.capability_results_.begin(),
                        run.capability_results_.end());
  if (report.stopped_because.empty()) {
    if (const auto ended = session.finish()) report.session_problem = ended->what;
  } else {
    (void)session.finish();  // the reason it stopped is the report
  }
  report.restarts = session.restarts();
  // A daemon the implementation left in a session of its own must not live
  // on into the next implementation's check, or after tlbf.
  end_strays();
  return report;
}

CheckReport check(const std::string& command, std::vector<Case> cases, const RunnerOptions& options,
                  const std::vector<InteractiveCase>& interactive) {
  const auto session = start_session(command, options.budget, options.launch);
  return check(*session, command, std::move(cases), options, interactive);
}

}  // namespace tlbf::conformance
