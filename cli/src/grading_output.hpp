// What tlbf mutate and tlbf grade print and write about a grading: the table
// of mutants, the survivors with their bugs, why a grading stopped, the
// progress line, and the report files.
#pragma once

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
// terminal; `prefix` says whose grading it is ("alice (3/10): ").
class ProgressLine {
 public:
  explicit ProgressLine(std::string prefix);
  ~ProgressLine();  // erases the line
  void show(const mutants::Progress& p);
  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }
  void clear();

 private:
  std::string prefix_;
  bool on_terminal_;
  bool shown_ = false;
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
