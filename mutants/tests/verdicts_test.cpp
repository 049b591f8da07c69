// A learner's verdict from their score.
#include "tlbf/mutants/verdicts.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tlbf::mutants {
namespace {

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

}  // namespace
}  // namespace tlbf::mutants
