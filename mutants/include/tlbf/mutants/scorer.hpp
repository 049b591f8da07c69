// Grading a test suite by the planted bugs it catches (docs/mutants.md).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tlbf::mutants {

// One run of the suite: a shell line, and the directory it runs in (empty:
// the current one). `error` set means the run could not be prepared (a patch
// that does not apply), and the suite is not run.
struct SuiteRun {
  std::string command;
  std::string directory;
  std::string error;
};

// Where a mutant sits, for reports: the file, its text, the lines (1-based,
// end exclusive as mutation-testing-elements wants) and the changed text.
struct Place {
  std::string file;
  std::string source;
  int start_line = 1, start_column = 1, end_line = 1, end_column = 1;
  std::string replacement;
  std::string description;
};

// What the suite is run against: the clean subject, a broken one for the
// sanity check, and each mutant. Implementations must allow mutant() and
// finish() from several threads at once.
class Subjects {
 public:
  virtual ~Subjects() = default;
  virtual std::vector<std::string> ids() const = 0;  // every mutant on offer, in order
  virtual SuiteRun clean() = 0;
  virtual std::optional<SuiteRun> broken() = 0;  // none: no sanity check
  virtual SuiteRun mutant(const std::string& id) = 0;
  virtual void finish(const SuiteRun& run) = 0;  // after the run: remove what preparing it made
  virtual Place place(const std::string& id) const = 0;
  virtual std::string broken_description() const = 0;  // for the sanity check's message
};

// Mutant schemata: the suite gets TLBF_IMPL, a command serving the clean
// oracle, one that refuses every request, or `tlbf serve --mutant ID`, and
// TLBF_MUTANT set to the id. `tlbf` is the path of the tlbf binary.
std::unique_ptr<Subjects> served_subjects(const std::vector<std::string>& suite, const std::string& tlbf);

// Patch mode: every DIR/*.patch is a mutant named by the file's stem. Each
// run gets a fresh copy of `workdir` (with the patch applied by `patch -p1`)
// under a scratch directory removed when the Subjects are destroyed. The
// sanity check applies `sanity_patch` when one is given. TLBF_MUTANT is set
// to the id (empty for the clean run).
std::unique_ptr<Subjects> patched_subjects(const std::vector<std::string>& suite, const std::string& patches_dir,
                                           const std::string& workdir, const std::string& sanity_patch);

struct ScoreOptions {
  std::vector<std::string> mutants;      // ids to run, in order
  int jobs = 2;
  double timeout_factor = 5.0;           // a mutant's run may take this times the baseline,
  std::chrono::milliseconds timeout_floor{10'000};  // and at least this long
};

enum class Verdict { Killed, Survived, Timeout, Error };
std::string_view to_string(Verdict v);

struct MutantRun {
  std::string id;
  Verdict verdict = Verdict::Error;
  double seconds = 0;
  std::string evidence;  // the first failing lines of the suite's output, or why it is an error
};

struct Score {
  // Set when the run stopped before the mutants: 3 when the suite fails on
  // the clean subject, 4 when it passes against a broken one.
  int stopped = 0;
  std::string stop_reason;
  std::string baseline_output;
  double baseline_seconds = 0;
  double mutants_seconds = 0;  // wall time of all the mutant runs
  std::vector<MutantRun> runs;

  int killed() const;  // timeouts included
  double score() const;  // killed / runs, 0 when none ran
};

// The shell line that runs the suite with TLBF_IMPL (unless empty) and TLBF_MUTANT set.
std::string suite_command(const std::vector<std::string>& suite, const std::string& impl, const std::string& mutant);

// Runs the baseline, the sanity check, then every mutant, `jobs` at a time.
Score score_suite(Subjects& subjects, const ScoreOptions& options);

// The ids of shard k of n (1-based): every id falls in exactly one shard.
std::vector<std::string> shard(const std::vector<std::string>& ids, int k, int n);

}  // namespace tlbf::mutants
