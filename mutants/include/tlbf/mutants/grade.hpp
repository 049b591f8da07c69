// Grading a class: every learner's tests against the course's reference,
// with the planted bugs, correct variants (wheats) and more bugs (chaffs)
// (docs/mutants.md, "For course authors"). This header holds the class's
// seed, the reference copied and warmed once; it also brings in every
// header of a class's grading, for the code that uses them all: the kit
// (kit.hpp), the learners (learners.hpp), their verdicts (verdicts.hpp),
// the keys a reused report depends on (keys.hpp), a learner's row
// (class_rows.hpp) and the class's views (class_summary.hpp).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "tlbf/mutants/class_rows.hpp"
#include "tlbf/mutants/class_summary.hpp"
#include "tlbf/mutants/keys.hpp"
#include "tlbf/mutants/kit.hpp"
#include "tlbf/mutants/learners.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/mutants/verdicts.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// The reference, copied once for the class and warmed: the suite run once on
// it, ungraded, so that what every learner's runs share (cargo's build of the
// dependencies and of the reference) is built once. It is warmed at the path
// where each learner's copy is then made, one learner at a time, so that
// what a build tool keeps by absolute path stays valid for every learner.
// Removed when destroyed. A failure when the reference cannot be copied.
class ClassSeed {
 public:
  static Outcome<std::unique_ptr<ClassSeed>> make(const Kit& kit, std::chrono::milliseconds limit);
  ~ClassSeed();
  ClassSeed(const ClassSeed&) = delete;
  ClassSeed& operator=(const ClassSeed&) = delete;

  // A copy of the warmed reference with the learner's tests file in it, for
  // the learner's grading, or why it cannot be made. Always at the same path:
  // the last learner's copy is gone once this is called again.
  Outcome<std::string> workdir_for(const Learner& learner);
  void done_with(const std::string& workdir);
  double warm_seconds() const { return warm_seconds_; }

 private:
  ClassSeed(const Kit& kit, std::filesystem::path scratch) : kit_(kit), scratch_(std::move(scratch)) {}
  std::filesystem::path learner_folder() const { return scratch_ / "learner"; }
  Outcome<Done> warm(const std::filesystem::path& at, std::chrono::milliseconds limit);
  Kit kit_;
  std::filesystem::path scratch_;
  double warm_seconds_ = 0;
};

}  // namespace tlbf::mutants
