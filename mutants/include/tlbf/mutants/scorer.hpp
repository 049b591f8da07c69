// Grading a test suite by the planted bugs it catches (docs/mutants.md).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace tlbf::mutants {

struct ScoreOptions {
  std::vector<std::string> suite;        // the suite's command and arguments
  std::string reference;                 // a command serving the clean oracle
  std::string refuser;                   // a command answering every request with an error
  std::string mutant_server;             // a command serving a mutant; the mutant id is appended
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
  // the clean reference, 4 when it passes against an implementation that
  // refuses everything.
  int stopped = 0;
  std::string stop_reason;
  std::string baseline_output;
  double baseline_seconds = 0;
  std::vector<MutantRun> runs;

  int killed() const;  // timeouts included
  double score() const;  // killed / runs, 0 when none ran
};

// The shell line that runs the suite with TLBF_IMPL (and TLBF_MUTANT) set.
std::string suite_command(const std::vector<std::string>& suite, const std::string& impl, const std::string& mutant);

// Runs the baseline, the sanity check, then every mutant, `jobs` at a time.
Score score_suite(const ScoreOptions& options);

// The ids of shard k of n (1-based): every id falls in exactly one shard.
std::vector<std::string> shard(const std::vector<std::string>& ids, int k, int n);

}  // namespace tlbf::mutants
