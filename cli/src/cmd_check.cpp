// tlbf check: does an implementation conform to TLBF v1? (docs/check.md)
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <variant>

#include "commands.hpp"
#include "files.hpp"
#include "installed_files.hpp"
#include "tlbf/conformance/check_run.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/reports.hpp"
#include "tlbf/shell_quote.hpp"

namespace tlbf::cli {
namespace {

namespace fs = std::filesystem;
using conformance::CheckReport;
constexpr std::string_view kCheckCommand = "tlbf check";

// The options as parsed, before the run gets what it needs from around it.
struct CheckOptions {
  conformance::CheckRunOptions run;
  bool verbose = false;
};

// The built-in reference: this very binary, serving.
std::string reference_command() {
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  return (ec ? std::string("tlbf") : shell_quote(self.string())) + " serve";
}

// Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
bool use_colour() { return ::isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr; }

// What a person sees while the run goes on: a progress line on a terminal
// only, erased before each report, and each report as soon as it is known.
class Printer : public conformance::CheckObserver {
 public:
  explicit Printer(const CheckOptions& opt) : opt_(opt) {}

  void note(const std::string& words) override { std::cerr << words << std::endl; }

  void starting(const std::string& impl) override {
    if (progress_) std::cerr << "checking " << impl.substr(0, 60) << " ..." << std::flush;
  }

  void checked(const CheckReport& report) override {
    if (progress_) std::cerr << "\r\033[K" << std::flush;
    std::cout << conformance::text_report(report, {opt_.verbose, opt_.run.profile == "tlbf", use_colour()});
    if (several_) std::cout << "\n";
  }

  // What a replay found, in the words of the check's text report.
  void replayed(const conformance::Replayed& r) override {
    const auto& t = *r.transcript;
    std::cout << (r.report.passed ? "PASS " : "FAIL ") << t.name << " (" << t.exchanges.size()
              << " requests) on " << r.impl << "\n";
    for (const auto& f : r.report.failures) std::cout << "  " << f << "\n";
    for (const auto& a : r.report.acceptable) std::cout << "  acceptable difference: " << a << "\n";
    if (!r.report.passed && !r.report.stderr_tail.empty())
      std::cout << "  its stderr:\n" << r.report.stderr_tail;
  }

  void checking_several(bool several) { several_ = several; }

 private:
  const CheckOptions& opt_;
  const bool progress_ = ::isatty(STDERR_FILENO) != 0;
  bool several_ = false;
};

// --expected: the report's failures against the list, printed.
void print_expected_verdict(const conformance::CheckRun& run, const CheckOptions& opt) {
  const auto& verdict = *run.expected_verdict;
  std::cout << "expected failures: " << verdict.expected_and_failed.size() << " of " << run.expected.size()
            << " listed in " << opt.run.expected_file << " failed as expected\n";
  for (const auto& name : verdict.unexpected_failures) std::cout << "UNEXPECTED FAILURE: " << name << "\n";
  for (const auto& other : verdict.other_reasons) {
    std::cout << "FAILED FOR ANOTHER REASON: " << other.name << "\n  listed: " << other.listed
              << "\n  now:    " << other.got.substr(0, 200) << (other.got.size() > 200 ? "..." : "") << "\n";
  }
  for (const auto& name : verdict.unexpected_passes) {
    std::cout << "UNEXPECTED PASS: " << name
              << " (listed as expected to fail; remove it, or --update-expected)\n";
  }
  for (const auto& name : verdict.unknown) std::cout << "STALE ENTRY: " << name << " (no such case ran)\n";
  if (!verdict.not_run.empty()) {
    std::cout << "NOT RUN: " << verdict.not_run.size() << " cases (" << verdict.listed_not_run
              << " of them listed): a case that did not run\n  was not checked, so it is never as expected\n";
  }
  std::cout << "verdict with the expected failures: " << (run.passed ? "as expected" : "NOT as expected")
            << "\n";
}

// --update-expected: the list of this run's failures written; a Failure when it cannot be.
Outcome<Done> update_expected(const CheckReport& report, const std::string& file) {
  if (auto written = write_file(file, conformance::expected_failures_text(report)); !written) return written;
  std::cout << "wrote " << report.count(conformance::CaseOutcome::Failed) << " expected failures to " << file
            << "\n";
  if (const int not_run = report.count(conformance::CaseOutcome::NotRun); not_run > 0) {
    std::cout << "not recorded: " << not_run
              << " cases did not run; a run with a case not run is\n  never as expected\n";
  }
  return done();
}

// The report files asked for (report_formats.hpp); a Failure when one cannot be written.
Outcome<Done> write_check_reports(const CheckOptions& opt, const std::vector<CheckReport>& reports) {
  const conformance::ReportSettings settings{opt.run.profile == "tlbf"};
  for (const auto& format : conformance::report_formats()) {
    const auto file = opt.run.report_files.find(format.option);
    if (file == opt.run.report_files.end() || file->second.empty()) continue;
    if (auto written = write_file(file->second, format.write(reports, settings)); !written) return written;
  }
  return done();
}

// After the reports, printed as they came: the list or the verdict with it,
// the parity matrix, the report files. The exit code of the whole run.
int finish_check(const CheckOptions& opt, const conformance::CheckRun& run) {
  if (opt.run.update_expected) {
    if (auto written = update_expected(run.reports.front(), opt.run.expected_file); !written)
      return fail_with(kIo, kFileSpeaker, written.failure());
  } else if (run.expected_verdict) {
    print_expected_verdict(run, opt);
  }
  if (run.reports.size() > 1) std::cout << conformance::parity_matrix(run.reports, opt.verbose);
  if (auto written = write_check_reports(opt, run.reports); !written)
    return fail_with(kIo, kFileSpeaker, written.failure());
  return run.passed ? kOk : kRefused;
}

int run_check(CheckOptions opt) {
  const char* tlbf_impl = std::getenv("TLBF_IMPL");
  if (tlbf_impl != nullptr) opt.run.tlbf_impl = tlbf_impl;
  opt.run.reference = reference_command();
  opt.run.adapter_folders = adapter_folder_candidates();
  Printer printer(opt);
  printer.checking_several(opt.run.impls.size() + opt.run.python_modules.size() + opt.run.rust_crates.size() >
                           1);
  auto outcome = conformance::run_check(opt.run, printer);
  if (const auto* error = std::get_if<conformance::CheckError>(&outcome)) {
    using Kind = conformance::CheckError::Kind;
    const Exit code = error->kind == Kind::Usage        ? kUsage
                      : error->kind == Kind::Unreadable ? kIo
                                                        : kCannotRun;
    return fail_with(code, error->about_a_file ? kFileSpeaker : kCheckCommand, failure(error->why));
  }
  const auto& run = std::get<conformance::CheckRun>(outcome);
  if (run.mode == conformance::CheckRun::Mode::Listed) {
    for (const auto& name : run.case_names) std::cout << name << "\n";
    return kOk;
  }
  if (run.mode == conformance::CheckRun::Mode::Replayed) return run.passed ? kOk : kRefused;
  return finish_check(opt, run);
}

// What to check: commands, or the learner's code through an adapter.
void add_implementation_options(CLI::App& cmd, CheckOptions& opt) {
  cmd.add_option("--impl", opt.run.impls, "Command that runs an implementation (repeat to compare several)");
  cmd.add_option("--rust-crate", opt.run.rust_crates,
                 "Check the Rust crate in DIR (the course's API, section 4) through a protocol server built "
                 "against it (repeatable)")
      ->check(CLI::ExistingDirectory);
  cmd.add_option(
      "--rust-module", opt.run.rust_module,
      "The crate's module with that API (default bloom, as in tl_ds::bloom; '' for the crate's root)");
  cmd.add_option("--python-module", opt.run.python_modules,
                 "Check the Python module FILE (the course's API in Python's spelling) through a protocol "
                 "server over it (repeatable)")
      ->check(CLI::ExistingFile);
}

// Which cases: the vectors, the profile, the globs, the capabilities, the random sequences.
void add_selection_options(CLI::App& cmd, CheckOptions& opt) {
  CLI::Option* vectors =
      cmd.add_option("--vectors", opt.run.vectors_dir,
                     "Use the vector files in DIR instead of the built-in ones; they must be those this tlbf "
                     "was built with, unless --own-vectors")
          ->check(kNotEmpty);
  cmd.add_flag("--own-vectors", opt.run.own_vectors, kOwnVectorsHelp)->needs(vectors);
  cmd.add_option("--filter", opt.run.filter, "Only cases whose name matches this glob")->check(kNotEmpty);
  cmd.add_option(
         "--skip", opt.run.skip,
         "Leave out the cases whose name matches this glob (after --filter; may be given more than once)")
      ->check(kNotEmpty);
  cmd.add_option("--profile", opt.run.profile,
                 "tlbf: the vectors and the behavioural checks (default); behavioural: only the properties "
                 "every Bloom filter has, for filters of other designs")
      ->check(CLI::IsMember({"tlbf", "behavioural"}));
  cmd.add_option(
      "--capabilities", opt.run.capabilities,
      "The capabilities to require, separated by commas (hashing,sizing,filter,bytes,union): one "
      "left out is not checked unless offered, and the verdict names it; without this option every "
      "capability is required (behavioural profile: filter,bytes,union), and one that is not offered "
      "fails the check");
  cmd.add_option(
         "--seed", opt.run.seed,
         "Seed of the behavioural checks' items and of the random request sequences (a seed repeats a run)")
      ->check(kUnsigned64);
  cmd.add_option("--runs", opt.run.runs,
                 "Random request sequences checked against the oracle as model (0: none)")
      ->check(whole_number_in(0, 100000));
}

// When to stop: the time budgets and the counts of faults and failures.
void add_budget_options(CLI::App& cmd, CheckOptions& opt) {
  cmd.add_option(
         "--timeout", opt.run.timeout_ms,
         "Milliseconds an implementation may take to give its first answer; later timeouts adapt to its "
         "speed, never above this (default 10000)")
      ->check(whole_number_in(1, 3'600'000));
  cmd.add_option("--time-budget", opt.run.budget_s,
                 "Seconds for the whole check of one implementation; cases left when it runs out are not run "
                 "(default 60)")
      ->check(whole_number_in(1, 86'400));
  cmd.add_option(
         "--faults", opt.run.faults,
         "Faults of one kind (crashes, hangs, ...) after which the cases left are not run (default 0: no "
         "limit; each fault costs its case, the implementation is restarted, and --time-budget bounds the "
         "run)")
      ->check(whole_number_in(0, 1'000'000));
  cmd.add_option(
         "--max-failures", opt.run.max_failures,
         "Failed cases after which the cases left are not run, as pytest's --maxfail (default 0: every "
         "case runs); the verdict of a stopped run is 'does not conform'")
      ->check(whole_number_in(0, 1'000'000));
}

// The files a check also writes, and the list of its expected failures.
void add_report_options(CLI::App& cmd, CheckOptions& opt) {
  for (const auto& format : conformance::report_formats()) {
    cmd.add_option(std::string(format.option), opt.run.report_files[std::string(format.option)],
                   std::string(format.help))
        ->check(kNotEmpty);
  }
  cmd.add_option("--expected", opt.run.expected_file,
                 "Case names expected to fail, one a line: they do not fail the run, but a listed case that "
                 "passes or does not exist does")
      ->check(kNotEmpty);
  cmd.add_flag("--update-expected", opt.run.update_expected,
               "Rewrite the --expected file with this run's failures");
}

// How the check runs, or what it does instead (--list, --transcript).
void add_mode_options(CLI::App& cmd, CheckOptions& opt) {
  cmd.add_flag("--no-pipeline", opt.run.no_pipeline, "Send one request at a time (slow; for comparison)");
  cmd.add_flag("--sandbox", opt.run.sandbox,
               "Run each implementation in a PID namespace of its own (bubblewrap): nothing it starts "
               "outlives it, even when tlbf is killed with SIGKILL");
  cmd.add_flag("--list", opt.run.list, "List the case names and exit");
  cmd.add_option("--transcript", opt.run.transcripts,
                 "Replay this transcript (docs/protocol.md, section 7) instead of the checks; repeatable")
      ->check(CLI::ExistingFile);
  cmd.add_flag("-v,--verbose", opt.verbose, "Also show acceptable differences and skipped cases");
  // Not in --help: caught only to point at --impl (`tlbf check -- ./impl serve`).
  cmd.add_option("stray", opt.run.stray)->group("");
}

}  // namespace

void add_check(CLI::App& app, int& rc) {
  auto opt = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "Check an implementation of TLBF v1 over line protocol v1");
  cmd->footer(
      "With no --impl, --rust-crate or --python-module, checks $TLBF_IMPL, or else the built-in\n"
      "reference (this binary's serve).\n" +
      exit_footer(
          {{kOk,
            "every implementation conforms, every capability checked (or every one --capabilities "
            "requires)"},
           {kRefused, "one does not, or does not offer a required capability"},
           {kUsage,
            "usage (bad options, vector files that fail the lint or are not those tlbf was built with, a "
            "transcript that cannot be read)"},
           {kIo, "a file could not be read or written (a vector file included)"},
           {kCannotRun,
            "an implementation cannot be started (or built, for --rust-crate), or the machine "
            "cannot start processes"}},
          "docs/check.md"));
  add_implementation_options(*cmd, *opt);
  add_selection_options(*cmd, *opt);
  add_budget_options(*cmd, *opt);
  add_report_options(*cmd, *opt);
  add_mode_options(*cmd, *opt);
  add_version(*cmd);
  cmd->callback([opt, &rc] { rc = run_check(*opt); });
}

}  // namespace tlbf::cli
