// The expected-failure list: read, judged against a report, and written.
#include <sstream>

#include "tlbf/conformance/expected_failures.hpp"

namespace tlbf::conformance {
namespace {

constexpr std::string_view kSpaces = " \t\r";

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(kSpaces);
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(kSpaces);
  return std::string(text.substr(first, last - first + 1));
}

// protobuf's conformance runner keeps 128 bytes of a failure's message.
constexpr std::size_t kListedReasonLimit = 128;

}  // namespace

ExpectedFailures parse_expected_failures(const std::string& text) {
  ExpectedFailures out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto hash = line.find('#');
    const std::string name = trimmed(std::string_view(line).substr(0, hash));
    if (name.empty()) continue;
    out[name] = hash == std::string::npos ? "" : trimmed(std::string_view(line).substr(hash + 1));
  }
  return out;
}

std::string reason_on_one_line(std::string_view reason) {
  std::string out(reason);
  for (char& c : out) c = c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
  return trimmed(out);
}

bool ExpectedVerdict::ok(const CheckReport& report) const {
  return report.speaks_protocol && report.session_problem.empty() && report.stopped_because.empty() &&
         unexpected_failures.empty() && other_reasons.empty() && unexpected_passes.empty() &&
         unknown.empty() && not_run.empty();
}

ExpectedVerdict judge_expected(const CheckReport& report, const ExpectedFailures& expected) {
  ExpectedVerdict v;
  std::set<std::string> seen;
  for (const auto& r : report.results) {
    seen.insert(r.name);
    const auto listed = expected.find(r.name);
    if (r.outcome == CaseOutcome::NotRun) {
      v.not_run.push_back(r.name);
      v.listed_not_run += listed != expected.end() ? 1 : 0;
    } else if (r.outcome == CaseOutcome::Failed && listed == expected.end()) {
      v.unexpected_failures.push_back(r.name);
    } else if (r.outcome == CaseOutcome::Failed) {
      const std::string got = reason_on_one_line(r.reason);
      if (got.rfind(listed->second, 0) == 0) {
        v.expected_and_failed.push_back(r.name);
      } else {
        v.other_reasons.push_back({r.name, listed->second, got});
      }
    } else if (listed != expected.end() && r.outcome != CaseOutcome::Skipped) {
      v.unexpected_passes.push_back(r.name);
    }
  }
  for (const auto& [name, reason] : expected) {
    if (!seen.count(name)) v.unknown.push_back(name);
  }
  return v;
}

std::string reason_to_list(std::string_view reason) {
  const std::string line = reason_on_one_line(reason);
  bool quoted = false;
  std::size_t end = 0;
  for (; end < line.size() && end < kListedReasonLimit; ++end) {
    if (line[end] == '\'') quoted = !quoted;
    if (!quoted && line[end] >= '0' && line[end] <= '9') break;
  }
  return trimmed(std::string_view(line).substr(0, end));
}

std::string expected_failures_text(const CheckReport& report) {
  std::string out =
      "# Expected failures of " + report.command + "\n# Written by tlbf check --update-expected.\n";
  if (const int not_run = report.count(CaseOutcome::NotRun); not_run > 0) {
    out += "# " + std::to_string(not_run) +
           " cases did not run and are not listed: a run in which a case does not run is never as "
           "expected.\n";
  }
  for (const auto& r : report.results) {
    if (r.outcome != CaseOutcome::Failed) continue;
    const std::string reason = reason_to_list(r.reason);
    out += r.name + (reason.empty() ? "" : "  # " + reason) + "\n";
  }
  return out;
}

}  // namespace tlbf::conformance
