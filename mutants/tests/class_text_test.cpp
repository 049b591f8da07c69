// The class's table for a terminal and its JUnit file for a CI, from rows
// made here: what the end-to-end tests (mutants/tests/test_grade_ci.py)
// cannot make a real grading give, such as a harness error.
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tlbf/mutants/class_summary.hpp"

namespace tlbf::mutants {
namespace {

ClassRow row(std::string name, std::string verdict, int killed = 0, int ran = 0,
             std::vector<std::string> survivors = {}, std::string reason = "") {
  ClassRow r;
  r.name = std::move(name);
  r.verdict = std::move(verdict);
  r.killed = killed;
  r.ran = ran;
  r.score = ran > 0 ? static_cast<double>(killed) / ran : 0;
  r.survivors = std::move(survivors);
  r.reason = std::move(reason);
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const std::vector<std::string> kAll = {"s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08", "s09", "s10"};

TEST(ClassText, ShortNamesKeepTheTableOfBefore) {
  const auto text = class_summary_text(
      {row("alice", "meets", 10, 10), row("bob", "short", 6, 10, {"s04", "s05", "s08", "s09"})},
      "out/class.html");
  const auto lines = lines_of(text);
  ASSERT_GE(lines.size(), 3U) << text;
  EXPECT_EQ(lines[0], "learner        verdict         score  chaffs  replayed survivors");
  EXPECT_EQ(lines[1], "alice          meets           10/10                   ");
  EXPECT_EQ(lines[2], "bob            short           6/10                    s04,s05,s08,s09");
  EXPECT_NE(text.find("\nreports: out/class.html\nclass: 2 learners: 1 meets, 1 short\n"), std::string::npos)
      << text;
}

TEST(ClassText, NamesThatBeginAlikeAreShownWholeWithin80Columns) {
  const std::string shorter = "g5_strip_disguise", longer = "g5_strip_disguise_and_hash";
  const std::string widest(130, 'w');
  const auto text = class_summary_text({row(shorter, "meets", 10, 10), row(longer, "short", 6, 10, kAll),
                                        row(widest, "no-tests", 0, 0, {}, "no file named test_bloom.py")},
                                       "out/class.html");
  const auto lines = lines_of(text);
  for (const auto& line : lines) EXPECT_LE(line.size(), 80U) << line;
  // Each name begins a line of its own, whole; the longer one is its row's first line.
  EXPECT_EQ(lines[1].substr(0, shorter.size() + 1), shorter + " ");
  EXPECT_EQ(lines[2], longer);
  EXPECT_EQ(lines[3].substr(0, 27), std::string(21, ' ') + "short ");
  // Wider than the terminal: wrapped, never cut.
  EXPECT_EQ(lines[4] + lines[5], widest);
  EXPECT_EQ(lines[6].find("no-tests"), 21U);
  EXPECT_NE(text.find(widest.substr(80) + ":\n  no file named test_bloom.py\n"), std::string::npos) << text;
}

// The replayed column: of the graded mutants and chaffs, how many survived
// by replay; a suite that is not deterministic flagged in it and spelt out
// under the table, where a stopped grading's reason goes.
TEST(ClassText, EachLearnersReplayAndASuiteThatIsNotDeterministic) {
  ClassRow ann = row("ann", "short", 6, 10, {"s04", "s05", "s08", "s09"});
  ann.chaffs_killed = 20;
  ann.chaffs_ran = 60;
  ann.replay = RowReplay{true, true, "", {"s04", "s05", "s08", "s09", "c01"}};
  ClassRow bob = row("bob", "meets", 10, 10);
  bob.replay = RowReplay{true,
                         false,
                         "request 6 of a session: `contains f2 00` in one clean run, `contains f2 "
                         "01` in another",
                         {}};
  ClassRow cy = row("cy", "meets", 10, 10);
  cy.replay = RowReplay{false, std::nullopt, "", {}};
  const auto text = class_summary_text({ann, bob, cy}, "out/class.html");
  const auto lines = lines_of(text);
  ASSERT_GE(lines.size(), 6U) << text;
  EXPECT_EQ(lines[1], "ann            short           6/10   20/60   5/70     s04,s05,s08,s09");
  EXPECT_EQ(lines[2], "bob            meets           10/10          NOT det  ");
  EXPECT_EQ(lines[3], "cy             meets           10/10          off      ");
  EXPECT_EQ(lines[4], "");
  EXPECT_EQ(lines[5], "bob: NOT deterministic: the clean runs did not send the same requests (reques...");
  for (const auto& line : lines) EXPECT_LE(line.size(), 80U) << line;
  const auto xml = class_summary_junit({ann, bob, cy}, "python", 0.8, {});
  EXPECT_NE(xml.find("replay: 5 of 70 replayed\n"), std::string::npos) << xml;
  EXPECT_NE(xml.find("replay: NOT deterministic: the clean runs did not send the same requests (request 6 of "
                     "a session: `contains f2 00` in one clean run, `contains f2 01` in another); seed its "
                     "random tests\n"),
            std::string::npos)
      << xml;
}

TEST(ClassJunit, ACasePerLearnerFailingUnlessTheyMeet) {
  const auto xml = class_summary_junit(
      {row("alice", "meets", 10, 10), row("bob", "short", 9, 10, {"s04"}),
       row("carol", "short", 7, 10, {"s01", "s02", "s03"}),
       row("dave", "flaky", 0, 0, {}, "two runs of s03 disagree\nthe suite's output: ...")},
      "python", 0.8, {"s01", "s02", "s04"});
  EXPECT_NE(xml.find("<testsuite name=\"tlbf grade\" tests=\"4\" failures=\"3\" errors=\"0\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase name=\"alice\" classname=\"tlbf.grade.python\"><system-out>"),
            std::string::npos);
  // Above the threshold, short all the same: a required mutant survived.
  EXPECT_NE(xml.find("<failure message=\"short: score 9/10 = 0.90, threshold 0.80; required mutants that "
                     "survived: s04\" type=\"short\">"),
            std::string::npos)
      << xml;
  // Only the required among the survivors are named in the message; all of them in the text.
  EXPECT_NE(xml.find("message=\"short: score 7/10 = 0.70, threshold 0.80; required mutants that survived: "
                     "s01 s02\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("survivors: s01 s02 s03\n"), std::string::npos);
  // A stopped grading: its reason's first line in the message, the whole in the text.
  EXPECT_NE(xml.find("message=\"flaky: two runs of s03 disagree\" type=\"flaky\">"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("the suite's output: ..."), std::string::npos);
}

TEST(ClassJunit, TheHarnessIsAnErrorAndNamesAreEscaped) {
  const auto xml =
      class_summary_junit({row("a<b>&\"c\" caf\xC3\xA9", "harness-error", 0, 0, {}, "cannot copy"),
                           row("erin", "ungradable", 0, 0, {}, "a patch does not apply")},
                          "python", 0.8, kAll);
  EXPECT_NE(xml.find("tests=\"2\" failures=\"0\" errors=\"2\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase name=\"a&lt;b&gt;&amp;&quot;c&quot; caf??\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<error message=\"harness-error: cannot copy\" type=\"harness-error\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<error message=\"ungradable: a patch does not apply\" type=\"ungradable\">"),
            std::string::npos);
  EXPECT_EQ(xml.find("<failure"), std::string::npos);
}

}  // namespace
}  // namespace tlbf::mutants
