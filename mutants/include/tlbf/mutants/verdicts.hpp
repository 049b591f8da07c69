// One learner's verdict, as the class's views show it (docs/mutants.md, "A
// class in one command": the verdicts).
#pragma once

#include <string_view>

#include "tlbf/mutants/scorer.hpp"

namespace tlbf::mutants {

enum class LearnerVerdict {
  Meets,
  Short,
  FailsClean,
  PassesBroken,
  Flaky,
  RejectsCorrect,
  Ungradable,
  Harness,
  NoTests
};
std::string_view to_string(LearnerVerdict v);  // "meets", "short", "fails-clean", ...
// A grading that stopped is its stop's verdict, whatever `meets` says.
LearnerVerdict verdict_of(const Score& score, bool meets);

}  // namespace tlbf::mutants
