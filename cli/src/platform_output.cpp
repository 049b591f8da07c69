// tlbf grade's platform results and packages (platform_output.hpp).
#include "platform_output.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "files.hpp"
#include "tlbf/mutants/platform_results.hpp"
#include "tlbf/mutants/scorer.hpp"

namespace tlbf::cli {
namespace {

namespace fs = std::filesystem;

// The words no learner may read: each chaff's id and its description (the
// first line of its patch, which the author's report shows).
std::vector<std::string> chaff_words(const mutants::Kit& kit) {
  const std::string dir = kit.serves.empty() ? kit.set.chaffs : kit.served.chaffs;
  std::vector<std::string> words;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return words;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".patch") continue;
    words.push_back(entry.path().stem().string());
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("--- ", 0) == 0) break;
      if (!line.empty()) {
        words.push_back(line);
        break;
      }
    }
  }
  return words;
}

// The learner's report, when the grading that made `row` wrote it: a report
// left there by an earlier grading (of a submission that now has no tests)
// says another verdict, or is not read at all.
std::optional<std::string> report_of(const mutants::ClassRow& row, const std::string& report_path) {
  if (row.verdict == mutants::to_string(mutants::LearnerVerdict::NoTests)) return std::nullopt;
  auto text = read_file(report_path);
  if (!text.ok()) return std::nullopt;
  auto again = mutants::class_row(text.value());
  if (!again.ok() || again.value().verdict != row.verdict) return std::nullopt;
  return std::move(text).value();
}

Outcome<Done> write_github_classroom(const std::string& json) {
  const std::string line = "result=" + mutants::base64(json) + "\n";
  const char* output = std::getenv("GITHUB_OUTPUT");
  if (output == nullptr || *output == '\0') {
    std::cout << line;
    return done();
  }
  std::ofstream out(output, std::ios::app | std::ios::binary);
  out << line;
  out.flush();
  if (!out) return failure(std::string("cannot append to $GITHUB_OUTPUT (") + output + ")");
  return done();
}

}  // namespace

void add_platform_options(CLI::App& cmd, PlatformOptions& opt) {
  cmd.add_option(
         "--submission", opt.submission,
         "Grade one learner, whose folder this is, as an autograder platform runs it (instead of CLASS)")
      ->check(kNotEmpty);
  cmd.add_option("--gradescope", opt.gradescope, "With --submission: write Gradescope's results.json here")
      ->check(kNotEmpty);
  cmd.add_option("--prairielearn", opt.prairielearn,
                 "With --submission: write PrairieLearn's external grader results.json here")
      ->check(kNotEmpty);
  cmd.add_flag("--github-classroom", opt.github_classroom,
               "With --submission: append GitHub Classroom's result=BASE64 to $GITHUB_OUTPUT (or print it)");
  cmd.add_option(
         "--feedback", opt.feedback,
         "What the learner sees: none, score, mutants (default: the survivors and their pitfalls) or all "
         "(also the failing output); chaffs never")
      ->check(CLI::IsMember({"none", "score", "mutants", "all"}));
  cmd.add_option("--score-policy", opt.score_policy,
                 "bar (default: all the points for meeting the bar, none otherwise) or share (a point per "
                 "planted bug caught)")
      ->check(CLI::IsMember({"bar", "share"}));
  cmd.add_option("--autograder", opt.autograder,
                 "Write the package to upload to gradescope or prairielearn into -o DIR (instead of CLASS)")
      ->check(CLI::IsMember({"gradescope", "prairielearn"}));
  cmd.add_option("--deb", opt.deb, "With --autograder: the tlbf .deb to put in the package")
      ->check(kNotEmpty);
}

bool wants_platform_results(const PlatformOptions& opt) {
  return !opt.gradescope.empty() || !opt.prairielearn.empty() || opt.github_classroom;
}

Outcome<Done> write_platform_results(const PlatformOptions& opt, const mutants::ClassRow& row,
                                     const std::string& report_path, double threshold,
                                     const mutants::Kit& kit) {
  const auto report = report_of(row, report_path);
  const auto submission =
      mutants::submission_of(row, report ? &*report : nullptr, *mutants::score_policy_named(opt.score_policy),
                             threshold, kit.tests_file, chaff_words(kit));
  if (!submission.ok()) return submission.failure();
  const auto level = *mutants::feedback_named(opt.feedback);
  if (!opt.gradescope.empty()) {
    if (auto w = write_file(opt.gradescope, mutants::gradescope_results(submission.value(), level)); !w)
      return w;
  }
  if (!opt.prairielearn.empty()) {
    if (auto w = write_file(opt.prairielearn, mutants::prairielearn_results(submission.value(), level)); !w)
      return w;
  }
  if (opt.github_classroom)
    return write_github_classroom(mutants::github_classroom_result(submission.value(), level));
  return done();
}

}  // namespace tlbf::cli
