// tlbf grade: a class of learners' test suites, each graded against the
// course's reference with the planted bugs (docs/mutants.md, "For course authors").
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "commands.hpp"
#include "files.hpp"
#include "grading_output.hpp"
#include "installed_files.hpp"
#include "mutant_binary.hpp"
#include "platform_output.hpp"
#include "tlbf/conformance/adapters.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/mutants/catalog.hpp"
#include "tlbf/mutants/class_grading.hpp"
#include "tlbf/mutants/class_merge.hpp"
#include "tlbf/mutants/grade.hpp"
#include "tlbf/mutants/suite_user.hpp"

namespace tlbf::cli {
namespace {

namespace fs = std::filesystem;

struct GradeOptions {
  std::string class_dir;
  std::string kind;
  std::string kit;
  std::string out = "tlbf-grade";
  std::string chaffs = "bundled";
  int jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  int baseline_runs = 3;
  int control_runs = 2;
  int confirm_runs = 2;
  int confirm_kills = 6;  // runs that confirm a required mutant's kill, at most
  double threshold = 0.80;
  std::string require;
  double timeout_factor = 5.0;
  double timeout_floor_s = 10.0;
  double setup_timeout_s = 1800;
  bool fresh = false;
  bool prepare = false;  // build the kit's variants into the cache, grade nobody
  bool no_sandbox = false;
  std::string suite_user;  // --suite-user, "" for the default (suite_user.hpp)
  bool no_replay = false;
  bool no_runs_alone = false;
  std::string junit;
  bool fail_unless_all_meet = false;
  PlatformOptions platform;        // one submission, for an autograder platform
  std::string shard;               // --shard K/N
  std::vector<std::string> merge;  // --merge: the shards' output folders
};

// The bundled kit of a kind: beside tlbf in the build tree, in share/tlbf/grade-kits once installed.
std::optional<fs::path> bundled_kit(const std::string& kind) {
  for (const auto& candidate : kit_folder_candidates()) {
    std::error_code ec;
    if (fs::is_regular_file(candidate / kind / "kit.json", ec)) return candidate / kind / "kit.json";
  }
  return std::nullopt;
}

// On one line of at most `width` columns, every byte outside printable
// ASCII escaped: a folder's name or a suite's words must not draw on the
// grader's terminal.
std::string fitted(std::string text, std::size_t width) {
  for (char& c : text) {
    if (c == '\n') c = ' ';
  }
  text = conformance::readable_lines(text, text.size());
  return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

constexpr std::string_view kGradeCommand = "tlbf grade";
constexpr std::string_view kMergeCommand = "tlbf grade --merge";

// The class's options as the command line gives them; `required` and
// `tlbf_mutant` come from complete_run.
mutants::ClassOptions class_options(const GradeOptions& opt, mutants::Kit kit) {
  mutants::ClassOptions options;
  options.kit = std::move(kit);
  options.threshold = opt.threshold;
  options.chaffs = opt.chaffs != "none";
  options.jobs = opt.jobs;
  options.baseline_runs = opt.baseline_runs;
  options.control_runs = opt.control_runs;
  options.confirm_runs = opt.confirm_runs;
  options.confirm_kills = opt.confirm_kills;
  options.timeout_factor = opt.timeout_factor;
  options.timeout_floor = std::chrono::milliseconds(static_cast<long long>(opt.timeout_floor_s * 1000));
  options.setup_limit = std::chrono::milliseconds(static_cast<long long>(opt.setup_timeout_s * 1000));
  options.fresh = opt.fresh;
  options.sandbox_wanted = !opt.no_sandbox;
  options.sandbox = sandbox_state(!opt.no_sandbox);
  options.version = TLBF_VERSION_STRING;
  std::error_code ec;
  options.replay = !opt.no_replay;
  options.runs_alone = !opt.no_runs_alone;
  options.tlbf = fs::read_symlink("/proc/self/exe", ec).string();  // serves the alternatives wheat
  options.exit_code = [](mutants::Stop stopped, bool meets) -> int {
    if (stopped != mutants::kNotStopped) return exit_for(stopped);
    return meets ? kOk : kRefused;
  };
  return options;
}

// --kit, else the bundled kit of --kind.
Outcome<fs::path> kit_path_of(const GradeOptions& opt) {
  if (!opt.kit.empty()) return fs::path(opt.kit);
  const auto bundled = bundled_kit(opt.kind);
  if (!bundled) {
    return failure("no bundled kit for --kind " + opt.kind +
                   " (looked beside tlbf and in share/tlbf/grade-kits); give one with --kit FILE "
                   "(docs/mutants.md, \"Kits\")");
  }
  return *bundled;
}

// A required mutant the kit has no patch for would be required of nobody.
Outcome<Done> kit_offers(const mutants::Kit& kit, const std::vector<std::string>& required) {
  const auto offered = mutants::ids();
  for (const auto& id : required) {
    if (!kit.serves.empty() && std::find(offered.begin(), offered.end(), id) == offered.end()) {
      return failure("no mutant '" + id + "' (the oracle's are " + mutants::id_range() + ")");
    }
    std::error_code ec;
    if (kit.serves.empty() && !fs::is_regular_file(fs::path(kit.set.patches) / (id + ".patch"), ec)) {
      return failure("no mutant '" + id + "' (no " + id + ".patch in " + kit.set.patches + ")");
    }
  }
  return done();
}

// The required mutants, and what serves the oracle's for a kit that serves
// them; a Failure is the command line's (exit 2).
Outcome<Done> complete_options(const GradeOptions& opt, mutants::ClassOptions& options) {
  if (opt.require.empty()) {
    options.required = mutants::ids();
  } else if (auto required = mutant_ids("--require", opt.require); required.ok()) {
    options.required = std::move(required).value();
  } else {
    return required.failure();
  }
  if (auto offers = kit_offers(options.kit, options.required); !offers.ok()) return offers;
  if (!options.kit.serves.empty()) {
    auto tlbf_mutant = runnable_mutant_binary();
    if (!tlbf_mutant.ok()) return tlbf_mutant.failure();
    options.tlbf_mutant = std::move(tlbf_mutant.value());
  }
  return done();
}

// Ten seconds between progress lines in a log. TLBF_GRADE_PROGRESS_SECONDS,
// for tests only, sets another (0: a line for every run that ends), so that a
// test of the lines need not grade for ten seconds.
Outcome<ProgressLine::Seconds> plain_progress_every() {
  const char* set = std::getenv("TLBF_GRADE_PROGRESS_SECONDS");
  if (set == nullptr) return ProgressLine::Seconds(10);
  const auto seconds = strict_whole_number(set);
  if (!seconds || *seconds > 86400) {
    return failure("TLBF_GRADE_PROGRESS_SECONDS: '" + std::string(set) +
                   "' is not a whole number of seconds in 0 ..= 86400");
  }
  return ProgressLine::Seconds(static_cast<double>(*seconds));
}

// class.json, class.html and --junit's file; a Failure names the one not written.
Outcome<Done> write_summaries(const GradeOptions& opt, const mutants::ClassSummary& summary) {
  if (auto written =
          write_file((fs::path(opt.out) / "class.json").string(), mutants::class_summary_json(summary));
      !written)
    return written;
  if (auto written =
          write_file((fs::path(opt.out) / "class.html").string(), mutants::class_summary_html(summary));
      !written)
    return written;
  if (opt.junit.empty()) return done();
  return write_file(opt.junit, mutants::class_summary_junit(summary.rows, summary.kind, summary.threshold,
                                                            summary.required));
}

Exit class_exit(bool harness_failed, const GradeOptions& opt, const std::vector<mutants::ClassRow>& rows) {
  switch (mutants::class_end(harness_failed, opt.fail_unless_all_meet, rows)) {
    case mutants::ClassEnd::HarnessFailed:
      return kCannotRun;
    case mutants::ClassEnd::NotAllMeet:
      return kNotAllMeet;
    case mutants::ClassEnd::Graded:
      break;
  }
  return kOk;
}

// Writes and prints the class, and says how it ends.
int finish(const GradeOptions& opt, const mutants::ClassSummary& summary, bool harness_failed) {
  if (auto written = write_summaries(opt, summary); !written)
    return fail_with(kIo, kFileSpeaker, written.failure());
  std::fputs(mutants::class_summary_text(summary.rows, (fs::path(opt.out) / "class.html").string()).c_str(),
             stdout);
  return class_exit(harness_failed, opt, summary.rows);
}

// What the command shows and writes as the class is graded: the progress
// line, each learner's report and page in OUT/learners, and on standard error
// how far the grading is, how long each learner took and how long the rest may.
struct Reporter {
  const GradeOptions& opt;
  std::string kit_path;
  ProgressLine progress;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::string prefix = {};  // "[3/10] alice: "
  std::size_t count = 0;

  fs::path json_of(const mutants::Learner& learner) const {
    return fs::path(opt.out) / "learners" / (learner.name + ".json");
  }
  // OUT/learners/NAME.json and .html; the page relative to the class's summary.
  Outcome<std::string> keep(const mutants::Learner& learner, const std::string& json,
                            const std::string& page) {
    const fs::path path = json_of(learner);
    auto written = write_file(path.string(), json);
    if (written && !page.empty())
      written = write_file(fs::path(path).replace_extension(".html").string(), page);
    if (!written) {
      say(kGradeCommand, written.failure());
      return written.failure();
    }
    return page.empty() ? std::string() : "learners/" + learner.name + ".html";
  }
  // One that cannot be read (not a regular file, too long) is graded afresh.
  std::optional<mutants::KeptReport> earlier(const mutants::Learner& learner) const {
    auto text = read_file(json_of(learner).string());
    if (!text.ok()) return std::nullopt;
    return mutants::KeptReport{std::move(text).value(), "learners/" + learner.name + ".html"};
  }
  void begins(std::size_t i, std::size_t n, const mutants::Learner& learner) {
    const std::string of = "/" + std::to_string(n);
    count = n;
    prefix = "[" + std::to_string(i + 1) + of + "] " + fitted(learner.name, 30) + ": ";
    progress.set_prefix(prefix, "tlbf grade: " + std::to_string(i) + of + " learners done; " +
                                    fitted(learner.name, 80) + ": ");
  }
  void ends(std::size_t i, const mutants::ClassRow& row, double took, bool reused) {
    if (reused) {
      std::cerr << prefix << "graded before from the same files: reusing "
                << (fs::path(opt.out) / "learners" / (row.name + ".json")).string() << "\n";
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "%s%s in %.1f s (%.0f s so far, ETA %.0f s)\n", prefix.c_str(), row.verdict.c_str(),
                 took, elapsed, elapsed / static_cast<double>(i + 1) * static_cast<double>(count - i - 1));
  }
};

mutants::ClassHooks hooks_of(Reporter& r, std::size_t learners) {
  mutants::ClassHooks hooks;
  hooks.warming = [&r, learners] {
    std::cerr << "tlbf grade: " << learners << " learners, kit " << r.kit_path << "; warming the reference\n";
  };
  hooks.warmed = [](const mutants::ClassWarmUp& w) {
    std::fprintf(stderr, "tlbf grade: the reference warmed in %.1f s", w.seconds);
    if (w.variants_built + w.variants_from_cache > 0)
      std::fprintf(stderr, " (the kit's variants: %d built, %d from the cache)", w.variants_built,
                   w.variants_from_cache);
    std::fputc('\n', stderr);
  };
  hooks.learner_begins = [&r](std::size_t i, std::size_t n, const mutants::Learner& l) { r.begins(i, n, l); };
  hooks.progress = [&r](const mutants::Progress& p) { r.progress.show(p); };
  hooks.runs_ended = [&r] { r.progress.clear(); };
  hooks.keep_report = [&r](const mutants::Learner& l, const std::string& json, const std::string& page) {
    return r.keep(l, json, page);
  };
  hooks.earlier_report = [&r](const mutants::Learner& l) { return r.earlier(l); };
  hooks.learner_ends = [&r](std::size_t i, const mutants::ClassRow& row, double took, bool reused) {
    r.ends(i, row, took, reused);
  };
  return hooks;
}

// Grades the class with the kit at `kit_path`, once the command line is known to be right.
int grade_and_report(const GradeOptions& opt, const mutants::ClassOptions& options, const fs::path& kit_path,
                     const std::vector<mutants::Learner>& learners, ProgressLine::Seconds plain_every) {
  const fs::path learners_dir = fs::path(opt.out) / "learners";
  std::error_code ec;
  fs::create_directories(learners_dir, ec);
  if (ec)
    return fail_with(kIo, kGradeCommand,
                     failure("cannot make " + learners_dir.string() + ": " + ec.message()));
  Reporter reporter{opt, kit_path.string(), ProgressLine("", plain_every)};
  mutants::ClassOptions with_pages = options;
  auto viewer = load_viewer();
  if (viewer.ok()) {  // one that no page can inline is as good as missing
    if (auto page = mutants::mutation_report_html("{}", viewer.value()); !page.ok())
      viewer = page.failure_in("--html: ");
  }
  if (viewer.ok()) {
    with_pages.viewer_js = std::move(viewer).value();
  } else {
    say(kGradeCommand, viewer.failure());
    std::cerr
        << "tlbf grade: the learners' pages are left out; the class page and every JSON report are written\n";
  }
  const auto graded = mutants::grade_class(with_pages, learners, hooks_of(reporter, learners.size()));
  if (!graded.ok()) return fail_with(kUsage, kGradeCommand, graded.failure());
  const auto& rows = graded.value().rows;
  if (wants_platform_results(opt.platform) && !rows.empty()) {
    const auto report = learners_dir / (rows.front().name + ".json");
    if (auto written =
            write_platform_results(opt.platform, rows.front(), report.string(), opt.threshold, options.kit);
        !written)
      return fail_with(kIo, kGradeCommand, written.failure());
  }
  return finish(opt, graded.value().summary, graded.value().harness_failed);
}

// --shard K/N; 1/1 without it.
Outcome<mutants::ClassShard> shard_of(const std::string& shard) {
  if (shard.empty()) return mutants::ClassShard{};
  const std::size_t slash = shard.find('/');
  const auto k = strict_whole_number(shard.substr(0, slash));
  const auto n = slash == std::string::npos ? std::nullopt : strict_whole_number(shard.substr(slash + 1));
  if (!k || !n || *k < 1 || *k > *n || *n > 10000) {
    return failure("--shard wants K/N with 1 <= K <= N <= 10000, not '" + shard + "'");
  }
  return mutants::ClassShard{static_cast<int>(*k), static_cast<int>(*n), 0};
}

// --merge: the class of its shards' output folders (docs/mutants.md, "A class over a CI matrix").
int run_grade_merge(const GradeOptions& opt) {
  std::vector<std::pair<std::string, std::string>> shards;
  for (const auto& dir : opt.merge) {
    std::error_code ec;
    if (fs::equivalent(dir, opt.out, ec)) {
      return fail_with(
          kUsage, kMergeCommand,
          failure("-o " + opt.out + " is one of the shards: the class would be written over it"));
    }
    const std::string path = (fs::path(dir) / "class.json").string();
    auto text = read_file(path);
    if (!text) return fail_with(kIo, kFileSpeaker, text.failure());
    shards.emplace_back(path, std::move(text).value());
  }
  const auto merged = mutants::merge_class_shards(shards);
  if (!merged.ok()) return fail_with(kUsage, kMergeCommand, merged.failure());
  const auto& summary = merged.value().summary;
  std::error_code ec;
  fs::create_directories(fs::path(opt.out) / "learners", ec);
  if (ec)
    return fail_with(kIo, kMergeCommand, failure("cannot make " + opt.out + "/learners: " + ec.message()));
  bool harness_failed = false;
  for (std::size_t i = 0; i < summary.rows.size(); ++i) {
    const auto& row = summary.rows[i];
    if (auto copied = mutants::copy_learner_files(opt.merge[merged.value().from[i]], opt.out, row); !copied)
      return fail_with(kIo, kMergeCommand, copied.failure());
    harness_failed |= row.verdict == mutants::to_string(mutants::LearnerVerdict::Harness);
  }
  if (auto written = write_summaries(opt, summary); !written)
    return fail_with(kIo, kFileSpeaker, written.failure());
  std::printf("merged %zu shards of %zu learners\n\n", shards.size(), summary.rows.size());
  std::fputs(mutants::class_summary_text(summary.rows, (fs::path(opt.out) / "class.html").string()).c_str(),
             stdout);
  return class_exit(harness_failed, opt, summary.rows);
}

// A merge grades nothing: the settings of the grading come from the shards,
// so only where the class goes and how it ends go beside --merge.
int run_grade_merge_alone(const CLI::App& cmd, const GradeOptions& opt) {
  for (const auto* o : cmd.get_options()) {
    const std::string name = o->get_name();
    if (o->count() > 0 && name != "--merge" && name != "--out" && name != "--junit" &&
        name != "--fail-unless-all-meet") {
      std::cerr << "tlbf grade --merge: " << (name.empty() || name[0] != '-' ? "CLASS" : name)
                << " belongs to a grading, not a merge (the shards' class.json carry their settings)\n";
      return kUsage;
    }
  }
  return run_grade_merge(opt);
}

// The learner of --submission, named after their folder ("submission" on
// Gradescope, "student" on PrairieLearn). A folder that is missing or holds
// no tests file is a learner with nothing to grade, whose result says so.
mutants::Learner submitted(const std::string& folder, const std::string& tests_file) {
  std::error_code ec;
  fs::path path = fs::absolute(folder, ec).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();  // "DIR/"
  std::string name = path.filename().string();
  if (name.empty() || name == "." || name == "..") name = "submission";
  if (!fs::is_directory(folder, ec)) return {name, folder, {}, "no folder " + folder + " was handed in"};
  return mutants::learner_in(folder, name, tests_file);
}

// What the package's scripts give tlbf grade: the kind and every option that changes a grade.
std::vector<std::string> grading_args(const GradeOptions& opt) {
  std::vector<std::string> args = {"--kind",         opt.kind,
                                   "--chaffs",       opt.chaffs,
                                   "--feedback",     opt.platform.feedback,
                                   "--score-policy", opt.platform.score_policy};
  const auto number = [](double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  };
  for (const auto& [flag, value] : {std::pair{"--threshold", number(opt.threshold)},
                                    {"--baseline-runs", std::to_string(opt.baseline_runs)},
                                    {"--control-runs", std::to_string(opt.control_runs)},
                                    {"--confirm-runs", std::to_string(opt.confirm_runs)},
                                    {"--confirm-kills", std::to_string(opt.confirm_kills)},
                                    {"--timeout-factor", number(opt.timeout_factor)},
                                    {"--timeout-floor", number(opt.timeout_floor_s)},
                                    {"--setup-timeout", number(opt.setup_timeout_s)}}) {
    args.insert(args.end(), {flag, value});
  }
  if (!opt.require.empty()) args.insert(args.end(), {"--require", opt.require});
  if (opt.no_sandbox) args.push_back("--no-sandbox");
  if (!opt.suite_user.empty()) args.insert(args.end(), {"--suite-user", opt.suite_user});
  if (opt.no_replay) args.push_back("--no-replay");
  if (opt.no_runs_alone) args.push_back("--no-runs-alone");
  return args;
}

// --prepare: the kit's variants built (or found) and kept in the cache.
int run_prepare(const GradeOptions& opt) {
  const auto kit_path = kit_path_of(opt);
  if (!kit_path.ok()) return fail_with(kUsage, kGradeCommand, kit_path.failure());
  const auto read = mutants::read_kit(kit_path.value());
  if (!read.ok()) return fail_with(kUsage, kGradeCommand, read.failure());
  if (read->served.variant_build.empty()) {
    std::cout << "tlbf grade: the " << read->kind << " kit's variants need no build: nothing to prepare\n";
    return kOk;
  }
  const auto prepared = mutants::prepare_variants(class_options(opt, read.value()));
  if (!prepared.ok()) return fail_with(kCannotRun, kGradeCommand, prepared.failure());
  std::cout << "tlbf grade: the kit's variants: " << prepared->variants_built << " built, "
            << prepared->variants_from_cache << " from the cache, in "
            << conformance::tlbf_cache_folder().string() << "/variants (" << std::fixed
            << std::setprecision(1) << prepared->seconds << " s)\n";
  return kOk;
}

int run_grade(const GradeOptions& opt) {
  if (opt.prepare) return run_prepare(opt);
  if (!opt.platform.autograder.empty()) {
    if (auto written = write_autograder_package(opt.platform, opt.out, opt.kind, grading_args(opt)); !written)
      return fail_with(kIo, kGradeCommand, written.failure());
    std::cout << "tlbf grade: the " << opt.platform.autograder << " package is in " << opt.out
              << (opt.platform.deb.empty()
                      ? "; put tlbf's .deb (cmake --build BUILD --target package) beside "
                        "its scripts before you upload it\n"
                      : "\n");
    return kOk;
  }
  // Not dumpable, as tlbf mutate: the suites cannot read its memory through /proc.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  std::error_code ec;
  if (opt.platform.submission.empty() && !fs::is_directory(opt.class_dir, ec)) {
    return fail_with(kUsage, kGradeCommand,
                     failure("'" + opt.class_dir + "' is not a folder (one sub-folder per learner)"));
  }
  const auto plain_every = plain_progress_every();
  if (!plain_every.ok()) return fail_with(kUsage, kGradeCommand, plain_every.failure());
  const auto shard = shard_of(opt.shard);
  if (!shard.ok()) return fail_with(kUsage, kGradeCommand, shard.failure());
  const auto kit_path = kit_path_of(opt);
  if (!kit_path.ok()) return fail_with(kUsage, kGradeCommand, kit_path.failure());
  const auto read = mutants::read_kit(kit_path.value());
  if (!read.ok()) return fail_with(kUsage, kGradeCommand, read.failure());
  // Before the sandbox's probe, which runs as that user too.
  if (auto chosen = mutants::choose_suite_user(opt.suite_user); !chosen.ok())
    return fail_with(kUsage, kGradeCommand, chosen.failure());
  mutants::ClassOptions options = class_options(opt, read.value());
  if (auto completed = complete_options(opt, options); !completed.ok()) {
    return fail_with(kUsage, kGradeCommand, completed.failure());
  }
  auto learners = opt.platform.submission.empty()
                      ? mutants::find_learners(opt.class_dir, options.kit.tests_file)
                      : std::vector{submitted(opt.platform.submission, options.kit.tests_file)};
  if (learners.empty()) {
    return fail_with(kUsage, kGradeCommand,
                     failure("'" + opt.class_dir + "' has no sub-folder: one per learner, each with their " +
                             options.kit.tests_file));
  }
  if (!opt.shard.empty()) {
    options.shard = shard.value();
    options.shard->class_learners = static_cast<int>(learners.size());
    learners = mutants::learners_of_shard(learners, *options.shard);
    std::cerr << "tlbf grade: shard " << opt.shard << ": " << learners.size() << " of the class's "
              << options.shard->class_learners << " learners\n";
  }
  return grade_and_report(opt, options, kit_path.value(), learners, plain_every.value());
}

void add_grade_options(CLI::App& cmd, GradeOptions& opt) {
  cmd.add_option("class", opt.class_dir, "The class: one sub-folder per learner")->check(kNotEmpty);
  cmd.add_option("--kind", opt.kind, "The kind of suite: rust, python or protocol (picks the bundled kit)")
      ->check(CLI::IsMember({"rust", "python", "protocol"}));
  cmd.add_option("--kit", opt.kit,
                 "A kit.json of your own (reference, patches, wheats, chaffs, suite command)")
      ->check(kNotEmpty);
  cmd.add_option("-o,--out", opt.out, "Where the reports go (default ./tlbf-grade)")->check(kNotEmpty);
  cmd.add_option("--chaffs", opt.chaffs, "bundled (the kit's, default) or none (faster)")
      ->check(CLI::IsMember({"bundled", "none"}));
  cmd.add_option("-j,--jobs", opt.jobs, "Runs at once (default: the number of cores)")
      ->check(whole_number_in(1, 256));
  cmd.add_option("--baseline-runs", opt.baseline_runs, "Runs on the reference and on each wheat (default 3)")
      ->check(whole_number_in(1, 100));
  cmd.add_option("--control-runs", opt.control_runs, "Clean runs hidden among the mutants' (default 2)")
      ->check(whole_number_in(0, 100));
  cmd.add_option(
         "--confirm-runs", opt.confirm_runs,
         "Runs of each mutant, which must agree (default 2; a required mutant's kill: --confirm-kills)")
      ->check(whole_number_in(1, 20));
  cmd.add_option(
         "--confirm-kills", opt.confirm_kills,
         "Runs that confirm a required mutant's kill, stopping at the first that survives (default 6; "
         "never fewer than --confirm-runs; none more with --confirm-runs 1)")
      ->check(whole_number_in(1, 20));
  cmd.add_option("--threshold", opt.threshold, "The score to meet (default 0.80)")->check(decimal_in(0, 1));
  cmd.add_option("--require", opt.require,
                 "Comma-separated mutants that must be killed (default all of " + mutants::id_range() + ")")
      ->check(kNotEmpty);
  cmd.add_option("--timeout-factor", opt.timeout_factor,
                 "A mutant's run may take this times the baseline's time")
      ->check(decimal_in(1, 1000));
  cmd.add_option("--timeout-floor", opt.timeout_floor_s, "... and at least this many seconds")
      ->check(decimal_in(0.1, 86400));
  cmd.add_option("--setup-timeout", opt.setup_timeout_s, "Seconds the warm-up and each baseline run may take")
      ->check(decimal_in(0.1, 86400));
  cmd.add_flag(
      "--no-sandbox", opt.no_sandbox,
      "Run the suites as they are, seeing everything this user can (by default each runs under bubblewrap)");
  cmd.add_option("--suite-user", opt.suite_user,
                 "When tlbf runs as root: the user each suite runs as, a name, a number or UID:GID "
                 "(default nobody)")
      ->check(kNotEmpty);
  cmd.add_flag(
      "--no-replay", opt.no_replay,
      "Run each suite against every mutant and chaff, even one that answers its clean runs' requests "
      "exactly as the reference did (by default that one survives unrun)");
  cmd.add_flag("--no-runs-alone", opt.no_runs_alone,
               "Confirm every kill with whole runs of the suite, even where the kit names its test runner "
               "(by default a required kill's last four runs are of the tests that caught it, alone)");
  cmd.add_flag("--fresh", opt.fresh, "Grade every learner again, even those whose reports are current");
  cmd.add_flag("--prepare", opt.prepare,
               "Build the kit's variants into tlbf's cache and grade nobody (a platform's image, a grader's "
               "machine before a class)");
  cmd.add_option("--junit", opt.junit,
                 "Also write JUnit XML for a CI: a test case per learner, failing unless they meet the bar")
      ->check(kNotEmpty);
  cmd.add_flag("--fail-unless-all-meet", opt.fail_unless_all_meet,
               "Exit 9 when some learner does not meet the bar (by default 0: the table says who does)");
  cmd.add_option("--shard", opt.shard,
                 "Grade shard K of N (K/N) of the class's learners, for a CI matrix; --merge makes the class")
      ->check(kNotEmpty);
  cmd.add_option("--merge", opt.merge,
                 "Make the class (class.json, class.html, the table) in -o of the output folders of its "
                 "shards, every one of 1..N")
      ->expected(1, -1)
      ->check(kNotEmpty);
  add_platform_options(cmd, opt.platform);
}

// CLASS, --submission DIR or --autograder PLATFORM, one of them; the platform
// results go with --submission, and a package grades with an installed kit.
std::string usage_problem(const GradeOptions& opt) {
  const auto& p = opt.platform;
  const int modes = !opt.class_dir.empty() + !p.submission.empty() + !p.autograder.empty() + opt.prepare;
  if (modes != 1)
    return "give CLASS, --submission DIR, --autograder gradescope|prairielearn or --prepare (one of them), "
           "or "
           "--merge SHARD...";
  if (!opt.shard.empty() && opt.class_dir.empty()) return "--shard goes with CLASS";
  if (opt.kind.empty() == opt.kit.empty())
    return "give --kind rust|python|protocol, or --kit FILE (not both)";
  if (wants_platform_results(p) && p.submission.empty())
    return "--gradescope, --prairielearn and --github-classroom go with --submission DIR";
  if (!p.autograder.empty() && opt.kind.empty())
    return "--autograder grades with an installed kit: give --kind";
  if (!p.deb.empty() && p.autograder.empty()) return "--deb goes with --autograder";
  if (const std::string deb = fs::path(p.deb).filename().string();
      !deb.empty() && (deb.rfind("tlbf_", 0) != 0 || deb.size() < 10 || !deb.ends_with(".deb")))
    return "--deb " + p.deb + ": not tlbf_VERSION_ARCH.deb, the name the package's scripts look for";
  return "";
}

}  // namespace

void add_grade(CLI::App& app, int& rc) {
  auto opt = std::make_shared<GradeOptions>();
  CLI::App* cmd =
      app.add_subcommand("grade", "Grade a class: every learner's tests against the course's reference");
  cmd->footer(
      "Each sub-folder of CLASS is a learner; their tests file (--kind rust: ds08_bloom.rs, python:\n"
      "test_bloom.py, protocol: test_protocol.py) goes into a copy of the kit's course folder (a\n"
      "binding or a client that reaches the served oracle), which is graded with the planted bugs\n" +
      mutants::id_range() +
      ", must pass the correct variants (wheats), and is measured by more bugs (chaffs).\n"
      "The learner's own implementation is never used. Writes OUT/learners/NAME.json and .html,\n"
      "OUT/class.json and OUT/class.html; a second run reuses the reports of learners whose files\n"
      "did not change. --shard K/N grades one shard of the learners (a CI matrix's job); --merge\n"
      "SHARD... -o OUT makes the class of the shards' output folders. With --submission DIR instead\n"
      "of CLASS, one learner, as an autograder platform runs it (--gradescope, --prairielearn,\n"
      "--github-classroom); --autograder writes the package to upload (docs/mutants.md, \"Grading on\n"
      "a platform\").\n" +
      exit_footer({{kOk,
                    "every learner has a verdict (see the table; with --fail-unless-all-meet: every "
                    "learner meets the bar)"},
                   {kUsage, "usage, or (--merge) shards that are not one class's"},
                   {kIo, "an output file cannot be written, or (--merge) a shard's cannot be read"},
                   {kCannotRun, "some learner's grading met a harness error"},
                   {kNotAllMeet, "with --fail-unless-all-meet, some learner does not meet the bar"}},
                  "docs/mutants.md"));
  add_grade_options(*cmd, *opt);
  add_version(*cmd);
  cmd->callback([opt, cmd, &rc] {
    if (!opt->merge.empty()) {
      rc = run_grade_merge_alone(*cmd, *opt);
      return;
    }
    if (const std::string problem = usage_problem(*opt); !problem.empty()) {
      std::cerr << "tlbf grade: " << problem << "\n";
      rc = kUsage;
      return;
    }
    rc = run_grade(*opt);
  });
}

}  // namespace tlbf::cli
