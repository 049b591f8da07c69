// The report layer: what a person sees lines up and stays readable.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>
#include <vector>

#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/expected_failures.hpp"
#include "tlbf/conformance/reports.hpp"

namespace tlbf::conformance {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

CheckReport report_with(const std::string& command,
                        const std::vector<std::pair<std::string, CaseOutcome>>& cases) {
  CheckReport r;
  r.command = command;
  r.speaks_protocol = true;
  for (const auto& [name, outcome] : cases) r.results.push_back({name, outcome, {}, {}, {}, {}, {}, {}, {}});
  return r;
}

TEST(Reports, GroupIsTheFirstTwoParts) {
  EXPECT_EQ(group_of("vectors/hash/Fnv1a64Test/3"), "vectors/hash");
  EXPECT_EQ(group_of("behaviour/union_is_the_filter_of_both_sets"),
            "behaviour/union_is_the_filter_of_both_sets");
  EXPECT_EQ(group_of("model/random_request_sequences"), "model/random_request_sequences");
}

TEST(Reports, TheParityMatrixLinesUpWhateverTheGroupNames) {
  const std::vector<std::pair<std::string, CaseOutcome>> cases = {
      {"vectors/hash/Fnv1a64Test/1", CaseOutcome::Passed},
      {"behaviour/union_is_the_filter_of_both_sets", CaseOutcome::Passed},
      {"model/random_request_sequences", CaseOutcome::Failed},
      {"vectors/union/UnionTest/1", CaseOutcome::Skipped}};
  std::vector<CheckReport> reports;
  for (int i = 0; i < 3; ++i) reports.push_back(report_with("impl number " + std::to_string(i), cases));
  for (int i = 0; i < 1234; ++i)
    reports[1].results.push_back(
        {"vectors/hash/Fnv1a64Test/x", CaseOutcome::Passed, {}, {}, {}, {}, {}, {}, {}});
  const auto lines = lines_of(parity_matrix(reports, /*verbose=*/true));
  // The title, the header, a row per group, a line per implementation's command, the summary.
  ASSERT_EQ(lines.size(), 1U + 1U + 4U + 3U + 1U);
  const std::string& header = lines[1];
  EXPECT_LE(header.size(), 80U);
  for (std::size_t row = 2; row < 6; ++row) {
    EXPECT_EQ(lines[row].size(), header.size()) << lines[row];
    // Each cell ends where its column's "#N" ends.
    for (const char* column : {"#1", "#2", "#3"}) {
      const std::size_t end = header.find(column) + 2;
      EXPECT_NE(lines[row][end - 1], ' ') << "row '" << lines[row] << "' column " << column;
      if (end < lines[row].size()) {
        EXPECT_EQ(lines[row][end], ' ') << lines[row];
      }
    }
  }
  EXPECT_NE(parity_matrix(reports).find("1235/1235"), std::string::npos);
  // Without -v, only the groups where the implementations differ: vectors/hash.
  const auto differing = lines_of(parity_matrix(reports));
  ASSERT_EQ(differing.size(), 1U + 1U + 1U + 3U + 1U) << parity_matrix(reports);
  EXPECT_EQ(differing[2].rfind("vectors/hash", 0), 0U) << differing[2];
  EXPECT_EQ(differing.back(), "parity: 0 of 3 implementations conform; they differ in 1 of 4 groups");
  EXPECT_EQ(lines[6], "#1: impl number 0");
}

TEST(Reports, TheTextReportEscapesWhatTheImplementationWrote) {
  CheckReport r = report_with("impl", {{"vectors/hash/Fnv1a64Test/1", CaseOutcome::Failed}});
  r.results[0].request = "fnv1a64 " + std::string(5000, 'a');
  r.results[0].expected = "ok 1";
  r.results[0].got = std::string("\x00\xff ok", 5);
  const std::string text = text_report(r, {});
  EXPECT_NE(text.find("'\\x00\\xff ok'"), std::string::npos) << text;
  EXPECT_NE(text.find("[5008 bytes in all]"), std::string::npos) << text;
  for (const auto& line : lines_of(text)) EXPECT_LT(line.size(), 300U) << line;
}

TEST(Reports, AnImplementationThatNeverAnsweredLeftNothingOut) {
  // No hello, so no probe: no capability was offered, declined, or left out by --capabilities.
  CheckReport r;
  r.command = "cat >/dev/null";
  r.session_problem = "before any case: gave no answer";
  EXPECT_TRUE(r.left_out().empty());
  const std::string text = text_report(r, {});
  EXPECT_EQ(text.find("left out"), std::string::npos) << text;
  EXPECT_EQ(text.find("--capabilities"), std::string::npos) << text;
  EXPECT_EQ(text.find("NOT offered"), std::string::npos) << text;
  EXPECT_NE(text.find("capabilities checked: none (not probed: it did not answer hello as protocol v1)"),
            std::string::npos)
      << text;
  EXPECT_TRUE(to_json(r)["left_out"].empty());
  // Once probed, what --capabilities left out is still named.
  CheckReport probed = report_with("screen", {});
  probed.offered = {Capability::Filter};
  probed.required = {Capability::Filter};
  EXPECT_NE(text_report(probed, {})
                .find("left out (--capabilities; not checked, not passed): hashing sizing bytes union"),
            std::string::npos)
      << text_report(probed, {});
}

TEST(Reports, TheGroupTableLinesUp) {
  const CheckReport r =
      report_with("impl", {{"vectors/hash/Fnv1a64Test/1", CaseOutcome::Passed},
                           {"behaviour/union_is_the_filter_of_both_sets", CaseOutcome::Failed}});
  const auto lines = lines_of(text_report(r, {/*verbose=*/true}));
  std::size_t header = 0;
  while (header < lines.size() && lines[header].rfind("group", 0) != 0) ++header;
  ASSERT_LT(header + 2, lines.size());
  EXPECT_EQ(lines[header + 1].size(), lines[header].size());
  EXPECT_EQ(lines[header + 2].size(), lines[header].size());
  EXPECT_LE(lines[header].size(), 80U);
}

TEST(Reports, EveryLineOfTheTextFitsEightyColumnsAndOnlyFailingGroupsAreListed) {
  CheckReport r = report_with(
      "python3 /a/very/long/path/to/an/implementation/that/goes/on/and/on/impl.py --with options",
      {{"vectors/hash/Fnv1a64Test/1", CaseOutcome::Passed},
       {"behaviour/a_group_whose_name_is_longer_than_the_column_for_it_in_the_table", CaseOutcome::Failed},
       {"vectors/from_bytes/FromBytesTest/40", CaseOutcome::Failed}});
  CaseResult& f = r.results[2];
  f.reason =
      "expected err Format, got 'ok'; and a reason long enough that it must be wrapped onto a second line "
      "and a third, word by word";
  f.about = "padding bit 20 set (flags: PaddingBitsSet)";
  f.request = "from_bytes f " + std::string(200, 'a');
  f.expected = "err Format";
  f.got = "ok";
  f.oracle = "err Format padding: bits 20 .. 23 lie beyond m = 20 and must be 0 (the last byte is 12)";
  f.allowed = "err BadParams, or ok and a u64";
  f.stderr_tail = "Traceback (most recent call last):\n  " + std::string(120, 'x');
  f.reproduce = "printf '%s\\n' 'from_bytes f " + std::string(200, 'a') + "' | cat";
  const std::string text = text_report(r, {});
  for (const auto& line : lines_of(text)) EXPECT_LE(line.size(), 80U) << line;
  EXPECT_NE(text.find("  checks:   padding bit 20 set (flags: PaddingBitsSet)"), std::string::npos) << text;
  EXPECT_NE(text.find("  allowed:  err BadParams, or ok and a u64"), std::string::npos) << text;
  // Two groups failed, one did not: it is counted, not listed.
  EXPECT_NE(text.find("groups with a failure"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nvectors/hash "), std::string::npos) << text;
  EXPECT_NE(text.find("1 other groups with no failure (-v lists every group)"), std::string::npos) << text;
  // The last line is the verdict.
  EXPECT_EQ(lines_of(text).back().rfind("verdict: does NOT conform", 0), 0U) << text;
  // The reproduce line, broken at 80 columns, is still the same shell command.
  const std::size_t at = text.find("  reproduce:\n");
  ASSERT_NE(at, std::string::npos) << text;
  const std::string block = text.substr(at + 14, text.find("\n\n", at) - at - 14) + "\n";
  EXPECT_GT(std::count(block.begin(), block.end(), '\n'), 2) << block;
  const auto run = run_with_input("sh", block, std::chrono::seconds(10));
  EXPECT_EQ(run.out, "from_bytes f " + std::string(200, 'a') + "\n") << block;
}

// The number of times `needle` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(Reports, TheHtmlReportEscapesWhatTheImplementationWrote) {
  CheckReport r = report_with("impl '<b>'", {{"vectors/hash/Fnv1a64Test/1", CaseOutcome::Failed}});
  r.hello = "ok <script>alert('hello')</script>";
  r.session_problem = "exit 1 <img src=x onerror=alert(2)>";
  r.results[0].reason = "answered <script>alert(3)</script>";
  r.results[0].request = "fnv1a64 636174";
  r.results[0].expected = "ok f5e307190ce4a327";
  r.results[0].got = "ok </code><script>alert(4)</script>";
  r.results[0].stderr_tail = "panic: <script>alert(5)</script> \xff\xfe bytes, caf\xc3\xa9\n";
  r.results[0].reproduce = "printf 'x' | impl '<b>'";
  const std::string html = html_report({r});
  // Only markup of the page's own: no tag an implementation wrote survives.
  EXPECT_EQ(occurrences(html, "<script"), 0U) << html;
  EXPECT_EQ(occurrences(html, "<img"), 0U) << html;
  EXPECT_EQ(occurrences(html, "<b>"), 0U) << html;
  EXPECT_NE(html.find("ok &lt;script&gt;alert(&#39;hello&#39;)&lt;/script&gt;"), std::string::npos) << html;
  EXPECT_NE(html.find("answered &lt;script&gt;alert(3)&lt;/script&gt;"), std::string::npos) << html;
  EXPECT_NE(html.find("exit 1 &lt;img src=x onerror=alert(2)&gt;"), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;/code&gt;&lt;script&gt;alert(4)&lt;/script&gt;"), std::string::npos) << html;
  // Bytes that are not UTF-8 become U+FFFD; UTF-8 stays as it is.
  EXPECT_NE(
      html.find("panic: &lt;script&gt;alert(5)&lt;/script&gt; \xEF\xBF\xBD\xEF\xBF\xBD bytes, caf\xc3\xa9"),
      std::string::npos)
      << html;
  EXPECT_NE(html.find("printf &#39;x&#39; | impl &#39;&lt;b&gt;&#39;"), std::string::npos) << html;
  // The page loads nothing and runs nothing, whatever it holds.
  EXPECT_NE(html.find("default-src 'none'; style-src 'unsafe-inline'"), std::string::npos);
}

TEST(Reports, TheHtmlReportHasTheFactsOfTheTextReport) {
  CheckReport r = report_with("impl", {{"vectors/hash/Fnv1a64Test/1", CaseOutcome::Passed},
                                       {"vectors/hash/Fnv1a64Test/2", CaseOutcome::Failed},
                                       {"behaviour/union_is_the_filter_of_both_sets", CaseOutcome::NotRun}});
  r.stopped_because = "out of time";
  r.offered = {Capability::Hashing};
  r.required = {std::begin(kAllCapabilities), std::end(kAllCapabilities)};
  r.results[1].request = "fnv1a64 61";
  r.results[1].expected = "ok af63dc4c8601ec8c";
  r.results[1].got = "ok 0000000000000000";
  r.results[1].reproduce = "printf 'fnv1a64 61\\n' | impl";
  const std::string html = html_report({r});
  EXPECT_NE(html.find("<title>tlbf check: does NOT conform to TLBF v1</title>"), std::string::npos) << html;
  EXPECT_NE(
      html.find(
          "verdict: does NOT conform to TLBF v1 (1 passed, 1 failed, 0 acceptable differences, 0 skipped, "
          "1 not run)"),
      std::string::npos)
      << html;
  EXPECT_NE(html.find("capabilities checked: hashing"), std::string::npos) << html;
  EXPECT_NE(html.find("NOT offered, though required (not checked, not passed): sizing filter bytes union"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("NOT RUN: 1 cases (behaviour/union_is_the_filter_of_both_sets 1) because out of time"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<code>vectors/hash/Fnv1a64Test/2</code>"), std::string::npos) << html;
  EXPECT_NE(html.find("<code>&#39;ok 0000000000000000&#39;</code>"), std::string::npos) << html;
  EXPECT_NE(html.find("printf &#39;fnv1a64 61\\n&#39; | impl"), std::string::npos) << html;
  EXPECT_EQ(html.find("vectors/hash/Fnv1a64Test/1</code>"), std::string::npos)
      << "a passed case is not a failure";
  // The group table: vectors/hash passed 1, failed 1 (in red), after the failures.
  EXPECT_NE(html.find("vectors/hash</a></td><td class=\"n\">1</td><td class=\"n bad-count\">1</td><td "
                      "class=\"n\">0</td>"),
            std::string::npos)
      << html;
  EXPECT_LT(html.find("Failures ("), html.find("<h3>Groups</h3>")) << html;
  EXPECT_LT(html.find("class=\"verdict"), html.find("Failures (")) << html;
}

TEST(Reports, TheHtmlParityMatrixLinksEachFailingCellToItsFailures) {
  CheckReport good = report_with("good", {{"vectors/hash/Fnv1a64Test/1", CaseOutcome::Passed},
                                          {"vectors/sizing/SizingTest/1", CaseOutcome::Passed}});
  good.offered = {std::begin(kAllCapabilities), std::end(kAllCapabilities)};
  CheckReport bad = report_with("bad", {{"vectors/hash/Fnv1a64Test/1", CaseOutcome::Passed},
                                        {"vectors/sizing/SizingTest/1", CaseOutcome::Failed}});
  bad.results[1].reason = "wrong m";
  const std::string html = html_report({good, bad});
  EXPECT_NE(html.find("<title>tlbf check: 1 of 2 implementations conform to TLBF v1</title>"),
            std::string::npos);
  // Groups in the matrix's order: vectors/hash is 1, vectors/sizing 2; only #2's sizing fails.
  EXPECT_EQ(occurrences(html, "class=\"n failing\""), 1U) << html;
  EXPECT_NE(html.find("<td class=\"n failing\"><a href=\"#impl2-group2\">0/1</a></td>"), std::string::npos)
      << html;
  const auto target = html.find("<section id=\"impl2-group2\">");
  ASSERT_NE(target, std::string::npos) << html;
  EXPECT_LT(target, html.find("vectors/sizing/SizingTest/1</code>"))
      << "the anchor is at the failure it names";
  EXPECT_EQ(html.find("id=\"impl1-group"), std::string::npos)
      << "the conforming implementation has no failures";
  EXPECT_LT(html.find("<section id=\"parity\">"), html.find("<section id=\"impl1\">"));
}

TEST(Reports, ACaseThatDidNotRunIsNeverAsExpected) {
  // Issue 37: a run cut short (the implementation stopped itself) whose one
  // failure is listed used to be "as expected", the cases never run unseen.
  CheckReport cut = report_with("stops", {{"vectors/hash/Fnv1a64Test/1", CaseOutcome::Passed},
                                          {"vectors/hash/Fnv1a64Test/2", CaseOutcome::Failed},
                                          {"vectors/hash/Fnv1a64Test/3", CaseOutcome::NotRun},
                                          {"vectors/hash/Fnv1a64Test/4", CaseOutcome::NotRun}});
  cut.stopped_because = "the implementation exited with status 3 before its first answer";
  const std::string list = expected_failures_text(cut);
  EXPECT_EQ(parse_expected_failures(list), (ExpectedFailures{{"vectors/hash/Fnv1a64Test/2", ""}})) << list;
  EXPECT_NE(list.find("# 2 cases did not run"), std::string::npos) << list;

  const ExpectedVerdict unlisted = judge_expected(cut, parse_expected_failures(list));
  EXPECT_EQ(unlisted.not_run,
            (std::vector<std::string>{"vectors/hash/Fnv1a64Test/3", "vectors/hash/Fnv1a64Test/4"}));
  EXPECT_EQ(unlisted.listed_not_run, 0);
  EXPECT_TRUE(unlisted.unexpected_failures.empty());
  EXPECT_FALSE(unlisted.ok(cut));

  // Listing them changes nothing: a listed case that did not run did not fail either.
  const ExpectedVerdict listed = judge_expected(cut, {{"vectors/hash/Fnv1a64Test/2", ""},
                                                      {"vectors/hash/Fnv1a64Test/3", ""},
                                                      {"vectors/hash/Fnv1a64Test/4", ""}});
  EXPECT_EQ(listed.listed_not_run, 2);
  EXPECT_TRUE(listed.unexpected_passes.empty()) << "not run is not passed";
  EXPECT_FALSE(listed.ok(cut));

  // The same run with every case run is as expected with its list.
  CheckReport whole = cut;
  whole.stopped_because.clear();
  whole.results[2].outcome = whole.results[3].outcome = CaseOutcome::Passed;
  EXPECT_TRUE(judge_expected(whole, parse_expected_failures(list)).ok(whole));
  // A run stopped early is not as expected even when no case is left (a stop on the last one).
  CheckReport stopped = whole;
  stopped.stopped_because = "stopped after 1 failed case (--max-failures 1)";
  EXPECT_FALSE(judge_expected(stopped, parse_expected_failures(list)).ok(stopped));
}

}  // namespace
}  // namespace tlbf::conformance
