// The report layer: what a person sees lines up and stays readable.
#include <gtest/gtest.h>

#include <sstream>

#include "tlbf/conformance/reports.hpp"

namespace tlbf::conformance {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

CheckReport report_with(const std::string& command, const std::vector<std::pair<std::string, Outcome>>& cases) {
  CheckReport r;
  r.command = command;
  r.speaks_protocol = true;
  for (const auto& [name, outcome] : cases) r.results.push_back({name, outcome, {}, {}, {}, {}, {}, {}, {}});
  return r;
}

TEST(Reports, GroupIsTheFirstTwoParts) {
  EXPECT_EQ(group_of("vectors/hash/Fnv1a64Test/3"), "vectors/hash");
  EXPECT_EQ(group_of("behaviour/union_is_the_filter_of_both_sets"), "behaviour/union_is_the_filter_of_both_sets");
  EXPECT_EQ(group_of("model/random_request_sequences"), "model/random_request_sequences");
}

TEST(Reports, TheParityMatrixLinesUpWhateverTheGroupNames) {
  const std::vector<std::pair<std::string, Outcome>> cases = {
      {"vectors/hash/Fnv1a64Test/1", Outcome::Passed},
      {"behaviour/union_is_the_filter_of_both_sets", Outcome::Passed},
      {"model/random_request_sequences", Outcome::Failed},
      {"vectors/union/UnionTest/1", Outcome::Skipped}};
  std::vector<CheckReport> reports;
  for (int i = 0; i < 3; ++i) reports.push_back(report_with("impl number " + std::to_string(i), cases));
  for (int i = 0; i < 1234; ++i) reports[1].results.push_back({"vectors/hash/Fnv1a64Test/x", Outcome::Passed, {}, {}, {}, {}, {}, {}, {}});
  const auto lines = lines_of(parity_matrix(reports));
  // The header, a row per group, a line per implementation's command.
  ASSERT_EQ(lines.size(), 1U + 1U + 4U + 3U);
  const std::string& header = lines[1];
  EXPECT_LE(header.size(), 100U);
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
  EXPECT_EQ(lines[6], "#1: impl number 0");
}

TEST(Reports, TheTextReportEscapesWhatTheImplementationWrote) {
  CheckReport r = report_with("impl", {{"vectors/hash/Fnv1a64Test/1", Outcome::Failed}});
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
  EXPECT_NE(text_report(probed, {}).find("left out (--capabilities; not checked, not passed): hashing sizing bytes union"),
            std::string::npos)
      << text_report(probed, {});
}

TEST(Reports, TheGroupTableLinesUp) {
  const CheckReport r = report_with("impl", {{"vectors/hash/Fnv1a64Test/1", Outcome::Passed},
                                             {"behaviour/union_is_the_filter_of_both_sets", Outcome::Failed}});
  const auto lines = lines_of(text_report(r, {}));
  std::size_t header = 0;
  while (header < lines.size() && lines[header].rfind("group", 0) != 0) ++header;
  ASSERT_LT(header + 2, lines.size());
  EXPECT_EQ(lines[header + 1].size(), lines[header].size());
  EXPECT_EQ(lines[header + 2].size(), lines[header].size());
  EXPECT_LE(lines[header].size(), 100U);
}

// The number of times `needle` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(Reports, TheHtmlReportEscapesWhatTheImplementationWrote) {
  CheckReport r = report_with("impl '<b>'", {{"vectors/hash/Fnv1a64Test/1", Outcome::Failed}});
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
  EXPECT_NE(html.find("panic: &lt;script&gt;alert(5)&lt;/script&gt; \xEF\xBF\xBD\xEF\xBF\xBD bytes, caf\xc3\xa9"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("printf &#39;x&#39; | impl &#39;&lt;b&gt;&#39;"), std::string::npos) << html;
  // The page loads nothing and runs nothing, whatever it holds.
  EXPECT_NE(html.find("default-src 'none'; style-src 'unsafe-inline'"), std::string::npos);
}

TEST(Reports, TheHtmlReportHasTheFactsOfTheTextReport) {
  CheckReport r = report_with("impl", {{"vectors/hash/Fnv1a64Test/1", Outcome::Passed},
                                       {"vectors/hash/Fnv1a64Test/2", Outcome::Failed},
                                       {"behaviour/union_is_the_filter_of_both_sets", Outcome::NotRun}});
  r.stopped_because = "out of time";
  r.offered = {Capability::Hashing};
  r.required = {std::begin(kAllCapabilities), std::end(kAllCapabilities)};
  r.results[1].request = "fnv1a64 61";
  r.results[1].expected = "ok af63dc4c8601ec8c";
  r.results[1].got = "ok 0000000000000000";
  r.results[1].reproduce = "printf 'fnv1a64 61\\n' | impl";
  const std::string html = html_report({r});
  EXPECT_NE(html.find("<title>tlbf check: does NOT conform to TLBF v1</title>"), std::string::npos) << html;
  EXPECT_NE(html.find("verdict: does NOT conform to TLBF v1 (1 passed, 1 failed, 0 acceptable differences, 0 skipped, "
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
  EXPECT_EQ(html.find("vectors/hash/Fnv1a64Test/1</code>"), std::string::npos) << "a passed case is not a failure";
  // The group table: vectors/hash passed 1, failed 1.
  EXPECT_NE(html.find("vectors/hash</a></td><td class=\"n\">1</td><td class=\"n\">1</td><td class=\"n\">0</td>"),
            std::string::npos)
      << html;
}

TEST(Reports, TheHtmlParityMatrixLinksEachFailingCellToItsFailures) {
  CheckReport good = report_with("good", {{"vectors/hash/Fnv1a64Test/1", Outcome::Passed},
                                          {"vectors/sizing/SizingTest/1", Outcome::Passed}});
  good.offered = {std::begin(kAllCapabilities), std::end(kAllCapabilities)};
  CheckReport bad = report_with("bad", {{"vectors/hash/Fnv1a64Test/1", Outcome::Passed},
                                        {"vectors/sizing/SizingTest/1", Outcome::Failed}});
  bad.results[1].reason = "wrong m";
  const std::string html = html_report({good, bad});
  EXPECT_NE(html.find("<title>tlbf check: 1 of 2 implementations conform to TLBF v1</title>"), std::string::npos);
  // Groups in the matrix's order: vectors/hash is 1, vectors/sizing 2; only #2's sizing fails.
  EXPECT_EQ(occurrences(html, "class=\"n failing\""), 1U) << html;
  EXPECT_NE(html.find("<td class=\"n failing\"><a href=\"#impl2-group2\">0/1</a></td>"), std::string::npos) << html;
  const auto target = html.find("<section id=\"impl2-group2\">");
  ASSERT_NE(target, std::string::npos) << html;
  EXPECT_LT(target, html.find("vectors/sizing/SizingTest/1</code>")) << "the anchor is at the failure it names";
  EXPECT_EQ(html.find("id=\"impl1-group"), std::string::npos) << "the conforming implementation has no failures";
  EXPECT_LT(html.find("<section id=\"parity\">"), html.find("<section id=\"impl1\">"));
}

}  // namespace
}  // namespace tlbf::conformance
