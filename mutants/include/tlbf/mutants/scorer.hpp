// Grading a test suite by the planted bugs it catches (docs/mutants.md).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/mutants/test_names.hpp"
#include "tlbf/mutants/transcript.hpp"
#include "tlbf/mutants/variants.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// One run of the suite, prepared: a shell line, and the directory it runs in
// (empty: the current one). A run that could not be prepared (a patch that
// does not apply, a folder that cannot be copied) is no SuiteRun but the
// Subjects' Failure (Outcome<SuiteRun>): the suite is not run, and the
// Subjects have already undone what preparing it made, so there is nothing
// to finish().
struct SuiteRun {
  std::string command;
  std::string directory;
  int job_folder = -1;  // the job folder (below) it runs in, given back by finish(); -1 for none
};

// Where a mutant sits, for reports: the file, its text, the lines (1-based,
// end exclusive as mutation-testing-elements wants) and the changed text.
struct Place {
  std::string file;
  std::string source;
  int start_line = 1, start_column = 1, end_line = 1, end_column = 1;
  std::string replacement;
  std::string description;
  std::string diff;  // the change as a unified diff
};

// What serving a run's subject recorded of the suite, where the Subjects can
// tell (the served subjects without --reveal-mutant; the others answer the
// default).
struct ServingRecord {
  bool reached = true;  // the suite started the subject at least once
  // What the harness could not do while serving the run ("" when nothing):
  // a process it could not start. A run with a fault is graded by nobody.
  std::string harness_fault;
  // A recorded run's sessions (Subjects::clean_recorded), or a Failure
  // saying why they could not be kept whole; nullopt for a run that was not
  // recorded at all.
  std::optional<Outcome<Transcript>> transcript;
};

// What a subject's replay is compared with: a clean run's sessions (the
// oracle's answers), and those of a passing run against the kit's variant
// as it is (Subjects::variant_recorded), for the subjects served in the
// variant's form: a chaff, or a mutant's second form. A variant answers in
// its own words (an error's message, the spelling of a real), so it is
// compared with the variant as it is, not with the oracle.
struct References {
  Transcript oracle;
  // The variant's recorded run, made the first time a replay asks for it
  // (a suite that every mutant's oracle form already parts from never
  // needs it, and a run against the Python variant is the dearest of all);
  // nullptr: the variant's forms cannot be replayed. Safe to call from
  // several replays at once.
  std::function<const Transcript*()> variant = [] { return nullptr; };
};

// A subject's answers to the reference's transcript (Subjects::replay):
// alike in every form it is served in, or what differed first.
struct Replayed {
  bool alike = false;
  std::string difference;  // "" when alike
};

// What the suite is run against: the clean subject, a broken one for the
// sanity check, and each mutant. Implementations must allow mutant() and
// finish() from several threads at once. Each run is prepared here, or a
// Failure says why it could not be; the scorer, not the Subjects, decides
// what that means for the grading: the harness's fault for the warm-up, a
// job folder's, a clean, control, wheat or sanity run; a mutant's or chaff's
// run that cannot happen makes the grading ungradable.
class Subjects {
 public:
  virtual ~Subjects() = default;
  virtual std::vector<std::string> ids() const = 0;  // every mutant on offer, in order
  virtual Outcome<SuiteRun> clean() = 0;
  virtual std::optional<Outcome<SuiteRun>> broken() = 0;  // none: no sanity check
  virtual Outcome<SuiteRun> mutant(const std::string& id) = 0;
  // Runs of only some of the suite's tests (docs/mutants.md, "A kill must be
  // reproducible"). When runs_tests_alone(), failed_tests names the tests
  // that failed in a run's standard output (none: it cannot tell), and
  // mutant_only and clean_only run only `tests`, which are such names: the
  // clean subject in its `form` (0, the oracle's; 1, the kit's variant as
  // it is, where there is one), so that a suite that tells the forms apart
  // meets a clean run alone in each. By default no test runs alone.
  virtual bool runs_tests_alone() const { return false; }
  virtual std::vector<std::string> failed_tests(const std::string& /*out*/) const { return {}; }
  virtual Outcome<SuiteRun> mutant_only(const std::string& id, const std::vector<std::string>& /*tests*/) {
    return mutant(id);
  }
  virtual Outcome<SuiteRun> clean_only(const std::vector<std::string>& /*tests*/, int /*form*/) {
    return clean();
  }
  // A clean run whose sessions are recorded (ServingRecord::transcript), for
  // the baseline. By default an unrecorded clean run.
  virtual Outcome<SuiteRun> clean_recorded() { return clean(); }
  // A recorded run of the kit's variant as it is (a wheat), made after the
  // baseline when there is one to replay: its transcript is what the
  // subjects served in the variant's form are compared with. None by default.
  virtual std::optional<Outcome<SuiteRun>> variant_recorded() { return std::nullopt; }
  // The mutant or chaff `id` answering the references' requests in every
  // form it is served in (the oracle's compared with `references.oracle`,
  // the variant's with `references.variant`), each within `limit`, without
  // the suite. nullopt when it cannot be replayed (the default: patch mode;
  // a variant's form with no variant reference), so its runs happen as ever.
  virtual std::optional<Replayed> replay(const std::string& /*id*/, const References& /*references*/,
                                         std::chrono::milliseconds /*limit*/) {
    return std::nullopt;
  }
  // After the run, before finish(): what its subject saw of it.
  virtual ServingRecord serving_record(const SuiteRun&) { return {}; }
  virtual void finish(const SuiteRun& run) = 0;  // after the run: remove what preparing it made
  virtual Place place(const std::string& id) const = 0;
  virtual std::string broken_description() const = 0;  // for the sanity check's message
  // A run made before the graded ones, only to build what the suite builds
  // (patch mode: cargo's target directory). Its outcome is not graded; after
  // it, warmed() makes its directory the one every graded run starts from,
  // so that all graded runs, the clean ones included, start alike.
  virtual std::optional<Outcome<SuiteRun>> warm_up() { return std::nullopt; }
  virtual void warmed(const SuiteRun&) {}
  // After the warm-up: whether it exited cleanly and its standard output.
  // For Subjects whose warm-up is the one build of what every run runs (the
  // served Rust kind compiles a learner's tests once), a non-empty answer
  // says why no run can happen, and the grading stops as fails-clean with
  // the warm-up's output. By default the outcome is not graded: warmed(run).
  virtual std::string after_warm_up(const SuiteRun& run, bool /*succeeded*/, const std::string& /*out*/) {
    warmed(run);
    return "";
  }
  // Job folders: after the warm-up, `n` folders (one per job) in which every later
  // run happens, each used by one run at a time. A build tool that caches by
  // absolute path (rustc's incremental cache, a CMake build tree) finds its
  // cache valid only at the path it was built at, so each job folder is warmed once
  // where its runs will be: job_folders(n) gives the runs that warm them (their
  // outcome is not graded), job_folders_warmed() is called when they have ended.
  // None (the default): runs get folders of their own.
  virtual std::vector<Outcome<SuiteRun>> job_folders(int /*n*/) { return {}; }
  virtual void job_folders_warmed() {}
  // Correct variants of the implementation (wheats): every suite must pass
  // each of them, as it passes the clean one. A suite that fails one tests
  // something the documents leave open, or recognises the reference by its
  // source. None by default.
  virtual std::vector<std::string> wheat_ids() const { return {}; }
  virtual Outcome<SuiteRun> wheat(const std::string& id) { return failure("no wheat '" + id + "'"); }
  // What the report says of a wheat besides its runs ("" when nothing): the
  // alternatives wheat's seed, and the requests it answered otherwise than
  // the oracle, each with the answers the documents allow.
  virtual std::string about_wheat(const std::string& /*id*/) { return {}; }
  // More bugs beside the graded mutants (chaffs), run like them through
  // mutant(id) and reported apart: a finer measure than the graded ones.
  virtual std::vector<std::string> chaff_ids() const { return {}; }
};

// Mutant schemata: the suite gets TLBF_IMPL, a command serving the clean
// oracle, one that refuses every request, or mutant ID. `tlbf` is the path of
// the tlbf binary. With `reveal` TLBF_IMPL names what it serves (`tlbf serve
// --mutant ID`) and TLBF_MUTANT is the id, for authors debugging a suite.
std::unique_ptr<Subjects> served_subjects(const std::vector<std::string>& suite, const std::string& tlbf,
                                          const std::string& tlbf_mutant, bool reveal, bool sandbox = false);

// Served mode with everything a course grades with (docs/mutants.md, "For
// course authors"): the mutants are the oracle's, as above; the wheats and
// chaffs are variants of an implementation of another language that speaks
// the protocol, each served, hidden like the mutants, by `variant_command`
// run in its own copy of `variants_from`: as it is (the wheat `as_is`), with
// each folder of `wheats` laid over it, or with each `chaffs/*.patch` applied,
// then built by `variant_build` where the kit has one.
// Every run happens in a fresh copy of `directory` (the learner's tests in a
// copy of the course's folder), removed after it.
struct ServedSet {
  std::string directory;
  bool sandbox = false;
  std::string variants_from;
  std::vector<std::string> variant_command;
  // Words run once in each variant's folder once it is made, before any run
  // (a compiled implementation's build: the Rust kit's cargo); empty for
  // none. A variant whose build fails is not served: its runs say why.
  std::vector<std::string> variant_build;
  std::string as_is;
  std::string wheats;  // DIR/NAME/: files laid over variants_from
  std::string chaffs;  // DIR/*.patch: applied to variants_from
  // DIR/sNN.patch: the planted bugs written into variants_from too. Each
  // mutant with one is then served in both forms, its runs alternating
  // between them from a random first: a suite that tells the oracle from the
  // variants (by hello, the spelling of a real, the time an answer takes)
  // and tests only the oracle lets every other form survive.
  std::string mutant_patches;
  // The running tlbf: with wheats, it serves one more, `alternatives`
  // (kAlternativesWheat), as `tlbf serve --alternatives SEED`, a seed drawn
  // for each grading. "" for none.
  std::string tlbf;
  // A suite compiled once, before any run (the Rust kind): `build` runs in
  // `directory`, under the sandbox when the runs are, as the warm-up; its
  // failure is the suite's (fails-clean). Its standard output must name,
  // in cargo's JSON messages (--message-format=json-render-diagnostics),
  // exactly one executable, which is copied to `executable` (a path inside
  // the run's folder) in a folder made once: `directory` without its build
  // folders (target), every file's time set to one fixed epoch. Every run's
  // folder is a copy of that one, so each run only runs the executable.
  std::vector<std::string> build;
  std::string executable;
  // What runs the suite (the kit's "test_runner"): with one, a required
  // mutant's kill is confirmed by runs of only the tests that caught it
  // (Subjects::runs_tests_alone). kUnnamed: every run runs the whole suite.
  TestRunner test_runner = TestRunner::kUnnamed;
  // The variants' folders made once for many gradings (tlbf grade's class):
  // none, and each grading makes its own.
  std::shared_ptr<const VariantFolders> variants;
};
// The wheat that, wherever docs/check.md allows several answers, gives
// another than the oracle's (conformance/alternatives.hpp).
inline constexpr const char* kAlternativesWheat = "alternatives";
std::unique_ptr<Subjects> served_subjects(const std::vector<std::string>& suite,
                                          const std::string& tlbf_mutant, const ServedSet& set);

// Patch mode: every DIR/*.patch is a mutant named by the file's stem. A
// warm-up run builds in a copy of `workdir`; then every graded run gets a
// fresh copy of that warmed copy (build products included, so a compiled
// suite rebuilds only what the patch touched) with the patch applied by
// `patch -p1`, under a scratch directory removed when the Subjects are
// destroyed. The sanity check applies `sanity_patch` when one is given.
// TLBF_MUTANT is set to the id only with `reveal`.
std::unique_ptr<Subjects> patched_subjects(const std::vector<std::string>& suite,
                                           const std::string& patches_dir, const std::string& workdir,
                                           const std::string& sanity_patch, bool reveal);

// Patch mode with everything a course grades with (docs/mutants.md, "For
// course authors"): beside the graded patches, chaffs (more patches, reported
// apart) and wheats (correct variants: each a folder whose files are laid over
// the work directory). Wheats' files are written by the same step as the
// patched files, with the same times, so a run cannot tell a wheat from a
// mutant or from the clean reference by looking at them.
struct PatchSet {
  std::string patches;       // DIR/*.patch: the graded mutants
  std::string workdir;       // what they apply to
  std::string sanity_patch;  // "": no sanity check
  std::string chaffs;        // DIR/*.patch, or "" for none
  std::string wheats;        // DIR/NAME/..., or "" for none
  // Every run of the suite under bubblewrap (sandbox.hpp), seeing its own
  // copy, the system and the toolchain, and nothing else.
  bool sandbox = false;
};
std::unique_ptr<Subjects> patched_subjects(const std::vector<std::string>& suite, const PatchSet& set,
                                           bool reveal);

// How far a grading has come, for a progress line.
struct Progress {
  std::string phase;  // "baseline" (clean and wheat runs) or "mutants" (mutants, chaffs, controls)
  int done = 0, total = 0;
  int mutants_done = 0, mutants_total = 0;  // mutants (and chaffs) whose every run has ended
  int survived = 0;                         // of those, the ones that survived so far
  double elapsed_seconds = 0;               // since the phase began
};

struct ScoreOptions {
  std::vector<std::string> mutants;  // ids to run, in order
  int jobs = 2;
  int baseline_runs = 3;  // clean runs; a suite that passes some and fails some is flaky
  // Clean runs hidden at random places among the mutants' runs. A suite that
  // counts its runs or watches the clock (fail everything after the baseline)
  // fails one of them and is reported flaky rather than graded.
  int control_runs = 2;
  double timeout_factor = 5.0;  // a mutant's run may take this times the slowest baseline run,
  std::chrono::milliseconds timeout_floor{10'000};  // and at least this long
  // The bound of the runs before the mutants (the warm-up, the job folders'
  // warming, the baseline), which have no earlier run to be measured by.
  std::chrono::milliseconds setup_limit{std::chrono::minutes(30)};
  // Runs of each mutant (and chaff): its outcome counts only when all agree,
  // else the grading is flaky. 1 takes a single run's word for it.
  int confirm_runs = 2;
  // The mutants whose kill the grade needs (--require). A kill of one of
  // them is confirmed further: up to `kill_confirm_runs` runs in all, each
  // skipped once a run of it has survived (or timed out, which is re-run
  // already), so a suite that catches it half the time meets the bar in 1
  // grading in 64, not 1 in 4 (docs/mutants.md). Not with confirm_runs 1,
  // which takes one run's word by choice.
  std::vector<std::string> required;
  int kill_confirm_runs = 6;        // the most: kill_confirmations() says how many it makes
  std::vector<std::string> chaffs;  // chaff ids to run, reported apart from the score
  std::vector<std::string> wheats;  // wheat ids, each run `baseline_runs` times beside the clean runs
  // Replay the baseline's transcript against each mutant and chaff before its
  // runs (docs/mutants.md, "The transcript is the lever"): one that answers
  // it as the reference did survives without the suite being run. Off:
  // every subject is run (--no-replay).
  bool replay = true;
  // Where the Subjects run tests alone (Subjects::runs_tests_alone): a
  // deterministic suite's required kills confirmed by the tests that caught
  // them, run alone. Off: every run is whole (--no-runs-alone).
  bool runs_alone = true;
  // Called after every run of the baseline and of the mutants' phase ends,
  // from the thread that ran it, never from two threads at once.
  std::function<void(const Progress&)> progress;
};

// What a mutant's (or chaff's) runs made of it; a conformance check's
// verdicts are conformance::Verdict.
enum class MutantVerdict { Killed, Survived, Timeout, Error };
std::string_view to_string(MutantVerdict v);

// Why a run stopped without a grade (Score::stopped). A reason, not a number:
// the command line maps each to its exit code (cli/src/grading_output.cpp),
// and a report names it by to_string.
enum class Stop {
  kNotStopped,
  kHarness,
  kFailsClean,
  kPassesBroken,
  kFlaky,
  kRejectsCorrect,  // the suite fails a correct variant (a wheat)
  kUngradable,  // a run could not happen as planned (a patch that does not apply, a suite that cannot start)
};
using enum Stop;
// "harness-error", "fails-clean", ...: the learner verdicts' words; "" for kNotStopped.
std::string_view to_string(Stop why);
// The reason a report names; nullopt for any other word.
std::optional<Stop> stop_named(std::string_view word);

struct MutantRun {
  std::string id;
  MutantVerdict verdict = MutantVerdict::Error;
  double seconds = 0;
  // The suite's first failing assertion (cargo's `panicked at` block,
  // unittest's FAIL or ERROR block, else its last lines), or why it is an error.
  std::string evidence;
  // kHarness or kFlaky when the run's failure was not the mutant's doing
  // (ServingRecord): the whole grading then stops with that code.
  Stop stops_grading_with = kNotStopped;
  std::string output;    // the suite's output (printable), kept to show two runs that disagree
  int confirmed_by = 1;  // runs whose outcomes agreed
  // It answered the reference's transcript as the reference did, and
  // survived without the suite being run (confirmed_by 0).
  bool replayed = false;
  // Its replay answered a request otherwise (the evidence names it); a
  // chaff so ran once (TranscriptCheck::evidenced).
  bool answered_otherwise = false;
  // The tests its output named as failed (Subjects::failed_tests): those
  // that confirm the kill alone.
  std::vector<std::string> failed_tests;
  // The only tests the run ran (Subjects::mutant_only); empty: the whole suite.
  std::vector<std::string> only;
};

// What the baseline's recorded transcripts said (served mode).
struct TranscriptCheck {
  bool asked = false;              // ScoreOptions::replay
  bool recorded = false;           // every clean run's sessions were kept whole
  std::string unrecorded;          // when not, and the Subjects record: why
  bool deterministic = false;      // recorded, and every clean run made the same sessions
  std::string difference;          // when recorded and not: where two clean runs parted (first_difference)
  int sessions = 0;                // of a clean run
  std::size_t requests = 0;        // of a clean run, all its sessions
  bool variant_recorded = false;   // a passing run against the variant as it is was recorded
  std::string variant_unrecorded;  // when there is a variant and it was not: why
  int replayed = 0;                // mutants and chaffs that survived by replay, not run
  // chaffs whose replay answered otherwise, and so ran once
  int evidenced = 0;
  double seconds = 0;  // the replays' wall time
};

// A correct variant's runs (ScoreOptions::wheats).
struct WheatRuns {
  std::string id;
  int runs = 0, passes = 0;
  std::string evidence;  // a failing run's first failing lines
  std::string output;    // and its output
  std::string about;     // Subjects::about_wheat's
};

struct Score {
  Stop stopped = kNotStopped;
  std::string stop_reason;
  std::string baseline_output;  // a failing clean run's output (kFailsClean, kFlaky)
  std::string passing_output;   // a passing clean run's output (kFlaky)
  int baseline_runs = 0, baseline_passes = 0;
  int control_runs = 0, control_passes = 0;  // the clean runs among the mutants'
  // Where kills are confirmed by tests run alone (Subjects::runs_tests_alone):
  // by required mutant id, the tests its confirming runs ran; and the clean
  // runs of those tests alone hidden among them, and how many passed.
  std::map<std::string, std::vector<std::string>> confirmed_alone;
  int alone_control_runs = 0, alone_control_passes = 0;
  double warm_up_seconds = 0;          // the ungraded run that builds (patch mode), 0 when there is none
  double baseline_seconds = 0;         // the slowest clean run
  std::chrono::milliseconds limit{0};  // each mutant run's bound
  double mutants_seconds = 0;          // wall time of all the mutant runs
  std::vector<MutantRun> runs;
  std::vector<MutantRun> chaff_runs;  // apart from the score
  std::vector<WheatRuns> wheats;
  TranscriptCheck transcript;

  int killed() const;    // timeouts included
  double score() const;  // killed / runs, 0 when none ran
  int chaffs_killed() const;
};

// The runs that confirm a required mutant's kill at most, as the scorer
// plans them: kill_confirm_runs, never fewer than confirm_runs, and
// confirm_runs alone when that is 1 (no confirmation asked).
inline int kill_confirmations(const ScoreOptions& options) {
  const int confirm = options.confirm_runs < 1 ? 1 : options.confirm_runs;
  return confirm > 1 && options.kill_confirm_runs > confirm ? options.kill_confirm_runs : confirm;
}

// The shell line that runs the suite in an environment cleared of what could
// name the subject or share a build (TLBF_IMPL, TLBF_MUTANT, CARGO_TARGET_DIR,
// CARGO_BUILD_TARGET_DIR), then given PYTHONHASHSEED=0 (every run alike),
// TLBF_IMPL = `impl` unless it is empty and TLBF_MUTANT = `mutant` unless it
// is empty.
std::string suite_command(const std::vector<std::string>& suite, const std::string& impl,
                          const std::string& mutant);

// Runs the warm-up; the baseline (the clean runs and every wheat's, in a
// random order, `jobs` at a time); the sanity check; then every mutant's and
// chaff's runs (`confirm_runs` each) and the control runs in a random order,
// `jobs` at a time.
Score score_suite(Subjects& subjects, const ScoreOptions& options);

// The ids of shard k of n (1-based): every id falls in exactly one shard.
std::vector<std::string> shard(const std::vector<std::string>& ids, int k, int n);

}  // namespace tlbf::mutants
