#include "tlbf/conformance/reports.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string_view>

#include "tlbf/conformance/readable.hpp"
#include "tlbf/markup.hpp"

namespace tlbf::conformance {
namespace {

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

// The reproduce line of a failed case, or why there is none ("" when neither).
std::string reproduce_of(const CaseResult& r) {
  if (!r.reproduce.empty()) return r.reproduce;
  // No shell line: its requests are too long for one, or the case talks to a
  // fresh process of its own (the random sequences, a start with no hello).
  if (!r.transcript.empty())
    return "the transcript is whole in --json; save it to a file and replay it with tlbf check --transcript "
           "FILE";
  return "";
}

// The text report fits a terminal of this many columns (docs/check.md, "Output").
constexpr std::size_t kColumns = 80;

// `text` cut to `width` columns, "..." marking the cut.
std::string fitted(const std::string& text, std::size_t width = kColumns) {
  return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

// `text` (our own words, no newlines) wrapped at spaces into lines of at most
// kColumns, the first after `first`, the others after `indent`; a word longer
// than a line is cut.
std::string wrapped(const std::string& text, const std::string& indent, const std::string& first) {
  std::string out, line = first;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t space = text.find(' ', start);
    if (space == std::string::npos) space = text.size();
    const std::string word = text.substr(start, space - start);
    const bool empty = out.empty() ? line.size() == first.size() : line.size() == indent.size();
    if (!empty && line.size() + 1 + word.size() > kColumns) {
      out += line + "\n";
      line = indent;
    }
    const bool still_empty = out.empty() ? line.size() == first.size() : line.size() == indent.size();
    line += (still_empty ? "" : " ") + word;
    start = space + 1;
  }
  return out + fitted(line) + "\n";
}
std::string wrapped(const std::string& text, const std::string& indent) {
  return wrapped(text, indent, indent);
}

// "  label   'value'", the value escaped and shortened so that the line fits.
std::string field(const std::string& label, const std::string& value) {
  const std::size_t room = kColumns - label.size();
  std::size_t keep = room;
  std::string shown = readable(value, keep);
  while (shown.size() > room && keep > 16) shown = readable(value, keep -= 4);
  return fitted(label + shown) + "\n";
}

// A shell line broken into lines of at most kColumns with backslash-newline,
// which the shell removes. Between words the next line is indented (spaces
// only separate words); inside a word it starts at the first column, and
// inside a single-quoted word the quote is closed before the break and
// opened after it ('ab'\<newline>'cd' is abcd). Pasted whole, it is the
// same command.
std::string shell_lines(const std::string& line, const std::string& indent) {
  std::string out, current = indent;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    // Room for the character, and for a closing quote or a space, and the backslash.
    if (current.size() + 3 > kColumns) {
      const std::size_t space = quoted ? std::string::npos : current.rfind(' ');
      if (c == ' ' && !quoted) {
        out += current + " \\\n";
        current = indent;
        continue;
      }
      if (space != std::string::npos && space > indent.size()) {
        // A bare word: move it whole to the next line.
        out += current.substr(0, space) + " \\\n";
        current = indent + current.substr(space + 1);
      } else {
        out += current + (quoted ? "'" : "") + "\\\n";
        current = quoted ? "'" : "";
      }
    }
    if (c == '\'') quoted = !quoted;
    current += c;
  }
  return out + current + "\n";
}

std::string failure_text(const CaseResult& r, bool colour) {
  const std::string label(to_string(r.outcome));
  std::string out = (r.outcome == Outcome::Failed ? paint(label, kRed, colour) : label) + " " +
                    fitted(r.name, kColumns - label.size() - 1) + "\n";
  std::string reason = r.reason;
  for (char& c : reason) c = c == '\n' ? ' ' : c;
  out += wrapped(readable_lines(reason, 1000), "  ");
  if (!r.about.empty()) out += wrapped("checks:   " + readable_lines(r.about, 400), "  ");
  if (!r.request.empty()) {
    out += field("  request:  ", r.request) + field("  expected: ", r.expected);
    if (!r.got.empty()) out += field("  got:      ", r.got);
  }
  if (!r.oracle.empty() && r.oracle != r.expected) out += field("  oracle:   ", r.oracle);
  if (!r.allowed.empty()) out += wrapped("allowed:  " + readable_lines(r.allowed, 400), "  ");
  if (!r.stderr_tail.empty()) {
    out += "  stderr (last lines):\n";
    std::string tail = r.stderr_tail;
    std::size_t start = 0;
    while (start < tail.size()) {
      std::size_t end = tail.find('\n', start);
      if (end == std::string::npos) end = tail.size();
      out += fitted("    " + tail.substr(start, end - start)) + "\n";
      start = end + 1;
    }
  }
  if (r.outcome == Outcome::Failed && !reproduce_of(r).empty()) {
    out += r.reproduce.empty() ? wrapped("reproduce: " + reproduce_of(r), "  ")
                               : "  reproduce:\n" + shell_lines(r.reproduce, "    ");
  }
  return out;
}

// The facts both the text and the HTML report show, worked out once.

// The columns of the group table, in order.
const std::vector<std::pair<Outcome, std::string>>& group_columns() {
  static const std::vector<std::pair<Outcome, std::string>> columns = {{Outcome::Passed, "passed"},
                                                                       {Outcome::Failed, "failed"},
                                                                       {Outcome::Acceptable, "acceptable"},
                                                                       {Outcome::Skipped, "skipped"},
                                                                       {Outcome::NotRun, "not run"}};
  return columns;
}

using GroupCounts = std::map<std::string, std::map<Outcome, int>>;

GroupCounts group_counts(const CheckReport& report) {
  GroupCounts groups;
  for (const auto& r : report.results) ++groups[group_of(r.name)][r.outcome];
  return groups;
}

// "12 cases (vectors/hash 4, behaviour/x 8) because ...", or "" when every case ran.
std::string not_run_text(const CheckReport& report, const GroupCounts& groups) {
  if (report.stopped_because.empty()) return "";
  std::string where;
  for (const auto& [group, counts] : groups) {
    const auto n = counts.find(Outcome::NotRun);
    if (n != counts.end() && n->second > 0)
      where += (where.empty() ? "" : ", ") + group + " " + std::to_string(n->second);
  }
  return std::to_string(report.count(Outcome::NotRun)) + " cases (" + where + ") because " +
         report.stopped_because;
}

// Capability names, each after a space: " hashing sizing".
struct CapabilityLists {
  std::string offered, missing, left_out;
};

CapabilityLists capability_lists(const CheckReport& report) {
  CapabilityLists lists;
  if (!report.speaks_protocol) return lists;  // nothing was probed: none offered, missing or left out
  for (auto c : kAllCapabilities) {
    const bool left = report.left_out().count(c) > 0;
    (report.offered.count(c) ? lists.offered
     : left                  ? lists.left_out
                             : lists.missing) += " " + std::string(to_string(c));
  }
  return lists;
}

// What follows "capabilities checked:".
std::string checked_text(const CheckReport& report, const CapabilityLists& lists) {
  // One that never answered the probes offered, declined and left out nothing.
  if (!report.speaks_protocol) return " none (not probed: it did not answer hello as protocol v1)";
  return lists.offered.empty() ? std::string(" none") : lists.offered;
}

// The verdict without its counts: "conforms to TLBF v1, every capability checked".
std::string verdict_words(const CheckReport& report, bool tlbf, const CapabilityLists& lists) {
  if (!report.conforms()) {
    const std::string no = tlbf ? "does NOT conform to TLBF v1" : "does NOT behave as a Bloom filter";
    return report.speaks_protocol && !report.ran_a_case() ? no + ": no case ran" : no;
  }
  // A part of the check that passes is no verdict on the whole.
  const std::string part = report.selected_by.empty() ? ""
                                                      : ", but only on the cases " + report.selected_by +
                                                            " selects, not the whole check";
  if (!tlbf) return "behaves as a Bloom filter (the behavioural profile; no TLBF verdict)" + part;
  return (lists.left_out.empty()
              ? "conforms to TLBF v1, every capability checked"
              : "conforms to TLBF v1 on" + lists.offered + ", with" + lists.left_out + " left out") +
         part;
}

std::string counts_words(const CheckReport& report) {
  return "(" + std::to_string(report.count(Outcome::Passed)) + " passed, " +
         std::to_string(report.count(Outcome::Failed)) + " failed, " +
         std::to_string(report.count(Outcome::Acceptable)) + " acceptable differences, " +
         std::to_string(report.count(Outcome::Skipped)) + " skipped, " +
         std::to_string(report.count(Outcome::NotRun)) + " not run)";
}

// Per group, per implementation: (passed or acceptable, run); run 0 where
// the group was not offered (every case skipped) or the report has no such group.
using ParityCells = std::map<std::string, std::vector<std::pair<int, int>>>;

ParityCells parity_cells(const std::vector<CheckReport>& reports) {
  ParityCells matrix;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    for (const auto& r : reports[i].results) {
      auto& cells = matrix[group_of(r.name)];
      cells.resize(reports.size());
      cells[i].first += r.outcome == Outcome::Passed || r.outcome == Outcome::Acceptable;
      cells[i].second += r.outcome != Outcome::Skipped;
    }
  }
  return matrix;
}

const char* const kHtmlStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.1em; } h4 { font-family: monospace; font-size: 1em; }
code, pre, .command { font-family: ui-monospace, monospace; overflow-wrap: anywhere; white-space: pre-wrap; }
.verdict { font-weight: bold; padding: .5em; border-radius: 4px; }
.ok { background: #dff3df; color: #14521b; } .bad { background: #fbe0e0; color: #8a1010; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #ccc; padding: .2em .6em; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } th { background: #f3f3f3; text-align: left; }
td.failing { background: #fbe0e0; color: #8a1010; font-weight: bold; } td.failing a { color: #8a1010; font-weight: bold; }
h3.failures, td.bad-count { color: #8a1010; font-weight: bold; } td.bad-count { background: #fbe0e0; }
.case { border-left: 4px solid #c33; padding: .2em 1em; margin: 1em 0; background: #fafafa; }
.case dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
.case dt { font-weight: bold; } .case dd { margin: 0; }
)css";

// Ids for anchors: an implementation's section, and its failures in one group
// (by the group's place among every report's groups, as the matrix lists them).
std::string impl_anchor(std::size_t impl) { return "impl" + std::to_string(impl + 1); }
std::string group_anchor(std::size_t impl, std::size_t group) {
  return impl_anchor(impl) + "-group" + std::to_string(group + 1);
}

void html_case(std::string& out, const CaseResult& r) {
  out += "<div class=\"case\"><h5><code>" + escape_html(r.name) + "</code></h5>\n<p>" +
         escape_html(r.reason) + "</p>\n<dl>";
  const auto row = [&](const char* title, const std::string& value) {
    out += "<dt>" + std::string(title) + "</dt><dd><code>" + escape_html(value) + "</code></dd>";
  };
  if (!r.about.empty()) row("checks", r.about);
  if (!r.request.empty()) {
    row("request", readable(r.request));
    row("expected", readable(r.expected));
    if (!r.got.empty()) row("got", readable(r.got));
  }
  if (!r.oracle.empty() && r.oracle != r.expected) row("oracle", readable(r.oracle));
  if (!r.allowed.empty()) row("allowed", r.allowed);
  if (!r.stderr_tail.empty()) {
    out += "<dt>stderr (last lines)</dt><dd><pre>" + escape_html(r.stderr_tail) + "</pre></dd>";
  }
  if (!reproduce_of(r).empty()) row("reproduce", reproduce_of(r));
  out += "</dl></div>\n";
}

void html_implementation(std::string& out, const CheckReport& report, std::size_t index, bool several,
                         const std::vector<std::string>& all_groups, bool tlbf) {
  const CapabilityLists lists = capability_lists(report);
  out += "<section id=\"" + impl_anchor(index) + "\">\n<h2>" +
         (several ? "#" + std::to_string(index + 1) + ": " : std::string()) + "<span class=\"command\">" +
         escape_html(report.command) + "</span></h2>\n";
  out += "<p class=\"verdict " + std::string(report.conforms() ? "ok" : "bad") +
         "\">verdict: " + escape_html(verdict_words(report, tlbf, lists)) + " " + counts_words(report) +
         "</p>\n<ul>\n";
  if (!report.hello.empty()) out += "<li>hello: <code>" + escape_html(report.hello) + "</code></li>\n";
  out += "<li>capabilities checked:" + checked_text(report, lists) + "</li>\n";
  if (!lists.missing.empty())
    out += "<li>NOT offered, though required (not checked, not passed):" + lists.missing + "</li>\n";
  if (!lists.left_out.empty() && tlbf)
    out += "<li>left out (--capabilities; not checked, not passed):" + lists.left_out + "</li>\n";
  if (report.restarts > 0) out += "<li>restarts: " + std::to_string(report.restarts) + "</li>\n";
  if (!report.session_problem.empty())
    out += "<li>session problem: " + escape_html(report.session_problem) + "</li>\n";
  const GroupCounts groups = group_counts(report);
  if (!report.stopped_because.empty())
    out += "<li>NOT RUN: " + escape_html(not_run_text(report, groups)) + "</li>\n";
  out += "</ul>\n";
  // The failures first, then the table of groups (each failing group linked to its failures).
  std::string table = "<h3>Groups</h3>\n<table><tr><th>group</th>";
  for (const auto& [o, title] : group_columns()) table += "<th>" + title + "</th>";
  table += "</tr>\n";
  const auto place = [&](const std::string& group) {
    return static_cast<std::size_t>(std::find(all_groups.begin(), all_groups.end(), group) -
                                    all_groups.begin());
  };
  for (const auto& entry : groups) {
    // Not a structured binding: clang 14 cannot capture one in a lambda.
    const std::string& group = entry.first;
    const auto& outcomes = entry.second;
    const auto count = [&outcomes](Outcome o) {
      const auto n = outcomes.find(o);
      return n == outcomes.end() ? 0 : n->second;
    };
    const bool failing = count(Outcome::Failed) + count(Outcome::NotRun) > 0;
    table +=
        "<tr><td>" +
        (failing ? "<a href=\"#" + group_anchor(index, place(group)) + "\">" + escape_html(group) + "</a>"
                 : escape_html(group)) +
        "</td>";
    for (const auto& [o, title] : group_columns()) {
      const bool bad = (o == Outcome::Failed || o == Outcome::NotRun) && count(o) > 0;
      table +=
          "<td class=\"n" + std::string(bad ? " bad-count" : "") + "\">" + std::to_string(count(o)) + "</td>";
    }
    table += "</tr>\n";
  }
  table += "</table>\n";
  const int failed = report.count(Outcome::Failed);
  out += "<h3" + std::string(failed > 0 ? " class=\"failures\"" : "") + ">Failures (" +
         std::to_string(failed) + ")</h3>\n";
  if (failed == 0 && report.count(Outcome::NotRun) == 0) out += "<p>None.</p>\n";
  for (const auto& [group, counts] : groups) {
    const auto failures = counts.find(Outcome::Failed);
    const auto not_run = counts.find(Outcome::NotRun);
    const int f = failures == counts.end() ? 0 : failures->second;
    const int n = not_run == counts.end() ? 0 : not_run->second;
    if (f + n == 0) continue;
    out +=
        "<section id=\"" + group_anchor(index, place(group)) + "\">\n<h4>" + escape_html(group) + "</h4>\n";
    for (const auto& r : report.results) {
      if (r.outcome == Outcome::Failed && group_of(r.name) == group) html_case(out, r);
    }
    if (n > 0)
      out += "<p>" + std::to_string(n) + " cases not run, because " + escape_html(report.stopped_because) +
             "</p>\n";
    out += "</section>\n";
  }
  out += table + "</section>\n";
}

// The groups are numbered in the matrix's order, as group_anchor expects.
void html_parity(std::string& out, const std::vector<CheckReport>& reports, const ParityCells& matrix) {
  out +=
      "<section id=\"parity\">\n<h2>Parity</h2>\n<p>Passed/run per group; - where not offered. "
      "A red cell links to that implementation's failures.</p>\n<table><tr><th>group</th>";
  for (std::size_t i = 0; i < reports.size(); ++i) {
    out += "<th><a href=\"#" + impl_anchor(i) + "\">#" + std::to_string(i + 1) + "</a></th>";
  }
  out += "</tr>\n";
  std::size_t g = 0;
  for (const auto& [group, cells] : matrix) {
    out += "<tr><td>" + escape_html(group) + "</td>";
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const auto [passed, run] = cells[i];
      const std::string text = run == 0 ? "-" : std::to_string(passed) + "/" + std::to_string(run);
      if (passed < run) {
        out += "<td class=\"n failing\"><a href=\"#" + group_anchor(i, g) + "\">" + text + "</a></td>";
      } else {
        out += "<td class=\"n\">" + text + "</td>";
      }
    }
    out += "</tr>\n";
    ++g;
  }
  out += "</table>\n<ol>";
  for (const auto& r : reports)
    out += "<li><span class=\"command\">" + escape_html(r.command) + "</span></li>";
  out += "</ol>\n</section>\n";
}
}  // namespace

std::string group_of(const std::string& name) {
  const auto first = name.find('/');
  const auto second = name.find('/', first + 1);
  return name.substr(0, second);
}

std::string text_report(const CheckReport& report, const TextOptions& options) {
  std::string out = fitted("implementation: " + report.command) + "\n";
  if (!report.hello.empty()) out += fitted("hello:          " + report.hello) + "\n";
  for (const auto& r : report.results) {
    if (r.outcome == Outcome::Failed ||
        (options.verbose && r.outcome != Outcome::Passed && r.outcome != Outcome::NotRun)) {
      out += failure_text(r, options.colour);
    }
  }
  const GroupCounts groups = group_counts(report);
  // Only the groups with a failure or a case not run, unless -v: a passing
  // check is a line, not sixty.
  const auto count_of = [](const std::map<Outcome, int>& counts, Outcome o) {
    const auto n = counts.find(o);
    return n == counts.end() ? 0 : n->second;
  };
  std::vector<std::string> shown;
  for (const auto& [group, counts] : groups) {
    if (options.verbose || count_of(counts, Outcome::Failed) > 0 || count_of(counts, Outcome::NotRun) > 0)
      shown.push_back(group);
  }
  constexpr std::size_t kCell = 7;
  const std::size_t name_width = kColumns - group_columns().size() * (kCell + 1);
  if (!shown.empty()) {
    out += "\n" + pad(options.verbose ? "group" : "groups with a failure", name_width);
    for (const auto& [o, title] : group_columns())
      out += " " + pad_left(o == Outcome::Acceptable ? "accept" : title, kCell);
    out += "\n";
    for (const auto& group : shown) {
      out += pad(fitted(group, name_width), name_width);
      for (const auto& [o, title] : group_columns())
        out += " " + pad_left(std::to_string(count_of(groups.at(group), o)), kCell);
      out += "\n";
    }
  }
  if (shown.size() < groups.size()) {
    out += "\n" + std::to_string(groups.size() - shown.size()) +
           (shown.empty() ? " groups" : " other groups") + " with no failure (-v lists every group)\n";
  }
  if (!report.stopped_because.empty())
    out += "\n" + wrapped("NOT RUN: " + readable_lines(not_run_text(report, groups), 2000), "");
  const CapabilityLists lists = capability_lists(report);
  out += "\n" + wrapped("capabilities checked:" + checked_text(report, lists), "");
  if (!lists.missing.empty())
    out += wrapped("NOT offered, though required (not checked, not passed):" + lists.missing, "");
  if (!lists.left_out.empty() && options.tlbf_profile) {
    out += wrapped("left out (--capabilities; not checked, not passed):" + lists.left_out, "");
  }
  if (report.restarts > 0) out += "restarts: " + std::to_string(report.restarts) + "\n";
  if (!report.session_problem.empty()) {
    std::string problem = report.session_problem;
    for (char& c : problem) c = c == '\n' ? ' ' : c;
    out += wrapped("session problem: " + readable_lines(problem, 2000), "");
  }
  out += "cases: " + counts_words(report).substr(1, counts_words(report).size() - 2) + "\n";
  // The last line: the verdict, wrapped only when its words are long.
  const std::string words = verdict_words(report, options.tlbf_profile, lists);
  std::string verdict = wrapped("verdict: " + words, "         ", "");
  const std::size_t at = verdict.find(words.substr(0, std::min<std::size_t>(words.size(), 20)));
  if (options.colour && at != std::string::npos) {
    verdict = verdict.substr(0, at) +
              paint(verdict.substr(at, verdict.size() - at - 1), report.conforms() ? kGreen : kRed, true) +
              "\n";
  }
  out += verdict;
  return out;
}

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
    if (r.outcome == Outcome::Failed && !reproduce_of(r).empty()) c["reproduce"] = reproduce_of(r);
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
          {"passed", report.count(Outcome::Passed)},
          {"failed", report.count(Outcome::Failed)},
          {"acceptable", report.count(Outcome::Acceptable)},
          {"skipped", report.count(Outcome::Skipped)},
          {"not_run", report.count(Outcome::NotRun)},
          {"cases", cases}};
}

// What an implementation calls itself in hello ("ok 1 tlbf-python 1" gives tlbf-python), or "".
std::string hello_name(const CheckReport& report) {
  std::istringstream words(report.hello);
  std::string ok, version, name;
  words >> ok >> version >> name;
  return ok == "ok" ? name : "";
}

std::string parity_matrix(const std::vector<CheckReport>& reports, bool verbose) {
  const ParityCells matrix = parity_cells(reports);
  // The groups where the implementations differ; every group with -v.
  std::vector<std::string> shown;
  std::size_t differing = 0;
  for (const auto& entry : matrix) {
    // No structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    const auto& group = entry.first;
    const auto& row = entry.second;
    const bool differ = std::any_of(row.begin(), row.end(), [&](const auto& c) { return c != row.front(); });
    differing += differ ? 1U : 0U;
    if (verbose || differ) shown.push_back(group);
  }
  // Every cell as wide as the widest "passed/run" or header: columns line up.
  std::size_t cell = 3;
  for (const auto& [group, cells] : matrix) {
    for (const auto& [passed, run] : cells)
      cell = std::max(cell, std::to_string(passed).size() + std::to_string(run).size() + 1);
  }
  std::vector<std::string> headers;
  for (std::size_t i = 0; i < reports.size(); ++i) headers.push_back("#" + std::to_string(i + 1));
  std::size_t numbered = cell;
  for (const auto& h : headers) numbered = std::max(numbered, h.size());
  std::size_t named = numbered;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    named = std::max(named, headers[i].size() + 1 + std::min<std::size_t>(hello_name(reports[i]).size(), 14));
  }
  std::size_t width = 5;
  for (const auto& group : shown) width = std::max(width, group.size());
  const std::size_t room =
      kColumns > reports.size() * (named + 2) ? kColumns - reports.size() * (named + 2) : 0;
  // Names in the header where they fit beside the widest group shown (or 30 columns of it).
  if (room >= std::min<std::size_t>(width, 30)) {
    cell = named;
    for (std::size_t i = 0; i < reports.size(); ++i) {
      const std::string name = hello_name(reports[i]);
      if (!name.empty()) headers[i] += " " + fitted(name, std::min<std::size_t>(name.size(), 14));
    }
  } else {
    cell = numbered;
  }
  width = std::min(width, kColumns > reports.size() * (cell + 2) + 5 ? kColumns - reports.size() * (cell + 2)
                                                                     : std::size_t{5});
  std::string out = "parity (passed/run per group; - where not offered)";
  out += verbose ? ":\n" : shown.empty() ? ": every group alike\n" : ", the groups that differ:\n";
  if (!shown.empty()) {
    out += pad("group", width);
    for (const auto& h : headers) out += "  " + pad_left(h, cell);
    out += "\n";
    for (const auto& group : shown) {
      out += pad(fitted(group, width), width);
      for (const auto& [passed, run] : matrix.at(group)) {
        out += "  " + pad_left(run == 0 ? "-" : std::to_string(passed) + "/" + std::to_string(run), cell);
      }
      out += "\n";
    }
  }
  for (std::size_t i = 0; i < reports.size(); ++i)
    out += fitted("#" + std::to_string(i + 1) + ": " + reports[i].command) + "\n";
  std::size_t conforming = 0;
  for (const auto& r : reports) conforming += r.conforms() ? 1U : 0U;
  out += "parity: " + std::to_string(conforming) + " of " + std::to_string(reports.size()) +
         " implementations conform; they differ in " + std::to_string(differing) + " of " +
         std::to_string(matrix.size()) + " groups\n";
  return out;
}

std::string html_report(const std::vector<CheckReport>& reports, bool tlbf_profile) {
  const ParityCells matrix = parity_cells(reports);
  std::vector<std::string> all_groups;
  for (const auto& [group, cells] : matrix) all_groups.push_back(group);
  std::size_t conforming = 0;
  for (const auto& r : reports) conforming += r.conforms() ? 1U : 0U;
  const std::string summary = reports.size() == 1
                                  ? verdict_words(reports[0], tlbf_profile, capability_lists(reports[0]))
                                  : std::to_string(conforming) + " of " + std::to_string(reports.size()) +
                                        (tlbf_profile ? " implementations conform to TLBF v1"
                                                      : " implementations behave as a Bloom filter");
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // Nothing from anywhere, and no script: the page is whole offline, and
      // text from an implementation can never run.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>tlbf check: " +
      escape_html(summary) + "</title>\n<style>" + kHtmlStyle +
      "</style>\n</head>\n<body>\n<h1>tlbf check: " + escape_html(summary) + "</h1>\n";
  if (reports.size() > 1) html_parity(out, reports, matrix);
  for (std::size_t i = 0; i < reports.size(); ++i)
    html_implementation(out, reports[i], i, reports.size() > 1, all_groups, tlbf_profile);
  out += "</body>\n</html>\n";
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

std::string to_junit(const CheckReport& report) {
  std::ostringstream out;
  const int failures = report.count(Outcome::Failed) + (report.session_problem.empty() ? 0 : 1);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
      << "<testsuite name=\"tlbf check " << escape_xml_ascii(report.command) << "\" tests=\""
      << report.results.size() + 1 << "\" failures=\"" << failures << "\" skipped=\""
      << report.count(Outcome::Skipped) << "\">\n";
  for (const auto& r : report.results) {
    const auto cut = r.name.rfind('/');
    std::string classname = r.name.substr(0, cut);
    for (char& c : classname) c = c == '/' ? '.' : c;
    out << " <testcase classname=\"" << escape_xml_ascii(classname) << "\" name=\""
        << escape_xml_ascii(r.name.substr(cut + 1)) << "\"";
    if (r.outcome == Outcome::Passed) {
      out << "/>\n";
      continue;
    }
    out << ">";
    if (r.outcome == Outcome::Failed) {
      out << "<failure message=\"" << escape_xml_ascii(r.reason) << "\">"
          << escape_xml_ascii("checks: " + r.about + "\nrequest: " + r.request + "\nexpected: " + r.expected +
                              "\ngot: " + r.got + "\noracle: " + r.oracle +
                              (r.allowed.empty() ? "" : "\nallowed: " + r.allowed) +
                              "\nreproduce: " + r.reproduce + "\nstderr:\n" + r.stderr_tail)
          << "</failure>";
    } else if (r.outcome == Outcome::Skipped) {
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

}  // namespace tlbf::conformance
