// tlbf check: does an implementation conform to TLBF v1? (docs/check.md)
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <optional>
#include <string>

#include "commands.hpp"
#include "files.hpp"
#include "installed_files.hpp"
#include "tlbf/conformance/adapters.hpp"
#include "tlbf/conformance/check_suite.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/report_formats.hpp"
#include "tlbf/conformance/expected_failures.hpp"
#include "tlbf/conformance/reports.hpp"
#include "tlbf/conformance/runner.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::cli {
namespace {

namespace fs = std::filesystem;
using conformance::CheckReport;
constexpr std::string_view kCheckCommand = "tlbf check";

struct CheckOptions {
  std::vector<std::string> impls;
  std::string vectors_dir;
  bool own_vectors = false;  // --own-vectors: vectors_dir may differ from the vectors tlbf was built with
  std::string filter;
  std::vector<std::string> skip;  // globs of cases left out, after --filter
  conformance::ReportFiles report_files;  // conformance::report_formats()'s, by option
  std::string expected_file;
  bool update_expected = false;
  long timeout_ms = 10'000;
  long budget_s = 60;
  int faults = 0;        // no limit: the time budget bounds a run
  int max_failures = 0;  // no limit: every case runs
  std::string profile = "tlbf";
  std::optional<std::string> capabilities;  // comma-separated; none: the profile's own
  std::uint64_t seed = 20261129;
  int runs = 100;
  bool no_pipeline = false;
  bool sandbox = false;  // --sandbox: each implementation in a PID namespace of its own
  bool list = false;
  bool verbose = false;
  std::vector<std::string> transcripts;
  std::vector<std::string> rust_crates;  // each checked through the Rust adapter
  std::string rust_module = "bloom";
  std::vector<std::string> python_modules;  // each checked through the Python adapter
  std::vector<std::string> stray;  // words outside any option: an implementation's command, most likely
};

// The capabilities that must be offered: those --capabilities names, else
// every one of TLBF v1 (the behavioural profile: the filter, its bytes and
// union, which its checks use). A Failure names an unknown name.
Outcome<std::set<conformance::Capability>> required_capabilities(const CheckOptions& opt) {
  using conformance::Capability;
  if (!opt.capabilities) {
    return opt.profile == "behavioural"
               ? std::set<Capability>{Capability::Filter, Capability::Bytes, Capability::Union}
               : std::set<Capability>(std::begin(conformance::kAllCapabilities),
                                      std::end(conformance::kAllCapabilities));
  }
  std::set<Capability> out;
  const std::string& names = *opt.capabilities;
  std::size_t start = 0;
  // An empty list is refused like any unknown name: "" would otherwise be
  // read as "no option", and require every capability without a word.
  while (start <= names.size()) {
    const std::size_t comma = std::min(names.find(',', start), names.size());
    const std::string name = names.substr(start, comma - start);
    const auto c = conformance::capability_named(name);
    if (!c) {
      return failure("--capabilities: no capability named '" + name +
                     "' (hashing, sizing, filter, bytes, union, separated by commas)");
    }
    out.insert(*c);
    start = comma + 1;
  }
  return out;
}

// The built-in reference: this very binary, serving.
std::string reference_command() {
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  return (ec ? std::string("tlbf") : conformance::shell_quote(self.string())) + " serve";
}

// The vector files to check against: the ones compiled in, or DIR's after
// they pass the lint and, unless they are the user's own, are those tlbf was
// built with (a corrupt, gutted or tampered file would make every verdict
// meaningless). A Failure lists the problems, a line each, as tlbf check
// says each; its exit code is kIo when a file cannot be read, else kUsage.
std::pair<Exit, Outcome<std::vector<vectors::VectorFile>>> load_vectors(const std::string& dir,
                                                                        bool own_vectors) {
  if (dir.empty()) return {kOk, vectors::generate()};
  auto folder =
      vectors::load_folder(dir, own_vectors ? vectors::Expect::OwnVectors : vectors::Expect::BuiltWith);
  if (folder.problems.empty()) return {kOk, std::move(folder.files)};
  std::string why;
  for (const auto& problem : folder.problems) why += problem + "\n" + std::string(kCheckCommand) + ": ";
  if (folder.differs) why += std::string(kNotBuiltWith) + "\n" + std::string(kCheckCommand) + ": ";
  return {folder.readable ? kUsage : kIo,
          failure(why + "the vector files in " + dir + " fail the lint; not checking with them")};
}

// Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
bool use_colour() { return ::isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr; }

conformance::Budget budget_of(const CheckOptions& opt) {
  conformance::Budget budget;
  budget.first_answer = std::chrono::milliseconds(opt.timeout_ms);
  budget.floor = std::min(budget.floor, budget.first_answer);
  budget.total = std::chrono::seconds(opt.budget_s);
  return budget;
}

conformance::Launch launch_of(const CheckOptions& opt) {
  conformance::Launch launch;
  launch.own_pid_namespace = opt.sandbox;
  return launch;
}

// What a replay found, in the words of the check's text report.
void print_replay(const conformance::Transcript& t, const std::string& impl,
                  const conformance::ReplayReport& report) {
  std::cout << (report.passed ? "PASS " : "FAIL ") << t.name << " (" << t.exchanges.size() << " requests) on "
            << impl << "\n";
  for (const auto& f : report.failures) std::cout << "  " << f << "\n";
  for (const auto& a : report.acceptable) std::cout << "  acceptable difference: " << a << "\n";
  if (!report.passed && !report.stderr_tail.empty()) std::cout << "  its stderr:\n" << report.stderr_tail;
}

// --transcript: replay the files, and nothing else, against each implementation.
int run_transcripts(const CheckOptions& opt) {
  std::vector<conformance::Transcript> transcripts;
  for (const auto& path : opt.transcripts) {
    const auto bytes = read_file(path);
    if (!bytes) return fail_with(kIo, kFileSpeaker, bytes.failure());
    auto t = conformance::parse_transcript(bytes.value(), path);
    if (!t) return fail_with(kUsage, kCheckCommand, t.failure_in(path + ":"));
    transcripts.push_back(std::move(t.value()));
  }
  bool all_passed = true;
  for (const auto& impl : opt.impls) {
    for (const auto& t : transcripts) {
      const auto report = conformance::replay(t, impl, budget_of(opt), launch_of(opt));
      print_replay(t, impl, report);
      all_passed = all_passed && report.passed;
    }
  }
  return all_passed ? kOk : kRefused;
}

// /bin/sh -c '' runs nothing and exits 0: that is no implementation.
bool runs_nothing(const std::string& command) {
  return command.find_first_not_of(" \t\n") == std::string::npos;
}

// An adapter's file: beside tlbf in the build tree (a link to conformance/adapters), in share/tlbf/adapters
// once installed.
std::optional<fs::path> adapter_file(const std::string& relative) {
  for (const auto& candidate : adapter_folder_candidates()) {
    std::error_code ec;
    if (fs::is_regular_file(candidate / relative, ec)) return candidate / relative;
  }
  return std::nullopt;
}

// --rust-crate and --python-module: each becomes an --impl, a protocol server over the learner's code.
Outcome<Done> add_adapters(CheckOptions& opt) {
  for (const auto& module : opt.python_modules) {
    const auto script = adapter_file("python/tlbf_adapter.py");
    if (!script) {
      return failure(
          "cannot find the Python adapter (adapters/python/tlbf_adapter.py beside tlbf or in share/tlbf)");
    }
    auto a = conformance::python_module_adapter(module, *script, std::chrono::milliseconds(opt.timeout_ms),
                                                launch_of(opt));
    if (!a) return a.failure();
    opt.impls.push_back(std::move(a.value()));
  }
  const auto limit = std::chrono::milliseconds(std::max<long>(opt.timeout_ms, 600'000));
  for (const auto& crate : opt.rust_crates) {
    const auto server = adapter_file("rust/main.rs");
    if (!server)
      return failure("cannot find the Rust adapter (adapters/rust/main.rs beside tlbf or in share/tlbf)");
    std::cerr << kCheckCommand << ": building the Rust adapter against " << crate << " ..." << std::endl;
    auto a = conformance::rust_crate_adapter(crate, opt.rust_module, *server, conformance::adapter_cache(),
                                             limit, launch_of(opt));
    if (!a) return a.failure();
    opt.impls.push_back(std::move(a.value()));
  }
  return done();
}

// The implementations' commands as given: words outside any option, or an
// --impl that runs nothing, are refused before anything runs.
Outcome<Done> commands_are_usable(const CheckOptions& opt) {
  if (!opt.stray.empty()) {
    std::string words;
    for (const auto& w : opt.stray) words += (words.empty() ? "" : " ") + w;
    return failure("unexpected arguments '" + words +
                   "': give the implementation's command as one word, --impl 'COMMAND' (docs/check.md)");
  }
  for (const auto& impl : opt.impls) {
    if (runs_nothing(impl)) return failure("--impl '" + impl + "': an empty command runs no implementation");
  }
  return done();
}

// What to check when no option names an implementation: $TLBF_IMPL, else the built-in reference.
Outcome<std::string> default_implementation() {
  // Set but empty is a CI variable that was never filled in: checking the
  // built-in reference instead would pass without checking anything.
  const char* from_env = std::getenv("TLBF_IMPL");
  if (from_env != nullptr && runs_nothing(from_env)) {
    return failure(
        std::string("TLBF_IMPL is set but empty ('") + from_env +
        "'): it names no implementation; set it to one's command, or unset it to check the built-in "
        "reference");
  }
  return from_env != nullptr ? std::string(from_env) : reference_command();
}

// --expected and the report files (report_formats.hpp) that describe one
// implementation: one --impl each; and --update-expected with --expected.
Outcome<Done> report_options_fit(const CheckOptions& opt) {
  if (!opt.expected_file.empty() && opt.impls.size() > 1) {
    return failure("--expected lists one implementation's failures; give one --impl");
  }
  if (auto fit = conformance::report_files_fit(opt.report_files, opt.impls.size()); !fit) return fit;
  if (opt.update_expected && opt.expected_file.empty())
    return failure("--update-expected needs --expected FILE");
  return done();
}

// How each implementation is checked; a Failure for an unknown --capabilities name.
Outcome<conformance::RunnerOptions> runner_options(const CheckOptions& opt,
                                                   const conformance::CheckSuite& suite) {
  auto required = required_capabilities(opt);
  if (!required.ok()) return required.failure();
  conformance::RunnerOptions runner;
  // A large filter is not called hung for what a 512 MiB request costs (docs/check.md, "The large filters").
  runner.budget = conformance::budget_for(suite.cases, budget_of(opt));
  runner.launch = launch_of(opt);
  runner.pipelined = !opt.no_pipeline;
  runner.faults_before_unreliable = opt.faults;
  runner.max_failures = opt.max_failures;
  runner.required = std::move(required.value());
  return runner;
}

int list_cases(const conformance::CheckSuite& suite) {
  for (const auto& c : suite.cases) std::cout << c.name << "\n";
  for (const auto& c : suite.behaviour) std::cout << c.name << "\n";
  return kOk;
}

// One implementation's check, with a progress line on a terminal only, erased before its report.
CheckReport check_one(const std::string& impl, const conformance::CheckSuite& suite,
                      const conformance::RunnerOptions& runner, const std::string& selected_by) {
  const bool progress = ::isatty(STDERR_FILENO) != 0;
  if (progress) std::cerr << "checking " << impl.substr(0, 60) << " ..." << std::flush;
  CheckReport report = conformance::check(impl, suite.cases, runner, suite.behaviour);
  report.selected_by = selected_by;
  if (progress) std::cerr << "\r\033[K" << std::flush;
  return report;
}

// A report that is no verdict: the machine, not the implementation, failed,
// or the command never ran as an implementation (`python3 nosuch.py` exits 2
// at once). The command goes on a line of its own: it may hold quotes of its
// own (the built-in one does).
Outcome<Done> reached_a_verdict(const CheckReport& report, const std::string& impl) {
  if (!report.harness_problem.empty()) {
    return failure(
        "harness error: " + report.harness_problem +
        " (is the machine short of processes or file descriptors? ulimit -u, -n)\n  its command: " + impl);
  }
  if (report.not_found || report.ended_before_answering) {
    return failure(std::string("cannot start the implementation") +
                   (report.not_found ? "" : " (it ended before its first answer)") + ": " +
                   report.session_problem + "\n  its command: " + impl);
  }
  return done();
}

// --expected: the report's failures against the list, printed; true when they are as listed.
bool print_expected_verdict(const CheckReport& report, const CheckOptions& opt,
                            const conformance::ExpectedFailures& expected) {
  const auto verdict = conformance::judge_expected(report, expected);
  std::cout << "expected failures: " << verdict.expected_and_failed.size() << " of " << expected.size()
            << " listed in " << opt.expected_file << " failed as expected\n";
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
  const bool as_expected = verdict.ok(report);
  std::cout << "verdict with the expected failures: " << (as_expected ? "as expected" : "NOT as expected")
            << "\n";
  return as_expected;
}

// The report files asked for (report_formats.hpp); a Failure when one cannot be written.
Outcome<Done> write_check_reports(const CheckOptions& opt, const std::vector<CheckReport>& reports) {
  const conformance::ReportSettings settings{opt.profile == "tlbf"};
  for (const auto& format : conformance::report_formats()) {
    const auto file = opt.report_files.find(format.option);
    if (file == opt.report_files.end() || file->second.empty()) continue;
    if (auto written = write_file(file->second, format.write(reports, settings)); !written) return written;
  }
  return done();
}

// Checks each implementation in turn and prints its report, then writes the
// reports asked for: the exit code of the whole run.
int check_implementations(const CheckOptions& opt, const conformance::CheckSuite& suite,
                          const conformance::RunnerOptions& runner, const std::string& selected_by,
                          const conformance::ExpectedFailures& expected) {
  bool all_conform = true;
  std::vector<CheckReport> reports;
  for (const auto& impl : opt.impls) {
    CheckReport report = check_one(impl, suite, runner, selected_by);
    if (const auto verdict = reached_a_verdict(report, impl); !verdict.ok()) {
      return fail_with(kCannotRun, kCheckCommand, verdict.failure());
    }
    std::cout << conformance::text_report(report, {opt.verbose, opt.profile == "tlbf", use_colour()});
    if (opt.impls.size() > 1) std::cout << "\n";
    bool conforms = report.conforms();
    if (opt.update_expected) {
      if (auto written = write_file(opt.expected_file, conformance::expected_failures_text(report)); !written)
        return fail_with(kIo, kFileSpeaker, written.failure());
      std::cout << "wrote " << report.count(conformance::Outcome::Failed) << " expected failures to "
                << opt.expected_file << "\n";
      // The list records failures seen; a case that did not run was not seen
      // at all, so a run cut short is no pass, with or without the list.
      const int not_run = report.count(conformance::Outcome::NotRun);
      if (not_run > 0) {
        std::cout << "not recorded: " << not_run
                  << " cases did not run; a run with a case not run is\n  never as expected\n";
      }
      conforms = report.speaks_protocol && report.session_problem.empty() && not_run == 0 &&
                 report.stopped_because.empty();
    } else if (!opt.expected_file.empty()) {
      conforms = print_expected_verdict(report, opt, expected);
    }
    all_conform = all_conform && conforms;
    reports.push_back(std::move(report));
  }
  if (reports.size() > 1) std::cout << conformance::parity_matrix(reports, opt.verbose);
  if (auto written = write_check_reports(opt, reports); !written)
    return fail_with(kIo, kFileSpeaker, written.failure());
  return all_conform ? kOk : kRefused;
}

int run_check(CheckOptions opt) {
  if (const auto usable = commands_are_usable(opt); !usable.ok()) {
    return fail_with(kUsage, kCheckCommand, usable.failure());
  }
  if (opt.sandbox) {
    if (const auto available = conformance::own_pid_namespaces_available(); !available.ok())
      return fail_with(kCannotRun, kCheckCommand, failure("--sandbox: " + available.why()));
  }
  if (const auto added = add_adapters(opt); !added.ok())
    return fail_with(kCannotRun, kCheckCommand, added.failure());
  if (opt.impls.empty()) {
    auto impl = default_implementation();
    if (!impl.ok()) return fail_with(kUsage, kCheckCommand, impl.failure());
    opt.impls.push_back(std::move(impl.value()));
  }
  if (!opt.transcripts.empty()) {
    // A replay has no cases, groups or capabilities to report: not silently no file.
    if (const auto fit = conformance::report_files_fit_a_replay(opt.report_files); !fit)
      return fail_with(kUsage, kCheckCommand, fit.failure());
    if (!opt.expected_file.empty()) {
      return fail_with(kUsage, kCheckCommand,
                       failure("--expected reports a check; --transcript only replays (its report is the text)"));
    }
    return run_transcripts(opt);
  }
  auto [vectors_exit, files] = load_vectors(opt.vectors_dir, opt.own_vectors);
  if (!files.ok()) return fail_with(vectors_exit, kCheckCommand, files.failure());
  const conformance::CheckSelection selection{opt.profile, opt.seed, opt.runs,
                                              opt.filter,  opt.skip, std::move(files.value())};
  const auto suite = conformance::select_check_cases(selection);
  if (!suite.ok()) return fail_with(kUsage, kCheckCommand, suite.failure());
  if (opt.list) return list_cases(suite.value());
  if (const auto fit = report_options_fit(opt); !fit.ok())
    return fail_with(kUsage, kCheckCommand, fit.failure());
  conformance::ExpectedFailures expected;
  if (!opt.expected_file.empty() && !opt.update_expected) {
    const auto bytes = read_file(opt.expected_file);
    if (!bytes) return fail_with(kIo, kFileSpeaker, bytes.failure());
    expected = conformance::parse_expected_failures(bytes.value());
  }
  const auto runner = runner_options(opt, suite.value());
  if (!runner.ok()) return fail_with(kUsage, kCheckCommand, runner.failure());
  return check_implementations(opt, suite.value(), runner.value(), conformance::selected_by(selection),
                               expected);
}

// What to check: commands, or the learner's code through an adapter.
void add_implementation_options(CLI::App& cmd, CheckOptions& opt) {
  cmd.add_option("--impl", opt.impls, "Command that runs an implementation (repeat to compare several)");
  cmd.add_option("--rust-crate", opt.rust_crates,
                 "Check the Rust crate in DIR (the course's API, section 4) through a protocol server built "
                 "against it (repeatable)")
      ->check(CLI::ExistingDirectory);
  cmd.add_option(
      "--rust-module", opt.rust_module,
      "The crate's module with that API (default bloom, as in tl_ds::bloom; '' for the crate's root)");
  cmd.add_option("--python-module", opt.python_modules,
                 "Check the Python module FILE (the course's API in Python's spelling) through a protocol "
                 "server over it (repeatable)")
      ->check(CLI::ExistingFile);
}

// Which cases: the vectors, the profile, the globs, the capabilities, the random sequences.
void add_selection_options(CLI::App& cmd, CheckOptions& opt) {
  CLI::Option* vectors =
      cmd.add_option("--vectors", opt.vectors_dir,
                     "Use the vector files in DIR instead of the built-in ones; they must be those this tlbf "
                     "was built with, unless --own-vectors")
          ->check(kNotEmpty);
  cmd.add_flag("--own-vectors", opt.own_vectors, kOwnVectorsHelp)->needs(vectors);
  cmd.add_option("--filter", opt.filter, "Only cases whose name matches this glob")->check(kNotEmpty);
  cmd.add_option(
         "--skip", opt.skip,
         "Leave out the cases whose name matches this glob (after --filter; may be given more than once)")
      ->check(kNotEmpty);
  cmd.add_option("--profile", opt.profile,
                 "tlbf: the vectors and the behavioural checks (default); behavioural: only the properties "
                 "every Bloom filter has, for filters of other designs")
      ->check(CLI::IsMember({"tlbf", "behavioural"}));
  cmd.add_option(
      "--capabilities", opt.capabilities,
      "The capabilities to require, separated by commas (hashing,sizing,filter,bytes,union): one "
      "left out is not checked unless offered, and the verdict names it; without this option every "
      "capability is required (behavioural profile: filter,bytes,union), and one that is not offered "
      "fails the check");
  cmd.add_option(
         "--seed", opt.seed,
         "Seed of the behavioural checks' items and of the random request sequences (a seed repeats a run)")
      ->check(kUnsigned64);
  cmd.add_option("--runs", opt.runs, "Random request sequences checked against the oracle as model (0: none)")
      ->check(whole_number_in(0, 100000));
}

// When to stop: the time budgets and the counts of faults and failures.
void add_budget_options(CLI::App& cmd, CheckOptions& opt) {
  cmd.add_option(
         "--timeout", opt.timeout_ms,
         "Milliseconds an implementation may take to give its first answer; later timeouts adapt to its "
         "speed, never above this (default 10000)")
      ->check(whole_number_in(1, 3'600'000));
  cmd.add_option("--time-budget", opt.budget_s,
                 "Seconds for the whole check of one implementation; cases left when it runs out are not run "
                 "(default 60)")
      ->check(whole_number_in(1, 86'400));
  cmd.add_option(
         "--faults", opt.faults,
         "Faults of one kind (crashes, hangs, ...) after which the cases left are not run (default 0: no "
         "limit; each fault costs its case, the implementation is restarted, and --time-budget bounds the "
         "run)")
      ->check(whole_number_in(0, 1'000'000));
  cmd.add_option(
         "--max-failures", opt.max_failures,
         "Failed cases after which the cases left are not run, as pytest's --maxfail (default 0: every "
         "case runs); the verdict of a stopped run is 'does not conform'")
      ->check(whole_number_in(0, 1'000'000));
}

// The files a check also writes, and the list of its expected failures.
void add_report_options(CLI::App& cmd, CheckOptions& opt) {
  for (const auto& format : conformance::report_formats()) {
    cmd.add_option(std::string(format.option), opt.report_files[std::string(format.option)],
                   std::string(format.help))
        ->check(kNotEmpty);
  }
  cmd.add_option("--expected", opt.expected_file,
                 "Case names expected to fail, one a line: they do not fail the run, but a listed case that "
                 "passes or does not exist does")
      ->check(kNotEmpty);
  cmd.add_flag("--update-expected", opt.update_expected,
               "Rewrite the --expected file with this run's failures");
}

// How the check runs, or what it does instead (--list, --transcript).
void add_mode_options(CLI::App& cmd, CheckOptions& opt) {
  cmd.add_flag("--no-pipeline", opt.no_pipeline, "Send one request at a time (slow; for comparison)");
  cmd.add_flag("--sandbox", opt.sandbox,
               "Run each implementation in a PID namespace of its own (bubblewrap): nothing it starts "
               "outlives it, even when tlbf is killed with SIGKILL");
  cmd.add_flag("--list", opt.list, "List the case names and exit");
  cmd.add_option("--transcript", opt.transcripts,
                 "Replay this transcript (docs/protocol.md, section 7) instead of the checks; repeatable")
      ->check(CLI::ExistingFile);
  cmd.add_flag("-v,--verbose", opt.verbose, "Also show acceptable differences and skipped cases");
  // Not in --help: caught only to point at --impl (`tlbf check -- ./impl serve`).
  cmd.add_option("stray", opt.stray)->group("");
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
