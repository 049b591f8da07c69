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
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "commands.hpp"
#include "files.hpp"
#include "installed_files.hpp"
#include "tlbf/conformance/adapters.hpp"
#include "tlbf/conformance/check_suite.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/reports.hpp"
#include "tlbf/conformance/runner.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::cli {
namespace {

namespace fs = std::filesystem;
using conformance::CheckReport;
using conformance::Outcome;

struct CheckOptions {
  std::vector<std::string> impls;
  std::string vectors_dir;
  std::string filter;
  std::vector<std::string> skip;  // globs of cases left out, after --filter
  std::string json_file;
  std::string junit_file;
  std::string html_file;
  std::string expected_file;
  bool update_expected = false;
  long timeout_ms = 10'000;
  long budget_s = 60;
  int faults = 0;  // no limit: the time budget bounds a run
  int max_failures = 0;  // no limit: every case runs
  std::string profile = "tlbf";
  std::optional<std::string> capabilities;  // comma-separated; none: the profile's own
  std::uint64_t seed = 20261129;
  int runs = 100;
  bool no_pipeline = false;
  bool list = false;
  bool verbose = false;
  std::vector<std::string> transcripts;
  std::vector<std::string> rust_crates;    // each checked through the Rust adapter
  std::string rust_module = "bloom";
  std::vector<std::string> python_modules;  // each checked through the Python adapter
  std::vector<std::string> stray;  // words outside any option: an implementation's command, most likely
};

// The capabilities that must be offered: those --capabilities names, else
// every one of TLBF v1 (the behavioural profile: the filter, its bytes and
// union, which its checks use). False, having said why, on an unknown name.
bool required_capabilities(const CheckOptions& opt, std::set<conformance::Capability>& out) {
  using conformance::Capability;
  if (!opt.capabilities) {
    out = opt.profile == "behavioural" ? std::set<Capability>{Capability::Filter, Capability::Bytes, Capability::Union}
                                       : std::set<Capability>(std::begin(conformance::kAllCapabilities),
                                                              std::end(conformance::kAllCapabilities));
    return true;
  }
  out.clear();
  const std::string& names = *opt.capabilities;
  std::size_t start = 0;
  // An empty list is refused like any unknown name: "" would otherwise be
  // read as "no option", and require every capability without a word.
  while (start <= names.size()) {
    const std::size_t comma = std::min(names.find(',', start), names.size());
    const std::string name = names.substr(start, comma - start);
    const auto c = conformance::capability_named(name);
    if (!c) {
      std::cerr << "tlbf check: --capabilities: no capability named '" << name
                << "' (hashing, sizing, filter, bytes, union, separated by commas)\n";
      return false;
    }
    out.insert(*c);
    start = comma + 1;
  }
  return true;
}

// The built-in reference: this very binary, serving.
std::string reference_command() {
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  return (ec ? std::string("tlbf") : conformance::shell_quote(self.string())) + " serve";
}

// The vector files to check against: the ones compiled in, or DIR's after
// they pass the lint (a corrupt file would make every verdict meaningless).
bool load_vectors(const std::string& dir, std::vector<vectors::VectorFile>& files) {
  if (dir.empty()) {
    files = vectors::generate();
    return true;
  }
  auto folder = vectors::load_folder(dir);
  for (const auto& problem : folder.problems) std::cerr << "tlbf check: " << problem << "\n";
  if (!folder.problems.empty()) {
    std::cerr << "tlbf check: the vector files in " << dir << " fail the lint; not checking with them\n";
    return false;
  }
  files = std::move(folder.files);
  return true;
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

// --transcript: replay the files, and nothing else, against each implementation.
int run_transcripts(const CheckOptions& opt) {
  std::vector<conformance::Transcript> transcripts;
  for (const auto& path : opt.transcripts) {
    const auto bytes = read_file(path);
    if (!bytes) return kIo;
    std::string error;
    auto t = conformance::parse_transcript(std::string(bytes->begin(), bytes->end()), path, &error);
    if (!t) {
      std::cerr << "tlbf check: " << path << ":" << error << "\n";
      return kUsage;
    }
    transcripts.push_back(std::move(*t));
  }
  bool all_passed = true;
  for (const auto& impl : opt.impls) {
    for (const auto& t : transcripts) {
      const auto report = conformance::replay(t, impl, budget_of(opt));
      std::cout << (report.passed ? "PASS " : "FAIL ") << t.name << " (" << t.exchanges.size() << " requests) on "
                << impl << "\n";
      for (const auto& f : report.failures) std::cout << "  " << f << "\n";
      for (const auto& a : report.acceptable) std::cout << "  acceptable difference: " << a << "\n";
      if (!report.passed && !report.stderr_tail.empty()) std::cout << "  its stderr:\n" << report.stderr_tail;
      all_passed = all_passed && report.passed;
    }
  }
  return all_passed ? kOk : kRefused;
}

// /bin/sh -c '' runs nothing and exits 0: that is no implementation.
bool runs_nothing(const std::string& command) { return command.find_first_not_of(" \t\n") == std::string::npos; }

#if !defined(TLBF_ADAPTERS_FROM_BINDIR)
#error "cli/CMakeLists.txt defines TLBF_ADAPTERS_FROM_BINDIR"
#endif

// An adapter's file: beside tlbf in the build tree (a link to conformance/adapters), in share/tlbf/adapters once installed.
std::optional<fs::path> adapter_file(const std::string& relative) {
  for (const auto& candidate : installed_file_candidates("adapters", TLBF_ADAPTERS_FROM_BINDIR)) {
    std::error_code ec;
    if (fs::is_regular_file(candidate / relative, ec)) return candidate / relative;
  }
  return std::nullopt;
}

// --rust-crate and --python-module: each becomes an --impl, a protocol server over the learner's code.
bool add_adapters(CheckOptions& opt) {
  const auto limit = std::chrono::milliseconds(std::max<long>(opt.timeout_ms, 600'000));
  const auto report = [](const conformance::Adapter& a) {
    std::cerr << "tlbf check: " << a.error << "\n";
    if (!a.detail.empty()) std::cerr << conformance::readable_lines(a.detail, 4000) << "\n";
    return false;
  };
  for (const auto& module : opt.python_modules) {
    const auto script = adapter_file("python/tlbf_adapter.py");
    if (!script) {
      std::cerr << "tlbf check: cannot find the Python adapter (adapters/python/tlbf_adapter.py beside tlbf or in share/tlbf)\n";
      return false;
    }
    const auto a = conformance::python_module_adapter(module, *script, std::chrono::milliseconds(opt.timeout_ms));
    if (!a.error.empty()) return report(a);
    opt.impls.push_back(a.command);
  }
  for (const auto& crate : opt.rust_crates) {
    const auto server = adapter_file("rust/main.rs");
    if (!server) {
      std::cerr << "tlbf check: cannot find the Rust adapter (adapters/rust/main.rs beside tlbf or in share/tlbf)\n";
      return false;
    }
    std::cerr << "tlbf check: building the Rust adapter against " << crate << " ..." << std::endl;
    const auto a = conformance::rust_crate_adapter(crate, opt.rust_module, *server, conformance::adapter_cache(), limit);
    if (!a.error.empty()) return report(a);
    opt.impls.push_back(a.command);
  }
  return true;
}

int run_check(CheckOptions opt) {
  if (!opt.stray.empty()) {
    std::string words;
    for (const auto& w : opt.stray) words += (words.empty() ? "" : " ") + w;
    std::cerr << "tlbf check: unexpected arguments '" << words
              << "': give the implementation's command as one word, --impl 'COMMAND' (docs/check.md)\n";
    return kUsage;
  }
  for (const auto& impl : opt.impls) {
    if (runs_nothing(impl)) {
      std::cerr << "tlbf check: --impl '" << impl << "': an empty command runs no implementation\n";
      return kUsage;
    }
  }
  if (!add_adapters(opt)) return kCannotRun;
  if (opt.impls.empty()) {
    // Set but empty is a CI variable that was never filled in: checking the
    // built-in reference instead would pass without checking anything.
    const char* from_env = std::getenv("TLBF_IMPL");
    if (from_env != nullptr && runs_nothing(from_env)) {
      std::cerr << "tlbf check: TLBF_IMPL is set but empty ('" << from_env
                << "'): it names no implementation; set it to one's command, or unset it to check the built-in "
                   "reference\n";
      return kUsage;
    }
    opt.impls.push_back(from_env != nullptr ? from_env : reference_command());
  }
  if (!opt.transcripts.empty() && !opt.html_file.empty()) {
    // A replay has no groups, capabilities or verdict to draw: not silently no page.
    std::cerr << "tlbf check: --html reports a check; --transcript only replays (its report is the text)\n";
    return kUsage;
  }
  if (!opt.transcripts.empty()) return run_transcripts(opt);
  std::vector<vectors::VectorFile> files;
  if (!load_vectors(opt.vectors_dir, files)) return kUsage;
  const conformance::CheckSelection selection{opt.profile, opt.seed, opt.runs, opt.filter, opt.skip, std::move(files)};
  auto selected = conformance::select_check_cases(selection);
  if (!selected.ok()) return fail_with(kUsage, "tlbf check", selected.failure());
  const conformance::CheckSuite& suite = selected.value();
  if (opt.list) {
    for (const auto& c : suite.cases) std::cout << c.name << "\n";
    for (const auto& c : suite.behaviour) std::cout << c.name << "\n";
    return kOk;
  }
  if (!opt.expected_file.empty() && opt.impls.size() > 1) {
    std::cerr << "tlbf check: --expected lists one implementation's failures; give one --impl\n";
    return kUsage;
  }
  if (opt.update_expected && opt.expected_file.empty()) {
    std::cerr << "tlbf check: --update-expected needs --expected FILE\n";
    return kUsage;
  }
  std::set<std::string> expected;
  if (!opt.expected_file.empty() && !opt.update_expected) {
    const auto bytes = read_file(opt.expected_file);
    if (!bytes) return kIo;
    expected = conformance::parse_expected_failures(std::string(bytes->begin(), bytes->end()));
  }
  conformance::RunnerOptions runner;
  // A large filter is not called hung for what a 512 MiB request costs (docs/check.md, "The large filters").
  runner.budget = conformance::budget_for(suite.cases, budget_of(opt));
  runner.pipelined = !opt.no_pipeline;
  runner.faults_before_unreliable = opt.faults;
  runner.max_failures = opt.max_failures;
  if (!required_capabilities(opt, runner.required)) return kUsage;

  bool all_conform = true;
  nlohmann::ordered_json reports = nlohmann::ordered_json::array();
  std::vector<CheckReport> done;
  for (const auto& impl : opt.impls) {
    // A progress line on a terminal only, erased when the report is printed.
    const bool progress = ::isatty(STDERR_FILENO) != 0;
    if (progress) std::cerr << "checking " << impl.substr(0, 60) << " ..." << std::flush;
    CheckReport report = conformance::check(impl, suite.cases, runner, suite.behaviour);
    report.selected_by = conformance::selected_by(selection);
    if (progress) std::cerr << "\r\033[K" << std::flush;
    // The command on a line of its own: it may hold quotes of its own (the built-in one does).
    if (!report.harness_problem.empty()) {
      // Not a verdict: the machine, not the implementation, failed.
      std::cerr << "tlbf check: harness error: " << report.harness_problem
                << " (is the machine short of processes or file descriptors? ulimit -u, -n)\n  its command: " << impl
                << "\n";
      return kCannotRun;
    }
    if (report.not_found || report.ended_before_answering) {
      // Not a verdict: it never ran as an implementation (`python3 nosuch.py` exits 2 at once).
      std::cerr << "tlbf check: cannot start the implementation"
                << (report.not_found ? "" : " (it ended before its first answer)") << ": " << report.session_problem
                << "\n  its command: " << impl << "\n";
      return kCannotRun;
    }
    std::cout << conformance::text_report(report, {opt.verbose, opt.profile == "tlbf", use_colour()});
    if (opt.impls.size() > 1) std::cout << "\n";
    bool conforms = report.conforms();
    if (opt.update_expected) {
      const std::string text = conformance::expected_failures_text(report);
      if (!write_file(opt.expected_file, text)) {
        return kIo;
      }
      std::cout << "wrote " << report.count(Outcome::Failed) << " expected failures to " << opt.expected_file << "\n";
      conforms = report.speaks_protocol && report.session_problem.empty();
    } else if (!opt.expected_file.empty()) {
      const auto verdict = conformance::judge_expected(report, expected);
      std::cout << "expected failures: " << verdict.expected_and_failed.size() << " of " << expected.size()
                << " listed in " << opt.expected_file << " failed as expected\n";
      for (const auto& name : verdict.unexpected_failures) std::cout << "UNEXPECTED FAILURE: " << name << "\n";
      for (const auto& name : verdict.unexpected_passes) {
        std::cout << "UNEXPECTED PASS: " << name << " (listed as expected to fail; remove it, or --update-expected)\n";
      }
      for (const auto& name : verdict.unknown) std::cout << "STALE ENTRY: " << name << " (no such case ran)\n";
      conforms = verdict.ok(report);
      std::cout << "verdict with the expected failures: " << (conforms ? "as expected" : "NOT as expected") << "\n";
    }
    all_conform = all_conform && conforms;
    if (!opt.junit_file.empty() && opt.impls.size() == 1) {
      const std::string xml = conformance::to_junit(report);
      if (!write_file(opt.junit_file, xml)) return kIo;
    }
    reports.push_back(conformance::to_json(report));
    done.push_back(report);
  }
  if (done.size() > 1) std::cout << conformance::parity_matrix(done, opt.verbose);
  if (!opt.json_file.empty()) {
    // Implementations may write any bytes; JSON holds only UTF-8, so others become U+FFFD.
    const std::string text =
        (done.size() == 1 ? reports[0] : reports).dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    if (!write_file(opt.json_file, text)) return kIo;
  }
  if (!opt.html_file.empty() && !write_file(opt.html_file, conformance::html_report(done, opt.profile == "tlbf"))) {
    return kIo;
  }
  return all_conform ? kOk : kRefused;
}

}  // namespace

void add_check(CLI::App& app, int& rc) {
  auto opt = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "Check an implementation of TLBF v1 over line protocol v1");
  cmd->footer(
      "With no --impl, --rust-crate or --python-module, checks $TLBF_IMPL, or else the built-in\n"
      "reference (this binary's serve).\n" +
      exit_footer({{kOk, "every implementation conforms, every capability checked (or every one --capabilities "
                         "requires)"},
                   {kRefused, "one does not, or does not offer a required capability"},
                   {kUsage, "usage (bad options, vector files that fail the lint, a transcript that cannot be read)"},
                   {kIo, "a file could not be read or written"},
                   {kCannotRun, "an implementation cannot be started (or built, for --rust-crate), or the machine "
                                "cannot start processes"}},
                  "docs/check.md"));
  cmd->add_option("--impl", opt->impls, "Command that runs an implementation (repeat to compare several)");
  cmd->add_option("--rust-crate", opt->rust_crates,
                  "Check the Rust crate in DIR (the course's API, section 4) through a protocol server built "
                  "against it (repeatable)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--rust-module", opt->rust_module,
                  "The crate's module with that API (default bloom, as in tl_ds::bloom; '' for the crate's root)");
  cmd->add_option("--python-module", opt->python_modules,
                  "Check the Python module FILE (the course's API in Python's spelling) through a protocol "
                  "server over it (repeatable)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--vectors", opt->vectors_dir, "Use the vector files in DIR instead of the built-in ones")
      ->check(kNotEmpty);
  cmd->add_option("--filter", opt->filter, "Only cases whose name matches this glob")->check(kNotEmpty);
  cmd->add_option("--skip", opt->skip,
                  "Leave out the cases whose name matches this glob (after --filter; may be given more than once)")
      ->check(kNotEmpty);
  cmd->add_option("--profile", opt->profile,
                  "tlbf: the vectors and the behavioural checks (default); behavioural: only the properties "
                  "every Bloom filter has, for filters of other designs")
      ->check(CLI::IsMember({"tlbf", "behavioural"}));
  cmd->add_option("--capabilities", opt->capabilities,
                  "The capabilities to require, separated by commas (hashing,sizing,filter,bytes,union): one "
                  "left out is not checked unless offered, and the verdict names it; without this option every "
                  "capability is required (behavioural profile: filter,bytes,union), and one that is not offered "
                  "fails the check");
  cmd->add_option("--seed", opt->seed,
                  "Seed of the behavioural checks' items and of the random request sequences (a seed repeats a run)")
      ->check(kUnsigned64);
  cmd->add_option("--runs", opt->runs, "Random request sequences checked against the oracle as model (0: none)")
      ->check(whole_number_in(0, 100000));
  cmd->add_option("--timeout", opt->timeout_ms,
                  "Milliseconds an implementation may take to give its first answer; later timeouts adapt to its "
                  "speed, never above this (default 10000)")
      ->check(whole_number_in(1, 3'600'000));
  cmd->add_option("--time-budget", opt->budget_s,
                  "Seconds for the whole check of one implementation; cases left when it runs out are not run "
                  "(default 60)")
      ->check(whole_number_in(1, 86'400));
  cmd->add_option("--faults", opt->faults,
                  "Faults of one kind (crashes, hangs, ...) after which the cases left are not run (default 0: no "
                  "limit; each fault costs its case, the implementation is restarted, and --time-budget bounds the run)")
      ->check(whole_number_in(0, 1'000'000));
  cmd->add_option("--max-failures", opt->max_failures,
                  "Failed cases after which the cases left are not run, as pytest's --maxfail (default 0: every "
                  "case runs); the verdict of a stopped run is 'does not conform'")
      ->check(whole_number_in(0, 1'000'000));
  cmd->add_option("--json", opt->json_file, "Also write every case's outcome to this file as JSON")
      ->check(kNotEmpty);
  cmd->add_option("--junit", opt->junit_file, "Also write JUnit XML for CI systems (one --impl)")
      ->check(kNotEmpty);
  cmd->add_option("--html", opt->html_file,
                  "Also write the report as one self-contained HTML page (with several --impl, the parity matrix "
                  "first, linked to each failure)")
      ->check(kNotEmpty);
  cmd->add_option("--expected", opt->expected_file,
                  "Case names expected to fail, one a line: they do not fail the run, but a listed case that "
                  "passes or does not exist does")
      ->check(kNotEmpty);
  cmd->add_flag("--update-expected", opt->update_expected, "Rewrite the --expected file with this run's failures");
  cmd->add_flag("--no-pipeline", opt->no_pipeline, "Send one request at a time (slow; for comparison)");
  cmd->add_flag("--list", opt->list, "List the case names and exit");
  cmd->add_option("--transcript", opt->transcripts,
                  "Replay this transcript (docs/protocol.md, section 7) instead of the checks; repeatable")
      ->check(CLI::ExistingFile);
  cmd->add_flag("-v,--verbose", opt->verbose, "Also show acceptable differences and skipped cases");
  // Not in --help: caught only to point at --impl (`tlbf check -- ./impl serve`).
  cmd->add_option("stray", opt->stray)->group("");
  add_version(*cmd);
  cmd->callback([opt, &rc] { rc = run_check(*opt); });
}

}  // namespace tlbf::cli
