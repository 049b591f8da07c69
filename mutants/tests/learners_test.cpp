// The learners found in a class folder, each with their tests file or why
// they have none.
#include "tlbf/mutants/learners.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "grade_fixtures.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

using Scratch = testing::ScratchFolder;
using testing::says;
using testing::write_text;

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

}  // namespace
}  // namespace tlbf::mutants
