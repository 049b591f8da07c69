// tlbf grade on an autograder platform: one submission graded as the
// platform runs it (--submission, with --gradescope, --prairielearn,
// --github-classroom), and the package an author uploads (--autograder)
// (docs/mutants.md, "Grading on a platform").
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "tlbf/mutants/grade.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::cli {

struct PlatformOptions {
  std::string submission;  // the learner's folder
  std::string gradescope, prairielearn;
  bool github_classroom = false;
  std::string feedback = "mutants";
  std::string score_policy = "bar";
  std::string autograder;  // "gradescope" or "prairielearn"
  std::string deb;         // the .deb the package installs
};

void add_platform_options(CLI::App& cmd, PlatformOptions& opt);

// Whether any platform's result is asked for.
bool wants_platform_results(const PlatformOptions& opt);

// Writes each platform result asked for, of the learner `row` graded with
// `kit` (their report, when the grading made one, at `report_path`);
// --github-classroom appends `result=BASE64` to the file $GITHUB_OUTPUT
// names, or prints it when it is unset. A failure names the file not written.
Outcome<Done> write_platform_results(const PlatformOptions& opt, const mutants::ClassRow& row,
                                     const std::string& report_path, double threshold,
                                     const mutants::Kit& kit);

// The package an author uploads to --autograder's platform, written into
// `out`: its scripts run `tlbf grade --submission` with `grading_args` (the
// kind and the options that change a grade). A failure names what was not written.
Outcome<Done> write_autograder_package(const PlatformOptions& opt, const std::string& out,
                                       const std::string& kind, const std::vector<std::string>& grading_args);

}  // namespace tlbf::cli
