#include "tlbf/conformance/reports.hpp"

#include <sstream>

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

}  // namespace

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
