// tlbf mutate: grade a test suite by the planted bugs it catches (docs/mutants.md).
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "commands.hpp"
#include "grading_output.hpp"
#include "mutant_binary.hpp"
#include "files.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/catalog.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/mutants/suite_user.hpp"

namespace tlbf::cli {
namespace {

// "s01,s02,...": every id of the catalog (mutants/catalog.json).
std::string all_planted_bugs() {
  std::string out;
  for (const auto& id : mutants::ids()) out += (out.empty() ? "" : ",") + id;
  return out;
}

struct MutateOptions {
  std::vector<std::string> suite;
  int jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  double timeout_factor = 5.0;
  double timeout_floor_s = 10.0;
  double threshold = 0.80;
  std::string require = all_planted_bugs();
  std::string only;
  std::string shard;
  std::string patches;
  std::string workdir;
  std::string sanity_patch;
  std::string chaffs;
  std::string wheats;
  int confirm_runs = 2;
  int confirm_kills = 6;  // runs that confirm a required mutant's kill, at most
  std::string json;
  std::string html;
  int baseline_runs = 3;
  int control_runs = 2;
  double setup_timeout_s = 1800;
  bool reveal = false;
  bool sandbox = false, no_sandbox = false;
  std::string suite_user;  // --suite-user, "" for the default (suite_user.hpp)
  bool no_replay = false;
  std::vector<std::string> merge;
};

bool contains(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

constexpr std::string_view kMutateCommand = "tlbf mutate";
constexpr std::string_view kMergeCommand = "tlbf mutate --merge";
using SubjectsPtr = std::unique_ptr<mutants::Subjects>;

// Patch mode's subjects: the patches, each applied to a copy of --workdir.
Outcome<SubjectsPtr> patch_mode_subjects(const MutateOptions& opt, bool sandboxed) {
  for (const auto& dir : {opt.patches, opt.workdir, opt.chaffs, opt.wheats}) {
    if (!dir.empty() && !std::filesystem::is_directory(dir))
      return failure("'" + dir + "' is not a directory");
  }
  if (!opt.sanity_patch.empty() && !std::filesystem::is_regular_file(opt.sanity_patch)) {
    return failure("no sanity patch '" + opt.sanity_patch + "'");
  }
  return mutants::patched_subjects(
      opt.suite,
      mutants::PatchSet{opt.patches, opt.workdir, opt.sanity_patch, opt.chaffs, opt.wheats, sandboxed},
      opt.reveal);
}

// Served mode's subjects: tlbf-mutant serves every run, hidden: beside tlbf
// in the build tree, in libexec/tlbf once installed. Missing, nothing could be graded.
Outcome<SubjectsPtr> served_mode_subjects(const MutateOptions& opt, bool sandboxed) {
  if (!opt.sanity_patch.empty()) return failure("--sanity-patch is for patch mode (--patches, --workdir)");
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return failure("cannot find this program's path");
  const auto tlbf_mutant = runnable_mutant_binary();
  if (!tlbf_mutant.ok()) return tlbf_mutant.failure();
  return mutants::served_subjects(opt.suite, self, tlbf_mutant.value(), opt.reveal, sandboxed);
}

// The mutants graded, and those that must be killed.
struct MutantPlan {
  std::vector<std::string> selected;  // --mutants, else every one on offer
  std::vector<std::string> ids;       // the selected ones of this --shard
  std::vector<std::string> required;
};

// --shard k/n: shard k of `ids`; all of them without the option.
Outcome<std::vector<std::string>> shard_of(const std::string& shard, const std::vector<std::string>& ids) {
  if (shard.empty()) return ids;
  const std::size_t slash = shard.find('/');
  const auto k = strict_whole_number(shard.substr(0, slash));
  const auto n = slash == std::string::npos ? std::nullopt : strict_whole_number(shard.substr(slash + 1));
  if (!k || !n || *k < 1 || *k > *n || *n > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    return failure("--shard wants k/n with 1 <= k <= n, not '" + shard + "'");
  }
  return mutants::shard(ids, static_cast<int>(*k), static_cast<int>(*n));
}

// The mutants --mutants, --require and --shard choose from those `subjects` offer.
Outcome<MutantPlan> plan_mutants(const MutateOptions& opt, const mutants::Subjects& subjects) {
  const auto offered = subjects.ids();
  if (offered.empty()) return failure("no mutants: " + opt.patches + " holds no *.patch file");
  MutantPlan plan;
  if (!opt.only.empty()) {
    auto only = mutant_ids("--mutants", opt.only);
    if (!only.ok()) return only.failure();
    plan.selected = std::move(only).value();
  } else {
    plan.selected = offered;
  }
  auto required = mutant_ids("--require", opt.require);
  if (!required.ok()) return required.failure();
  plan.required = std::move(required).value();
  for (const auto& list : {plan.selected, plan.required}) {
    for (const auto& id : list) {
      if (contains(offered, id)) continue;
      return failure("no mutant '" + id + "'" +
                     (opt.patches.empty() ? "; `tlbf mutants list` names them"
                                          : " (no " + id + ".patch in " + opt.patches + ")"));
    }
  }
  auto ids = shard_of(opt.shard, plan.selected);
  if (!ids.ok()) return ids.failure();
  plan.ids = std::move(ids.value());
  return plan;
}

// Runs the suite on the clean reference, the controls and each mutant, with a progress line.
mutants::Score score_mutants(const MutateOptions& opt, mutants::Subjects& subjects,
                             const std::vector<std::string>& ids, const std::vector<std::string>& required) {
  mutants::ScoreOptions so;
  so.mutants = ids;
  so.jobs = opt.jobs;
  so.baseline_runs = opt.baseline_runs;
  so.control_runs = opt.control_runs;
  so.setup_limit = std::chrono::milliseconds(static_cast<long long>(opt.setup_timeout_s * 1000));
  so.timeout_factor = opt.timeout_factor;
  so.timeout_floor = std::chrono::milliseconds(static_cast<long long>(opt.timeout_floor_s * 1000));
  so.confirm_runs = opt.confirm_runs;
  so.required = required;
  so.kill_confirm_runs = opt.confirm_kills;
  so.replay = !opt.no_replay;
  so.chaffs = subjects.chaff_ids();
  so.wheats = subjects.wheat_ids();
  ProgressLine progress("");
  so.progress = [&progress](const mutants::Progress& p) { progress.show(p); };
  auto score = mutants::score_suite(subjects, so);
  progress.clear();
  // Before the report is written: a daemon a suite left (setsid) could
  // otherwise outlive the grading and rewrite it.
  conformance::end_strays();
  return score;
}

// What the report says besides the runs, the verdict included, and the
// required mutants that survived.
struct Judged {
  mutants::ReportContext context;
  std::vector<std::string> missed;
};

Judged judge(const MutateOptions& opt, const MutantPlan& plan, const std::string& sandbox,
             const mutants::Score& score) {
  Judged out;
  mutants::ReportContext& context = out.context;
  context.suite = opt.suite;
  context.threshold = opt.threshold;
  context.required = plan.required;
  context.mode = opt.patches.empty() ? "served" : "patches";
  context.selected = plan.selected;
  context.shard = opt.shard;
  context.exit_code = exit_for(score.stopped);
  context.version = TLBF_VERSION_STRING;
  context.confirm_runs = opt.confirm_runs;
  mutants::ScoreOptions planned;
  planned.confirm_runs = opt.confirm_runs;
  planned.kill_confirm_runs = opt.confirm_kills;
  context.confirm_kills = mutants::kill_confirmations(planned);
  context.sandbox = sandbox;
  if (score.stopped == mutants::kNotStopped) {
    context.meets = mutants::meets_bar(score, opt.threshold, plan.required, out.missed);
    context.exit_code = context.meets ? kOk : kRefused;
  }
  return out;
}

// How the grading was made, above its verdict: the warm-up, the baseline and
// what it was held against, the controls, the wheats, the mutants' runs.
void print_grading(const MutateOptions& opt, const mutants::Score& score) {
  if (score.warm_up_seconds > 0) std::printf("warm-up (builds, not graded): %.2f s\n", score.warm_up_seconds);
  std::printf("baseline: the suite passes on the clean reference %d of %d times, the slowest in %.2f s%s\n",
              score.baseline_passes, score.baseline_runs, score.baseline_seconds,
              opt.patches.empty()        ? "; it fails against one that refuses everything"
              : opt.sanity_patch.empty() ? " (no --sanity-patch: no sanity check)"
                                         : "; it fails with the sanity patch");
  if (score.control_runs > 0) {
    std::printf("controls: it passes the %d clean runs hidden at random places among the mutants' runs\n",
                score.control_runs);
  }
  if (!score.wheats.empty()) {
    std::printf("wheats: it passes every run of the %zu correct variants (", score.wheats.size());
    for (std::size_t i = 0; i < score.wheats.size(); ++i)
      std::printf("%s%s", i ? ", " : "", score.wheats[i].id.c_str());
    std::printf(")\n");
  }
  std::printf(
      "each mutant runs %d times and its outcome counts when they agree; a run is stopped after %.1f s\n"
      "(a timeout counts once a second run times out too)\n\n",
      std::max(1, opt.confirm_runs), static_cast<double>(score.limit.count()) / 1000);
}

int run_mutate(const MutateOptions& opt) {
  // Not dumpable: the suites it runs, as the same user, cannot read its
  // memory (which holds what each run serves) through /proc.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  // Before the sandbox's probe, which runs as that user too.
  if (auto chosen = mutants::choose_suite_user(opt.suite_user); !chosen.ok())
    return fail_with(kUsage, kMutateCommand, chosen.failure());
  // Patch mode is sandboxed unless told not to; served mode when asked.
  const std::string sandbox = sandbox_state(!opt.no_sandbox && (opt.sandbox || !opt.patches.empty()));
  if (opt.patches.empty() != opt.workdir.empty()) {
    return fail_with(kUsage, kMutateCommand, failure("--patches and --workdir go together"));
  }
  std::string viewer_js;
  if (!opt.html.empty()) {
    auto viewer = load_viewer();
    if (!viewer.ok()) return fail_with(kUsage, kMutateCommand, viewer.failure());
    viewer_js = std::move(viewer).value();
  }
  if (opt.patches.empty() && (!opt.chaffs.empty() || !opt.wheats.empty())) {
    return fail_with(kUsage, kMutateCommand,
                     failure("--chaffs and --wheats are for patch mode (--patches, --workdir)"));
  }
  const bool sandboxed = sandbox == "bubblewrap";
  auto subjects =
      opt.patches.empty() ? served_mode_subjects(opt, sandboxed) : patch_mode_subjects(opt, sandboxed);
  if (!subjects.ok()) return fail_with(kUsage, kMutateCommand, subjects.failure());
  const auto plan = plan_mutants(opt, *subjects.value());
  if (!plan.ok()) return fail_with(kUsage, kMutateCommand, plan.failure());
  mutants::Subjects& graded = *subjects.value();
  const auto score = score_mutants(opt, graded, plan->ids, plan->required);
  const auto [context, missed] = judge(opt, plan.value(), sandbox, score);
  // Every run that got this far writes its report, a stopped one too: a
  // dashboard or a merge must see why there is no grade.
  if (!opt.json.empty() || !opt.html.empty()) {
    const auto written =
        write_reports(opt.json, opt.html, mutants::mutation_report_json(graded, score, context), viewer_js);
    if (!written) return fail_with(kIo, kMutateCommand, written.failure());
  }
  if (score.stopped != mutants::kNotStopped) {
    print_stop(score);
    return context.exit_code;
  }
  print_grading(opt, score);
  print_verdict(score, mutants::survivors(graded, score.runs), opt.threshold, missed, context.meets);
  print_chaffs(score);
  return context.exit_code;
}

// --merge: the shards' reports as one grading, with their threshold and
// required mutants (docs/mutants.md, "Shards").
int run_merge(const MutateOptions& opt) {
  std::string viewer_js;
  if (!opt.html.empty()) {
    auto viewer = load_viewer();
    if (!viewer.ok()) return fail_with(kUsage, kMergeCommand, viewer.failure());
    viewer_js = std::move(viewer).value();
  }
  std::vector<std::pair<std::string, std::string>> reports;
  for (const auto& file : opt.merge) {
    auto bytes = read_file(file);
    if (!bytes) return fail_with(kIo, kMergeCommand, bytes.failure());
    reports.emplace_back(file, std::move(bytes).value());
  }
  const auto merging = mutants::merge_reports(reports);
  if (!merging.ok()) return fail_with(kUsage, kMergeCommand, merging.failure());
  const auto& merged = merging.value();
  if (merged.score.stopped != mutants::kNotStopped) {
    print_stop(merged.score);
    return exit_for(merged.score.stopped);
  }
  if (const auto written = write_reports(opt.json, opt.html, merged.json, viewer_js); !written)
    return fail_with(kIo, kMergeCommand, written.failure());
  std::printf("merged %zu reports of %zu mutants\n\n", reports.size(), merged.score.runs.size());
  print_verdict(merged.score, {}, merged.context.threshold, merged.missed, merged.context.meets);
  return merged.context.exit_code;
}

// What is graded and the bar it must meet.
void add_grading_options(CLI::App& cmd, MutateOptions& opt) {
  cmd.add_option("-j,--jobs", opt.jobs, "Suites run at once (default: the number of cores)")
      ->check(whole_number_in(1, 256));
  cmd.add_option("--timeout-factor", opt.timeout_factor,
                 "A mutant's run may take this times the baseline's time")
      ->check(decimal_in(1, 1000));
  cmd.add_option("--timeout-floor", opt.timeout_floor_s, "... and at least this many seconds")
      ->check(decimal_in(0.1, 86400));
  cmd.add_option("--threshold", opt.threshold, "The score to meet (default 0.80)")->check(decimal_in(0, 1));
  cmd.add_option(
         "--require", opt.require,
         "Comma-separated mutants that must be killed (default: every planted bug of mutants/catalog.json)")
      ->check(kNotEmpty);
  cmd.add_option("--mutants", opt.only, "Comma-separated mutants to run (default all)")->check(kNotEmpty);
  cmd.add_option("--shard", opt.shard, "Run shard k of n (k/n) of the mutants, for splitting across CI jobs")
      ->check(kNotEmpty);
}

// Patch mode: mutants as patches to a suite's own source, and the correct variants.
void add_patch_mode_options(CLI::App& cmd, MutateOptions& opt) {
  cmd.add_option("--patches", opt.patches, "Patch mode: DIR/*.patch are the mutants, applied with patch -p1")
      ->check(kNotEmpty);
  cmd.add_option("--workdir", opt.workdir,
                 "Patch mode: the directory each patch applies to; the suite runs in a copy")
      ->check(kNotEmpty);
  cmd.add_option("--sanity-patch", opt.sanity_patch, "Patch mode: a patch that must make the suite fail")
      ->check(kNotEmpty);
  cmd.add_option(
         "--chaffs", opt.chaffs,
         "Patch mode: DIR/*.patch are more bugs, run like the mutants and reported apart from the score")
      ->check(kNotEmpty);
  cmd.add_option(
         "--wheats", opt.wheats,
         "Patch mode: each DIR/NAME is a correct variant (its files laid over the work directory) that the "
         "suite must pass; a suite that fails one is exit 6")
      ->check(kNotEmpty);
}

// How often each thing runs and for how long, and the report files.
void add_run_and_report_options(CLI::App& cmd, MutateOptions& opt) {
  cmd.add_option(
         "--confirm-runs", opt.confirm_runs,
         "Runs of each mutant; its outcome counts when they agree, else the suite is flaky (default 2; a "
         "required mutant's kill: --confirm-kills)")
      ->check(whole_number_in(1, 20));
  cmd.add_option(
         "--confirm-kills", opt.confirm_kills,
         "Runs that confirm a required mutant's kill, stopping at the first that survives (default 6; "
         "never fewer than --confirm-runs; none more with --confirm-runs 1)")
      ->check(whole_number_in(1, 20));
  cmd.add_option("--json", opt.json, "Write the report in the mutation-testing-elements schema to FILE")
      ->check(kNotEmpty);
  cmd.add_option(
         "--html", opt.html,
         "Write the report as one self-contained HTML page, drawn by mutation-testing-elements (inlined; "
         "opens offline) to FILE")
      ->check(kNotEmpty);
  cmd.add_option("--baseline-runs", opt.baseline_runs,
                 "Clean runs; a suite that passes some and fails some is flaky (default 3)")
      ->check(whole_number_in(1, 100));
  cmd.add_option("--setup-timeout", opt.setup_timeout_s,
                 "Seconds each run before the mutants' (warm-up, baseline) may take before it is stopped "
                 "(default 1800)")
      ->check(decimal_in(0.1, 86400));
  cmd.add_option("--control-runs", opt.control_runs,
                 "Clean runs hidden at random places among the mutants'; a suite that fails one is flaky or "
                 "counts its "
                 "runs (default 2)")
      ->check(whole_number_in(0, 100));
}

// What the suites may see.
void add_sandbox_options(CLI::App& cmd, MutateOptions& opt) {
  cmd.add_flag(
      "--sandbox", opt.sandbox,
      "Served mode: run every suite under bubblewrap too (patch mode always does, unless --no-sandbox)");
  cmd.add_flag(
      "--no-sandbox", opt.no_sandbox,
      "Run the suites as they are, seeing everything this user can (patch mode is sandboxed by default)");
  cmd.add_option("--suite-user", opt.suite_user,
                 "When tlbf runs as root: the user each suite runs as, a name, a number or UID:GID "
                 "(default nobody)")
      ->check(kNotEmpty);
  cmd.add_flag("--no-replay", opt.no_replay,
               "Served mode: run the suite against every mutant and chaff, even one that answers the clean "
               "runs' requests exactly as the reference did (by default that one survives unrun)");
  cmd.add_flag("--reveal-mutant", opt.reveal,
               "Let the suite see what it faces (TLBF_MUTANT, a TLBF_IMPL that names it): for debugging a "
               "suite, not for grading");
}

// A merge grades nothing: the settings of a grading come from the reports,
// so any option but --json and --html is refused beside --merge.
int run_merge_alone(const CLI::App& cmd, const CLI::Option* merge, const MutateOptions& opt) {
  for (const auto* o : cmd.get_options()) {
    if (o != merge && o->count() > 0 && o->get_name() != "--json" && o->get_name() != "--html") {
      std::cerr << "tlbf mutate --merge: " << o->get_name()
                << " belongs to a grading, not a merge (the shards' reports carry their settings)\n";
      return kUsage;
    }
  }
  return run_merge(opt);
}

}  // namespace

void add_mutate(CLI::App& app, int& rc) {
  auto opt = std::make_shared<MutateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "mutate", "Grade a test suite by the planted bugs " + mutants::id_range() + " it catches");
  cmd->footer(
      "Runs SUITE on the clean reference (--baseline-runs times), once against an implementation\n"
      "that refuses every request, then once per mutant, with TLBF_IMPL set to a command serving it.\n"
      "In patch mode, SUITE runs in a copy of --workdir, clean, then with each patch applied.\n"
      "With --merge, the shards' reports as one grading.\n" +
      exit_footer(
          {{kOk, "the score meets the threshold and every required mutant is killed"},
           {kRefused, "it falls short"},
           {kUsage, "usage, or (--merge) reports that cannot be merged"},
           {kIo, "a report cannot be read or written"},
           {kPassesBroken, "the suite passes against an implementation that refuses everything"},
           {kFlaky,
            "the suite is flaky (passes some clean runs, fails others, or two runs of one mutant "
            "disagree)"},
           {kRejectsCorrect, "the suite fails a correct variant (--wheats)"},
           {kCannotRun, "a run could not happen (a patch that does not apply, a copy that cannot be made)"},
           {kFailsClean, "the suite fails on the clean reference"}},
          "docs/mutants.md"));
  cmd->add_option("suite", opt->suite, "The suite's command and arguments, after --");
  add_grading_options(*cmd, *opt);
  add_patch_mode_options(*cmd, *opt);
  add_run_and_report_options(*cmd, *opt);
  add_sandbox_options(*cmd, *opt);
  auto* merge =
      cmd->add_option(
             "--merge", opt->merge,
             "Merge the --json reports of shards (--shard k/n) into one verdict, with their threshold and "
             "required mutants; writes the merged report to --json and --html")
          ->expected(1, -1)
          ->check(kNotEmpty);
  add_version(*cmd);
  cmd->callback([opt, merge, cmd, &rc] {
    if (merge->count() > 0) {
      rc = run_merge_alone(*cmd, merge, *opt);
      return;
    }
    if (opt->suite.empty()) {
      std::cerr << "tlbf mutate: no suite: give its command after --, or --merge REPORTS\n";
      rc = kUsage;
      return;
    }
    rc = run_mutate(*opt);
  });
}

}  // namespace tlbf::cli
