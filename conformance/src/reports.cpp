#include "tlbf/conformance/reports.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "tlbf/conformance/readable.hpp"

namespace tlbf::conformance {
namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 cannot carry most control characters, even escaped.
        // Bytes past ASCII may not be UTF-8, which XML requires.
        out += ((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || static_cast<unsigned char>(c) > 0x7e) ? '?' : c;
    }
  }
  return out;
}

std::string paint(const std::string& text, const char* code, bool colour) {
  return colour ? std::string("\033[") + code + "m" + text + "\033[0m" : text;
}
const char* const kRed = "1;31";
const char* const kGreen = "32";

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}
std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string failure_text(const CaseResult& r, bool colour) {
  const std::string label(to_string(r.outcome));
  std::string out = (r.outcome == Outcome::Failed ? paint(label, kRed, colour) : label) + " " + r.name + "\n  " + r.reason + "\n";
  if (!r.request.empty()) {
    out += "  request:  " + readable(r.request) + "\n  expected: " + readable(r.expected) + "\n";
    if (!r.got.empty()) out += "  got:      " + readable(r.got) + "\n";
  }
  if (!r.stderr_tail.empty()) out += "  stderr (last lines):\n    " + r.stderr_tail + "\n";
  if (r.outcome == Outcome::Failed) {
    if (!r.reproduce.empty()) {
      out += "  reproduce: " + r.reproduce + "\n";
    } else if (!r.transcript.empty()) {
      out += "  reproduce: the requests are too long for a shell line; the transcript is whole in --json\n";
    }
  }
  return out;
}

}  // namespace

std::string group_of(const std::string& name) {
  const auto first = name.find('/');
  const auto second = name.find('/', first + 1);
  return name.substr(0, second);
}

std::string text_report(const CheckReport& report, const TextOptions& options) {
  std::string out = "implementation: " + report.command + "\n";
  if (!report.hello.empty()) out += "hello:          " + report.hello + "\n";
  for (const auto& r : report.results) {
    if (r.outcome == Outcome::Failed ||
        (options.verbose && r.outcome != Outcome::Passed && r.outcome != Outcome::NotRun)) {
      out += failure_text(r, options.colour);
    }
  }
  std::map<std::string, std::map<Outcome, int>> groups;
  std::size_t width = 5;
  for (const auto& r : report.results) {
    ++groups[group_of(r.name)][r.outcome];
    width = std::max(width, group_of(r.name).size());
  }
  const std::vector<std::pair<Outcome, std::string>> columns = {{Outcome::Passed, "passed"},   {Outcome::Failed, "failed"},
                                                                {Outcome::Tolerated, "acceptable"}, {Outcome::Skipped, "skipped"},
                                                                {Outcome::NotRun, "not run"}};
  out += "\n" + pad("group", width);
  for (const auto& [o, title] : columns) out += " " + pad_left(title, 10);
  out += "\n";
  for (auto& [group, counts] : groups) {
    out += pad(group, width);
    for (const auto& [o, title] : columns) out += " " + pad_left(std::to_string(counts[o]), 10);
    out += "\n";
  }
  if (!report.stopped_because.empty()) {
    std::string where;
    for (auto& [group, counts] : groups) {
      if (counts[Outcome::NotRun] > 0) where += (where.empty() ? "" : ", ") + group + " " + std::to_string(counts[Outcome::NotRun]);
    }
    out += "\nNOT RUN: " + std::to_string(report.count(Outcome::NotRun)) + " cases (" + where + ") because " +
           report.stopped_because + "\n";
  }
  std::string offered, missing, left_out;
  for (auto c : kAllCapabilities) {
    const bool left = report.left_out().count(c) > 0;
    (report.offered.count(c) ? offered : left ? left_out : missing) += " " + std::string(to_string(c));
  }
  if (!report.speaks_protocol) {
    // It never answered the probes, so no capability was offered, declined or left out.
    out += "\ncapabilities checked: none (not probed: it did not answer hello as protocol v1)\n";
  } else {
    out += "\ncapabilities checked:" + (offered.empty() ? std::string(" none") : offered) + "\n";
  }
  if (!missing.empty() && report.speaks_protocol) {
    out += "NOT offered, though required (not checked, not passed):" + missing + "\n";
  }
  if (!left_out.empty() && options.tlbf_profile) out += "left out (--capabilities; not checked, not passed):" + left_out + "\n";
  if (report.restarts > 0) out += "restarts: " + std::to_string(report.restarts) + "\n";
  if (!report.session_problem.empty()) out += "session problem: " + report.session_problem + "\n";
  const bool tlbf = options.tlbf_profile;
  out += "verdict: " +
         (report.conforms() ? paint(tlbf ? (left_out.empty() ? "conforms to TLBF v1, every capability checked"
                                                             : "conforms to TLBF v1 on" + offered + ", with" + left_out +
                                                                   " left out")
                                         : "behaves as a Bloom filter (the behavioural profile; no TLBF verdict)",
                                    kGreen, options.colour)
                            : paint(tlbf ? "does NOT conform to TLBF v1" : "does NOT behave as a Bloom filter", kRed,
                                    options.colour)) +
         " (" + std::to_string(report.count(Outcome::Passed)) + " passed, " + std::to_string(report.count(Outcome::Failed)) +
         " failed, " + std::to_string(report.count(Outcome::Tolerated)) + " acceptable differences, " +
         std::to_string(report.count(Outcome::Skipped)) + " skipped, " + std::to_string(report.count(Outcome::NotRun)) +
         " not run)\n";
  return out;
}

nlohmann::ordered_json to_json(const CheckReport& report) {
  nlohmann::ordered_json cases = nlohmann::ordered_json::array();
  for (const auto& r : report.results) {
    nlohmann::ordered_json c = {{"name", r.name}, {"outcome", std::string(to_string(r.outcome))}};
    if (!r.reason.empty()) c["reason"] = r.reason;
    if (!r.request.empty()) c["request"] = r.request, c["expected"] = r.expected, c["got"] = r.got;
    if (!r.transcript.empty()) c["transcript"] = r.transcript;
    cases.push_back(c);
  }
  const auto names = [](const std::set<Capability>& set) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (auto c : set) out.push_back(std::string(to_string(c)));
    return out;
  };
  return {{"implementation", report.command}, {"hello", report.hello}, {"conforms", report.conforms()},
          {"capabilities", names(report.offered)}, {"required", names(report.required)},
          {"left_out", names(report.left_out())}, {"restarts", report.restarts}, {"session", report.session_problem},
          {"stopped_because", report.stopped_because}, {"passed", report.count(Outcome::Passed)},
          {"failed", report.count(Outcome::Failed)}, {"acceptable", report.count(Outcome::Tolerated)},
          {"skipped", report.count(Outcome::Skipped)}, {"not_run", report.count(Outcome::NotRun)}, {"cases", cases}};
}

std::string parity_matrix(const std::vector<CheckReport>& reports) {
  std::map<std::string, std::vector<std::pair<int, int>>> matrix;
  std::size_t width = 5;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    for (const auto& r : reports[i].results) {
      const std::string group = group_of(r.name);
      auto& cells = matrix[group];
      cells.resize(reports.size());
      cells[i].first += r.outcome == Outcome::Passed || r.outcome == Outcome::Tolerated;
      cells[i].second += r.outcome != Outcome::Skipped;
      width = std::max(width, group.size());
    }
  }
  // Every cell as wide as the widest "passed/run" or "#N" header: columns line up.
  std::size_t cell = 3;
  for (const auto& [group, cells] : matrix) {
    for (const auto& [passed, run] : cells) cell = std::max(cell, std::to_string(passed).size() + std::to_string(run).size() + 1);
  }
  cell = std::max(cell, std::to_string(reports.size()).size() + 1);
  std::string out = "parity (passed/run per group; - where not offered):\n" + pad("group", width);
  for (std::size_t i = 0; i < reports.size(); ++i) out += "  " + pad_left("#" + std::to_string(i + 1), cell);
  out += "\n";
  for (const auto& [group, cells] : matrix) {
    out += pad(group, width);
    for (const auto& [passed, run] : cells) {
      out += "  " + pad_left(run == 0 ? "-" : std::to_string(passed) + "/" + std::to_string(run), cell);
    }
    out += "\n";
  }
  for (std::size_t i = 0; i < reports.size(); ++i) out += "#" + std::to_string(i + 1) + ": " + reports[i].command + "\n";
  return out;
}

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
  return report.speaks_protocol && report.session_problem.empty() && unexpected_failures.empty() &&
         unexpected_passes.empty() && unknown.empty();
}

ExpectedVerdict judge_expected(const CheckReport& report, const std::set<std::string>& expected) {
  ExpectedVerdict v;
  std::set<std::string> seen;
  for (const auto& r : report.results) {
    seen.insert(r.name);
    const bool listed = expected.count(r.name) != 0;
    if (r.outcome == Outcome::Failed) {
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
  std::string out = "# Expected failures of " + report.command + "\n# Written by tlbf check --update-expected.\n";
  for (const auto& r : report.results) {
    if (r.outcome == Outcome::Failed) out += r.name + "\n";
  }
  return out;
}

std::string to_junit(const CheckReport& report) {
  std::ostringstream out;
  const int failures = report.count(Outcome::Failed) + (report.session_problem.empty() ? 0 : 1);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
      << "<testsuite name=\"tlbf check " << xml_escape(report.command) << "\" tests=\""
      << report.results.size() + 1 << "\" failures=\"" << failures << "\" skipped=\""
      << report.count(Outcome::Skipped) << "\">\n";
  for (const auto& r : report.results) {
    const auto cut = r.name.rfind('/');
    std::string classname = r.name.substr(0, cut);
    for (char& c : classname) c = c == '/' ? '.' : c;
    out << " <testcase classname=\"" << xml_escape(classname) << "\" name=\"" << xml_escape(r.name.substr(cut + 1))
        << "\"";
    if (r.outcome == Outcome::Passed) {
      out << "/>\n";
      continue;
    }
    out << ">";
    if (r.outcome == Outcome::Failed) {
      out << "<failure message=\"" << xml_escape(r.reason) << "\">"
          << xml_escape("request: " + r.request + "\nexpected: " + r.expected + "\ngot: " + r.got + "\nreproduce: " +
                        r.reproduce + "\nstderr:\n" + r.stderr_tail)
          << "</failure>";
    } else if (r.outcome == Outcome::Skipped) {
      out << "<skipped message=\"" << xml_escape(r.reason) << "\"/>";
    } else {
      out << "<system-out>" << xml_escape("acceptable difference: " + r.reason) << "</system-out>";
    }
    out << "</testcase>\n";
  }
  // The session as a case of its own, so that a bad exit is never lost.
  out << " <testcase classname=\"session\" name=\"end_of_input\"";
  if (report.session_problem.empty()) {
    out << "/>\n";
  } else {
    out << "><failure message=\"" << xml_escape(report.session_problem) << "\"/></testcase>\n";
  }
  out << "</testsuite>\n</testsuites>\n";
  return out.str();
}

}  // namespace tlbf::conformance
