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

}  // namespace
}  // namespace tlbf::conformance
