// tlbf check's whole run (docs/check.md) as one call: from its options to the
// reports' data. The command parses its options, calls run_check and prints
// what comes back; the tests and the benchmarks call the same function.
// Nothing here prints: what a person sees while the run goes on (a progress
// line, each implementation's report as soon as it is known) goes through a
// CheckObserver.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tlbf/conformance/expected_failures.hpp"
#include "tlbf/conformance/report_formats.hpp"
#include "tlbf/conformance/runner.hpp"
#include "tlbf/conformance/transcript.hpp"

namespace tlbf::conformance {

// tlbf check's options, as docs/check.md names them, and what the run needs
// from the command's surroundings.
struct CheckRunOptions {
  std::vector<std::string> impls;  // --impl
  std::string vectors_dir;         // --vectors; "": the built-in vector files
  bool own_vectors = false;  // --own-vectors: vectors_dir may differ from the vectors tlbf was built with
  std::string filter;
  std::vector<std::string> skip;  // globs of cases left out, after --filter
  ReportFiles report_files;       // report_formats()'s, by option: checked to fit here, written by the caller
  std::string expected_file;
  bool update_expected = false;  // the caller writes the list (expected_failures_text)
  long timeout_ms = 10'000;
  long budget_s = 60;
  int faults = 0;        // no limit: the time budget bounds a run
  int max_failures = 0;  // no limit: every case runs
  std::string profile = "tlbf";
  std::optional<std::string> capabilities;  // comma-separated; none: the profile's own
  std::uint64_t seed = 20261129;
  int runs = 100;
  bool no_pipeline = false;
  bool sandbox = false;  // each implementation in a PID namespace of its own
  bool list = false;
  std::vector<std::string> transcripts;
  std::vector<std::string> rust_crates;  // each checked through the Rust adapter
  std::string rust_module = "bloom";
  std::vector<std::string> python_modules;  // each checked through the Python adapter
  std::vector<std::string> stray;           // words outside any option: refused

  // What is checked when nothing names an implementation: $TLBF_IMPL (set
  // but blank is refused), else `reference`, the built-in one.
  std::optional<std::string> tlbf_impl;
  std::string reference;
  // Where the adapters' files are looked for (python/tlbf_adapter.py, rust/main.rs), in order.
  std::vector<std::filesystem::path> adapter_folders;
};

// Why a run reached no verdict, as tlbf check's exit code tells it.
struct CheckError {
  enum class Kind { Usage, Unreadable, CannotRun };
  Kind kind = Kind::Usage;
  std::string why;  // one line or several, each but the first after "tlbf check: "
  // A file that cannot be read: tlbf's words ("cannot read PATH: ..."), not tlbf check's.
  bool about_a_file = false;
};

// One transcript replayed against one implementation.
struct Replayed {
  const Transcript* transcript;  // into CheckRun::transcripts
  std::string impl;
  ReplayReport report;
};

struct CheckRun {
  enum class Mode { Listed, Replayed, Checked };
  Mode mode = Mode::Checked;
  std::vector<std::string> case_names;  // Listed: every case selected, in order
  std::vector<Transcript> transcripts;  // Replayed
  std::vector<Replayed> replays;        // Replayed: each transcript on each implementation
  std::vector<CheckReport> reports;     // Checked: one per implementation, in order
  // Checked with --expected (not --update-expected): the list and its verdict.
  ExpectedFailures expected;
  std::optional<ExpectedVerdict> expected_verdict;
  // The run's verdict: every implementation conforms (with --expected, is as
  // listed; with --update-expected, ran every case and ended cleanly); every replay passed.
  bool passed = false;
};

// What a caller is told while the run goes on; each does nothing unless overridden.
class CheckObserver {
 public:
  virtual ~CheckObserver() = default;
  virtual void note(const std::string& /*words*/) {}      // "building the Rust adapter ..."
  virtual void starting(const std::string& /*impl*/) {}   // before its check
  virtual void checked(const CheckReport& /*report*/) {}  // its report, with a verdict
  virtual void replayed(const Replayed& /*replay*/) {}    // one transcript on one implementation
};

// The whole run: the options checked (a CheckError names the first that is
// wrong, before anything runs), the implementations found or built, then
// the cases listed, the transcripts replayed, or each implementation checked.
// An implementation that reaches no verdict (it cannot start, or tlbf could
// not make its processes) ends the run with a CannotRun CheckError.
std::variant<CheckRun, CheckError> run_check(CheckRunOptions options, CheckObserver& observer);

}  // namespace tlbf::conformance
