// The text report and the parity matrix: what a person reads on a terminal.
#include <algorithm>
#include <map>
#include <sstream>
#include <string_view>

#include "report_facts.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/reports.hpp"

namespace tlbf::conformance {
namespace {

using namespace report_facts;

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
  std::string out = (r.outcome == CaseOutcome::Failed ? paint(label, kRed, colour) : label) + " " +
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
  if (r.outcome == CaseOutcome::Failed && !reproduce_of(r).empty()) {
    out += r.reproduce.empty() ? wrapped("reproduce: " + reproduce_of(r), "  ")
                               : "  reproduce:\n" + shell_lines(r.reproduce, "    ");
  }
  return out;
}

// What an implementation calls itself in hello ("ok 1 tlbf-python 1" gives tlbf-python), or "".
std::string hello_name(const CheckReport& report) {
  std::istringstream words(report.hello);
  std::string ok, version, name;
  words >> ok >> version >> name;
  return ok == "ok" ? name : "";
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
    if (r.outcome == CaseOutcome::Failed ||
        (options.verbose && r.outcome != CaseOutcome::Passed && r.outcome != CaseOutcome::NotRun)) {
      out += failure_text(r, options.colour);
    }
  }
  const GroupCounts groups = group_counts(report);
  // Only the groups with a failure or a case not run, unless -v: a passing
  // check is a line, not sixty.
  const auto count_of = [](const std::map<CaseOutcome, int>& counts, CaseOutcome o) {
    const auto n = counts.find(o);
    return n == counts.end() ? 0 : n->second;
  };
  std::vector<std::string> shown;
  for (const auto& [group, counts] : groups) {
    if (options.verbose || count_of(counts, CaseOutcome::Failed) > 0 ||
        count_of(counts, CaseOutcome::NotRun) > 0)
      shown.push_back(group);
  }
  constexpr std::size_t kCell = 7;
  const std::size_t name_width = kColumns - group_columns().size() * (kCell + 1);
  if (!shown.empty()) {
    out += "\n" + pad(options.verbose ? "group" : "groups with a failure", name_width);
    for (const auto& [o, title] : group_columns())
      out += " " + pad_left(o == CaseOutcome::Acceptable ? "accept" : title, kCell);
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

}  // namespace tlbf::conformance
