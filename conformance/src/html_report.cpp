// The HTML page: the text report's facts for a person with a browser.
#include <algorithm>
#include <string_view>

#include "report_facts.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/reports.hpp"
#include "tlbf/markup.hpp"

namespace tlbf::conformance {
namespace {

using namespace report_facts;

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
    const auto count = [&outcomes](CaseOutcome o) {
      const auto n = outcomes.find(o);
      return n == outcomes.end() ? 0 : n->second;
    };
    const bool failing = count(CaseOutcome::Failed) + count(CaseOutcome::NotRun) > 0;
    table +=
        "<tr><td>" +
        (failing ? "<a href=\"#" + group_anchor(index, place(group)) + "\">" + escape_html(group) + "</a>"
                 : escape_html(group)) +
        "</td>";
    for (const auto& [o, title] : group_columns()) {
      const bool bad = (o == CaseOutcome::Failed || o == CaseOutcome::NotRun) && count(o) > 0;
      table +=
          "<td class=\"n" + std::string(bad ? " bad-count" : "") + "\">" + std::to_string(count(o)) + "</td>";
    }
    table += "</tr>\n";
  }
  table += "</table>\n";
  const int failed = report.count(CaseOutcome::Failed);
  out += "<h3" + std::string(failed > 0 ? " class=\"failures\"" : "") + ">Failures (" +
         std::to_string(failed) + ")</h3>\n";
  if (failed == 0 && report.count(CaseOutcome::NotRun) == 0) out += "<p>None.</p>\n";
  for (const auto& [group, counts] : groups) {
    const auto failures = counts.find(CaseOutcome::Failed);
    const auto not_run = counts.find(CaseOutcome::NotRun);
    const int f = failures == counts.end() ? 0 : failures->second;
    const int n = not_run == counts.end() ? 0 : not_run->second;
    if (f + n == 0) continue;
    out +=
        "<section id=\"" + group_anchor(index, place(group)) + "\">\n<h4>" + escape_html(group) + "</h4>\n";
    for (const auto& r : report.results) {
      if (r.outcome == CaseOutcome::Failed && group_of(r.name) == group) html_case(out, r);
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

}  // namespace tlbf::conformance
