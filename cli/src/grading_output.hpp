// What tlbf mutate and tlbf grade print and write about a grading: the table
// of mutants, the survivors with their bugs, why a grading stopped, the
// progress line, and the report files.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "exit_code.hpp"
#include "tlbf/outcome.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/mutants/scorer.hpp"

namespace tlbf::cli {

// Why a grading stopped, with the suite's output where it says more.
// The exit code of a grading that stopped (docs/cli.md, "Exit codes").
Exit exit_for(mutants::Stop why);

void print_stop(const mutants::Score& score);

// The table of mutants, each survivor's bug (its description, the file and
// line it changes, its diff), the score and the verdict.
void print_verdict(const mutants::Score& score, const std::vector<mutants::Survivor>& survivors,
                   double threshold, const std::vector<std::string>& missed, bool meets);

// The chaffs' line: how many were caught, and which were not.
void print_chaffs(const mutants::Score& score);

// A progress line on standard error, rewritten in place, when it is a
// terminal; `prefix` says whose grading it is ("[3/10] alice: "). When it is
// not (a log, a CI's), and `plain_every` is given, a plain line instead
// (no carriage return, no escape), at most that often, the first that long
// after the line was made: a log that shows how far a long grading is
// without a line for every run.
class ProgressLine {
 public:
  using Seconds = std::chrono::duration<double>;
  explicit ProgressLine(std::string prefix, std::optional<Seconds> plain_every = std::nullopt);
  ~ProgressLine();  // erases the line
  void show(const mutants::Progress& p);
  // `plain_prefix` begins the plain lines ("" for `prefix`).
  void set_prefix(std::string prefix, std::string plain_prefix = "") {
    prefix_ = std::move(prefix);
    plain_prefix_ = std::move(plain_prefix);
  }
  void clear();

 private:
  void show_plain(const mutants::Progress& p);
  std::string prefix_;
  std::string plain_prefix_;
  bool on_terminal_;
  bool shown_ = false;
  std::optional<Seconds> plain_every_;
  std::chrono::steady_clock::time_point last_plain_;
};

// Whether the suites can run in the sandbox: "bubblewrap" when `wanted` and
// it works, "off" when not wanted, else "unavailable: WHY", said once on
// standard output (the runs then go on unsandboxed).
std::string sandbox_state(bool wanted);

// The viewer that --html inlines (its JavaScript), or a Failure "--html: ..."
// when it is missing or cannot be read.
Outcome<std::string> load_viewer();

// Writes the JSON report to `json_path` and its page to `html_path`, each
// unless its path is empty; a Failure names the file not written.
Outcome<Done> write_reports(const std::string& json_path, const std::string& html_path,
                            const std::string& json, const std::string& viewer_js);

}  // namespace tlbf::cli
