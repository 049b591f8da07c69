// A kit read from its kit.json, or refused with the first thing wrong named
// (its depth, keys twice and files that are not regular ones:
// report_read_test.cpp).
#include "tlbf/mutants/kit.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "grade_fixtures.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

using Scratch = testing::ScratchFolder;
using testing::kit_with;
using testing::kPatchKit;
using testing::says;
using testing::write_text;

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
  EXPECT_TRUE(kit.value().served.variant_build.empty());
}

TEST(KitFields, AVariantBuildIsReadAndMustBeWords) {
  Scratch s;
  write_text(s.path() / "kit" / "impl" / "Cargo.toml", "\n");
  const auto kit = read_kit(kit_with(s, R"({"kind": "rust", "serves": "oracle", "reference": "reference",
    "tests_file": "t.rs", "suite": ["target/t"], "wheats": "wheats",
    "variants": {"from": "impl", "build": ["cargo", "build", "--release"], "command": ["target/release/s"],
                 "as_is": "rust"}})"));
  ASSERT_TRUE(kit.ok()) << kit.why();
  EXPECT_EQ(kit.value().served.variant_build, (std::vector<std::string>{"cargo", "build", "--release"}));
  EXPECT_EQ(kit.value().served.variant_command, (std::vector<std::string>{"target/release/s"}));
  for (const char* build : {R"("cargo build")", R"(["cargo", 1])", R"({"cargo": "build"})"}) {
    Scratch t;
    write_text(t.path() / "kit" / "impl" / "Cargo.toml", "\n");
    const auto refused = read_kit(kit_with(t, std::string(R"({"kind": "rust", "serves": "oracle",
      "reference": "reference", "tests_file": "t.rs", "suite": ["target/t"], "wheats": "wheats",
      "variants": {"from": "impl", "command": ["s"], "as_is": "rust", "build": )") +
                                                  build + "}}"));
    ASSERT_FALSE(refused.ok()) << build;
    EXPECT_PRED2(says, refused.why(), R"("variants"."build" must be a list of strings)");
  }
}

// "test_runner" names what runs a served kit's suite, so that a kill's
// tests can run alone (test_names.hpp); absent, every run is whole.
TEST(KitFields, ATestRunnerIsReadForAServedKitAndMustBeOneTlbfKnows) {
  const std::string served = R"({"kind": "rust", "serves": "oracle", "reference": "reference",
    "tests_file": "t.rs", "suite": ["target/t"], "wheats": "wheats",
    "variants": {"from": "impl", "command": ["s"], "as_is": "rust"})";
  const auto read_with = [&](const std::string& more) {
    Scratch s;
    write_text(s.path() / "kit" / "impl" / "Cargo.toml", "\n");
    return read_kit(kit_with(s, served + more + "}"));
  };
  const auto libtest = read_with(R"(, "test_runner": "libtest")");
  ASSERT_TRUE(libtest.ok()) << libtest.why();
  EXPECT_EQ(libtest.value().served.test_runner, TestRunner::kLibtest);
  const auto none = read_with("");
  ASSERT_TRUE(none.ok()) << none.why();
  EXPECT_EQ(none.value().served.test_runner, TestRunner::kUnnamed);
  for (const char* wrong : {R"("pytest")", R"("")", R"(["libtest"])", "1"}) {
    const auto refused = read_with(std::string(R"(, "test_runner": )") + wrong);
    ASSERT_FALSE(refused.ok()) << wrong;
    EXPECT_PRED2(says, refused.why(), R"("test_runner" must be "libtest")");
  }
  Scratch patched;
  const auto unserved = read_kit(kit_with(patched, R"({"kind": "rust", "reference": "reference",
    "patches": "patches", "tests_file": "t.rs", "suite": ["cargo", "test"], "test_runner": "libtest"})"));
  ASSERT_FALSE(unserved.ok());
  EXPECT_PRED2(says, unserved.why(), R"("test_runner" is for a kit that serves its subjects)");
}

// The failure of the kit whose kit.json is `json`.
std::string refusal(const std::string& json) {
  Scratch s;
  const auto kit = read_kit(kit_with(s, json));
  return kit.ok() ? "(read)" : kit.why();
}

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

}  // namespace
}  // namespace tlbf::mutants
