#include "tlbf/conformance/check_run.hpp"

#include <algorithm>
#include <set>

#include "tlbf/conformance/adapters.hpp"
#include "tlbf/conformance/check_suite.hpp"
#include "tlbf/vectors/vectors.hpp"
#include "tlbf/whole_file.hpp"

namespace tlbf::conformance {
namespace {

namespace fs = std::filesystem;
using Kind = CheckError::Kind;
using RunOrError = std::variant<CheckRun, CheckError>;

constexpr std::string_view kCheckCommand = "tlbf check";
// The transcripts and lists read whole are far shorter (as tlbf's other commands read them).
constexpr std::size_t kWholeFileLimit = std::size_t{256} << 20;

CheckError error(Kind kind, const Failure& f) { return {kind, f.why, false}; }
CheckError file_error(const Failure& f) { return {Kind::Unreadable, f.why, true}; }

// The capabilities that must be offered: those --capabilities names, else
// every one of TLBF v1 (the behavioural profile: the filter, its bytes and
// union, which its checks use). A Failure names an unknown name.
Outcome<std::set<Capability>> required_capabilities(const CheckRunOptions& opt) {
  if (!opt.capabilities) {
    return opt.profile == "behavioural"
               ? std::set<Capability>{Capability::Filter, Capability::Bytes, Capability::Union}
               : std::set<Capability>(std::begin(kAllCapabilities), std::end(kAllCapabilities));
  }
  std::set<Capability> out;
  const std::string& names = *opt.capabilities;
  std::size_t start = 0;
  // An empty list is refused like any unknown name: "" would otherwise be
  // read as "no option", and require every capability without a word.
  while (start <= names.size()) {
    const std::size_t comma = std::min(names.find(',', start), names.size());
    const std::string name = names.substr(start, comma - start);
    const auto c = capability_named(name);
    if (!c) {
      return failure("--capabilities: no capability named '" + name +
                     "' (hashing, sizing, filter, bytes, union, separated by commas)");
    }
    out.insert(*c);
    start = comma + 1;
  }
  return out;
}

// The vector files to check against: the ones compiled in, or DIR's after
// they pass the lint and, unless they are the user's own, are those tlbf was
// built with (a corrupt, gutted or tampered file would make every verdict
// meaningless). The error lists the problems, a line each, as tlbf check
// says each; it is Unreadable when a file cannot be read, else Usage.
std::variant<std::vector<vectors::VectorFile>, CheckError> load_vectors(const std::string& dir,
                                                                        bool own_vectors) {
  if (dir.empty()) return vectors::generate();
  auto folder =
      vectors::load_folder(dir, own_vectors ? vectors::Expect::OwnVectors : vectors::Expect::BuiltWith);
  if (folder.problems.empty()) return std::move(folder.files);
  std::string why;
  for (const auto& problem : folder.problems) why += problem + "\n" + std::string(kCheckCommand) + ": ";
  if (folder.differs) why += std::string(vectors::kNotBuiltWith) + "\n" + std::string(kCheckCommand) + ": ";
  return CheckError{folder.readable ? Kind::Usage : Kind::Unreadable,
                    why + "the vector files in " + dir + " fail the lint; not checking with them", false};
}

Budget budget_of(const CheckRunOptions& opt) {
  Budget budget;
  budget.first_answer = std::chrono::milliseconds(opt.timeout_ms);
  budget.floor = std::min(budget.floor, budget.first_answer);
  budget.total = std::chrono::seconds(opt.budget_s);
  return budget;
}

Launch launch_of(const CheckRunOptions& opt) {
  Launch launch;
  launch.own_pid_namespace = opt.sandbox;
  return launch;
}

// --transcript: the files replayed, and nothing else, against each implementation.
RunOrError replay_transcripts(const CheckRunOptions& opt, CheckObserver& observer) {
  // A replay has no cases, groups or capabilities to report: not silently no file.
  if (const auto fit = report_files_fit_a_replay(opt.report_files); !fit)
    return error(Kind::Usage, fit.failure());
  if (!opt.expected_file.empty()) {
    return CheckError{Kind::Usage,
                      "--expected reports a check; --transcript only replays (its report is the text)"};
  }
  CheckRun run;
  run.mode = CheckRun::Mode::Replayed;
  run.transcripts.reserve(opt.transcripts.size());  // Replayed points into it
  for (const auto& path : opt.transcripts) {
    const auto bytes = read_whole_file(path, kWholeFileLimit, "transcript, list or report");
    if (!bytes) return file_error(bytes.failure());
    auto t = parse_transcript(bytes.value(), path);
    if (!t) return error(Kind::Usage, t.failure_in(path + ":"));
    fill_in_oracle_answers(t.value());
    run.transcripts.push_back(std::move(t.value()));
  }
  run.passed = true;
  for (const auto& impl : opt.impls) {
    for (const auto& t : run.transcripts) {
      run.replays.push_back({&t, impl, replay(t, impl, budget_of(opt), launch_of(opt))});
      observer.replayed(run.replays.back());
      run.passed = run.passed && run.replays.back().report.passed;
    }
  }
  return run;
}

// /bin/sh -c '' runs nothing and exits 0: that is no implementation.
bool runs_nothing(const std::string& command) {
  return command.find_first_not_of(" \t\n") == std::string::npos;
}

// An adapter's file: the first of the adapter folders that holds it.
std::optional<fs::path> adapter_file(const CheckRunOptions& opt, const std::string& relative) {
  for (const auto& candidate : opt.adapter_folders) {
    std::error_code ec;
    if (fs::is_regular_file(candidate / relative, ec)) return candidate / relative;
  }
  return std::nullopt;
}

// --rust-crate and --python-module: each becomes an --impl, a protocol server over the learner's code.
Outcome<Done> add_adapters(CheckRunOptions& opt, CheckObserver& observer) {
  for (const auto& module : opt.python_modules) {
    const auto script = adapter_file(opt, "python/tlbf_adapter.py");
    if (!script) {
      return failure(
          "cannot find the Python adapter (adapters/python/tlbf_adapter.py beside tlbf or in share/tlbf)");
    }
    auto a =
        python_module_adapter(module, *script, std::chrono::milliseconds(opt.timeout_ms), launch_of(opt));
    if (!a) return a.failure();
    opt.impls.push_back(std::move(a.value()));
  }
  const auto limit = std::chrono::milliseconds(std::max<long>(opt.timeout_ms, 600'000));
  for (const auto& crate : opt.rust_crates) {
    const auto server = adapter_file(opt, "rust/main.rs");
    if (!server)
      return failure("cannot find the Rust adapter (adapters/rust/main.rs beside tlbf or in share/tlbf)");
    observer.note(std::string(kCheckCommand) + ": building the Rust adapter against " + crate + " ...");
    auto a = rust_crate_adapter(crate, opt.rust_module, *server, tlbf_cache_folder(), limit, launch_of(opt));
    if (!a) return a.failure();
    opt.impls.push_back(std::move(a.value()));
  }
  return done();
}

// The implementations' commands as given: words outside any option, or an
// --impl that runs nothing, are refused before anything runs.
Outcome<Done> commands_are_usable(const CheckRunOptions& opt) {
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
Outcome<std::string> default_implementation(const CheckRunOptions& opt) {
  // Set but empty is a CI variable that was never filled in: checking the
  // built-in reference instead would pass without checking anything.
  if (opt.tlbf_impl && runs_nothing(*opt.tlbf_impl)) {
    return failure(
        "TLBF_IMPL is set but empty ('" + *opt.tlbf_impl +
        "'): it names no implementation; set it to one's command, or unset it to check the built-in "
        "reference");
  }
  return opt.tlbf_impl ? *opt.tlbf_impl : opt.reference;
}

// --expected and the report files that describe one implementation: one
// --impl each; and --update-expected with --expected.
Outcome<Done> report_options_fit(const CheckRunOptions& opt) {
  if (!opt.expected_file.empty() && opt.impls.size() > 1) {
    return failure("--expected lists one implementation's failures; give one --impl");
  }
  if (auto fit = report_files_fit(opt.report_files, opt.impls.size()); !fit) return fit;
  if (opt.update_expected && opt.expected_file.empty())
    return failure("--update-expected needs --expected FILE");
  return done();
}

// How each implementation is checked; a Failure for an unknown --capabilities name.
Outcome<RunnerOptions> runner_options(const CheckRunOptions& opt, const CheckSuite& suite) {
  auto required = required_capabilities(opt);
  if (!required.ok()) return required.failure();
  RunnerOptions runner;
  // A large filter is not called hung for what a 512 MiB request costs (docs/check.md, "The large filters").
  runner.budget = budget_for(suite.cases, budget_of(opt));
  runner.launch = launch_of(opt);
  runner.pipelined = !opt.no_pipeline;
  runner.faults_before_unreliable = opt.faults;
  runner.max_failures = opt.max_failures;
  runner.required = std::move(required.value());
  return runner;
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

// Whether one implementation's report passes: it conforms; with --expected,
// it is as listed; with --update-expected, every case ran and the session
// ended cleanly (the list records failures seen; a case that did not run was
// not seen at all, so a run cut short is no pass, with or without the list).
bool passes(const CheckRunOptions& opt, CheckRun& run, const CheckReport& report) {
  if (opt.update_expected) {
    return report.speaks_protocol && report.session_problem.empty() &&
           report.count(CaseOutcome::NotRun) == 0 && report.stopped_because.empty();
  }
  if (opt.expected_file.empty()) return report.conforms();
  run.expected_verdict = judge_expected(report, run.expected);
  return run.expected_verdict->ok(report);
}

// Each implementation checked in turn; the first with no verdict ends the run.
RunOrError check_implementations(const CheckRunOptions& opt, const CheckSuite& suite,
                                 const RunnerOptions& runner, const std::string& selected_by, CheckRun run,
                                 CheckObserver& observer) {
  run.passed = true;
  for (const auto& impl : opt.impls) {
    observer.starting(impl);
    CheckReport report = check(impl, suite.cases, runner, suite.behaviour);
    report.selected_by = selected_by;
    if (const auto verdict = reached_a_verdict(report, impl); !verdict.ok())
      return error(Kind::CannotRun, verdict.failure());
    observer.checked(report);
    run.passed = passes(opt, run, report) && run.passed;
    run.reports.push_back(std::move(report));
  }
  return run;
}

// The implementations to check: as given, the adapters', or the default one.
std::optional<CheckError> find_implementations(CheckRunOptions& opt, CheckObserver& observer) {
  if (const auto usable = commands_are_usable(opt); !usable.ok()) return error(Kind::Usage, usable.failure());
  if (opt.sandbox) {
    if (const auto available = own_pid_namespaces_available(); !available.ok())
      return CheckError{Kind::CannotRun, "--sandbox: " + available.why()};
  }
  if (const auto added = add_adapters(opt, observer); !added.ok())
    return error(Kind::CannotRun, added.failure());
  if (opt.impls.empty()) {
    auto impl = default_implementation(opt);
    if (!impl.ok()) return error(Kind::Usage, impl.failure());
    opt.impls.push_back(std::move(impl.value()));
  }
  return std::nullopt;
}

}  // namespace

std::variant<CheckRun, CheckError> run_check(CheckRunOptions opt, CheckObserver& observer) {
  if (auto problem = find_implementations(opt, observer)) return *problem;
  if (!opt.transcripts.empty()) return replay_transcripts(opt, observer);
  auto files = load_vectors(opt.vectors_dir, opt.own_vectors);
  if (auto* problem = std::get_if<CheckError>(&files)) return *problem;
  const CheckSelection selection{opt.profile, opt.seed, opt.runs,
                                 opt.filter,  opt.skip, std::move(std::get<0>(files))};
  const auto suite = select_check_cases(selection);
  if (!suite.ok()) return error(Kind::Usage, suite.failure());
  CheckRun run;
  if (opt.list) {
    run.mode = CheckRun::Mode::Listed;
    for (const auto& c : suite->cases) run.case_names.push_back(c.name);
    for (const auto& c : suite->behaviour) run.case_names.push_back(c.name);
    run.passed = true;
    return run;
  }
  if (const auto fit = report_options_fit(opt); !fit.ok()) return error(Kind::Usage, fit.failure());
  if (!opt.expected_file.empty() && !opt.update_expected) {
    const auto bytes = read_whole_file(opt.expected_file, kWholeFileLimit, "transcript, list or report");
    if (!bytes) return file_error(bytes.failure());
    run.expected = parse_expected_failures(bytes.value());
  }
  const auto runner = runner_options(opt, suite.value());
  if (!runner.ok()) return error(Kind::Usage, runner.failure());
  return check_implementations(opt, suite.value(), runner.value(), selected_by(selection), std::move(run),
                               observer);
}

}  // namespace tlbf::conformance
