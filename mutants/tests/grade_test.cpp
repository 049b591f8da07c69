// What grade.hpp decides, on files made here: a kit read or refused with
// the first thing wrong named (its depth, keys twice and files that are not
// regular ones: report_read_test.cpp), the learners found in a class, a verdict and
// a row of a report, the keys a reused report depends on; and the kit's
// interpreters found once (interpreters.hpp).
#include "tlbf/mutants/grade.hpp"

#include <gtest/gtest.h>

#include "scratch_folder.hpp"
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tlbf/mutants/interpreters.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

using testing::write_text;
using Scratch = testing::ScratchFolder;

// A kit folder with a reference, patches and wheats, and kit.json holding `json`.
fs::path kit_with(const Scratch& scratch, const std::string& json) {
  const fs::path kit = scratch.path() / "kit";
  write_text(kit / "reference" / "bloom.py", "x = 1\n");
  write_text(kit / "reference" / "test_course.py", "\n");
  write_text(kit / "patches" / "s01.patch", "\n");
  write_text(kit / "wheats" / "w1" / "bloom.py", "x = 2\n");
  write_text(kit / "kit.json", json);
  return kit / "kit.json";
}

constexpr const char* kPatchKit = R"({"kind": "python", "reference": "reference", "patches": "patches",
  "wheats": "wheats", "tests_file": "test_bloom.py", "suite": ["python3", "-m", "unittest"],
  "left_out": ["test_course.py"]})";

TEST(KitFields, ItsPathsAreReadRelativeToItsFolder) {
  Scratch s;
  const auto kit = read_kit(kit_with(s, kPatchKit));
  ASSERT_TRUE(kit.ok()) << kit.why();
  const fs::path folder = fs::canonical(s.path()) / "kit";
  EXPECT_EQ(kit.value().kind, "python");
  EXPECT_EQ(kit.value().reference, folder / "reference");
  EXPECT_EQ(kit.value().set.patches, (folder / "patches").string());
  EXPECT_EQ(kit.value().set.wheats, (folder / "wheats").string());
  EXPECT_EQ(kit.value().set.chaffs, "");
  EXPECT_EQ(kit.value().tests_file, "test_bloom.py");
  EXPECT_EQ(kit.value().tests_into, "");
  EXPECT_EQ(kit.value().suite, (std::vector<std::string>{"python3", "-m", "unittest"}));
  EXPECT_EQ(kit.value().left_out, (std::vector<std::string>{"test_course.py"}));
  EXPECT_TRUE(kit.value().serves.empty());
}

TEST(KitFields, AServedKitsVariantsAndBuildAreRead) {
  Scratch s;
  write_text(s.path() / "kit" / "impl" / "tlbf_impl.py", "\n");
  const auto kit = read_kit(kit_with(s, R"({"kind": "rust", "serves": "oracle", "reference": "reference",
    "tests_file": "t.rs", "tests_into": "tests", "suite": ["target/t"], "wheats": "wheats",
    "build": ["cargo", "test", "--no-run"], "executable": "target/t",
    "variants": {"from": "impl", "command": ["python3", "tlbf_impl.py"], "as_is": "python"}})"));
  ASSERT_TRUE(kit.ok()) << kit.why();
  const fs::path folder = fs::canonical(s.path()) / "kit";
  EXPECT_EQ(kit.value().serves, "oracle");
  EXPECT_EQ(kit.value().served.variants_from, (folder / "impl").string());
  EXPECT_EQ(kit.value().served.variant_command, (std::vector<std::string>{"python3", "tlbf_impl.py"}));
  EXPECT_EQ(kit.value().served.as_is, "python");
  EXPECT_EQ(kit.value().served.wheats, (folder / "wheats").string());
  EXPECT_EQ(kit.value().served.build, (std::vector<std::string>{"cargo", "test", "--no-run"}));
  EXPECT_EQ(kit.value().served.executable, "target/t");
  EXPECT_EQ(kit.value().tests_into, "tests");
}

// The failure of the kit whose kit.json is `json`.
std::string refusal(const std::string& json) {
  Scratch s;
  const auto kit = read_kit(kit_with(s, json));
  return kit.ok() ? "(read)" : kit.why();
}

bool says(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(KitFields, TheFirstThingWrongIsNamed) {
  EXPECT_PRED2(says, refusal(R"({"reference": "reference", "patches": "patches", "tests_file": "t.py",
    "suite": ["true"]})"),
               R"("kind" must be a non-empty string)");
  EXPECT_PRED2(says, refusal(R"({"kind": "python", "reference": "reference", "patches": "patches",
    "tests_file": "t.py", "suite": []})"),
               R"("suite" must be a non-empty list of strings)");
  EXPECT_PRED2(says, refusal(R"({"kind": "python", "reference": "reference", "patches": "patches",
    "tests_file": "t.py", "tests_into": "../elsewhere", "suite": ["true"]})"),
               R"("tests_into" must be a folder inside the reference)");
  EXPECT_PRED2(says, refusal(R"({"kind": "python", "reference": "reference", "patches": "patches",
    "tests_file": "t.py", "suite": ["true"], "left_out": ["."]})"),
               R"("left_out" must be a list of paths inside the reference)");
  EXPECT_PRED2(says, refusal(R"({"kind": "python", "reference": "reference", "patches": "patches",
    "tests_file": "t.py", "suite": ["true"], "left_out": ["not_there.py"]})"),
               "left_out 'not_there.py' is not in the reference");
  EXPECT_PRED2(says, refusal(R"({"kind": "python", "reference": "missing", "patches": "patches",
    "tests_file": "t.py", "suite": ["true"]})"),
               "reference '");
  EXPECT_PRED2(says, refusal(R"({"kind": "python", "reference": "reference", "patches": "patches",
    "tests_file": "t.py", "suite": ["true"], "build": ["make"], "executable": "t"})"),
               R"("build" and "executable" are for a kit that serves its subjects)");
  EXPECT_PRED2(says, refusal(R"({"kind": "python", "serves": "mutants", "reference": "reference",
    "tests_file": "t.py", "suite": ["true"]})"),
               R"("serves" is "oracle" or absent, not "mutants")");
  EXPECT_PRED2(says, refusal(R"([1, 2])"), "is not a JSON object");
  // Which of the two comes first in the file is the one a course author meets first.
  EXPECT_PRED2(says,
               refusal(R"({"kind": "", "reference": "reference", "tests_file": "", "suite": ["true"]})"),
               R"("kind" must be)");
}

TEST(Learners, EachSubFolderInNameOrderWithTheTestsFileNearestItsTop) {
  Scratch s;
  const fs::path c = s.path() / "class";
  write_text(c / "zoe" / "deep" / "test_bloom.py", "\n");
  write_text(c / "zoe" / "test_bloom.py", "\n");
  write_text(c / "amy" / "src" / "test_bloom.py", "\n");
  write_text(c / "amy" / "target" / "test_bloom.py", "\n");  // a build product's folder: skipped
  write_text(c / "bob" / "a" / "test_bloom.py", "\n");
  write_text(c / "bob" / "b" / "test_bloom.py", "\n");
  write_text(c / "cy" / "notes.txt", "\n");
  write_text(c / ".git" / "test_bloom.py", "\n");  // hidden: no learner
  write_text(c / "file.txt", "\n");                // not a folder: no learner
  fs::create_directories(c / "dee");
  fs::create_symlink(c / "zoe" / "test_bloom.py", c / "dee" / "test_bloom.py");
  const auto learners = find_learners(c, "test_bloom.py");
  ASSERT_EQ(learners.size(), 5U);
  EXPECT_EQ(learners[0].name, "amy");
  EXPECT_EQ(learners[0].tests, c / "amy" / "src" / "test_bloom.py");
  EXPECT_EQ(learners[0].problem, "");
  EXPECT_EQ(learners[1].name, "bob");
  EXPECT_PRED2(says, learners[1].problem, "two files named test_bloom.py at the same depth");
  EXPECT_EQ(learners[2].name, "cy");
  EXPECT_EQ(learners[2].problem, "no file named test_bloom.py in " + (c / "cy").string());
  EXPECT_EQ(learners[3].name, "dee");
  EXPECT_PRED2(says, learners[3].problem, "is a symbolic link; hand in the file itself");
  EXPECT_EQ(learners[4].name, "zoe");
  EXPECT_EQ(learners[4].tests, c / "zoe" / "test_bloom.py");
}

TEST(Verdicts, EachStopIsTheLearnersWord) {
  Score score;
  EXPECT_EQ(to_string(verdict_of(score, true)), "meets");
  EXPECT_EQ(to_string(verdict_of(score, false)), "short");
  const std::pair<Stop, const char*> stops[] = {
      {kFailsClean, "fails-clean"},         {kPassesBroken, "passes-broken"}, {kFlaky, "flaky"},
      {kRejectsCorrect, "rejects-correct"}, {kUngradable, "ungradable"},      {kHarness, "harness-error"}};
  for (const auto& [stop, word] : stops) {
    score.stopped = stop;
    EXPECT_EQ(to_string(verdict_of(score, true)), word);  // a stopped grading never meets
  }
  EXPECT_EQ(to_string(LearnerVerdict::NoTests), "no-tests");
}

// A report as tlbf grade writes one, cut to what a row reads.
std::string report(const std::string& stopped) {
  return R"({"schemaVersion": "2", "thresholds": {"high": 80, "low": 60}, "files": {"bloom.py": {
    "language": "python", "source": "x", "mutants": [
      {"id": "s02", "mutatorName": "s02", "status": "Survived", "description": "two",
       "location": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}}},
      {"id": "s01", "mutatorName": "s01", "status": "Killed", "description": "one",
       "location": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}}}]}},
    "config": {"killed": 1, "ran": 2, "score": 0.5, "survivors": [{"id": "s02"}],
      "chaffs": {"killed": 1, "ran": 2, "missed": ["c02"], "runs": [
        {"id": "c02", "status": "Survived", "description": "c two"},
        {"id": "c01", "status": "Timeout", "description": "c one"}]},
      "stopped": )" +
         stopped + R"(, "learner": {"name": "ann", "key": "k", "verdict": "short"}}})";
}

TEST(ClassRows, ARowIsReadFromTheLearnersReport) {
  const auto row = class_row(report("null"));
  ASSERT_TRUE(row.ok()) << row.why();
  EXPECT_EQ(row.value().name, "ann");
  EXPECT_EQ(row.value().verdict, "short");
  EXPECT_EQ(row.value().killed, 1);
  EXPECT_EQ(row.value().ran, 2);
  EXPECT_EQ(row.value().survivors, (std::vector<std::string>{"s02"}));
  EXPECT_EQ(row.value().chaffs_missed, (std::vector<std::string>{"c02"}));
  // Mutants then chaffs, each in id order; a timeout is a catch.
  const std::vector<std::pair<std::string, std::string>> outcomes = {
      {"s01", "caught"}, {"s02", "survived"}, {"c01", "caught"}, {"c02", "survived"}};
  EXPECT_EQ(row.value().outcomes, outcomes);
  ASSERT_EQ(row.value().bugs.size(), 4U);
  EXPECT_EQ(row.value().bugs[2].kind, "chaff");
  EXPECT_EQ(bugs_of({row.value(), row.value()}).size(), 4U);
}

TEST(ClassRows, AStoppedGradingCountsNothingAndSaysWhy) {
  const auto row = class_row(report(R"({"why": "flaky", "reason": "s01 passed and failed"})"));
  ASSERT_TRUE(row.ok()) << row.why();
  EXPECT_EQ(row.value().reason, "s01 passed and failed");
  EXPECT_EQ(row.value().killed, 0);
  EXPECT_EQ(row.value().ran, 0);
  EXPECT_TRUE(row.value().outcomes.empty());
  EXPECT_TRUE(row.value().chaffs_missed.empty());
}

TEST(ClassRows, WhatIsNoReportOfTlbfGradeIsRefused) {
  EXPECT_FALSE(class_row("not json").ok());
  EXPECT_FALSE(class_row(R"({"config": {}})").ok());
  EXPECT_PRED2(says, class_row(R"({"files": {}})").why(), "not a report of tlbf grade");
}

TEST(Keys, ALearnersKeyChangesWithTheirFileAndTheOptionsAndNothingElse) {
  Scratch s;
  const auto kit = read_kit(kit_with(s, kPatchKit));
  ASSERT_TRUE(kit.ok()) << kit.why();
  write_text(s.path() / "ann" / "test_bloom.py", "assert True\n");
  write_text(s.path() / "bob" / "test_bloom.py", "assert True\n");
  const Learner ann = learner_in(s.path() / "ann", "ann", "test_bloom.py");
  const Learner bob = learner_in(s.path() / "bob", "bob", "test_bloom.py");
  const std::string key = learner_key(kit.value(), ann, "threshold=0.8");
  EXPECT_EQ(learner_key(kit.value(), bob, "threshold=0.8"), key);  // the same file: the same grade
  EXPECT_NE(learner_key(kit.value(), ann, "threshold=0.9"), key);
  write_text(s.path() / "ann" / "test_bloom.py", "assert False\n");
  EXPECT_NE(learner_key(kit.value(), ann, "threshold=0.8"), key);
  const std::string digest = kit_digest(kit.value());
  write_text(s.path() / "kit" / "patches" / "s02.patch", "\n");  // the kit's files changed
  EXPECT_NE(kit_digest(kit.value()), digest);
}

TEST(Interpreters, OnlyABarePythonIsResolved) {
  for (const char* word : {"python", "python3", "python3.11"}) EXPECT_TRUE(bare_python(word)) << word;
  for (const char* word : {"/usr/bin/python3", "python2", "cargo", "python3-config", "python3."})
    EXPECT_FALSE(bare_python(word)) << word;
}

// A PATH with a folder in front for the test's length.
class PathInFront {
 public:
  explicit PathInFront(const fs::path& folder) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    ::setenv("PATH", (folder.string() + ":" + old_).c_str(), 1);
  }
  ~PathInFront() { ::setenv("PATH", old_.c_str(), 1); }

 private:
  std::string old_;
};

TEST(Interpreters, AShimFirstOnPathIsAskedOnceAndRunNoMore) {
  Scratch s;
  const fs::path python = fs::path("/usr/bin/python3");
  if (!fs::exists(python)) GTEST_SKIP() << "no /usr/bin/python3";
  // A shim as pyenv's is: a script that counts its starts and then runs the interpreter.
  const fs::path shims = s.path() / "shims";
  write_text(shims / "python3", "#!/bin/sh\necho start >> " + (s.path() / "starts").string() + "\nexec " +
                                    python.string() + " \"$@\"\n");
  fs::permissions(shims / "python3", fs::perms::owner_all);
  const PathInFront in_front(shims);
  Kit kit;
  kit.suite = {"python3", "-m", "unittest"};
  kit.served.variant_command = {"python3", "tlbf_impl.py"};
  kit.served.build = {"cargo", "build"};
  const Kit resolved = with_interpreters_resolved(kit);
  EXPECT_EQ(resolved.suite, (std::vector<std::string>{python.string(), "-m", "unittest"}));
  EXPECT_EQ(resolved.served.variant_command, (std::vector<std::string>{python.string(), "tlbf_impl.py"}));
  EXPECT_EQ(resolved.served.build, kit.served.build);
  std::ifstream starts(s.path() / "starts");
  int count = 0;
  for (std::string line; std::getline(starts, line);) ++count;
  EXPECT_EQ(count, 2);  // once for the suite's word and once for the variants'
}

TEST(Interpreters, AWordThatCannotBeResolvedStaysAsItIs) {
  Scratch s;
  const fs::path shims = s.path() / "shims";
  write_text(shims / "python3.99", "#!/bin/sh\necho relative/python\n");  // not an absolute path
  fs::permissions(shims / "python3.99", fs::perms::owner_all);
  const PathInFront in_front(shims);
  EXPECT_EQ(python_executable("python3.99", s.path()), "");
  EXPECT_EQ(python_executable("python3.98", s.path()), "");  // not on PATH at all
  Kit kit;
  kit.suite = {"python3.99", "-m", "unittest"};
  EXPECT_EQ(with_interpreters_resolved(kit).suite, kit.suite);
}

}  // namespace
}  // namespace tlbf::mutants
