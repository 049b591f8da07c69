#include "tlbf/conformance/runner.hpp"

#include <poll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <optional>

#include "tlbf/conformance/connection.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {
namespace {

using Clock = std::chrono::steady_clock;

const char* const kSync = "hello";  // sent after every case to prove the responses are in step

std::string reproduce_line(const Case& c, const std::string& command) {
  std::string line = "printf '%s\\n'";
  for (const auto& step : c.steps) line += " " + shell_quote(step.request.size() > 200 ? step.request.substr(0, 200) + "..." : step.request);
  return line + " | " + command;
}

// The capabilities a case needs that the implementation does not offer, named.
std::string missing_capabilities(const std::set<Capability>& needs, const std::set<Capability>& offered) {
  std::string missing;
  for (auto need : needs) {
    if (!offered.count(need)) missing += (missing.empty() ? "" : ", ") + std::string(to_string(need));
  }
  return missing;
}

bool looks_like_protocol(const std::string& line) { return line == "ok" || line.rfind("ok ", 0) == 0 || line.rfind("err ", 0) == 0; }

// Judges one case from its responses (the last one answers the sync hello).
CaseResult judge(const Case& c, const std::vector<std::string>& responses, std::size_t from, bool& out_of_step) {
  CaseResult r{c.name, Outcome::Passed, {}, {}, {}, {}, {}, {}};
  const std::string& sync = responses[from + c.steps.size()];
  out_of_step = mismatch("ok 1 *", sync).has_value();
  for (std::size_t i = 0; i < c.steps.size(); ++i) {
    const std::string& got = responses[from + i];
    if (auto why = mismatch(c.steps[i].pattern, got)) {
      r.outcome = c.acceptable ? Outcome::Tolerated : Outcome::Failed;
      r.reason = *why + (looks_like_protocol(got) ? "" : " (not a protocol line: was it meant for stderr?)");
      if (c.acceptable) r.reason += "; acceptable: " + c.why;
      r.request = c.steps[i].request;
      r.expected = c.steps[i].pattern;
      r.got = got;
      break;
    }
  }
  if (out_of_step) {
    r.outcome = Outcome::Failed;
    r.reason = "responses out of step: the hello sent after this case was answered '" + sync.substr(0, 80) +
               "' (an extra or a missing response line?)";
  }
  return r;
}

}  // namespace

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::Passed: return "pass";
    case Outcome::Failed: return "FAIL";
    case Outcome::Tolerated: return "acceptable difference";
    case Outcome::Skipped: return "skipped";
  }
  return "?";
}

int CheckReport::count(Outcome o) const {
  int n = 0;
  for (const auto& r : results) n += r.outcome == o;
  return n;
}

bool CheckReport::conforms() const {
  return speaks_protocol && count(Outcome::Failed) == 0 && session_problem.empty() && !offered.empty();
}

CheckReport check(const std::string& command, const std::vector<Case>& cases, const RunnerOptions& options,
                  const std::vector<InteractiveCase>& interactive) {
  CheckReport report;
  report.command = command;
  auto connection = std::make_unique<Connection>(command, options.request_timeout, options.pipelined);
  if (!connection->started()) {
    report.session_problem = "could not be started";
    return report;
  }

  // Which groups does it offer? Anything but err Unknown counts as offered.
  const std::vector<std::pair<std::string, std::optional<Capability>>> probes = {
      {"hello", std::nullopt},
      {"fnv1a64 -", Capability::Hashing},
      {"optimal_m 1 0.5", Capability::Sizing},
      {"new tlbf_probe 8 1", Capability::Filter},
      {"to_bytes tlbf_probe", Capability::Bytes},
      {"union tlbf_probe tlbf_probe", Capability::Union},
      {"drop tlbf_probe", std::nullopt}};
  std::vector<std::string> probe_lines;
  for (const auto& p : probes) probe_lines.push_back(p.first);
  std::optional<Fault> fault;
  const auto answers = connection->exchange(probe_lines, fault);
  if (fault || answers.size() != probes.size() || mismatch("ok 1 *", answers[0])) {
    report.hello = answers.empty() ? "" : answers[0];
    report.session_problem = fault ? fault->reason : "does not answer hello with 'ok 1 ...': it does not speak protocol v1";
    report.session_problem = "before any case: " + report.session_problem;
    report.not_found = report.session_problem.find("exited with status 127") != std::string::npos ||
                       report.session_problem.find("exited with status 126") != std::string::npos;
    report.session_problem += connection->stderr_tail().empty() ? "" : "\nstderr:\n" + connection->stderr_tail();
    return report;
  }
  report.speaks_protocol = true;
  report.hello = answers[0];
  for (std::size_t i = 0; i < probes.size(); ++i) {
    if (probes[i].second && answers[i].rfind("err Unknown", 0) != 0) report.offered.insert(*probes[i].second);
  }

  // Cases it can run, in order; the others are skipped, never passed.
  std::vector<const Case*> runnable;
  report.results.resize(cases.size());
  std::vector<std::size_t> slot;  // runnable index -> results index
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string missing = missing_capabilities(cases[i].needs, report.offered);
    if (missing.empty()) {
      runnable.push_back(&cases[i]);
      slot.push_back(i);
    } else {
      report.results[i] = {cases[i].name, Outcome::Skipped, "not offered: " + missing, {}, {}, {}, {}, {}};
    }
  }

  // After a fault in a pipelined exchange, the first unanswered request need
  // not be the one that caused it (an implementation may buffer its answers),
  // so the cases from there on are replayed one request at a time until the
  // fault shows again, and it is pinned on the case then in flight.
  bool careful = false;
  // A fault seen while pipelined and not yet pinned: the case then in flight,
  // and what happened. It is never forgotten: if the careful replay does not
  // show it again, it is pinned on that case all the same.
  std::optional<std::pair<std::size_t, std::string>> pending;
  std::size_t next = 0;  // the first runnable case not yet judged
  while (next < runnable.size()) {
    std::vector<std::string> requests;
    std::vector<std::size_t> starts;  // index of each case's first request
    for (std::size_t i = next; i < runnable.size(); ++i) {
      starts.push_back(requests.size());
      for (const auto& step : runnable[i]->steps) requests.push_back(step.request);
      requests.push_back(kSync);
    }
    fault.reset();
    const auto responses = connection->exchange(requests, fault);
    bool restart = false;
    for (std::size_t i = next; i < runnable.size(); ++i) {
      const Case& c = *runnable[i];
      const std::size_t from = starts[i - next];
      CaseResult& result = report.results[slot[i]];
      if (from + c.steps.size() < responses.size()) {
        bool out_of_step = false;
        result = judge(c, responses, from, out_of_step);
        if (result.outcome == Outcome::Failed) result.stderr_tail = connection->stderr_tail();
        result.reproduce = reproduce_line(c, command);
        if (out_of_step) {
          restart = true;
          next = i + 1;
          break;
        }
        continue;
      }
      const std::string reason = fault ? fault->reason : "no response";
      if (!careful && options.pipelined) {
        careful = true;  // find the case that really caused it
        pending = {i, reason + " (while this case was in flight in a pipelined run)"};
        next = i;
        restart = true;
        break;
      }
      // The fault happened in this case: pin it here.
      careful = false;
      pending.reset();
      result = {c.name, Outcome::Failed, reason, {}, {}, {}, connection->stderr_tail(), reproduce_line(c, command)};
      const std::size_t answered = responses.size() > from ? responses.size() - from : 0;
      if (answered < c.steps.size()) {
        result.request = c.steps[answered].request;
        result.expected = c.steps[answered].pattern;
      }
      restart = true;
      next = i + 1;
      break;
    }
    if (!restart) {
      next = runnable.size();
      break;
    }
    ++report.restarts;
    connection = std::make_unique<Connection>(command, options.request_timeout, options.pipelined && !careful);
    if (!connection->started()) {
      report.session_problem = "could not be restarted";
      return report;
    }
  }
  if (pending) {
    CaseResult& result = report.results[slot[pending->first]];
    result.outcome = Outcome::Failed;
    result.reason = pending->second + "; replayed one request at a time it did not happen again, so it may depend "
                                      "on load or on earlier requests";
  }

  for (const InteractiveCase& ic : interactive) {
    CaseResult result{ic.name, Outcome::Passed, {}, {}, {}, {}, {}, {}};
    const std::string missing = missing_capabilities(ic.needs, report.offered);
    if (!missing.empty()) {
      result.outcome = Outcome::Skipped;
      result.reason = "not offered: " + missing;
      report.results.push_back(result);
      continue;
    }
    const Send send = [&](const std::vector<std::string>& requests) {
      std::optional<Fault> f;
      auto responses = connection->exchange(requests, f);
      if (f) throw SessionFault{f->reason};
      return responses;
    };
    bool restart = false;
    const Link link{send,
                    [&] {
                      ++report.restarts;
                      connection = std::make_unique<Connection>(command, options.request_timeout, options.pipelined);
                    },
                    report.offered};
    try {
      if (auto why = ic.run(link)) {
        result.outcome = Outcome::Failed;
        result.reason = *why;
      }
      const auto sync = send({kSync});
      if (mismatch("ok 1 *", sync[0])) {
        result.outcome = Outcome::Failed;
        result.reason += (result.reason.empty() ? "" : "; ") + std::string("responses out of step after this case");
        restart = true;
      }
    } catch (const SessionFault& fault_in_case) {
      result.outcome = Outcome::Failed;
      result.reason = fault_in_case.reason;
      restart = true;
    }
    if (result.outcome == Outcome::Failed) result.stderr_tail = connection->stderr_tail();
    report.results.push_back(result);
    if (restart) {
      ++report.restarts;
      connection = std::make_unique<Connection>(command, options.request_timeout, options.pipelined);
      if (!connection->started()) {
        report.session_problem = "could not be restarted";
        return report;
      }
    }
  }
  report.session_problem = connection->finish();
  return report;
}

}  // namespace tlbf::conformance
