#include "grading_output.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "files.hpp"
#include "report_viewer.hpp"
#include "tlbf/mutants/sandbox.hpp"

namespace tlbf::cli {

Exit exit_for(mutants::Stop why) {
  switch (why) {
    case mutants::kNotStopped:
      return kOk;
    case mutants::kHarness:
      return kCannotRun;
    case mutants::kFailsClean:
      return kFailsClean;
    case mutants::kPassesBroken:
      return kPassesBroken;
    case mutants::kFlaky:
      return kFlaky;
    case mutants::kRejectsCorrect:
      return kRejectsCorrect;
    case mutants::kUngradable:
      return kCannotRun;
  }
  return kFailed;  // not reached: every reason is named above
}

void print_stop(const mutants::Score& score) {
  std::cout << "stopped: " << score.stop_reason << "\n";
  if (score.stopped == mutants::kFlaky && !score.passing_output.empty()) {
    std::cout << "the suite's output on a passing clean run:\n" << score.passing_output;
  }
  if (!score.baseline_output.empty() &&
      (score.stopped == mutants::kFailsClean || score.stopped == mutants::kFlaky ||
       score.stopped == mutants::kRejectsCorrect)) {
    std::cout << "the suite's output on the failing run:\n" << score.baseline_output;
  }
}

namespace {

// Continuation lines indented under the first, at `indent` columns.
std::string indented(const std::string& text, std::size_t indent) {
  std::string out;
  for (char c : text) out += c == '\n' ? "\n" + std::string(indent, ' ') : std::string(1, c);
  return out;
}

}  // namespace

void print_verdict(const mutants::Score& score, const std::vector<mutants::Survivor>& survivors,
                   double threshold, const std::vector<std::string>& missed, bool meets) {
  std::printf("%-6s %-9s %8s  %s\n", "mutant", "outcome", "time",
              "evidence (the suite's first failing lines)");
  for (const auto& r : score.runs) {
    char time[16];
    std::snprintf(time, sizeof time, "%7.2fs", r.seconds);
    std::printf("%-6s %-9s %8s  %s\n", r.id.c_str(), std::string(to_string(r.verdict)).c_str(),
                r.replayed ? "replayed" : time, indented(r.evidence, 27).c_str());
  }
  // What a learner needs to write the test that catches it: the bug, where
  // it is in the code the suite tested, and the change itself.
  for (const auto& s : survivors) {
    std::printf("\nMISSED %s  %s:%d  %s\n", s.id.c_str(), s.file.c_str(), s.line, s.description.c_str());
    if (!s.diff.empty())
      std::printf("  %s\n", indented(s.diff.substr(0, s.diff.find_last_not_of('\n') + 1), 2).c_str());
  }
  if (const std::string replay = mutants::replay_summary(score); !replay.empty())
    std::cout << "\n" << replay << "\n";
  std::string missing;
  for (const auto& id : missed) missing += " " + id;
  std::printf("\nscore: %d/%zu = %.2f (threshold %.2f)\n", score.killed(), score.runs.size(), score.score(),
              threshold);
  std::cout << "required mutants " << (missed.empty() ? "all killed" : "not killed:" + missing) << "\n";
  std::cout << "verdict: the suite " << (meets ? "meets" : "does NOT meet") << " the bar\n";
}

void print_chaffs(const mutants::Score& score) {
  if (score.chaff_runs.empty()) return;
  std::string missed;
  for (const auto& r : score.chaff_runs) {
    if (r.verdict == mutants::MutantVerdict::Survived) missed += " " + r.id;
  }
  std::printf("chaffs (more bugs, not part of the grade): %d of %zu caught%s%s\n", score.chaffs_killed(),
              score.chaff_runs.size(), missed.empty() ? "" : "; missed:", missed.c_str());
}

ProgressLine::ProgressLine(std::string prefix, std::optional<Seconds> plain_every)
    : prefix_(std::move(prefix)),
      on_terminal_(::isatty(STDERR_FILENO) != 0),
      plain_every_(plain_every),
      last_plain_(std::chrono::steady_clock::now()) {}

ProgressLine::~ProgressLine() { clear(); }

namespace {

// "mutants 14/40 tested, 2 survived, 12 s, ETA 20 s"
std::string progress_words(const mutants::Progress& p) {
  char words[128];
  if (p.phase == "baseline") {
    std::snprintf(words, sizeof words, "baseline %d/%d runs, %.0f s", p.done, p.total, p.elapsed_seconds);
  } else {
    // Runs left at the pace so far; the mutants' runs are alike in cost.
    const double eta = p.done > 0 ? p.elapsed_seconds / p.done * (p.total - p.done) : 0;
    std::snprintf(words, sizeof words, "mutants %d/%d tested, %d survived, %.0f s, ETA %.0f s",
                  p.mutants_done, p.mutants_total, p.survived, p.elapsed_seconds, eta);
  }
  return words;
}

}  // namespace

void ProgressLine::show(const mutants::Progress& p) {
  if (!on_terminal_) {
    show_plain(p);
    return;
  }
  std::fprintf(stderr, "\r\033[K%.79s", (prefix_ + progress_words(p)).c_str());
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::show_plain(const mutants::Progress& p) {
  if (!plain_every_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_plain_ < *plain_every_) return;
  last_plain_ = now;
  // The runs too: a mutant's count moves only when all its runs have ended.
  std::string line = (plain_prefix_.empty() ? prefix_ : plain_prefix_) + progress_words(p);
  if (p.phase != "baseline") line += " (runs " + std::to_string(p.done) + "/" + std::to_string(p.total) + ")";
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void ProgressLine::clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

std::string sandbox_state(bool wanted) {
  if (!wanted) return "off";
  const auto available = mutants::sandbox_available();
  if (available.ok()) return "bubblewrap";
  std::cout << "sandbox: none, the suites run as they are: " << available.why() << "\n";
  return "unavailable: " + available.why();
}

Outcome<std::string> load_viewer() {
  for (const auto& candidate : report_viewer_candidates()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(candidate, ec)) continue;
    auto bytes = read_file(candidate.string());
    if (!bytes) return bytes.failure_in("--html: ");
    return std::move(bytes).value();
  }
  return failure(
      "--html: cannot find mutation-test-elements.js, the report viewer (looked beside tlbf and in "
      "share/tlbf); it comes from npm with the build, see docs/cli.md, \"Installing\"");
}

Outcome<Done> write_reports(const std::string& json_path, const std::string& html_path,
                            const std::string& json, const std::string& viewer_js) {
  if (!json_path.empty()) {
    if (auto written = write_file(json_path, json); !written) return written;
  }
  if (html_path.empty()) return done();
  const auto page = mutants::mutation_report_html(json, viewer_js);
  if (!page.ok()) return page.failure_in("--html: ");
  return write_file(html_path, page.value());
}

}  // namespace tlbf::cli
