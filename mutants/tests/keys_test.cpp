// The keys a reused report depends on, and the kit's digest.
#include "tlbf/mutants/keys.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "grade_fixtures.hpp"
#include "tlbf/mutants/kit.hpp"
#include "tlbf/mutants/learners.hpp"

namespace tlbf::mutants {
namespace {

using Scratch = testing::ScratchFolder;
using testing::kit_with;
using testing::kPatchKit;
using testing::write_text;

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

}  // namespace
}  // namespace tlbf::mutants
