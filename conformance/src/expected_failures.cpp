// The expected-failure list: read, judged against a report, and written.
#include <sstream>

#include "tlbf/conformance/expected_failures.hpp"

namespace tlbf::conformance {

std::set<std::string> parse_expected_failures(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const auto last = line.find_last_not_of(" \t\r");
    out.insert(line.substr(first, last - first + 1));
  }
  return out;
}

bool ExpectedVerdict::ok(const CheckReport& report) const {
  return report.speaks_protocol && report.session_problem.empty() && report.stopped_because.empty() &&
         unexpected_failures.empty() && unexpected_passes.empty() && unknown.empty() && not_run.empty();
}

ExpectedVerdict judge_expected(const CheckReport& report, const std::set<std::string>& expected) {
  ExpectedVerdict v;
  std::set<std::string> seen;
  for (const auto& r : report.results) {
    seen.insert(r.name);
    const bool listed = expected.count(r.name) != 0;
    if (r.outcome == Outcome::NotRun) {
      v.not_run.push_back(r.name);
      v.listed_not_run += listed ? 1 : 0;
    } else if (r.outcome == Outcome::Failed) {
      (listed ? v.expected_and_failed : v.unexpected_failures).push_back(r.name);
    } else if (listed && r.outcome != Outcome::Skipped) {
      v.unexpected_passes.push_back(r.name);
    }
  }
  for (const auto& name : expected) {
    if (!seen.count(name)) v.unknown.push_back(name);
  }
  return v;
}

std::string expected_failures_text(const CheckReport& report) {
  std::string out =
      "# Expected failures of " + report.command + "\n# Written by tlbf check --update-expected.\n";
  if (const int not_run = report.count(Outcome::NotRun); not_run > 0) {
    out += "# " + std::to_string(not_run) +
           " cases did not run and are not listed: a run in which a case does not run is never as "
           "expected.\n";
  }
  for (const auto& r : report.results) {
    if (r.outcome == Outcome::Failed) out += r.name + "\n";
  }
  return out;
}

}  // namespace tlbf::conformance
