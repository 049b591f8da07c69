// A served kit's variant folders (variants.hpp) with a build: each variant is
// built in its own folder once it is made, `jobs` at a time, and a build that
// fails is that variant's error, not the others'.
#include "tlbf/mutants/variants.hpp"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "scratch_folder.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "variant_cache.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

using testing::read_text;
using testing::write_text;
using Scratch = testing::ScratchFolder;

// A kit of one implementation file, a wheat laid over it, two chaffs and a
// mutant's form, each patch changing its one line; its build writes the
// file upper-cased to built.txt, and refuses (exit 3, saying so) a file that
// says "eins".
ServedSet built_kit(const fs::path& kit) {
  write_text(kit / "impl" / "impl.txt", "one\n");
  write_text(kit / "wheats" / "lenient" / "impl.txt", "one, leniently\n");
  const std::string changes_one_to = "--- a/impl.txt\n+++ b/impl.txt\n@@ -1 +1 @@\n-one\n+";
  write_text(kit / "chaffs" / "c01.patch", changes_one_to + "uno\n");
  write_text(kit / "chaffs" / "c02.patch", changes_one_to + "eins\n");
  write_text(kit / "mutants" / "s01.patch", changes_one_to + "un\n");
  ServedSet set;
  set.variants_from = (kit / "impl").string();
  set.variant_command = {"cat", "built.txt"};
  // Each build leaves a line in kit/builds.log, so a test can count them.
  set.variant_build = {"sh", "-c",
                       "echo built >> " + (kit / "builds.log").string() +
                           "; if grep -q eins impl.txt; then echo 'no eins here' >&2; exit 3; fi; "
                           "tr a-z A-Z < impl.txt > built.txt && chmod 755 built.txt"};
  set.as_is = "plain";
  set.wheats = (kit / "wheats").string();
  set.chaffs = (kit / "chaffs").string();
  set.mutant_patches = (kit / "mutants").string();
  return set;
}

// What each variant's folder holds once made: its built.txt, or its error.
std::map<std::string, std::string> built(const VariantFolders& variants) {
  std::map<std::string, std::string> out;
  for (const auto& [id, variant] : variants.by_id()) {
    out[id] = variant.ok() ? read_text(variant.value() / "built.txt") : "error: " + variant.why();
  }
  return out;
}

// The cache of builds, for one test: a folder of its own.
class CacheDir {
 public:
  explicit CacheDir(const std::string& dir) { ::setenv("TLBF_CACHE_DIR", dir.c_str(), 1); }
  ~CacheDir() { ::unsetenv("TLBF_CACHE_DIR"); }
};

int lines_in(const fs::path& file) {
  const std::string text = read_text(file);
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(VariantFolders, EachVariantIsBuiltInItsOwnFolderAndAFailedBuildIsThatVariantsError) {
  Scratch scratch;
  const ServedSet set = built_kit(scratch.path() / "kit");
  for (int jobs : {1, 2, 8}) {
    SCOPED_TRACE("jobs " + std::to_string(jobs));
    CacheDir empty((scratch.path() / ("cache-" + std::to_string(jobs))).string());
    const auto variants = VariantFolders::make(set, jobs);
    auto got = built(*variants);
    ASSERT_EQ(got.count("c02"), 1U);
    const std::string c02 = got["c02"];
    got.erase("c02");
    EXPECT_EQ(
        got,
        (std::map<std::string, std::string>{
            {"c01", "UNO\n"}, {"lenient", "ONE, LENIENTLY\n"}, {"mutant:s01", "UN\n"}, {"plain", "ONE\n"}}));
    // The build's words and how it ended, with its last lines: what a course author needs.
    EXPECT_NE(c02.find("error: its build (sh) failed (exit 3): "), std::string::npos) << c02;
    EXPECT_NE(c02.find("no eins here"), std::string::npos) << c02;
    EXPECT_FALSE(variants->by_id().at("c02").ok());
  }
}

TEST(VariantFolders, WithoutABuildAVariantIsItsCopyAlone) {
  Scratch scratch;
  CacheDir cache((scratch.path() / "cache").string());
  ServedSet set = built_kit(scratch.path() / "kit");
  set.variant_build.clear();
  const auto variants = VariantFolders::make(set, 2);
  for (const auto& [id, variant] : variants->by_id()) {
    ASSERT_TRUE(variant.ok()) << id << ": " << variant.why();
    EXPECT_FALSE(fs::exists(variant.value() / "built.txt")) << id;
  }
  EXPECT_EQ(read_text(variants->by_id().at("c02").value() / "impl.txt"), "eins\n");
  EXPECT_FALSE(fs::exists(scratch.path() / "cache"));  // nothing built, nothing kept
}

// A `target/` in the folder variants are made from (a developer's cargo
// build in the source tree) is the build's own folder: not copied into any
// variant, which builds from its sources alone.
TEST(VariantFolders, TheSourcesTargetFolderIsNotCopied) {
  Scratch scratch;
  CacheDir cache((scratch.path() / "cache").string());
  const ServedSet set = built_kit(scratch.path() / "kit");
  write_text(scratch.path() / "kit" / "impl" / "target" / "stale.bin", "from an old build\n");
  write_text(scratch.path() / "kit" / "impl" / ".hidden", "kept\n");
  const auto variants = VariantFolders::make(set, 2);
  for (const auto& [id, variant] : variants->by_id()) {
    if (id == "c02") continue;  // its build fails, as built_kit says
    ASSERT_TRUE(variant.ok()) << id << ": " << variant.why();
    EXPECT_FALSE(fs::exists(variant.value() / "target")) << id;
    EXPECT_EQ(read_text(variant.value() / ".hidden"), "kept\n") << id;
  }
  EXPECT_EQ(read_text(variants->by_id().at("plain").value() / "built.txt"), "ONE\n");
}

// A build is kept, by the variant's sources, and the next set of the same
// sources takes what its command names instead of building again: a second
// class on the machine pays no build. A failed build is not kept; a changed
// source is built afresh.
TEST(VariantFolders, ABuildIsKeptAndTheNextGradingTakesItInsteadOfBuilding) {
  Scratch scratch;
  CacheDir cache((scratch.path() / "cache").string());
  const fs::path kit = scratch.path() / "kit";
  const ServedSet set = built_kit(kit);
  const auto first = VariantFolders::make(set, 2);
  EXPECT_EQ(first->built(), 5);
  EXPECT_EQ(first->taken_from_cache(), 0);
  EXPECT_EQ(lines_in(kit / "builds.log"), 5);
  // Four kept where TLBF_CACHE_DIR says (c02's build failed).
  int kept = 0;
  for (const auto& entry : fs::directory_iterator(scratch.path() / "cache" / "variants"))
    kept += entry.is_directory();
  EXPECT_EQ(kept, 4);

  const auto second = VariantFolders::make(set, 2);
  EXPECT_EQ(second->taken_from_cache(), 4);
  EXPECT_EQ(second->built(), 1);  // c02's, which failed and was not kept
  EXPECT_EQ(lines_in(kit / "builds.log"), 6);
  EXPECT_EQ(built(*second), built(*first));
  const fs::path taken = second->by_id().at("plain").value() / "built.txt";
  EXPECT_NE(fs::status(taken).permissions() & fs::perms::owner_exec, fs::perms::none);  // kept as made

  write_text(kit / "chaffs" / "c01.patch", "--- a/impl.txt\n+++ b/impl.txt\n@@ -1 +1 @@\n-one\n+ichi\n");
  const auto third = VariantFolders::make(set, 2);
  EXPECT_EQ(third->built(), 2);  // c01, changed, and c02 again
  EXPECT_EQ(read_text(third->by_id().at("c01").value() / "built.txt"), "ICHI\n");
  EXPECT_EQ(read_text(third->by_id().at("lenient").value() / "built.txt"), "ONE, LENIENTLY\n");
}

// A kept build whose list of products is not whole (cut short, as by a full
// disk, or empty) or names a product that is not there is not taken: the
// grading builds instead of serving half a variant.
TEST(VariantCache, AKeptBuildIsTakenOnlyWhenItsListIsWhole) {
  Scratch scratch;
  const VariantCache cache(scratch.path() / "cache");
  const fs::path built_folder = scratch.path() / "built";
  write_text(built_folder / "bin" / "serve", "#!/bin/sh\n");
  write_text(built_folder / "bin" / "helper", "data\n");
  ASSERT_TRUE(cache.keep("k", {"bin/serve", "bin/helper"}, built_folder).ok());
  const fs::path list = scratch.path() / "cache" / "k" / "products";
  const std::string whole = read_text(list);
  EXPECT_EQ(whole, "bin/serve\nbin/helper\n# end\n");
  EXPECT_TRUE(cache.take("k", scratch.path() / "taken"));
  EXPECT_EQ(read_text(scratch.path() / "taken" / "bin" / "helper"), "data\n");

  for (const std::string& damaged :
       {std::string("bin/serve\n"), std::string("bin/serve\nbin/hel"), std::string(""),
        std::string("# end\n"), std::string("bin/serve\nbin/gone\n# end\n"), whole + "bin/more\n"}) {
    write_text(list, damaged);
    EXPECT_FALSE(cache.take("k", scratch.path() / "again")) << damaged;
  }
  EXPECT_FALSE(cache.take("never-kept", scratch.path() / "again"));
  // The next build kept under the key replaces the damaged entry.
  ASSERT_TRUE(cache.keep("k", {"bin/serve", "bin/helper"}, built_folder).ok());
  EXPECT_EQ(read_text(list), whole);
  EXPECT_TRUE(cache.take("k", scratch.path() / "again"));
}

}  // namespace
}  // namespace tlbf::mutants
