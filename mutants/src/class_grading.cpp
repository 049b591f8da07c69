// The class loop of tlbf grade (class_grading.hpp).
#include "tlbf/mutants/class_grading.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <utility>

#include "tlbf/conformance/strays.hpp"
#include "tlbf/mutants/interpreters.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/mutants/variants.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One class's grading as it goes: `runs` is `options` with the kit the runs
// use (its interpreters resolved), while keys and the summary take the kit as read.
struct ClassRun {
  const ClassOptions& options;
  ClassOptions runs;
  const ClassHooks& hooks;
  std::string key_options;  // options_in_words's, with tlbf's version
  bool harness_failed = false;
};

ClassRow row_of(const Learner& learner, LearnerVerdict verdict, const std::string& reason) {
  ClassRow row;
  row.name = learner.name;
  row.verdict = std::string(to_string(verdict));
  row.reason = reason;
  return row;
}

ScoreOptions score_options(const ClassOptions& opt, const Subjects& subjects) {
  ScoreOptions so;
  so.mutants = subjects.ids();
  so.chaffs = subjects.chaff_ids();
  so.wheats = subjects.wheat_ids();
  so.jobs = opt.jobs;
  so.baseline_runs = opt.baseline_runs;
  so.control_runs = opt.control_runs;
  so.confirm_runs = opt.confirm_runs;
  so.timeout_factor = opt.timeout_factor;
  so.timeout_floor = opt.timeout_floor;
  so.setup_limit = opt.setup_limit;
  so.required = opt.required;
  so.kill_confirm_runs = opt.confirm_kills;
  so.replay = opt.replay;
  so.runs_alone = opt.runs_alone;
  return so;
}

// What the learner's report says besides the runs, their verdict included.
ReportContext learner_context(const ClassOptions& opt, const Learner& learner, const std::string& key,
                              const std::vector<std::string>& selected, const Score& score) {
  ReportContext context;
  context.suite = opt.kit.suite;
  context.threshold = opt.threshold;
  context.required = opt.required;
  context.mode = opt.kit.serves.empty() ? "patches" : "served";
  context.selected = selected;
  context.version = opt.version;
  context.confirm_runs = opt.confirm_runs;
  ScoreOptions planned;
  planned.confirm_runs = opt.confirm_runs;
  planned.kill_confirm_runs = opt.confirm_kills;
  context.confirm_kills = kill_confirmations(planned);
  context.sandbox = opt.sandbox;
  std::vector<std::string> missed;
  if (score.stopped == kNotStopped) context.meets = meets_bar(score, opt.threshold, opt.required, missed);
  context.exit_code = opt.exit_code ? opt.exit_code(score.stopped, context.meets) : 0;
  context.learner = learner.name;
  context.learner_key = key;
  context.learner_verdict = std::string(to_string(verdict_of(score, context.meets)));
  return context;
}

std::unique_ptr<Subjects> subjects_for(const ClassRun& run, const std::string& workdir) {
  if (run.hooks.subjects) return run.hooks.subjects(run.runs, workdir);
  return kit_subjects(run.runs, workdir);
}

// Hands the learner's report and page to the caller; where the page is kept.
std::string kept_page(ClassRun& run, const Learner& learner, const std::string& json) {
  std::string html;
  if (!run.options.viewer_js.empty()) {
    auto page = mutation_report_html(json, run.options.viewer_js);
    if (page.ok()) {
      html = std::move(page).value();
    } else {
      run.harness_failed = true;  // the viewer cannot be inlined: no page, and the class is to be run again
    }
  }
  if (!run.hooks.keep_report) return "";
  auto kept = run.hooks.keep_report(learner, json, html);
  if (kept.ok()) return std::move(kept).value();
  run.harness_failed = true;
  return "";
}

// Grades the learner's copy in `workdir`, hands their report to the caller,
// and returns their row, read back from it as a resumed grading reads it.
ClassRow grade_copy(ClassRun& run, ClassSeed& seed, const Learner& learner, const std::string& key,
                    const std::string& workdir) {
  std::unique_ptr<Subjects> subjects = subjects_for(run, workdir);
  ScoreOptions so = score_options(run.options, *subjects);
  so.progress = run.hooks.progress;
  const Score score = score_suite(*subjects, so);
  if (run.hooks.runs_ended) run.hooks.runs_ended();
  conformance::end_strays();
  const auto context = learner_context(run.options, learner, key, so.mutants, score);
  const std::string json = mutation_report_json(*subjects, score, context);
  subjects.reset();  // its scratch copies, before the learner's folder goes
  seed.done_with(workdir);
  if (score.stopped == kHarness) run.harness_failed = true;
  const std::string page = kept_page(run, learner, json);
  // A report just made that cannot be read back is tlbf grade's own fault.
  auto summarised = class_row(json);
  if (!summarised.ok()) {
    run.harness_failed = true;
    return row_of(learner, LearnerVerdict::Harness, summarised.why());
  }
  ClassRow row = std::move(summarised).value();
  row.report = page;
  return row;
}

// The row of an earlier report of the learner made with the same key, if any.
std::optional<ClassRow> reused_row(const ClassRun& run, const Learner& learner, const std::string& key) {
  if (run.options.fresh || !run.hooks.earlier_report) return std::nullopt;
  const auto earlier = run.hooks.earlier_report(learner);
  if (!earlier || earlier->json.find("\"key\": \"" + key + "\"") == std::string::npos) return std::nullopt;
  auto row = class_row(earlier->json);
  if (!row.ok()) return std::nullopt;
  row.value().report = earlier->page;
  return std::move(row).value();
}

// One learner's row: why they cannot be graded, their earlier report's, or their grading's.
ClassRow grade_learner(ClassRun& run, ClassSeed& seed, const Learner& learner, bool& reused) {
  reused = false;
  if (!learner.problem.empty()) return row_of(learner, LearnerVerdict::NoTests, learner.problem);
  const std::string key = learner_key(run.options.kit, learner, run.key_options);
  if (auto earlier = reused_row(run, learner, key)) {
    reused = true;
    return std::move(*earlier);
  }
  const auto workdir = seed.workdir_for(learner);
  if (!workdir.ok()) {
    run.harness_failed = true;
    return row_of(learner, LearnerVerdict::Harness, workdir.why());
  }
  return grade_copy(run, seed, learner, key, workdir.value());
}

// A served kit's wheats and chaffs, each a copy of its implementation
// changed as it says, made once for the class: every learner's grading
// serves from these folders (ServedSet::variants), which no run can write
// or see, rather than copying and patching them all again.
void share_variants(ClassOptions& runs) {
  ServedSet& set = runs.kit.served;
  if (runs.kit.serves.empty() || set.variants_from.empty()) return;
  ServedSet wanted = set;
  if (!runs.chaffs) wanted.chaffs.clear();
  set.variants = VariantFolders::make(wanted, runs.jobs);
}

}  // namespace

Outcome<ClassWarmUp> prepare_variants(const ClassOptions& options) {
  ClassOptions runs = options;
  runs.kit = with_interpreters_resolved(options.kit);
  const auto began = Clock::now();
  share_variants(runs);
  const VariantFolders* variants = runs.kit.served.variants.get();
  if (variants == nullptr) return failure("the kit serves no variants of its own: nothing to prepare");
  std::string failed;
  for (const auto& [id, folder] : variants->by_id()) {
    if (!folder.ok()) failed += "\n  " + id + ": " + folder.why();
  }
  if (!failed.empty()) return failure("some of the kit's variants cannot be made:" + failed);
  return ClassWarmUp{seconds_since(began), variants->built(), variants->taken_from_cache()};
}

std::string options_in_words(const ClassOptions& opt) {
  std::ostringstream key;
  key << "sandbox=" << opt.sandbox_wanted << " baseline=" << opt.baseline_runs
      << " controls=" << opt.control_runs << " confirm=" << opt.confirm_runs << " kills=" << opt.confirm_kills
      << " threshold=" << opt.threshold << " chaffs=" << (opt.chaffs ? "bundled" : "none")
      << (opt.replay ? "" : " replay=off") << (opt.runs_alone ? "" : " alone=off") << " require=";
  for (const auto& id : opt.required) key << id << ",";
  return key.str();
}

std::unique_ptr<Subjects> kit_subjects(const ClassOptions& options, const std::string& workdir) {
  const Kit& kit = options.kit;
  const bool sandbox = options.sandbox == "bubblewrap";
  if (kit.serves.empty()) {
    PatchSet set = kit.set;
    set.workdir = workdir;
    set.sandbox = sandbox;
    if (!options.chaffs) set.chaffs.clear();
    return patched_subjects(kit.suite, set, false);
  }
  ServedSet set = kit.served;
  set.directory = workdir;
  set.tlbf = options.tlbf;
  set.sandbox = sandbox;
  if (!options.chaffs) set.chaffs.clear();
  return served_subjects(kit.suite, options.tlbf_mutant, set);
}

Outcome<ClassResult> grade_class(const ClassOptions& options, const std::vector<Learner>& learners,
                                 const ClassHooks& hooks) {
  ClassResult result;
  if (learners.empty()) {  // a shard of a class smaller than its split: nothing to warm
    result.summary = class_summary(options, {});
    return result;
  }
  ClassRun run{options, options, hooks, "tlbf=" + options.version + " " + options_in_words(options)};
  run.runs.kit = with_interpreters_resolved(options.kit);
  if (hooks.warming) hooks.warming();
  auto seeded = ClassSeed::make(run.runs.kit, options.setup_limit);
  if (!seeded.ok()) return seeded.failure();
  ClassSeed& seed = *seeded.value();
  const auto sharing = Clock::now();
  share_variants(run.runs);
  result.warm_seconds = seed.warm_seconds() + seconds_since(sharing);
  const VariantFolders* variants = run.runs.kit.served.variants.get();
  if (hooks.warmed)
    hooks.warmed(
        {result.warm_seconds, variants ? variants->built() : 0, variants ? variants->taken_from_cache() : 0});
  for (std::size_t i = 0; i < learners.size(); ++i) {
    if (hooks.learner_begins) hooks.learner_begins(i, learners.size(), learners[i]);
    const auto began = Clock::now();
    bool reused = false;
    result.rows.push_back(grade_learner(run, seed, learners[i], reused));
    if (hooks.learner_ends) hooks.learner_ends(i, result.rows.back(), seconds_since(began), reused);
  }
  result.harness_failed = run.harness_failed;
  result.summary = class_summary(options, result.rows);
  return result;
}

ClassSummary class_summary(const ClassOptions& options, const std::vector<ClassRow>& rows) {
  ClassSummary summary;
  summary.kind = options.kit.kind;
  summary.threshold = options.threshold;
  summary.required = options.required;
  summary.version = options.version;
  summary.kit = kit_digest(options.kit);
  summary.options = options_in_words(options);
  summary.shard = options.shard;
  summary.bugs = bugs_of(rows);
  summary.rows = rows;
  return summary;
}

ClassEnd class_end(bool harness_failed, bool all_must_meet, const std::vector<ClassRow>& rows) {
  if (harness_failed) return ClassEnd::HarnessFailed;
  if (!all_must_meet) return ClassEnd::Graded;
  const bool all_meet = std::all_of(rows.begin(), rows.end(), [](const ClassRow& r) {
    return r.verdict == to_string(LearnerVerdict::Meets);
  });
  return all_meet ? ClassEnd::Graded : ClassEnd::NotAllMeet;
}

}  // namespace tlbf::mutants
