#include "tlbf/mutants/scorer.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <map>
#include <set>
#include <random>
#include <sstream>
#include <thread>
#include <utility>

#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/shell_quote.hpp"

namespace tlbf::mutants {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kShortOfResources =
    " (is the machine short of processes or file descriptors? try fewer jobs, -j, or raise ulimit -u / -n); "
    "no grade";

std::vector<std::string> lines_of(const std::string& output) {
  std::istringstream in(output);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

// The block of lines from `first` up to (not including) the first line after
// it for which `ends` holds, at most `cap` lines.
template <typename Ends>
std::vector<std::string> block(const std::vector<std::string>& lines, std::size_t first, Ends ends,
                               std::size_t cap) {
  std::vector<std::string> out{lines[first]};
  for (std::size_t i = first + 1; i < lines.size() && out.size() < cap && !ends(lines[i]); ++i)
    out.push_back(lines[i]);
  return out;
}

// The suite's first failing assertion: a Rust panic (from `panicked at` to the
// blank line or the backtrace note after it), a unittest FAIL or ERROR block
// (its header and traceback), tlbf check's FAIL with its explanation, a Rust
// compile error, else the last lines.
std::vector<std::string> failing_lines(const std::vector<std::string>& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("panicked at") != std::string::npos) {
      return block(
          lines, i,
          [](const std::string& l) {
            return l.empty() || starts_with(l, "note: ") || starts_with(l, "stack backtrace");
          },
          8);
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (starts_with(lines[i], "FAIL: ") || starts_with(lines[i], "ERROR: ")) {
      auto out = block(
          lines, i, [](const std::string& l) { return starts_with(l, "=====") || l.empty(); }, 14);
      // The dashes under the header say nothing.
      out.erase(std::remove_if(out.begin(), out.end(),
                               [](const std::string& l) { return starts_with(l, "-----"); }),
                out.end());
      return out;
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    // tlbf check's "FAIL case" and the indented lines that explain it.
    if (starts_with(lines[i], "FAIL ")) {
      return block(
          lines, i,
          [](const std::string& l) { return l.empty() || !std::isspace(static_cast<unsigned char>(l[0])); },
          4);
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (starts_with(lines[i], "error[") || starts_with(lines[i], "error: ")) {
      return block(
          lines, i, [](const std::string& l) { return l.empty(); }, 8);
    }
  }
  std::vector<std::string> out;
  for (const auto& line : lines) {
    if (!line.empty()) out.push_back(line);
  }
  if (out.size() > 5) out.erase(out.begin(), out.end() - 5);
  return out;
}

// A suite's text as a report shows it: bytes outside printable ASCII (a
// terminal's escape sequences, invalid UTF-8) escaped, newlines kept. A suite
// must not be able to draw on the grader's terminal or break its JSON.
std::string printable(const std::string& text) { return conformance::readable_lines(text, text.size()); }

std::string evidence_from(const std::string& output) {
  std::string out;
  for (const auto& line : failing_lines(lines_of(output)))
    out += (out.empty() ? "" : "\n") + line.substr(0, 200);
  return printable(out);
}

// The end of a suite's output, where it says why it failed.
std::string tail_of(const std::string& output) {
  constexpr std::size_t kKeep = 3000;
  return output.size() <= kKeep ? output : "..." + output.substr(output.size() - kKeep);
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Of each run's stdout and of its stderr, the first and last 512 KiB: a
// suite that writes gigabytes is graded, not held in memory.
constexpr std::size_t kKeptOutput = std::size_t{1} << 20;

conformance::RunResult run(const SuiteRun& suite, std::chrono::milliseconds limit) {
  const std::string line =
      suite.directory.empty() ? suite.command : "cd " + shell_quote(suite.directory) + " && " + suite.command;
  return conformance::run_with_input(line, "", limit, kKeptOutput);
}

}  // namespace

std::string_view to_string(MutantVerdict v) {
  switch (v) {
    case MutantVerdict::Killed:
      return "killed";
    case MutantVerdict::Survived:
      return "SURVIVED";
    case MutantVerdict::Timeout:
      return "timeout";
    case MutantVerdict::Error:
      return "error";
  }
  return "?";
}

namespace {
constexpr std::pair<Stop, std::string_view> kStopNames[] = {
    {kNotStopped, ""},
    {kHarness, "harness-error"},
    {kFailsClean, "fails-clean"},
    {kPassesBroken, "passes-broken"},
    {kFlaky, "flaky"},
    {kRejectsCorrect, "rejects-correct"},
    {kUngradable, "ungradable"},
};
}  // namespace

std::string_view to_string(Stop why) {
  for (const auto& [stop, name] : kStopNames) {
    if (stop == why) return name;
  }
  return "?";
}

std::optional<Stop> stop_named(std::string_view word) {
  for (const auto& [stop, name] : kStopNames) {
    if (stop != kNotStopped && name == word) return stop;
  }
  return std::nullopt;
}

int Score::killed() const {
  int n = 0;
  for (const auto& r : runs) n += r.verdict == MutantVerdict::Killed || r.verdict == MutantVerdict::Timeout;
  return n;
}

double Score::score() const {
  return runs.empty() ? 0.0 : static_cast<double>(killed()) / static_cast<double>(runs.size());
}

std::string suite_command(const std::vector<std::string>& suite, const std::string& impl,
                          const std::string& mutant) {
  // Cleared first: the grader's own environment could name a subject, and a
  // CARGO_TARGET_DIR would make concurrent runs build into one directory.
  std::string line = "unset TLBF_IMPL TLBF_MUTANT CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR; ";
  // One hash seed for every run: a Python suite that walks a set of strings
  // then asks the same in every run, so its runs' transcripts agree
  // (docs/mutants.md, "The transcript is the lever").
  line += "PYTHONHASHSEED=0 ";
  if (!impl.empty()) line += "TLBF_IMPL=" + shell_quote(impl) + " ";
  if (!mutant.empty()) line += "TLBF_MUTANT=" + shell_quote(mutant) + " ";
  line += "exec";
  for (const auto& word : suite) line += " " + shell_quote(word);
  return line;
}

std::vector<std::string> shard(const std::vector<std::string>& ids, int k, int n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(n)) == k - 1) out.push_back(ids[i]);
  }
  return out;
}

namespace {

// A prepared run, run and finished: what the suite did and what its subject saw.
struct Ran {
  conformance::RunResult result;
  ServingRecord serving;
  double seconds = 0;
};

// A run that could not be prepared is not run: its Failure comes back as it
// is (the Subjects undid what preparing it made).
Outcome<Ran> run_and_finish(Subjects& subjects, const Outcome<SuiteRun>& prepared,
                            std::chrono::milliseconds limit) {
  if (!prepared.ok()) return prepared.failure();
  Ran out;
  const auto began = Clock::now();
  out.result = run(prepared.value(), limit);
  out.seconds = seconds_since(began);
  out.serving = subjects.serving_record(prepared.value());
  subjects.finish(prepared.value());
  return out;
}

// Why the harness, not the suite, left a run with nothing to judge: it could
// not be prepared, or its subject could not be served. None when it ran.
std::optional<Failure> harness_failure(const Outcome<Ran>& ran) {
  if (!ran.ok()) return ran.failure();
  if (!ran->serving.harness_fault.empty()) return failure(ran->serving.harness_fault);
  return std::nullopt;
}

std::string output_of(const conformance::RunResult& result) {
  std::string out = printable(result.out + result.err);
  return out.empty() ? "(no output; " + result.how_it_ended() + ")\n" : out;
}

MutantRun judge(const std::string& id, const Outcome<Ran>& ran, std::chrono::milliseconds limit) {
  MutantRun r;
  r.id = id;
  if (!ran.ok()) {  // a stale patch, say: the grading is ungradable (verdicts_stand)
    r.verdict = MutantVerdict::Error;
    r.evidence = ran.why();
    return r;
  }
  r.seconds = ran->seconds;
  const auto& result = ran->result;
  r.output = output_of(result);
  if (!ran->serving.harness_fault.empty()) {
    r.verdict = MutantVerdict::Error;
    r.evidence = "the harness could not serve it: " + ran->serving.harness_fault;
    r.stops_grading_with = kHarness;
  } else if (!ran->serving.reached && !result.exited_cleanly()) {
    // The mutant lives only in the served process: a suite that failed
    // without starting it failed for another reason (flaky, or out of processes).
    r.verdict = MutantVerdict::Error;
    r.evidence = "the suite failed (" + result.how_it_ended() + ") without ever starting TLBF_IMPL";
    r.stops_grading_with = kFlaky;
  } else if (!result.started) {
    r.verdict = MutantVerdict::Error;
    r.evidence = "the suite could not be started (" + result.start_error + ")";
  } else if (result.timed_out) {
    r.verdict = MutantVerdict::Timeout;
    r.evidence = "stopped after " + std::to_string(limit.count()) + " ms";
  } else {
    r.verdict = result.exited_cleanly() ? MutantVerdict::Survived : MutantVerdict::Killed;
    r.evidence = evidence_from(result.out + result.err);
  }
  return r;
}

// One run of mutant `id`, the whole suite or only the tests `only`, with the
// tests it named as failed.
MutantRun run_of_mutant(Subjects& subjects, const std::string& id, std::chrono::milliseconds limit,
                        const std::vector<std::string>& only) {
  const auto ran =
      run_and_finish(subjects, only.empty() ? subjects.mutant(id) : subjects.mutant_only(id, only), limit);
  MutantRun r = judge(id, ran, limit);
  if (r.verdict == MutantVerdict::Killed) r.failed_tests = subjects.failed_tests(ran->result.out);
  r.only = only;
  return r;
}

// One run of mutant `id` (run_of_mutant). A loaded machine can stop a run
// that would have ended: a timeout counts only when a second run times out too.
MutantRun grade(Subjects& subjects, const std::string& id, std::chrono::milliseconds limit,
                const std::vector<std::string>& only = {}) {
  MutantRun r = run_of_mutant(subjects, id, limit, only);
  if (r.verdict != MutantVerdict::Timeout) return r;
  MutantRun again = run_of_mutant(subjects, id, limit, only);
  if (again.verdict == MutantVerdict::Timeout) again.evidence += ", twice";
  again.seconds += r.seconds;
  return again;
}

bool caught(MutantVerdict v) { return v == MutantVerdict::Killed || v == MutantVerdict::Timeout; }

// Runs task(i) for every i below n, `jobs` at a time.
template <typename Task>
void in_parallel(std::size_t n, int jobs, Task task) {
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> threads;
  for (int j = 0; j < std::clamp(static_cast<int>(n), 1, std::max(1, jobs)); ++j) {
    threads.emplace_back([&] {
      for (std::size_t i; (i = next.fetch_add(1)) < n;) task(i);
    });
  }
  for (auto& t : threads) t.join();
}

template <typename T>
void shuffle_unpredictably(std::vector<T>& items) {
  std::mt19937_64 random{std::random_device{}()};
  std::shuffle(items.begin(), items.end(), random);
}

// Why a grading stopped without a grade, as a phase that stops it says:
// the reason, the words the report gives, and the output of the run it
// stopped at ("" for none; else the report's failing output). Each phase
// returns one or none (go on), and score_suite alone writes it into the
// Score (record_stop).
struct Stopped {
  Stop why = kNotStopped;
  std::string reason;
  std::string output{};  // braced: a stop made without one is no missing field (-Wextra)
};

void record_stop(Score& score, Stopped stopped) {
  score.stopped = stopped.why;
  score.stop_reason = std::move(stopped.reason);
  if (!stopped.output.empty()) score.baseline_output = std::move(stopped.output);
}

// The ungraded runs that build what the suite builds, once, then in each job folder.
std::optional<Stopped> warm_up_phase(Subjects& subjects, const ScoreOptions& options, Score& score) {
  const auto warm = subjects.warm_up();
  if (!warm) return std::nullopt;
  const auto start = Clock::now();
  if (!warm->ok()) return Stopped{kHarness, "the warm-up run could not be prepared: " + warm->why()};
  // Not graded (the clean runs below say whether the suite passes), unless the Subjects say otherwise.
  const auto built = run(warm->value(), options.setup_limit);
  if (const std::string failed = subjects.after_warm_up(warm->value(), built.exited_cleanly(), built.out);
      !failed.empty()) {
    // The shell's "not found" (127) and "cannot run" (126): the build's own
    // program was missing where the suite runs, which no tests file causes.
    const Stop why = built.exit_code == 126 || built.exit_code == 127 ? kHarness : kFailsClean;
    // Its standard error: the compiler's messages (standard output is the build's JSON).
    return Stopped{why,
                   failed +
                       (why == kHarness ? " (exit " + std::to_string(built.exit_code) +
                                              ": the build's program could not be run where the suite "
                                              "runs, which is not the suite's doing)"
                                        : "") +
                       "; first failing lines:\n" + evidence_from(built.err),
                   printable(built.err.empty() ? built.out : built.err)};
  }
  const std::size_t later_runs = options.mutants.size() + options.chaffs.size() + options.wheats.size();
  const auto folders =
      subjects.job_folders(std::clamp(static_cast<int>(later_runs), 1, std::max(1, options.jobs)));
  in_parallel(folders.size(), static_cast<int>(folders.size()), [&](std::size_t i) {
    if (folders[i].ok()) (void)run(folders[i].value(), options.setup_limit);
  });
  for (const auto& folder : folders) {
    if (!folder.ok()) return Stopped{kHarness, "a job folder could not be prepared: " + folder.why()};
  }
  subjects.job_folders_warmed();
  score.warm_up_seconds = seconds_since(start);
  return std::nullopt;
}

// Why a suite failed a wheat, with that wheat's failing output. Only a
// wheat it fails in every run, and again when run with nothing beside it, is
// rejected: a suite that fails a correct variant by luck, or only when its
// runs share the machine (a fixed port), is flaky, as its clean runs would
// have shown had the collisions fallen on them.
Stopped wheat_failed(Subjects& subjects, const ScoreOptions& options, const WheatRuns& w) {
  const std::string failed = std::to_string(w.runs - w.passes) + " of " + std::to_string(w.runs) + " runs";
  if (w.passes > 0) {
    return {kFlaky,
            "the suite is flaky: it failed the correct variant '" + w.id + "' in " + failed +
                " and passed it in the others, so whether it rejects a correct implementation is luck;"
                " seed its random tests and retry; first failing lines:\n" +
                w.evidence,
            w.output};
  }
  if (options.jobs > 1) {
    const auto alone = run_and_finish(subjects, subjects.wheat(w.id), options.setup_limit);
    if (const auto not_run = harness_failure(alone)) {
      return {kHarness,
              "the run of the correct variant '" + w.id + "' alone could not happen: " + not_run->why,
              w.output};
    }
    if (alone->result.exited_cleanly()) {
      return {kFlaky,
              "the suite is flaky: it failed the correct variant '" + w.id + "' in " + failed + " (" +
                  std::to_string(options.jobs) +
                  " at a time), then passed it run alone, so two of its runs cannot share the machine"
                  " (a fixed port, file or timing budget); first failing lines:\n" +
                  w.evidence,
              w.output};
    }
  }
  return {kRejectsCorrect,
          "fails the correct variant '" + w.id + "' (" + failed +
              (options.jobs > 1 ? ", and again run alone" : "") +
              "): the suite rejects a correct implementation, so it tests something the documents leave "
              "open, or recognises the reference by its source; first failing lines:\n" +
              w.evidence + (w.about.empty() ? "" : "\n" + w.about),
          w.output};
}

// What the baseline's runs gather, under one mutex.
struct BaselineRecord {
  std::optional<Failure> harness_failure;  // the first clean run that could not be prepared or served
  std::string failed_how;
  std::vector<std::optional<Transcript>> transcripts;  // each clean run's, when recorded
  std::string unrecorded;                              // why one was not, when one was not
};

void record_clean_run(const Outcome<Ran>& outcome, BaselineRecord& record, Score& score) {
  if (!outcome.ok() || !outcome->serving.harness_fault.empty()) {
    if (!record.harness_failure) {
      record.harness_failure = failure(
          !outcome.ok() ? "a clean run could not be prepared: " + outcome.why()
                        : "the harness could not serve a clean run: " + outcome->serving.harness_fault +
                              kShortOfResources);
    }
    return;
  }
  const Ran& ran = outcome.value();
  score.baseline_seconds = std::max(score.baseline_seconds, ran.seconds);
  ++score.baseline_runs;
  const auto& recorded = ran.serving.transcript;
  record.transcripts.push_back(recorded && recorded->ok() ? std::optional(recorded->value()) : std::nullopt);
  if (recorded && !recorded->ok()) record.unrecorded = recorded->why();
  if (ran.result.exited_cleanly()) {
    if (score.baseline_passes++ == 0) score.passing_output = printable(ran.result.out + ran.result.err);
  } else if (score.baseline_output.empty()) {
    score.baseline_output = output_of(ran.result);
    record.failed_how = ran.result.how_it_ended();
    if (!ran.serving.reached) record.failed_how += ", without ever starting TLBF_IMPL";
  }
}

// The clean runs, `jobs` at a time, as every later run will be: a suite
// that fails only when its runs share the machine fails here, before it is
// graded (baseline_stands). Their times set the bound of every later run.
// With replay, their sessions are recorded.
BaselineRecord baseline_runs(Subjects& subjects, const ScoreOptions& options, Score& score) {
  BaselineRecord record;
  const int runs = std::max(1, options.baseline_runs);
  std::mutex mutex;
  Progress progress{"baseline", 0, runs, 0, 0, 0, 0};
  const auto start = Clock::now();
  in_parallel(static_cast<std::size_t>(runs), options.jobs, [&](std::size_t) {
    const auto ran = run_and_finish(subjects, options.replay ? subjects.clean_recorded() : subjects.clean(),
                                    options.setup_limit);
    std::lock_guard<std::mutex> lock(mutex);
    record_clean_run(ran, record, score);
    ++progress.done;
    progress.elapsed_seconds = seconds_since(start);
    if (options.progress) options.progress(progress);
  });
  return record;
}

// Whether the clean runs let the grading go on: every one ran, and passed.
std::optional<Stopped> baseline_stands(const BaselineRecord& record, const Score& score,
                                       const ScoreOptions& options) {
  if (record.harness_failure) return Stopped{kHarness, record.harness_failure->why};
  if (score.baseline_passes == 0) {
    return Stopped{kFailsClean, "the suite fails on the clean reference (" + record.failed_how +
                                    "); fix it before grading it"};
  }
  if (score.baseline_passes < score.baseline_runs) {
    return Stopped{
        kFlaky,
        "the suite is flaky: on the unchanged clean reference it passed " +
            std::to_string(score.baseline_passes) + " of " + std::to_string(score.baseline_runs) + " runs (" +
            std::to_string(std::max(1, options.jobs)) +
            " at a time), so its grade would be luck; seed its random tests, and make sure two runs can "
            "share the machine (no fixed ports, files or timing budgets), then retry"};
  }
  return std::nullopt;
}

// What the clean runs' transcripts say, and the one the subjects are
// replayed against: empty unless every clean run made the same sessions.
struct BaselineTranscripts {
  TranscriptCheck check;
  Transcript reference;
};

BaselineTranscripts check_transcripts(const BaselineRecord& record, bool asked) {
  BaselineTranscripts out;
  TranscriptCheck& check = out.check;
  check.asked = asked;
  const auto& all = record.transcripts;
  check.recorded =
      !all.empty() && std::all_of(all.begin(), all.end(), [](const auto& t) { return t.has_value(); });
  if (!check.recorded) {
    check.unrecorded = record.unrecorded;
    return out;
  }
  check.sessions = static_cast<int>(all.front()->size());
  check.requests = requests_in(*all.front());
  for (std::size_t i = 1; i < all.size() && check.difference.empty(); ++i)
    check.difference = first_difference(*all.front(), *all[i]);
  check.deterministic = check.difference.empty();
  if (check.deterministic) out.reference = *all.front();
  return out;
}

// The sanity check's verdict, from its run among the graded ones.
std::optional<Stopped> sanity_stands(const Subjects& subjects, const Outcome<Ran>& outcome) {
  if (!outcome.ok()) return Stopped{kHarness, "the sanity check could not be prepared: " + outcome.why()};
  const Ran& ran = outcome.value();
  if (!ran.serving.harness_fault.empty()) {
    return Stopped{kHarness, "the harness could not serve the sanity check: " + ran.serving.harness_fault +
                                 kShortOfResources};
  }
  if (!ran.result.exited_cleanly() && !ran.serving.reached) {
    return Stopped{kFlaky,
                   "the suite passed the clean runs, then failed the sanity check (" +
                       ran.result.how_it_ended() +
                       ") without ever starting TLBF_IMPL, so that failure was not about the implementation",
                   output_of(ran.result)};
  }
  if (ran.result.exited_cleanly()) {
    return Stopped{kPassesBroken, "the suite passes even against " + subjects.broken_description() +
                                      ": it is not testing the implementation"};
  }
  return std::nullopt;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// Every run of one mutant, folded into its outcome: the first run's, when
// every run agrees on caught or not; and when they do not, the flaky stop
// that says so.
struct Folded {
  MutantRun run;
  std::optional<Stopped> disagreement;
};

Folded fold(std::vector<MutantRun> runs) {
  MutantRun out = runs.front();
  double seconds = 0;
  for (const auto& r : runs) seconds += r.seconds;
  out.seconds = seconds / static_cast<double>(runs.size());
  out.confirmed_by = out.replayed ? 0 : static_cast<int>(runs.size());
  for (const auto& r : runs) {
    if (r.verdict == MutantVerdict::Error) return {r, std::nullopt};  // verdicts_stand stops on it
  }
  for (const auto& r : runs) {
    if (caught(r.verdict) == caught(out.verdict)) continue;
    const MutantRun& killing = caught(r.verdict) ? r : out;
    const MutantRun& passing = caught(r.verdict) ? out : r;
    const std::string alone =
        passing.only.empty() ? ""
                             : " (the run that passed ran only " + joined(passing.only) +
                                   ", the tests that failed against it before: a test that catches it only "
                                   "after other tests have run depends on them)";
    return {out, Stopped{kFlaky, "the suite is flaky: of " + std::to_string(runs.size()) + " runs against " +
                                     out.id + ", at least one failed and one passed" + alone +
                                     ", so whether it catches " + out.id +
                                     " is luck; seed its random tests and retry.\nthe output of the run that "
                                     "failed:\n" +
                                     tail_of(killing.output) + "the output of the run that passed:\n" +
                                     tail_of(passing.output)}};
  }
  return {out, std::nullopt};
}

}  // namespace

namespace {

// A clean run among the mutants'. Like a mutant's, a timeout counts only
// when a second run times out too. One that could not be prepared or served
// is a Failure: the harness's fault, not the suite's.
struct ControlResult {
  bool passed = false;
  std::string output;  // when it failed
  std::string how;     // how it ended, when it failed
};

template <typename Prepare>
Outcome<ControlResult> control_run(Subjects& subjects, std::chrono::milliseconds limit, Prepare prepare) {
  ControlResult out;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const auto ran = run_and_finish(subjects, prepare(), limit);
    if (const auto not_run = harness_failure(ran)) return *not_run;
    if (ran->result.exited_cleanly()) return ControlResult{true, "", ""};
    out.output = output_of(ran->result);
    out.how = ran->result.how_it_ended();
    if (!ran->result.timed_out) break;
  }
  return out;
}

// One run of the graded phase: a mutant's or a chaff's (`index` into the
// ids), a clean control run, a wheat's (`index` into the wheats), or the
// sanity check's broken subject; after it, where tests run alone, a required
// mutant's confirming run or a clean run alone in subject form `form`, of
// only the tests `tests` (an index into GradedPhaseRecord::alone_tests).
struct Entry {
  enum Kind { kMutant, kControl, kWheat, kBroken, kAloneControl } kind;
  std::size_t index = 0;
  int tests = -1;  // -1: the whole suite
  int form = 0;
};

// Each mutant's and chaff's places (planned_runs), `control_runs` control
// runs, each wheat's `wheat_runs` and the sanity check's, in one order the
// suite cannot know: no run can tell by the clock or by counting which kind
// of subject it faces (a suite that passes everything at first, then only
// the reference, fails the wheats among the mutants).
std::vector<Entry> shuffled_run_order(const ScoreOptions& options, const std::vector<int>& planned) {
  std::vector<Entry> order;
  for (std::size_t i = 0; i < planned.size(); ++i)
    order.insert(order.end(), static_cast<std::size_t>(planned[i]), {Entry::kMutant, i});
  order.insert(order.end(), static_cast<std::size_t>(std::max(0, options.control_runs)),
               {Entry::kControl, 0});
  for (std::size_t w = 0; w < options.wheats.size(); ++w)
    order.insert(order.end(), static_cast<std::size_t>(std::max(1, options.baseline_runs)),
                 {Entry::kWheat, w});
  order.push_back({Entry::kBroken, 0});
  shuffle_unpredictably(order);
  return order;
}

bool is_required(const ScoreOptions& options, const std::vector<std::string>& ids, std::size_t i) {
  return i < options.mutants.size() &&
         std::find(options.required.begin(), options.required.end(), ids[i]) != options.required.end();
}

// The places in the order of each id (mutants, then chaffs): `confirm_runs`
// each, and for a required mutant up to `kill_confirm_runs`, of which those
// past `confirm_runs` run only while every run of it so far caught it
// (confirm_more). Where tests run `alone`, a required mutant's places past
// `confirm_runs` come after the shuffled phase instead (alone_order).
std::vector<int> planned_runs(const ScoreOptions& options, const std::vector<std::string>& ids, bool alone) {
  const int confirm = std::max(1, options.confirm_runs);
  std::vector<int> out;
  for (std::size_t i = 0; i < ids.size(); ++i)
    out.push_back(is_required(options, ids, i) && !alone ? kill_confirmations(options) : confirm);
  return out;
}

// What the graded phase gathers while its runs go on, under one mutex.
struct GradedPhaseRecord {
  std::vector<std::vector<MutantRun>> runs;  // by index into the ids
  std::vector<int> planned;                  // places in the order, by index (planned_runs)
  std::vector<int> started, ended;           // of those places, by index: taken, and run or skipped
  std::optional<Failure> harness_failure;    // the first control or wheat run not prepared or not served
  std::string control_how, control_output;   // how the first failing control run ended, and its output
  std::optional<Outcome<Ran>> broken;        // the sanity check's run
  std::vector<std::vector<std::string>> alone_tests;  // the sets of tests run alone (Entry::tests)
  // The first clean run alone that failed: its tests, how it ended, its output.
  std::string alone_control_tests, alone_control_how, alone_control_output;
};

// A control run, whole or alone, counted in `runs` and `passes`; the first
// that failed keeps how it ended and its output in `how` and `output`. True
// for that first failure.
bool tally_control(const Outcome<ControlResult>& control, GradedPhaseRecord& record, int& runs, int& passes,
                   std::string& how, std::string& output) {
  if (!control.ok()) {
    if (!record.harness_failure) record.harness_failure = control.failure();
    return false;
  }
  ++runs;
  if (control->passed) {
    ++passes;
    return false;
  }
  if (!how.empty()) return false;
  how = control->how;
  output = control->output;
  return true;
}

void record_control(const Outcome<ControlResult>& control, GradedPhaseRecord& record, Score& score) {
  (void)tally_control(control, record, score.control_runs, score.control_passes, record.control_how,
                      record.control_output);
}

void record_alone_control(const Outcome<ControlResult>& control, const std::vector<std::string>& tests,
                          GradedPhaseRecord& record, Score& score) {
  if (tally_control(control, record, score.alone_control_runs, score.alone_control_passes,
                    record.alone_control_how, record.alone_control_output))
    record.alone_control_tests = tests.empty() ? "the whole suite" : joined(tests);
}

void record_wheat_run(const Outcome<Ran>& outcome, WheatRuns& w, GradedPhaseRecord& record) {
  if (const auto not_run = harness_failure(outcome)) {
    if (!record.harness_failure)
      record.harness_failure = failure("the run of the correct variant '" + w.id + "': " + not_run->why);
    return;
  }
  const Ran& ran = outcome.value();
  ++w.runs;
  if (ran.result.exited_cleanly()) {
    ++w.passes;
  } else if (w.output.empty()) {
    w.output = output_of(ran.result);
    w.evidence = evidence_from(ran.result.out + ran.result.err);
  }
}

// The runs of a mutant that caught it: a timeout stands for two (grade()
// counts one only when a second run times out too).
int runs_that_caught(const std::vector<MutantRun>& runs) {
  int n = 0;
  for (const MutantRun& r : runs) n += r.verdict == MutantVerdict::Timeout ? 2 : caught(r.verdict) ? 1 : 0;
  return n;
}

bool all_caught(const std::vector<MutantRun>& runs) {
  return std::all_of(runs.begin(), runs.end(),
                     [](const MutantRun& m) { return caught(m.verdict) && !m.replayed; });
}

// Whether the next place of id `i` in the order runs: each of the first
// `confirm_runs` does; a later one (a required mutant's kill confirmed) only
// while every run of it that has ended caught it, and fewer than
// kill_confirmations did. A survivor among them settles it (a disagreement
// already makes the grading flaky).
bool confirm_more(const GradedPhaseRecord& record, std::size_t i, const ScoreOptions& options) {
  if (record.started[i] < std::max(1, options.confirm_runs)) return true;
  const auto& runs = record.runs[i];
  return all_caught(runs) && runs_that_caught(runs) < kill_confirmations(options);
}

// A place of id `i` that ended, run (`run`) or skipped.
void record_mutant_run(std::optional<MutantRun> run, GradedPhaseRecord& record, std::size_t i,
                       Progress& progress) {
  auto& runs_of_its_mutant = record.runs[i];
  if (run) runs_of_its_mutant.push_back(std::move(*run));
  if (++record.ended[i] != record.planned[i]) return;
  ++progress.mutants_done;
  progress.survived += std::all_of(runs_of_its_mutant.begin(), runs_of_its_mutant.end(),
                                   [](const MutantRun& m) { return m.verdict == MutantVerdict::Survived; });
}

// Each id's runs folded into score.runs (the first `graded` ids) or
// score.chaff_runs (the rest); by id, the stop its runs' disagreement makes, if any.
std::vector<std::optional<Stopped>> fold_into(Score& score, std::vector<std::vector<MutantRun>> runs,
                                              std::size_t graded) {
  std::vector<std::optional<Stopped>> disagreements;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    Folded folded = fold(std::move(runs[i]));
    (i < graded ? score.runs : score.chaff_runs).push_back(std::move(folded.run));
    disagreements.push_back(std::move(folded.disagreement));
  }
  return disagreements;
}

// Whether the folded runs are a grade: none when they are, else why not.
std::optional<Stopped> verdicts_stand(const Score& score,
                                      const std::vector<std::optional<Stopped>>& disagreements,
                                      const GradedPhaseRecord& record) {
  std::vector<const MutantRun*> all;
  for (const auto& r : score.runs) all.push_back(&r);
  for (const auto& r : score.chaff_runs) all.push_back(&r);
  // A run whose failure was not its mutant's doing voids the grade: counted
  // as a kill, it would raise the score of a suite that never caught it.
  for (const Stop why : {kHarness, kFlaky}) {
    for (const MutantRun* r : all) {
      if (r->stops_grading_with != why) continue;
      if (why == kHarness)
        return Stopped{kHarness,
                       "the run of " + r->id + " is not graded: " + r->evidence + kShortOfResources};
      return Stopped{kFlaky,
                     "the suite passed the clean runs, then failed the run of " + r->id +
                         " without ever starting TLBF_IMPL, so that failure was not the mutant's doing: the "
                         "suite is flaky, or the machine could not start its processes (ulimit -u, -n)",
                     r->output};
    }
  }
  // Nor is a run that could not happen as planned a survivor: a stale patch
  // would otherwise make a strong suite look weak.
  for (const MutantRun* r : all) {
    if (r->verdict == MutantVerdict::Error) {
      return Stopped{kUngradable, "the run of " + r->id +
                                      " could not happen, so nothing can be said of it: " + r->evidence};
    }
  }
  if (score.control_passes < score.control_runs) {
    return Stopped{kFlaky,
                   "the suite is flaky or counts its runs: it passed the " +
                       std::to_string(score.baseline_runs) + " clean runs before the mutants, then failed " +
                       std::to_string(score.control_runs - score.control_passes) + " of the " +
                       std::to_string(score.control_runs) + " clean runs hidden among them (" +
                       record.control_how + "), so its grade would not be about the mutants",
                   record.control_output};
  }
  if (score.alone_control_passes < score.alone_control_runs) {
    return Stopped{kFlaky,
                   "the suite fails when only some of its tests run: run alone, " +
                       record.alone_control_tests + " failed against a correct implementation (" +
                       record.alone_control_how +
                       "), so their failures against the mutants they caught say nothing of those mutants; "
                       "each test must pass or fail on its own, whatever ran before it",
                   record.alone_control_output};
  }
  for (const auto& disagreement : disagreements) {
    if (disagreement) return disagreement;
  }
  return std::nullopt;
}

// One run of the graded phase, recorded.
void graded_run(Subjects& subjects, const ScoreOptions& options, const std::vector<std::string>& ids,
                const Entry& entry, std::mutex& mutex, GradedPhaseRecord& record, Score& score,
                Progress& progress) {
  switch (entry.kind) {
    case Entry::kControl: {
      const auto control = control_run(subjects, score.limit, [&] { return subjects.clean(); });
      std::lock_guard<std::mutex> lock(mutex);
      record_control(control, record, score);
      return;
    }
    case Entry::kAloneControl: {
      const auto& tests = record.alone_tests[static_cast<std::size_t>(entry.tests)];
      const auto control =
          control_run(subjects, score.limit, [&] { return subjects.clean_only(tests, entry.form); });
      std::lock_guard<std::mutex> lock(mutex);
      record_alone_control(control, tests, record, score);
      return;
    }
    case Entry::kWheat: {
      const auto ran = run_and_finish(subjects, subjects.wheat(options.wheats[entry.index]), score.limit);
      std::lock_guard<std::mutex> lock(mutex);
      record_wheat_run(ran, score.wheats[entry.index], record);
      return;
    }
    case Entry::kBroken: {
      const auto prepared = subjects.broken();
      if (!prepared) return;  // no sanity check: a place in the order that runs nothing
      auto ran = run_and_finish(subjects, *prepared, score.limit);
      std::lock_guard<std::mutex> lock(mutex);
      record.broken = std::move(ran);
      return;
    }
    case Entry::kMutant: {
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (!confirm_more(record, entry.index, options)) {
          record_mutant_run(std::nullopt, record, entry.index, progress);
          return;
        }
        ++record.started[entry.index];
      }
      static const std::vector<std::string> kWhole;
      MutantRun r =
          grade(subjects, ids[entry.index], score.limit,
                entry.tests < 0 ? kWhole : record.alone_tests[static_cast<std::size_t>(entry.tests)]);
      std::lock_guard<std::mutex> lock(mutex);
      record_mutant_run(std::move(r), record, entry.index, progress);
      return;
    }
  }
}

// A recorded run against the kit's variant as it is, ungraded (that
// wheat's graded runs are among the others): its transcript when the suite
// passed it, else none, and why in `score`.
std::optional<Transcript> record_variant(Subjects& subjects, Score& score) {
  const auto prepared = subjects.variant_recorded();
  if (!prepared) return std::nullopt;
  const auto ran = run_and_finish(subjects, *prepared, score.limit);
  TranscriptCheck& t = score.transcript;
  if (const auto not_run = harness_failure(ran)) {
    t.variant_unrecorded = "its run could not happen: " + not_run->why;
  } else if (!ran->result.exited_cleanly()) {
    t.variant_unrecorded = "the suite failed it (" + ran->result.how_it_ended() + ")";
  } else if (!ran->serving.transcript) {
    t.variant_unrecorded = "";  // not recorded at all
  } else if (!ran->serving.transcript->ok()) {
    t.variant_unrecorded = ran->serving.transcript->why();
  } else {
    t.variant_recorded = true;
    return ran->serving.transcript->value();
  }
  return std::nullopt;
}

// Each mutant's and chaff's replay against `reference` (and the variant's
// forms against a recorded run of the variant), `jobs` at a time; nullopt
// for one that cannot be replayed, and for all when there is no reference
// (replay off, a suite not deterministic, no session at all).
std::vector<std::optional<Replayed>> replay_all(Subjects& subjects, const ScoreOptions& options,
                                                const std::vector<std::string>& ids,
                                                const Transcript& reference, Score& score) {
  std::vector<std::optional<Replayed>> out(ids.size());
  if (reference.empty()) return out;
  const auto start = Clock::now();
  std::once_flag recorded_once;
  std::optional<Transcript> variant;
  const References references{reference, [&]() -> const Transcript* {
                                std::call_once(recorded_once,
                                               [&] { variant = record_variant(subjects, score); });
                                return variant ? &*variant : nullptr;
                              }};
  in_parallel(ids.size(), options.jobs,
              [&](std::size_t i) { out[i] = subjects.replay(ids[i], references, score.limit); });
  score.transcript.seconds = seconds_since(start);
  return out;
}

// Each subject that answered as the reference did gets its one outcome,
// survived, and no place in the order.
void take_replays(const std::vector<std::optional<Replayed>>& replays, const std::vector<std::string>& ids,
                  GradedPhaseRecord& record, Score& score) {
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!replays[i] || !replays[i]->alike) continue;
    MutantRun r;
    r.id = ids[i];
    r.verdict = MutantVerdict::Survived;
    r.replayed = true;
    r.evidence = "answered the suite's " + std::to_string(score.transcript.requests) + " requests in " +
                 std::to_string(score.transcript.sessions) +
                 " sessions as the reference did: replayed, not run";
    record.runs[i].push_back(std::move(r));
    record.planned[i] = 0;
    ++score.transcript.replayed;
  }
}

// A chaff whose replay answered otherwise runs once: the suite is
// deterministic (its clean runs sent the same requests) and the chaff
// answered one of them otherwise, and a chaff is outside the grade, so a
// second run would confirm nothing the grade needs. A required mutant's kill
// keeps all its confirming runs: a suite whose random choice among a few
// cases made the clean runs alike by chance kills by luck all the same
// (docs/mutants.md, "A kill must be reproducible").
void plan_by_evidence(const std::vector<std::optional<Replayed>>& replays, const ScoreOptions& options,
                      GradedPhaseRecord& record, Score& score) {
  for (std::size_t i = options.mutants.size(); i < replays.size(); ++i) {
    if (!replays[i] || replays[i]->alike) continue;
    record.planned[i] = 1;
    ++score.transcript.evidenced;
  }
}

// Beside the evidence of a subject whose replay differed, where it did: the
// first request it answered otherwise, and both answers.
void add_replay_differences(const std::vector<std::optional<Replayed>>& replays, std::size_t graded,
                            Score& score) {
  for (std::size_t i = 0; i < replays.size(); ++i) {
    if (!replays[i] || replays[i]->alike) continue;
    MutantRun& r = i < graded ? score.runs[i] : score.chaff_runs[i - graded];
    r.answered_otherwise = true;
    r.evidence += (r.evidence.empty() ? "" : "\n") + std::string("replayed first, it answered otherwise: ") +
                  replays[i]->difference;
  }
}

// The tests that confirm a required mutant's kill alone, from its runs so
// far: nullopt unless every one of them caught it (a survivor or a
// disagreement settles it); else every test they named as failed, or none
// (the whole suite confirms it) when one named none: a timeout, a crash, or
// output that does not end as the runner's does.
std::optional<std::vector<std::string>> tests_confirming(const std::vector<MutantRun>& runs) {
  if (runs.empty() || !all_caught(runs)) return std::nullopt;
  std::set<std::string> names;
  for (const MutantRun& r : runs) {
    if (r.failed_tests.empty()) return std::vector<std::string>{};
    names.insert(r.failed_tests.begin(), r.failed_tests.end());
  }
  return std::vector<std::string>(names.begin(), names.end());
}

// After the shuffled phase, where tests run alone (docs/mutants.md, "A kill
// must be reproducible"): each required mutant that every run so far caught
// gets the rest of its confirming runs, each of only the tests that caught
// it, and each set of such tests two clean runs of them alone, one in each
// form of the subject, all in one more order the suite cannot know. A suite
// that fails whenever only some of its tests run fails those clean runs.
std::vector<Entry> alone_order(const ScoreOptions& options, const std::vector<std::string>& ids,
                               GradedPhaseRecord& record, Score& score, Progress& progress) {
  std::map<std::vector<std::string>, int> sets;
  std::vector<Entry> order;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (!is_required(options, ids, i)) continue;
    const auto tests = tests_confirming(record.runs[i]);
    const int more = kill_confirmations(options) - runs_that_caught(record.runs[i]);
    if (!tests || more <= 0) continue;
    const auto [at, added] = sets.emplace(*tests, static_cast<int>(record.alone_tests.size()));
    if (added) {
      record.alone_tests.push_back(*tests);
      for (int form = 0; form < 2; ++form) order.push_back({Entry::kAloneControl, 0, at->second, form});
    }
    order.insert(order.end(), static_cast<std::size_t>(more), Entry{Entry::kMutant, i, at->second, 0});
    record.planned[i] += more;
    --progress.mutants_done;
    score.confirmed_alone[ids[i]] = *tests;
  }
  shuffle_unpredictably(order);
  return order;
}

// After the baseline, every other run in one shuffled order, `jobs` at a
// time (shuffled_run_order), then, where tests run alone, the confirming runs
// of the required mutants' kills (alone_order); then their verdicts: a harness fault, a wheat
// rejected, the sanity check passed, then the mutants' and controls' as
// verdicts_stand says.
std::optional<Stopped> graded_phase(Subjects& subjects, const ScoreOptions& options, Score& score,
                                    const Transcript& reference) {
  std::vector<std::string> ids = options.mutants;
  ids.insert(ids.end(), options.chaffs.begin(), options.chaffs.end());
  for (const auto& id : options.wheats) score.wheats.push_back({id, 0, 0, "", "", ""});
  GradedPhaseRecord record;
  // Only for a suite whose clean runs sent the same requests: one whose
  // tests share a random state (a budget of cases spent by the tests before
  // it) can catch a mutant every time alone and by luck in a whole run.
  const bool alone = options.runs_alone && subjects.runs_tests_alone() && score.transcript.deterministic &&
                     kill_confirmations(options) > std::max(1, options.confirm_runs);
  record.planned = planned_runs(options, ids, alone);
  record.runs.resize(ids.size());
  const auto replays = replay_all(subjects, options, ids, reference, score);
  take_replays(replays, ids, record, score);
  plan_by_evidence(replays, options, record, score);
  const auto order = shuffled_run_order(options, record.planned);
  record.started.assign(ids.size(), 0);
  record.ended.assign(ids.size(), 0);
  std::mutex mutex;
  const int replayed = score.transcript.replayed;
  Progress progress{"mutants", 0, static_cast<int>(order.size()), replayed, static_cast<int>(ids.size()),
                    replayed,  0};
  const auto start = Clock::now();
  const auto run_in_parallel = [&](const std::vector<Entry>& entries) {
    in_parallel(entries.size(), options.jobs, [&](std::size_t n) {
      graded_run(subjects, options, ids, entries[n], mutex, record, score, progress);
      std::lock_guard<std::mutex> lock(mutex);
      ++progress.done;
      progress.elapsed_seconds = seconds_since(start);
      if (options.progress) options.progress(progress);
    });
  };
  run_in_parallel(order);
  const bool wheats_passed = std::all_of(score.wheats.begin(), score.wheats.end(),
                                         [](const WheatRuns& w) { return w.passes == w.runs; });
  if (alone && !record.harness_failure && wheats_passed) {
    const auto more = alone_order(options, ids, record, score, progress);
    progress.total += static_cast<int>(more.size());
    run_in_parallel(more);
  }
  score.mutants_seconds = seconds_since(start);
  for (WheatRuns& w : score.wheats) w.about = subjects.about_wheat(w.id);
  if (record.harness_failure) {
    return Stopped{kHarness, "a clean control run or a correct variant's could not be prepared or served: " +
                                 record.harness_failure->why + kShortOfResources};
  }
  for (const WheatRuns& w : score.wheats) {
    if (w.passes < w.runs) return wheat_failed(subjects, options, w);
  }
  if (record.broken) {
    if (auto insane = sanity_stands(subjects, *record.broken)) return insane;
  }
  const auto disagreements = fold_into(score, std::move(record.runs), options.mutants.size());
  add_replay_differences(replays, options.mutants.size(), score);
  return verdicts_stand(score, disagreements, record);
}

}  // namespace

int Score::chaffs_killed() const {
  int n = 0;
  for (const auto& r : chaff_runs) n += caught(r.verdict);
  return n;
}

Score score_suite(Subjects& subjects, const ScoreOptions& options) {
  Score score;
  std::optional<Stopped> stopped = warm_up_phase(subjects, options, score);
  BaselineRecord baseline;
  if (!stopped) {
    baseline = baseline_runs(subjects, options, score);
    stopped = baseline_stands(baseline, score, options);
  }
  // Not deterministic: flagged, and every subject is run (docs/mutants.md).
  BaselineTranscripts transcripts = check_transcripts(baseline, options.replay);
  score.transcript = std::move(transcripts.check);
  if (!stopped) {
    // A mutant's run may rebuild what the warm-up built, then run the suite.
    score.limit =
        std::max(options.timeout_floor,
                 std::chrono::milliseconds(static_cast<long long>(
                     (score.warm_up_seconds + score.baseline_seconds * options.timeout_factor) * 1000)));
    stopped = graded_phase(subjects, options, score, transcripts.reference);
  }
  if (stopped) record_stop(score, std::move(*stopped));
  return score;
}

}  // namespace tlbf::mutants
