// A learner's verdict in words (docs/mutants.md, "A class in one command").
#include "tlbf/mutants/verdicts.hpp"

namespace tlbf::mutants {

std::string_view to_string(LearnerVerdict v) {
  switch (v) {
    case LearnerVerdict::Meets:
      return "meets";
    case LearnerVerdict::Short:
      return "short";
    case LearnerVerdict::FailsClean:
      return "fails-clean";
    case LearnerVerdict::PassesBroken:
      return "passes-broken";
    case LearnerVerdict::Flaky:
      return "flaky";
    case LearnerVerdict::RejectsCorrect:
      return "rejects-correct";
    case LearnerVerdict::Ungradable:
      return "ungradable";
    case LearnerVerdict::Harness:
      return "harness-error";
    case LearnerVerdict::NoTests:
      return "no-tests";
  }
  return "?";
}

LearnerVerdict verdict_of(const Score& score, bool meets) {
  switch (score.stopped) {
    case kNotStopped:
      return meets ? LearnerVerdict::Meets : LearnerVerdict::Short;
    case kFailsClean:
      return LearnerVerdict::FailsClean;
    case kPassesBroken:
      return LearnerVerdict::PassesBroken;
    case kFlaky:
      return LearnerVerdict::Flaky;
    case kRejectsCorrect:
      return LearnerVerdict::RejectsCorrect;
    case kUngradable:
      return LearnerVerdict::Ungradable;
    default:
      return LearnerVerdict::Harness;
  }
}

}  // namespace tlbf::mutants
