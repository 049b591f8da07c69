// The class page and the merge of a class's shards, from summaries made
// here: what a real grading cannot easily give (a learner's name that is
// markup, a bug no learner caught among planted ones, a class.json a hand
// has changed). mutants/tests/test_grade.py renders a real class's page in
// Chromium; test_grade_shards.py merges real shards.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tlbf/mutants/class_merge.hpp"
#include "tlbf/mutants/grade.hpp"

namespace tlbf::mutants {
namespace {

ClassRow graded(std::string name, int killed, std::vector<std::pair<std::string, std::string>> outcomes) {
  ClassRow r;
  r.name = std::move(name);
  r.verdict = "short";
  r.killed = killed;
  r.ran = 2;
  r.outcomes = std::move(outcomes);
  r.report = "learners/" + r.name + ".html";
  return r;
}

ClassSummary two_learners() {
  ClassSummary s;
  s.kind = "python";
  s.required = {"s01", "s02"};
  s.version = "1.0";
  s.kit = "0123456789abcdef";
  s.options = "sandbox=1";
  s.bugs = {{"s01", "mutant", "first"}, {"s02", "mutant", "<b>second</b>"}, {"c01", "chaff", "a chaff"}};
  // s01 caught by one, s02 by none, c01 by none and run by one only.
  s.rows = {graded("ann", 1, {{"s01", "caught"}, {"s02", "survived"}, {"c01", "survived"}}),
            graded("x\"><img src=x onerror=alert(1)>", 0, {{"s01", "survived"}, {"s02", "survived"}})};
  return s;
}

TEST(ClassPage, ListsWhatNoLearnerCaughtAndTheWeakestFirst) {
  const std::string page = class_summary_html(two_learners());
  EXPECT_EQ(page.find("<li data-bug=\"s01\""), std::string::npos);
  EXPECT_NE(page.find("<li data-bug=\"s02\"><b>s02</b> (survived in 2): &lt;b&gt;second&lt;/b&gt;</li>"),
            std::string::npos);
  EXPECT_NE(page.find("<li data-bug=\"c01\"><b>c01</b> (survived in 1)"), std::string::npos);
  EXPECT_NE(page.find("1 of the 1 chaffs"), std::string::npos);
  // The learner who caught nothing comes first.
  const auto weakest = page.find("<ol id=\"weakest\">");
  EXPECT_LT(page.find("data-learner=\"x&quot;", weakest), page.find("data-learner=\"ann\"", weakest));
  // A cell of a bug the row did not run.
  EXPECT_NE(page.find("data-bug=\"c01\" data-outcome=\"not-run\""), std::string::npos);
}

TEST(ClassPage, ANameThatIsMarkupStaysText) {
  const std::string page = class_summary_html(two_learners());
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_NE(page.find("x&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  // Nothing from anywhere but the page.
  EXPECT_NE(page.find("content=\"default-src 'none';"), std::string::npos);
  EXPECT_EQ(page.find("src=\"http"), std::string::npos);
}

ClassSummary shard(int k, int n, std::vector<ClassRow> rows) {
  ClassSummary s = two_learners();
  s.shard = ClassShard{k, n, 2};
  s.rows = std::move(rows);
  return s;
}

TEST(ClassMerge, ReadsBackWhatItWroteAndRefusesALearnerTwice) {
  const ClassSummary whole = two_learners();
  const auto one = class_summary_json(shard(1, 2, {whole.rows[0]}));
  const auto two = class_summary_json(shard(2, 2, {whole.rows[1]}));
  const auto merged = merge_class_shards({{"b/class.json", two}, {"a/class.json", one}});
  ASSERT_TRUE(merged.ok()) << merged.why();
  EXPECT_EQ(class_summary_json(merged.value().summary), class_summary_json(whole));
  EXPECT_EQ(merged.value().from, (std::vector<std::size_t>{1, 0}));  // ann from a, the other from b
  const auto twice = merge_class_shards(
      {{"a/class.json", one}, {"c/class.json", class_summary_json(shard(2, 2, {whole.rows[0]}))}});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(
      twice.why(),
      "learner 'ann' is graded in both a/class.json and c/class.json; each learner belongs to one shard");
}

TEST(ClassMerge, NamesTheBarsThatDiffer) {
  const ClassSummary whole = two_learners();
  ClassSummary other = shard(2, 2, {whole.rows[1]});
  other.threshold = 0.9;
  const auto merged = merge_class_shards({{"a/class.json", class_summary_json(shard(1, 2, {whole.rows[0]}))},
                                          {"b/class.json", class_summary_json(other)}});
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(
      merged.why(),
      "b/class.json and a/class.json were graded with different bars (threshold, required mutants) (0.9 s01 "
      "s02 and 0.8 s01 s02); the shards of one class are graded alike");
}

TEST(ClassMerge, RefusesANameThatIsNoFolderAndAnOutcomeItDoesNotWrite) {
  ClassSummary s = shard(1, 1, {graded("../escape", 0, {})});
  s.shard->class_learners = 1;
  const auto escape = merge_class_shards({{"a/class.json", class_summary_json(s)}});
  ASSERT_FALSE(escape.ok());
  EXPECT_NE(escape.why().find("a learner's name \"../escape\" is no folder's"), std::string::npos)
      << escape.why();
  s.rows = {graded("ann", 0, {{"s01", "maybe"}})};
  const auto outcome = merge_class_shards({{"a/class.json", class_summary_json(s)}});
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.why().find("outcome \"maybe\" of s01"), std::string::npos) << outcome.why();
}

// The two learners with a third and a fourth whose reports said what replay
// did: cy's s02 and c01 survived by replay and s01 by a run; dee's suite is
// not deterministic; ann's grading was --no-replay.
ClassSummary four_learners() {
  ClassSummary s = two_learners();
  s.rows.insert(s.rows.begin() + 1,
                graded("cy", 0, {{"s01", "survived"}, {"s02", "survived"}, {"c01", "survived"}}));
  s.rows.push_back(graded("dee", 1, {{"s01", "caught"}, {"s02", "survived"}}));
  s.rows[0].replay = RowReplay{false, std::nullopt, "", {}};
  s.rows[1].chaffs_ran = 1;
  s.rows[1].replay = RowReplay{true, true, "", {"s02", "c01"}};
  s.rows[3].replay = RowReplay{true,
                               false,
                               "request 2 of a session: `insert f1 00` in one clean run, "
                               "`insert f1 <01>` in another",
                               {}};
  return s;
}

TEST(ClassPage, ShowsEachLearnersReplayAndTheSuitesThatAreNotDeterministic) {
  const std::string page = class_summary_html(four_learners());
  // cy: two survivors by replay, marked apart from the one by a run.
  EXPECT_NE(page.find("<td class=\"cell survived replayed\" data-bug=\"s02\" data-outcome=\"survived\" "
                      "data-replayed=\"1\" title=\"cy, s02: survived by replay, not run\">&#x21BA;</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<td class=\"cell survived\" data-bug=\"s01\" data-outcome=\"survived\" "
                      "title=\"cy, s01: survived\">&#x2717;</td>"),
            std::string::npos);
  // 2 mutants and 1 chaff graded, all 3 survivors by replay.
  EXPECT_NE(page.find("<td class=\"replay\" title=\"2 of 3 replayed\">2/3</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"replay\" title=\"off\">off</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"replay nondet\" title=\"NOT deterministic\">NOT deterministic</td>"),
            std::string::npos);
  // dee alone is listed, with where two clean runs parted, escaped.
  const auto list = page.find("<ul id=\"not-deterministic\">");
  ASSERT_NE(list, std::string::npos) << page;
  EXPECT_EQ(page.find("<li data-suite=", list),
            page.find("<li data-suite=\"dee\">dee (short): the clean runs "
                      "did not send the same requests (request 2 of a "
                      "session: `insert f1 00` in one clean run, `insert f1 "
                      "&lt;01&gt;` in another); seed its random tests</li>",
                      list));
  EXPECT_EQ(page.find("<li data-suite=", page.find("</li>", list)), std::string::npos);
  // A class whose suites are all deterministic has no such list.
  EXPECT_EQ(class_summary_html(two_learners()).find("not-deterministic"), std::string::npos);
}

TEST(ClassMerge, ThreeShardsWithReplayMergeToTheClassOfOneRun) {
  const ClassSummary whole = four_learners();
  // ann, cy, dee, x... in byte order: ann and x... (0 and 3) in shard 1, cy in 2, dee in 3.
  std::vector<std::vector<ClassRow>> rows(3);
  std::vector<ClassRow> sorted = whole.rows;
  std::sort(sorted.begin(), sorted.end(),
            [](const ClassRow& a, const ClassRow& b) { return a.name < b.name; });
  for (std::size_t i = 0; i < sorted.size(); ++i) rows[i % 3].push_back(sorted[i]);
  std::vector<std::pair<std::string, std::string>> shards;
  for (int k = 3; k >= 1; --k) {
    ClassSummary one = whole;
    one.shard = ClassShard{k, 3, 4};
    one.rows = rows[static_cast<std::size_t>(k - 1)];
    shards.emplace_back(std::to_string(k) + "/class.json", class_summary_json(one));
  }
  const auto merged = merge_class_shards(shards);
  ASSERT_TRUE(merged.ok()) << merged.why();
  ClassSummary one_run = whole;
  one_run.rows = sorted;
  EXPECT_EQ(class_summary_json(merged.value().summary), class_summary_json(one_run));
  EXPECT_EQ(merged.value().summary.rows[1].replay, whole.rows[1].replay);  // cy's, read back whole
  EXPECT_EQ(merged.value().summary.rows[2].replay, whole.rows[3].replay);  // dee's
}

TEST(ClassMerge, RefusesAReplayedBugThatIsNoSurvivor) {
  ClassSummary s = shard(1, 1, {graded("ann", 1, {{"s01", "caught"}})});
  s.shard->class_learners = 1;
  s.rows[0].replay = RowReplay{true, true, "", {"s01"}};
  const auto merged = merge_class_shards({{"a/class.json", class_summary_json(s)}});
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(merged.why().find("replay.replayed names s01, which is no survivor of its row"),
            std::string::npos)
      << merged.why();
}

}  // namespace
}  // namespace tlbf::mutants
