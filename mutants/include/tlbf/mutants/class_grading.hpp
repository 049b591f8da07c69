// The class loop of tlbf grade: every learner of a class graded in turn with
// one kit, each learner's report handed to the caller, the class's rows and
// summary returned (docs/mutants.md, "A class in one command"). It prints and
// writes nothing: tlbf grade's command parses its options, calls this, and
// prints and writes what it returns and what the hooks hand it.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tlbf/mutants/grade.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// What grades a class: the kit, the bar and every option that changes a grade.
struct ClassOptions {
  Kit kit;
  std::vector<std::string> required;  // the mutants whose kill the bar needs
  double threshold = 0.80;
  bool chaffs = true;  // the kit's chaffs (--chaffs bundled), or none
  int jobs = 2;
  int baseline_runs = 3;
  int control_runs = 2;
  int confirm_runs = 2;
  int confirm_kills = 6;
  bool replay = true;      // ScoreOptions::replay (--no-replay turns it off)
  bool runs_alone = true;  // ScoreOptions::runs_alone (--no-runs-alone turns it off)
  double timeout_factor = 5.0;
  std::chrono::milliseconds timeout_floor{10'000};
  std::chrono::milliseconds setup_limit{std::chrono::minutes(30)};
  bool fresh = false;           // grade every learner again, reusing no earlier report
  bool sandbox_wanted = true;   // --no-sandbox's opposite: part of what a grade depends on
  std::string sandbox = "off";  // sandbox_state's: "bubblewrap" runs every suite under bubblewrap
  std::string version;          // tlbf's, in every report and in the summary
  std::string tlbf;             // the running tlbf, which serves the alternatives wheat ("" none)
  std::string tlbf_mutant;      // what serves the oracle's mutants, for a kit that serves them
  std::optional<ClassShard> shard;
  // mutation-testing-elements' bundle, which each learner's page inlines ("": no pages).
  std::string viewer_js;
  // The exit code a learner's report records for a grading that stopped or
  // not (tlbf mutate's, cli/src/grading_output.cpp); 0 when not given.
  std::function<int(Stop stopped, bool meets)> exit_code;
};

// The options that change a grade, in words (class.json's grading.options,
// and part of every learner's key).
std::string options_in_words(const ClassOptions& options);

// A learner's report as the caller keeps it: its JSON, and its page relative
// to the class's summary ("" when there is none).
struct KeptReport {
  std::string json;
  std::string page;
};

// What the class's warm-up did: its seconds (the reference warmed and the
// served kit's variants made), and of the variants a build makes
// (variants.build), how many it built and how many it took from the cache.
struct ClassWarmUp {
  double seconds = 0;
  int variants_built = 0;
  int variants_from_cache = 0;
};

// What the caller does as the class is graded. Every hook may be left empty.
struct ClassHooks {
  // Before the reference is warmed for the class, and after.
  std::function<void()> warming;
  std::function<void(const ClassWarmUp&)> warmed;
  // Before a learner's grading: their place in the class (from 0) and its size.
  std::function<void(std::size_t index, std::size_t count, const Learner&)> learner_begins;
  // Each run's progress (ScoreOptions::progress), and the end of a learner's runs.
  std::function<void(const Progress&)> progress;
  std::function<void()> runs_ended;
  // A learner's report once graded, and its page (mutation_report_html's, ""
  // without ClassOptions::viewer_js): the caller keeps them and says where the
  // page is relative to the class's summary ("" none). A Failure (they cannot
  // be written) is the class's harness error.
  std::function<Outcome<std::string>(const Learner&, const std::string& report_json, const std::string& page)>
      keep_report;
  // The report an earlier grading kept of the learner, if any: reused when
  // its key is this grading's (unless ClassOptions::fresh).
  std::function<std::optional<KeptReport>(const Learner&)> earlier_report;
  // After a learner's grading: their row, the seconds it took, and whether
  // an earlier report was reused.
  std::function<void(std::size_t index, const ClassRow& row, double seconds, bool reused)> learner_ends;
  // What the learner's copy of the reference (`workdir`) is graded against,
  // given the options the runs use (the kit's interpreters resolved, its
  // variants made once for the class); empty: kit_subjects(runs, workdir).
  // Tests give fakes.
  std::function<std::unique_ptr<Subjects>(const ClassOptions& runs, const std::string& workdir)> subjects;
};

// The kit's subjects for a learner's copy of its reference in `workdir`:
// its mutants patched or served, with its wheats and (unless options.chaffs
// is false) its chaffs.
std::unique_ptr<Subjects> kit_subjects(const ClassOptions& options, const std::string& workdir);

// What a class's grading returns: a row per learner, in the learners' order
// (none dropped: a learner who cannot be graded has a row that says why),
// the summary class.json is made of, and whether the harness failed anywhere.
struct ClassResult {
  std::vector<ClassRow> rows;
  ClassSummary summary;
  bool harness_failed = false;
  double warm_seconds = 0;  // the reference's warming, 0 when nothing was warmed
};

// Grades `learners` in turn. An empty class warms nothing. A Failure when
// the reference cannot be copied for the class (then nobody is graded).
// A served kit's built variants made ahead of any class (tlbf grade
// --prepare): each built, or found in the cache of builds, and kept there,
// so that a platform's image or a grader's machine pays the builds once.
// What was built and taken (seconds, counts), or a Failure naming every
// variant that could not be made and why.
Outcome<ClassWarmUp> prepare_variants(const ClassOptions& options);

Outcome<ClassResult> grade_class(const ClassOptions& options, const std::vector<Learner>& learners,
                                 const ClassHooks& hooks);

// The class's summary of `rows` graded with `options`.
ClassSummary class_summary(const ClassOptions& options, const std::vector<ClassRow>& rows);

// How a class's grading ends, harness errors first (whatever the verdicts, a
// class with one is to be graded again); with `all_must_meet`, a learner who
// does not meet the bar ends it NotAllMeet.
enum class ClassEnd { Graded, HarnessFailed, NotAllMeet };
ClassEnd class_end(bool harness_failed, bool all_must_meet, const std::vector<ClassRow>& rows);

}  // namespace tlbf::mutants
