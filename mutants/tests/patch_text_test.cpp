// Reading a patch (patch_text.hpp): the files `patch -p1` would change, and
// the place a report shows for its first change, on patches written here
// whose places are counted by hand.
#include "patch_text.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "scratch_folder.hpp"

namespace tlbf::mutants {
namespace {

using testing::ScratchFolder;
using testing::write_text;

// The source the patches below change: pkg/impl.py, four lines.
constexpr const char* kSource = "zero\nline one\n    k = round(x)\nline three\n";

TEST(PatchText, TheFilesAPatchChangesAreNamedAsPatchP1NamesThem) {
  const std::string patch =
      "--- a/pkg/impl.py\t2026-01-01 00:00:00\n"
      "+++ b/pkg/impl.py\t2026-01-01 00:00:00\n"
      "@@ -1 +1 @@\n-a\n+b\n"
      "--- a/gone.py\n"
      "+++ /dev/null\n"
      "@@ -1 +0,0 @@\n-a\n"
      "--- a/top.toml\n"
      "+++ b/top.toml\n"
      "@@ -1 +1 @@\n-a\n+b\n";
  EXPECT_EQ(files_changed_by(patch), (std::set<std::string>{"pkg/impl.py", "top.toml"}));
}

TEST(PatchText, AChangedLineIsPlacedFromItsFirstColumnToTheEndOfItsText) {
  ScratchFolder root;
  write_text(root.path() / "pkg/impl.py", kSource);
  const std::string diff =
      "--- a/pkg/impl.py\n"
      "+++ b/pkg/impl.py\n"
      "@@ -2,3 +2,3 @@\n"
      " line one\n"
      "-    k = round(x)\n"
      "+    k = int(x)\n"
      " line three\n";
  const Place p = describe_patch("Truncating k\n" + diff, root.path());
  EXPECT_EQ(p.file, "pkg/impl.py");
  EXPECT_EQ(p.description, "Truncating k");
  EXPECT_EQ(p.source, kSource);
  // The hunk starts at line 2, so the removed line is line 3; its 16
  // characters end before column 17 (end exclusive).
  EXPECT_EQ(p.start_line, 3);
  EXPECT_EQ(p.start_column, 1);
  EXPECT_EQ(p.end_line, 3);
  EXPECT_EQ(p.end_column, 17);
  EXPECT_EQ(p.replacement, "    k = int(x)");
  EXPECT_EQ(p.diff, diff);  // without the preamble
}

TEST(PatchText, ALineOnlyAddedCoversTheLineBeforeIt) {
  ScratchFolder root;
  write_text(root.path() / "pkg/impl.py", kSource);
  const std::string diff =
      "--- a/pkg/impl.py\n"
      "+++ b/pkg/impl.py\n"
      "@@ -2,2 +2,3 @@\n"
      " line one\n"
      "     k = round(x)\n"
      "+    assert k > 0\n";
  const Place p = describe_patch(diff, root.path());
  EXPECT_EQ(p.description, "");
  // Added before old line 4: line 3 is covered whole and leads the replacement.
  EXPECT_EQ(p.start_line, 3);
  EXPECT_EQ(p.end_line, 3);
  EXPECT_EQ(p.start_column, 1);
  EXPECT_EQ(p.end_column, 17);
  EXPECT_EQ(p.replacement, "    k = round(x)\n    assert k > 0");
  EXPECT_EQ(p.diff, diff);
}

}  // namespace
}  // namespace tlbf::mutants
