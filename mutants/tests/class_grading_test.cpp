// The class loop (class_grading.hpp) on a tiny kit, with fake subjects whose
// outcomes the learner's tests file decides: every learner gets a row, in
// order, whatever becomes of their copy; -j 2 grades as -j 1; an earlier
// report is reused only when it was made with the same files and options.
#include "tlbf/mutants/class_grading.hpp"

#include <stdlib.h>

#include <gtest/gtest.h>

#include "scratch_folder.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

using testing::read_text;
using testing::write_text;
using Scratch = testing::ScratchFolder;

// The learner's tests file names, a line each, what their suite catches:
// "s01".."s03" the mutants, "broken" the sanity check's subject, "clean" the
// clean one (a suite that fails it). Each run is `true` (passes) or `false`
// (fails), numbered so that every run's command is its own.
class TestsFileSubjects final : public Subjects {
 public:
  explicit TestsFileSubjects(const fs::path& tests) {
    std::ifstream in(tests);
    for (std::string line; std::getline(in, line);) caught_.insert(line);
  }
  std::vector<std::string> ids() const override { return {"s01", "s02", "s03"}; }
  Outcome<SuiteRun> clean() override { return run_of("clean"); }
  std::optional<Outcome<SuiteRun>> broken() override { return run_of("broken"); }
  Outcome<SuiteRun> mutant(const std::string& id) override { return run_of(id); }
  void finish(const SuiteRun&) override {}
  Place place(const std::string& id) const override {
    Place p;
    p.file = "bloom.txt";
    p.source = "one\ntwo\nthree\n";
    p.description = "the fake bug " + id;
    return p;
  }
  std::string broken_description() const override { return "a subject that refuses everything"; }

 private:
  SuiteRun run_of(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    SuiteRun run;
    run.command = std::string(caught_.count(id) > 0 ? "false" : "true") + " run-" + std::to_string(++runs_);
    return run;
  }
  std::set<std::string> caught_;
  std::mutex mutex_;
  int runs_ = 0;
};

// A kit whose reference is one file and whose suite is never run: the
// subjects are TestsFileSubjects. Served with no build, so the class's seed
// is a copy and nothing more.
struct TinyClass {
  Scratch scratch;
  ClassOptions options;
  ClassHooks hooks;
  std::vector<std::string> workdirs;  // each graded learner's, in turn

  TinyClass() {
    write_text(scratch.path() / "reference" / "bloom.txt", "one\ntwo\nthree\n");
    options.kit.kind = "fake";
    options.kit.serves = "oracle";
    options.kit.reference = scratch.path() / "reference";
    options.kit.tests_file = "tests.txt";
    options.kit.tests_into = "tests";
    options.kit.suite = {"true"};
    options.required = {"s01", "s02", "s03"};
    options.threshold = 0.80;
    options.jobs = 1;
    options.version = "0.0-test";
    hooks.subjects = [this](const ClassOptions&, const std::string& workdir) {
      workdirs.push_back(workdir);
      return std::make_unique<TestsFileSubjects>(fs::path(workdir) / "tests" / "tests.txt");
    };
  }

  // A learner who hands in a tests file that catches `caught`.
  Learner learner(const std::string& name, const std::string& caught) {
    const fs::path folder = scratch.path() / "class" / name;
    write_text(folder / "tests.txt", caught);
    return learner_in(folder, name, "tests.txt");
  }
};

TEST(ClassGrading, EveryLearnerGetsTheirVerdictInOrder) {
  TinyClass c;
  std::vector<std::size_t> begun;
  c.hooks.learner_begins = [&](std::size_t i, std::size_t n, const Learner&) {
    begun.push_back(i);
    EXPECT_EQ(n, 4U);
  };
  const auto graded =
      grade_class(c.options,
                  {c.learner("ann", "broken\ns01\ns02\ns03\n"), c.learner("ben", "broken\ns01\n"),
                   c.learner("cat", "clean\n"), c.learner("dan", "s01\ns02\ns03\n")},
                  c.hooks);
  ASSERT_TRUE(graded.ok()) << graded.why();
  const auto& rows = graded.value().rows;
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(begun, (std::vector<std::size_t>{0, 1, 2, 3}));
  // ann catches all three (3/3 = 1.00 meets 0.80); ben one (0.33, short, s02
  // and s03 surviving); cat fails the clean subject; dan passes the one that
  // refuses everything.
  EXPECT_EQ(rows[0].name, "ann");
  EXPECT_EQ(rows[0].verdict, "meets");
  EXPECT_EQ(rows[0].killed, 3);
  EXPECT_EQ(rows[0].ran, 3);
  EXPECT_EQ(rows[1].name, "ben");
  EXPECT_EQ(rows[1].verdict, "short");
  EXPECT_EQ(rows[1].killed, 1);
  EXPECT_EQ(rows[1].survivors, (std::vector<std::string>{"s02", "s03"}));
  EXPECT_EQ(rows[2].name, "cat");
  EXPECT_EQ(rows[2].verdict, "fails-clean");
  EXPECT_EQ(rows[3].name, "dan");
  EXPECT_EQ(rows[3].verdict, "passes-broken");
  EXPECT_FALSE(graded.value().harness_failed);
  EXPECT_EQ(class_end(graded.value().harness_failed, false, rows), ClassEnd::Graded);
  EXPECT_EQ(class_end(graded.value().harness_failed, true, rows), ClassEnd::NotAllMeet);
  // The summary is of these rows and this grading.
  const ClassSummary& summary = graded.value().summary;
  EXPECT_EQ(summary.kind, "fake");
  EXPECT_EQ(summary.version, "0.0-test");
  EXPECT_EQ(summary.rows.size(), 4U);
  EXPECT_EQ(
      summary.options,
      "sandbox=1 baseline=3 controls=2 confirm=2 kills=6 threshold=0.8 chaffs=bundled require=s01,s02,s03,");
  EXPECT_EQ(summary.kit, kit_digest(c.options.kit));
}

// A served kit's wheats and chaffs are copies of its implementation changed
// as each says: made once for the class, however many learners it grades,
// and every learner's subjects (kit_subjects) serve from those same folders,
// gone once the class is graded.
TEST(ClassGrading, AServedKitsVariantsAreMadeOnceForTheWholeClass) {
  TinyClass c;
  const fs::path kit = c.scratch.path() / "kit";
  write_text(kit / "impl" / "impl.txt", "one\n");
  write_text(kit / "wheats" / "lenient" / "impl.txt", "one, leniently\n");
  const std::string changes_one_to = "--- a/impl.txt\n+++ b/impl.txt\n@@ -1 +1 @@\n-one\n+";
  write_text(kit / "chaffs" / "c01.patch", changes_one_to + "uno\n");
  write_text(kit / "chaffs" / "c02.patch", changes_one_to + "eins\n");
  write_text(kit / "mutants" / "s01.patch", changes_one_to + "un\n");
  ServedSet& served = c.options.kit.served;
  served.variants_from = (kit / "impl").string();
  served.variant_command = {"cat", "impl.txt"};
  served.as_is = "plain";
  served.wheats = (kit / "wheats").string();
  served.chaffs = (kit / "chaffs").string();
  served.mutant_patches = (kit / "mutants").string();
  std::set<const VariantFolders*> sets;
  std::vector<std::string> wheats_seen, chaffs_seen;
  std::map<std::string, std::string>
      texts;  // by variant: its impl.txt, as the first learner's grading sees it
  fs::path root;
  int folders = 0;
  c.hooks.subjects = [&](const ClassOptions& runs, const std::string& workdir) {
    const VariantFolders* shared = runs.kit.served.variants.get();
    sets.insert(shared);
    if (shared && root.empty()) {
      root = shared->root();
      for (const auto& entry : fs::directory_iterator(root)) folders += entry.is_directory();
      for (const auto& [id, variant] : shared->by_id()) texts[id] = read_text(variant.value() / "impl.txt");
    }
    const auto real = kit_subjects(runs, workdir);
    for (const auto& id : real->wheat_ids()) wheats_seen.push_back(id);
    for (const auto& id : real->chaff_ids()) chaffs_seen.push_back(id);
    return std::make_unique<TestsFileSubjects>(fs::path(workdir) / "tests" / "tests.txt");
  };
  const int made_before = VariantFolders::made();
  const auto graded = grade_class(c.options,
                                  {c.learner("ann", "broken\ns01\ns02\ns03\n"),
                                   c.learner("ben", "broken\ns01\n"), c.learner("cat", "broken\ns02\n")},
                                  c.hooks);
  ASSERT_TRUE(graded.ok()) << graded.why();
  EXPECT_EQ(VariantFolders::made() - made_before, 1);
  ASSERT_EQ(sets.size(), 1U);
  ASSERT_NE(*sets.begin(), nullptr);
  // Five folders, not fifteen: the as-is wheat, the other wheat, two chaffs, s01's other form.
  EXPECT_EQ(folders, 5);
  EXPECT_EQ(texts, (std::map<std::string, std::string>{{"c01", "uno\n"},
                                                       {"c02", "eins\n"},
                                                       {"lenient", "one, leniently\n"},
                                                       {"mutant:s01", "un\n"},
                                                       {"plain", "one\n"}}));
  EXPECT_EQ(wheats_seen,
            (std::vector<std::string>{"lenient", "plain", "lenient", "plain", "lenient", "plain"}));
  EXPECT_EQ(chaffs_seen, (std::vector<std::string>{"c01", "c02", "c01", "c02", "c01", "c02"}));
  EXPECT_FALSE(root.empty());
  EXPECT_FALSE(fs::exists(root));  // removed with the class's grading
}

// tlbf grade --prepare: the kit's variants built into the cache (a folder of
// the test's own) and counted; a variant whose build fails is named, with its
// build's last words, one line each.
TEST(ClassGrading, PreparingBuildsTheVariantsOnceAndNamesOneThatCannotBeBuilt) {
  TinyClass c;
  ::setenv("TLBF_CACHE_DIR", (c.scratch.path() / "cache").c_str(), 1);
  const fs::path kit = c.scratch.path() / "kit";
  write_text(kit / "impl" / "impl.txt", "one\n");
  write_text(kit / "wheats" / "lenient" / "impl.txt", "two\n");
  ServedSet& served = c.options.kit.served;
  served.variants_from = (kit / "impl").string();
  served.variant_command = {"cat", "built.txt"};
  served.variant_build = {"sh", "-c", "cp impl.txt built.txt"};
  served.as_is = "plain";
  served.wheats = (kit / "wheats").string();
  const auto first = prepare_variants(c.options);
  ASSERT_TRUE(first.ok()) << first.why();
  EXPECT_EQ((std::pair{first->variants_built, first->variants_from_cache}), (std::pair{2, 0}));
  const auto second = prepare_variants(c.options);
  ASSERT_TRUE(second.ok()) << second.why();
  EXPECT_EQ((std::pair{second->variants_built, second->variants_from_cache}), (std::pair{0, 2}));

  served.variant_build = {"sh", "-c",
                          "grep -q two impl.txt && { echo 'no two here'; exit 4; }; cp impl.txt built.txt"};
  const auto refused = prepare_variants(c.options);
  ::unsetenv("TLBF_CACHE_DIR");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(
      refused.why(),
      "some of the kit's variants cannot be made:\n  lenient: its build (sh) failed (exit 4): no two here");
}

TEST(ClassGrading, ALearnerWhoseCopyCannotBeMadeIsReportedNotDropped) {
  TinyClass c;
  Learner gone = c.learner("bea", "broken\ns01\ns02\ns03\n");
  fs::remove(gone.tests);  // handed in, then gone before the grading reached it
  Learner none{"cid", c.scratch.path() / "class" / "cid", {}, "no file named tests.txt in the folder"};
  const auto graded = grade_class(
      c.options,
      {c.learner("abe", "broken\ns01\ns02\ns03\n"), gone, none, c.learner("dot", "broken\ns01\ns02\ns03\n")},
      c.hooks);
  ASSERT_TRUE(graded.ok()) << graded.why();
  const auto& rows = graded.value().rows;
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(rows[0].verdict, "meets");
  EXPECT_EQ(rows[1].name, "bea");
  EXPECT_EQ(rows[1].verdict, "harness-error");
  EXPECT_NE(rows[1].reason.find("cannot copy " + gone.tests.string()), std::string::npos) << rows[1].reason;
  EXPECT_EQ(rows[2].name, "cid");
  EXPECT_EQ(rows[2].verdict, "no-tests");
  EXPECT_EQ(rows[2].reason, "no file named tests.txt in the folder");
  EXPECT_EQ(rows[3].name, "dot");
  EXPECT_EQ(rows[3].verdict, "meets");
  EXPECT_TRUE(graded.value().harness_failed);
  EXPECT_EQ(class_end(graded.value().harness_failed, false, rows), ClassEnd::HarnessFailed);
  // Only the two whose copies were made met the subjects, each in the same folder.
  ASSERT_EQ(c.workdirs.size(), 2U);
  EXPECT_EQ(c.workdirs[0], c.workdirs[1]);
}

// What a row says of a grading, the learner's page aside.
std::string said(const ClassRow& r) {
  std::ostringstream out;
  out << r.name << " " << r.verdict << " " << r.killed << "/" << r.ran << " " << r.score << " " << r.reason;
  for (const auto& s : r.survivors) out << " survived:" << s;
  for (const auto& [id, outcome] : r.outcomes) out << " " << id << "=" << outcome;
  return out.str();
}

TEST(ClassGrading, TwoJobsGradeAsOneDoesForDeterministicSuites) {
  TinyClass c;
  const std::vector<Learner> learners = {c.learner("ann", "broken\ns01\ns02\ns03\n"),
                                         c.learner("ben", "broken\ns02\n"), c.learner("cat", "clean\n"),
                                         c.learner("dan", "broken\ns01\ns03\n")};
  std::vector<std::string> by_jobs[2];
  for (int jobs : {1, 2}) {
    c.options.jobs = jobs;
    const auto graded = grade_class(c.options, learners, c.hooks);
    ASSERT_TRUE(graded.ok()) << graded.why();
    for (const auto& row : graded.value().rows) by_jobs[jobs - 1].push_back(said(row));
  }
  EXPECT_EQ(by_jobs[0], by_jobs[1]);
  ASSERT_EQ(by_jobs[0].size(), 4U);
  EXPECT_EQ(by_jobs[0][3], "dan short 2/3 0.666667  survived:s02 s01=caught s02=survived s03=caught");
}

TEST(ClassGrading, AnEarlierReportIsReusedOnlyForTheSameFilesAndOptions) {
  TinyClass c;
  std::map<std::string, std::string> kept;
  c.hooks.keep_report = [&](const Learner& l, const std::string& json,
                            const std::string&) -> Outcome<std::string> {
    kept[l.name] = json;
    return "learners/" + l.name + ".html";
  };
  c.hooks.earlier_report = [&](const Learner& l) -> std::optional<KeptReport> {
    if (kept.count(l.name) == 0) return std::nullopt;
    return KeptReport{kept[l.name], "learners/" + l.name + ".html"};
  };
  std::vector<bool> reused;
  c.hooks.learner_ends = [&](std::size_t, const ClassRow&, double, bool r) { reused.push_back(r); };
  const std::vector<Learner> learners = {c.learner("ann", "broken\ns01\ns02\ns03\n")};
  const auto first = grade_class(c.options, learners, c.hooks);
  ASSERT_TRUE(first.ok()) << first.why();
  EXPECT_EQ(first.value().rows[0].report, "learners/ann.html");
  ASSERT_EQ(kept.count("ann"), 1U);
  EXPECT_NE(kept["ann"].find("\"name\": \"ann\""), std::string::npos);
  const auto again = grade_class(c.options, learners, c.hooks);
  ASSERT_TRUE(again.ok()) << again.why();
  EXPECT_EQ(said(again.value().rows[0]), said(first.value().rows[0]));
  c.options.threshold = 0.5;  // another bar: another key
  ASSERT_TRUE(grade_class(c.options, learners, c.hooks).ok());
  c.options.runs_alone = false;  // whole confirming runs: another key
  ASSERT_TRUE(grade_class(c.options, learners, c.hooks).ok());
  c.options.runs_alone = true;
  c.options.fresh = true;
  ASSERT_TRUE(grade_class(c.options, learners, c.hooks).ok());
  c.options.fresh = false;
  write_text(learners[0].tests, "broken\ns01\n");  // another tests file: another key
  const auto changed = grade_class(c.options, learners, c.hooks);
  ASSERT_TRUE(changed.ok()) << changed.why();
  EXPECT_EQ(changed.value().rows[0].verdict, "short");
  EXPECT_EQ(reused, (std::vector<bool>{false, true, false, false, false, false}));
  EXPECT_EQ(c.workdirs.size(), 5U);
}

TEST(ClassGrading, EachLearnersPageInlinesTheViewerGiven) {
  TinyClass c;
  c.options.viewer_js = "/* the viewer */";
  std::string kept;
  c.hooks.keep_report = [&](const Learner&, const std::string&,
                            const std::string& page) -> Outcome<std::string> {
    kept = page;
    return std::string("learners/ann.html");
  };
  const auto graded = grade_class(c.options, {c.learner("ann", "broken\ns01\ns02\ns03\n")}, c.hooks);
  ASSERT_TRUE(graded.ok()) << graded.why();
  EXPECT_NE(kept.find("/* the viewer */"), std::string::npos);
  EXPECT_NE(kept.find("<mutation-test-report-app"), std::string::npos);
  EXPECT_EQ(graded.value().rows[0].report, "learners/ann.html");
  c.options.viewer_js = "</script>";  // cannot be inlined: no page, and the harness is at fault
  const auto refused = grade_class(c.options, {c.learner("ann", "broken\ns01\ns02\ns03\n")}, c.hooks);
  ASSERT_TRUE(refused.ok()) << refused.why();
  EXPECT_EQ(kept, "");
  EXPECT_TRUE(refused.value().harness_failed);
}

TEST(ClassGrading, AReportThatCannotBeKeptIsTheHarnesssFault) {
  TinyClass c;
  c.hooks.keep_report = [](const Learner&, const std::string&, const std::string&) -> Outcome<std::string> {
    return failure("cannot write out/learners/ann.json: No space left on device");
  };
  const auto graded = grade_class(c.options, {c.learner("ann", "broken\ns01\ns02\ns03\n")}, c.hooks);
  ASSERT_TRUE(graded.ok()) << graded.why();
  EXPECT_TRUE(graded.value().harness_failed);
  EXPECT_EQ(graded.value().rows[0].verdict, "meets");  // the grade stands; the class is to be run again
  EXPECT_EQ(graded.value().rows[0].report, "");
}

TEST(ClassGrading, AnEmptyClassWarmsNothing) {
  TinyClass c;
  bool warmed = false;
  c.hooks.warming = [&] { warmed = true; };
  c.options.kit.reference = c.scratch.path() / "no-such-reference";  // never copied
  const auto graded = grade_class(c.options, {}, c.hooks);
  ASSERT_TRUE(graded.ok()) << graded.why();
  EXPECT_FALSE(warmed);
  EXPECT_TRUE(graded.value().rows.empty());
  EXPECT_EQ(graded.value().summary.kind, "fake");
}

TEST(ClassGrading, AReferenceThatCannotBeCopiedGradesNobody) {
  TinyClass c;
  c.options.kit.reference = c.scratch.path() / "no-such-reference";
  const auto graded = grade_class(c.options, {c.learner("ann", "s01\n")}, c.hooks);
  ASSERT_FALSE(graded.ok());
  EXPECT_NE(graded.why().find("cannot copy " + c.options.kit.reference.string()), std::string::npos)
      << graded.why();
  EXPECT_TRUE(c.workdirs.empty());
}

// A served kit's one build, on the reference with an empty tests file,
// fails where the toolchain is missing: every learner would be fails-clean
// for it, so nobody is graded and the failure says why.
TEST(ClassGrading, AServedKitsBuildThatFailsOnTheReferenceGradesNobody) {
  TinyClass c;
  c.options.kit.served.build = {"sh", "-c", "echo 'cargo: not found' >&2; exit 127"};
  c.options.kit.served.executable = "target/t";
  const auto graded = grade_class(c.options, {c.learner("ann", "s01\n")}, c.hooks);
  ASSERT_FALSE(graded.ok());
  EXPECT_NE(graded.why().find("the kit's build (sh -c"), std::string::npos) << graded.why();
  EXPECT_NE(graded.why().find("no learner's suite could be built"), std::string::npos) << graded.why();
  EXPECT_NE(graded.why().find("cargo: not found"), std::string::npos) << graded.why();
  EXPECT_TRUE(c.workdirs.empty());
  // The same build, succeeding, grades the learner.
  c.options.kit.served.build = {"true"};
  const auto built = grade_class(c.options, {c.learner("ann", "s01\n")}, c.hooks);
  ASSERT_TRUE(built.ok()) << built.why();
  EXPECT_EQ(built.value().rows.size(), 1U);
}

TEST(ClassGrading, TheExitCodeAReportRecordsIsTheCallers) {
  TinyClass c;
  std::vector<std::pair<Stop, bool>> asked;
  c.options.exit_code = [&](Stop stopped, bool meets) {
    asked.emplace_back(stopped, meets);
    return stopped == kNotStopped ? (meets ? 0 : 1) : 8;
  };
  std::map<std::string, std::string> kept;
  c.hooks.keep_report = [&](const Learner& l, const std::string& json,
                            const std::string&) -> Outcome<std::string> {
    kept[l.name] = json;
    return std::string();
  };
  ASSERT_TRUE(grade_class(c.options,
                          {c.learner("ann", "broken\ns01\ns02\ns03\n"), c.learner("cat", "clean\n")}, c.hooks)
                  .ok());
  EXPECT_EQ(asked, (std::vector<std::pair<Stop, bool>>{{kNotStopped, true}, {kFailsClean, false}}));
  EXPECT_NE(kept["ann"].find("\"exitCode\": 0"), std::string::npos);
  EXPECT_NE(kept["cat"].find("\"exitCode\": 8"), std::string::npos);
}

}  // namespace
}  // namespace tlbf::mutants
