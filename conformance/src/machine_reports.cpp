// The reports for machines: JSON, whole, and JUnit XML and TAP for CI systems.
#include <sstream>

#include "report_facts.hpp"
#include "tlbf/conformance/reports.hpp"
#include "tlbf/markup.hpp"

namespace tlbf::conformance {

using report_facts::reproduce_of;

namespace {

// One line of TAP, ASCII only: tlbf's words or an implementation's bytes.
std::string tap_ascii(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += byte < 0x20 || byte >= 0x7f ? '?' : c;
  }
  return out;
}

// A YAML double-quoted scalar: newlines and tabs escaped, the rest as tap_ascii.
std::string yaml_quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += std::string("\\") + c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += tap_ascii(std::string_view(&c, 1));
    }
  }
  return out + "\"";
}

// A test point's description: '#' would start a directive, so it is escaped (TAP 14's \#).
std::string tap_description(std::string_view name) {
  std::string out;
  for (const char c : tap_ascii(name))
    out += c == '#' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out;
}

std::string tap_failure(const CaseResult& r, const std::string& message) {
  std::string out = "  ---\n  message: " + yaml_quoted(message) + "\n  severity: fail\n";
  const std::pair<const char*, const std::string*> fields[] = {
      {"checks", &r.about},        {"request", &r.request},
      {"expected", &r.expected},   {"got", &r.got},
      {"oracle", &r.oracle},       {"allowed", &r.allowed},
      {"reproduce", &r.reproduce}, {"stderr", &r.stderr_tail}};
  std::string data;
  for (const auto& [key, value] : fields) {
    if (!value->empty()) data += "    " + std::string(key) + ": " + yaml_quoted(*value) + "\n";
  }
  if (!data.empty()) out += "  data:\n" + data;
  return out + "  ...\n";
}

}  // namespace

nlohmann::ordered_json to_json(const CheckReport& report) {
  nlohmann::ordered_json cases = nlohmann::ordered_json::array();
  for (const auto& r : report.results) {
    nlohmann::ordered_json c = {{"name", r.name}, {"outcome", std::string(to_string(r.outcome))}};
    if (!r.reason.empty()) c["reason"] = r.reason;
    if (!r.about.empty()) c["about"] = r.about;
    if (!r.request.empty()) c["request"] = r.request, c["expected"] = r.expected, c["got"] = r.got;
    if (!r.oracle.empty()) c["oracle"] = r.oracle;
    if (!r.allowed.empty()) c["allowed"] = r.allowed;
    if (!r.stderr_tail.empty()) c["stderr"] = r.stderr_tail;
    if (r.outcome == CaseOutcome::Failed && !reproduce_of(r).empty()) c["reproduce"] = reproduce_of(r);
    if (!r.transcript.empty()) c["transcript"] = r.transcript;
    cases.push_back(c);
  }
  const auto names = [](const std::set<Capability>& set) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (auto c : set) out.push_back(std::string(to_string(c)));
    return out;
  };
  return {{"implementation", report.command},
          {"hello", report.hello},
          {"conforms", report.conforms()},
          {"capabilities", names(report.offered)},
          {"required", names(report.required)},
          {"left_out", names(report.left_out())},
          {"restarts", report.restarts},
          {"session", report.session_problem},
          {"stopped_because", report.stopped_because},
          {"passed", report.count(CaseOutcome::Passed)},
          {"failed", report.count(CaseOutcome::Failed)},
          {"acceptable", report.count(CaseOutcome::Acceptable)},
          {"skipped", report.count(CaseOutcome::Skipped)},
          {"not_run", report.count(CaseOutcome::NotRun)},
          {"cases", cases}};
}

std::string to_junit(const CheckReport& report) {
  std::ostringstream out;
  // A case not run was not checked: a failure, as the verdict counts it, never a pass.
  const int failures = report.count(CaseOutcome::Failed) + report.count(CaseOutcome::NotRun) +
                       (report.session_problem.empty() ? 0 : 1);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
      << "<testsuite name=\"tlbf check " << escape_xml_ascii(report.command) << "\" tests=\""
      << report.results.size() + 1 << "\" failures=\"" << failures << "\" skipped=\""
      << report.count(CaseOutcome::Skipped) << "\">\n";
  for (const auto& r : report.results) {
    const auto cut = r.name.rfind('/');
    std::string classname = r.name.substr(0, cut);
    for (char& c : classname) c = c == '/' ? '.' : c;
    out << " <testcase classname=\"" << escape_xml_ascii(classname) << "\" name=\""
        << escape_xml_ascii(r.name.substr(cut + 1)) << "\"";
    if (r.outcome == CaseOutcome::Passed) {
      out << "/>\n";
      continue;
    }
    out << ">";
    if (r.outcome == CaseOutcome::Failed) {
      out << "<failure message=\"" << escape_xml_ascii(r.reason) << "\">"
          << escape_xml_ascii("checks: " + r.about + "\nrequest: " + r.request + "\nexpected: " + r.expected +
                              "\ngot: " + r.got + "\noracle: " + r.oracle +
                              (r.allowed.empty() ? "" : "\nallowed: " + r.allowed) +
                              "\nreproduce: " + r.reproduce + "\nstderr:\n" + r.stderr_tail)
          << "</failure>";
    } else if (r.outcome == CaseOutcome::NotRun) {
      out << "<failure message=\"" << escape_xml_ascii("not run: " + r.reason) << "\"/>";
    } else if (r.outcome == CaseOutcome::Skipped) {
      out << "<skipped message=\"" << escape_xml_ascii(r.reason) << "\"/>";
    } else {
      out << "<system-out>" << escape_xml_ascii("acceptable difference: " + r.reason) << "</system-out>";
    }
    out << "</testcase>\n";
  }
  // The session as a case of its own, so that a bad exit is never lost.
  out << " <testcase classname=\"session\" name=\"end_of_input\"";
  if (report.session_problem.empty()) {
    out << "/>\n";
  } else {
    out << "><failure message=\"" << escape_xml_ascii(report.session_problem) << "\"/></testcase>\n";
  }
  out << "</testsuite>\n</testsuites>\n";
  return out.str();
}

std::string to_tap(const CheckReport& report) {
  std::string out = "TAP version 13\n1.." + std::to_string(report.results.size() + 1) + "\n# tlbf check " +
                    tap_ascii(report.command) + "\n";
  std::size_t number = 0;
  for (const auto& r : report.results) {
    const std::string point = std::to_string(++number) + " - " + tap_description(r.name);
    switch (r.outcome) {
      case CaseOutcome::Passed:
        out += "ok " + point + "\n";
        break;
      case CaseOutcome::Skipped:
        out += "ok " + point + " # SKIP " + tap_ascii(r.reason) + "\n";
        break;
      case CaseOutcome::Acceptable:
        out += "ok " + point + "\n# acceptable difference: " + tap_ascii(r.reason) + "\n";
        break;
      case CaseOutcome::Failed:
        out += "not ok " + point + "\n" + tap_failure(r, r.reason);
        break;
      case CaseOutcome::NotRun:
        out += "not ok " + point + "\n" + tap_failure(r, "not run: " + r.reason);
        break;
    }
  }
  // The session as a test point of its own, so that a bad exit is never lost.
  const std::string last = std::to_string(++number) + " - session/end_of_input\n";
  if (report.session_problem.empty()) return out + "ok " + last;
  return out + "not ok " + last + "  ---\n  message: " + yaml_quoted(report.session_problem) +
         "\n  severity: fail\n  ...\n";
}

}  // namespace tlbf::conformance
