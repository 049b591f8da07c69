// One learner's grading as an autograder platform reads it: Gradescope's
// results.json, PrairieLearn's external grader results.json and GitHub
// Classroom's runner result (docs/mutants.md, "Grading on a platform").
// What reaches the learner is set by a feedback level; a chaff's identity
// (its id, its description, its patch) never does, at any level.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/mutants/class_rows.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// How much of the grading the learner sees, after autograder.io's levels:
// nothing, the score, the planted bugs that survived with their pitfalls, and
// also the failing output of a suite that rejects a correct variant (or the
// reference).
enum class Feedback { None, Score, Mutants, All };
std::optional<Feedback> feedback_named(std::string_view word);  // "none", "score", "mutants", "all"

// The score a platform records. Bar (the course's, the default): all the
// points when the learner meets the bar (the threshold, every required
// mutant killed), none otherwise. Share: a point per graded mutant killed.
enum class ScorePolicy { Bar, Share };
std::optional<ScorePolicy> score_policy_named(std::string_view word);  // "bar", "share"

// One learner's grading, as every platform's result is made from it.
struct Submission {
  std::string verdict;  // the learner verdict's word ("meets", "short", "no-tests", ...)
  // False when no grade could be measured and the learner is to fix their
  // submission (no tests file, fails the reference, flaky) or the grader
  // met an error: never a silent zero.
  bool gradable = true;
  ScorePolicy policy = ScorePolicy::Bar;
  double points = 0, max_points = 0;  // a point per graded mutant
  double threshold = 0.8;
  int killed = 0, ran = 0;
  struct Bug {
    std::string id, pitfall;  // the catalog's description
    bool caught = false;
    // Survived by replay, not by a run: it answered every request of the
    // suite's clean runs as the reference did, so the suite was not run on it.
    bool by_replay = false;
  };
  std::vector<Bug> bugs;  // the graded mutants, in order (none when the grading stopped)
  std::string fix;        // what the learner is to do, one paragraph ("" when they meet the bar)
  std::string details;    // the failing output behind `fix` (for Feedback::All), chaff-free
  // The suite's clean runs sent different requests (an unseeded random
  // test): every planted bug was run, none replayed. `nondeterminism` is
  // where two of them parted (for Feedback::All), chaff-free.
  bool not_deterministic = false;
  std::string nondeterminism;
};

// The learner's submission from their class row and, when the grading made
// one, their report (mutation_report_json with a learner). `hidden` are the
// words no learner may read (the chaffs' ids and descriptions): any text
// taken from the report has them replaced by "(a hidden bug)". What the
// row says of replay (ClassRow::replay) marks the bugs that survived by
// replay and a suite that is not deterministic. A failure when the report
// cannot be read.
Outcome<Submission> submission_of(const ClassRow& row, const std::string* report_json, ScorePolicy policy,
                                  double threshold, const std::string& tests_file,
                                  const std::vector<std::string>& hidden);

// Gradescope's results.json (gradescope-autograders.readthedocs.io/en/latest/specs/).
std::string gradescope_results(const Submission& s, Feedback level);
// PrairieLearn's external grader results.json (prairielearn.readthedocs.io, "External Grading").
std::string prairielearn_results(const Submission& s, Feedback level);
// The JSON a GitHub Classroom grader step gives autograding-grading-reporter
// (base64-encoded, as its `result` output).
std::string github_classroom_result(const Submission& s, Feedback level);

std::string base64(std::string_view bytes);

}  // namespace tlbf::mutants
