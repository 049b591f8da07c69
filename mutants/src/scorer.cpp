#include "tlbf/mutants/scorer.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/readable.hpp"

namespace tlbf::mutants {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kShortOfResources =
    " (is the machine short of processes or file descriptors? try fewer jobs, -j, or raise ulimit -u / -n); no grade";

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
std::vector<std::string> block(const std::vector<std::string>& lines, std::size_t first, Ends ends, std::size_t cap) {
  std::vector<std::string> out{lines[first]};
  for (std::size_t i = first + 1; i < lines.size() && out.size() < cap && !ends(lines[i]); ++i) out.push_back(lines[i]);
  return out;
}

// The suite's first failing assertion: a Rust panic (from `panicked at` to the
// blank line or the backtrace note after it), a unittest FAIL or ERROR block
// (its header and traceback), tlbf check's FAIL with its explanation, a Rust
// compile error, else the last lines.
std::vector<std::string> failing_lines(const std::vector<std::string>& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("panicked at") != std::string::npos) {
      return block(lines, i, [](const std::string& l) { return l.empty() || starts_with(l, "note: ") || starts_with(l, "stack backtrace"); }, 8);
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (starts_with(lines[i], "FAIL: ") || starts_with(lines[i], "ERROR: ")) {
      auto out = block(lines, i, [](const std::string& l) { return starts_with(l, "=====") || l.empty(); }, 14);
      // The dashes under the header say nothing.
      out.erase(std::remove_if(out.begin(), out.end(), [](const std::string& l) { return starts_with(l, "-----"); }), out.end());
      return out;
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    // tlbf check's "FAIL case" and the indented lines that explain it.
    if (starts_with(lines[i], "FAIL ")) {
      return block(lines, i, [](const std::string& l) { return l.empty() || !std::isspace(static_cast<unsigned char>(l[0])); }, 4);
    }
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (starts_with(lines[i], "error[") || starts_with(lines[i], "error: ")) {
      return block(lines, i, [](const std::string& l) { return l.empty(); }, 8);
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
  for (const auto& line : failing_lines(lines_of(output))) out += (out.empty() ? "" : "\n") + line.substr(0, 200);
  return printable(out);
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Of each run's stdout and of its stderr, the first and last 512 KiB: a
// suite that writes gigabytes is graded, not held in memory.
constexpr std::size_t kKeptOutput = std::size_t{1} << 20;

conformance::RunResult run(const SuiteRun& suite, std::chrono::milliseconds limit) {
  const std::string line =
      suite.directory.empty() ? suite.command : "cd " + conformance::shell_quote(suite.directory) + " && " + suite.command;
  return conformance::run_with_input(line, "", limit, kKeptOutput);
}

}  // namespace

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::Killed: return "killed";
    case Verdict::Survived: return "SURVIVED";
    case Verdict::Timeout: return "timeout";
    case Verdict::Error: return "error";
  }
  return "?";
}

int Score::killed() const {
  int n = 0;
  for (const auto& r : runs) n += r.verdict == Verdict::Killed || r.verdict == Verdict::Timeout;
  return n;
}

double Score::score() const { return runs.empty() ? 0.0 : static_cast<double>(killed()) / static_cast<double>(runs.size()); }

std::string quote_if_needed(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
  });
  return plain ? word : conformance::shell_quote(word);
}

std::string suite_command(const std::vector<std::string>& suite, const std::string& impl, const std::string& mutant) {
  // Cleared first: the grader's own environment could name a subject, and a
  // CARGO_TARGET_DIR would make concurrent runs build into one directory.
  std::string line = "unset TLBF_IMPL TLBF_MUTANT CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR; ";
  if (!impl.empty()) line += "TLBF_IMPL=" + conformance::shell_quote(impl) + " ";
  if (!mutant.empty()) line += "TLBF_MUTANT=" + conformance::shell_quote(mutant) + " ";
  line += "exec";
  for (const auto& word : suite) line += " " + conformance::shell_quote(word);
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

MutantRun grade(Subjects& subjects, const std::string& id, std::chrono::milliseconds limit) {
  MutantRun r;
  r.id = id;
  const SuiteRun prepared = subjects.mutant(id);
  const auto began = Clock::now();
  if (!prepared.error.empty()) {
    r.verdict = Verdict::Error;
    r.evidence = prepared.error;
    subjects.finish(prepared);
    return r;
  }
  const auto result = run(prepared, limit);
  r.seconds = seconds_since(began);
  const Contact contact = subjects.contact(prepared);
  subjects.finish(prepared);
  if (!contact.harness_fault.empty()) {
    r.verdict = Verdict::Error;
    r.evidence = "the harness could not serve it: " + contact.harness_fault;
    r.voids = kHarness;
  } else if (!contact.reached && !result.exited_cleanly()) {
    // The mutant lives only in the served process: a suite that failed
    // without starting it failed for another reason (flaky, or out of processes).
    r.verdict = Verdict::Error;
    r.evidence = "the suite failed (" + result.how_it_ended() + ") without ever starting TLBF_IMPL";
    r.voids = kFlaky;
    r.output = printable(result.out + result.err);
    if (r.output.empty()) r.output = "(no output; " + result.how_it_ended() + ")\n";
  } else if (!result.started) {
    r.verdict = Verdict::Error;
    r.evidence = "the suite could not be started (" + result.start_error + ")";
  } else if (result.timed_out) {
    r.verdict = Verdict::Timeout;
    r.evidence = "stopped after " + std::to_string(limit.count()) + " ms";
  } else {
    r.verdict = result.exited_cleanly() ? Verdict::Survived : Verdict::Killed;
    r.evidence = evidence_from(result.out + result.err);
  }
  return r;
}

// In the run order, a control run rather than a mutant's index.
constexpr std::size_t kControl = static_cast<std::size_t>(-1);

// The mutants' indices and `controls` control runs, shuffled by a seed the
// suite cannot know, so that a run's place says nothing about what it faces.
std::vector<std::size_t> run_order(std::size_t mutants, int controls) {
  std::vector<std::size_t> order(mutants);
  for (std::size_t i = 0; i < mutants; ++i) order[i] = i;
  order.insert(order.end(), static_cast<std::size_t>(controls), kControl);
  std::mt19937_64 random{std::random_device{}()};
  std::shuffle(order.begin(), order.end(), random);
  return order;
}

struct ControlResult {
  bool passed = false;
  std::string output;  // when it failed
  std::string how;     // how it ended, when it failed
  std::string error;   // the run could not be prepared or served: the harness's fault, not the suite's
};

// A clean run among the mutants'. Like a mutant's, a timeout counts only when
// a second run times out too.
ControlResult control_run(Subjects& subjects, std::chrono::milliseconds limit) {
  ControlResult out;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const SuiteRun clean = subjects.clean();
    if (!clean.error.empty()) {
      subjects.finish(clean);
      out.error = clean.error;
      return out;
    }
    const auto result = run(clean, limit);
    const Contact contact = subjects.contact(clean);
    subjects.finish(clean);
    if (!contact.harness_fault.empty()) {
      out.error = contact.harness_fault;
      return out;
    }
    if (result.exited_cleanly()) return {true, "", "", ""};
    out.output = printable(result.out + result.err);
    if (out.output.empty()) out.output = "(no output; " + result.how_it_ended() + ")\n";
    out.how = result.how_it_ended();
    if (!result.timed_out) break;
  }
  return out;
}

}  // namespace

Score score_suite(Subjects& subjects, const ScoreOptions& options) {
  Score score;
  if (const auto warm = subjects.warm_up()) {
    const auto start = Clock::now();
    if (!warm->error.empty()) {
      subjects.finish(*warm);
      score.stopped = kHarness;
      score.stop_reason = "the warm-up run could not be prepared: " + warm->error;
      return score;
    }
    (void)run(*warm, options.setup_limit);  // not graded: the clean runs below say whether the suite passes
    subjects.warmed(*warm);
    // Each job's slot warmed where its runs will be, all at once; not graded either.
    const auto slots = subjects.slots(std::clamp(static_cast<int>(options.mutants.size()), 1, std::max(1, options.jobs)));
    std::vector<std::thread> warming;
    for (const auto& slot : slots) {
      warming.emplace_back([&slot, &options] {
        if (slot.error.empty()) (void)run(slot, options.setup_limit);
      });
    }
    for (auto& t : warming) t.join();
    for (const auto& slot : slots) {
      if (!slot.error.empty()) {
        score.stopped = kHarness;
        score.stop_reason = "a slot could not be prepared: " + slot.error;
        return score;
      }
    }
    subjects.slots_warmed();
    score.warm_up_seconds = seconds_since(start);
  }

  for (int i = 0; i < std::max(1, options.baseline_runs); ++i) {
    const auto start = Clock::now();
    const SuiteRun clean = subjects.clean();
    if (!clean.error.empty()) {
      // The harness's fault (a copy that failed), not the suite's: not flaky.
      subjects.finish(clean);
      score.stopped = kHarness;
      score.stop_reason = "a clean run could not be prepared: " + clean.error;
      return score;
    }
    const auto result = run(clean, options.setup_limit);
    const Contact contact = subjects.contact(clean);
    subjects.finish(clean);
    if (!contact.harness_fault.empty()) {
      score.stopped = kHarness;
      score.stop_reason = "the harness could not serve a clean run: " + contact.harness_fault + kShortOfResources;
      return score;
    }
    score.baseline_seconds = std::max(score.baseline_seconds, seconds_since(start));
    ++score.baseline_runs;
    if (result.exited_cleanly()) {
      if (score.baseline_passes++ == 0) score.passing_output = printable(result.out + result.err);
    } else if (score.baseline_output.empty()) {
      score.baseline_output = printable(result.out + result.err);
      if (score.baseline_output.empty()) score.baseline_output = "(no output; " + result.how_it_ended() + ")\n";
      score.stop_reason = result.how_it_ended();
      if (!contact.reached) score.stop_reason += ", without ever starting TLBF_IMPL";
    }
    // One run at the bound is enough to stop: more would each cost the bound again.
    if (result.timed_out) break;
  }
  if (score.baseline_passes == 0) {
    score.stopped = kFailsClean;
    score.stop_reason = "the suite fails on the clean reference (" + score.stop_reason + "); fix it before grading it";
    return score;
  }
  if (score.baseline_passes < score.baseline_runs) {
    score.stopped = kFlaky;
    score.stop_reason = "the suite is flaky: on the unchanged clean reference it passed " +
                        std::to_string(score.baseline_passes) + " of " + std::to_string(score.baseline_runs) +
                        " runs, so its grade would be luck; seed its random tests and retry";
    return score;
  }
  // A mutant's run may rebuild what the warm-up built, then run the suite.
  score.limit = std::max(options.timeout_floor,
                         std::chrono::milliseconds(static_cast<long long>(
                             (score.warm_up_seconds + score.baseline_seconds * options.timeout_factor) * 1000)));
  if (const auto broken = subjects.broken()) {
    const auto sanity = broken->error.empty() ? run(*broken, score.limit) : conformance::RunResult{};
    const Contact contact = broken->error.empty() ? subjects.contact(*broken) : Contact{};
    subjects.finish(*broken);
    if (!broken->error.empty()) {
      score.stopped = kHarness;
      score.stop_reason = "the sanity check could not be prepared: " + broken->error;
      return score;
    }
    if (!contact.harness_fault.empty()) {
      score.stopped = kHarness;
      score.stop_reason = "the harness could not serve the sanity check: " + contact.harness_fault + kShortOfResources;
      return score;
    }
    if (!sanity.exited_cleanly() && !contact.reached) {
      score.stopped = kFlaky;
      score.stop_reason = "the suite passed the clean runs, then failed the sanity check (" + sanity.how_it_ended() +
                          ") without ever starting TLBF_IMPL, so that failure was not about the implementation";
      score.baseline_output = printable(sanity.out + sanity.err);
      if (score.baseline_output.empty()) score.baseline_output = "(no output; " + sanity.how_it_ended() + ")\n";
      return score;
    }
    if (sanity.exited_cleanly()) {
      score.stopped = kPassesBroken;
      score.stop_reason = "the suite passes even against " + subjects.broken_description() +
                          ": it is not testing the implementation";
      return score;
    }
  }

  const auto mutants_start = Clock::now();
  score.runs.resize(options.mutants.size());
  const std::vector<std::size_t> order = run_order(options.mutants.size(), std::max(0, options.control_runs));
  std::mutex control_mutex;
  std::string harness_error;  // a control run that could not be prepared
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t n; (n = next.fetch_add(1)) < order.size();) {
      const std::size_t i = order[n];
      if (i == kControl) {
        const auto control = control_run(subjects, score.limit);
        std::lock_guard<std::mutex> lock(control_mutex);
        if (!control.error.empty()) {
          if (harness_error.empty()) harness_error = control.error;
          continue;
        }
        ++score.control_runs;
        if (control.passed) {
          ++score.control_passes;
        } else if (score.baseline_output.empty()) {
          score.baseline_output = control.output;
          score.stop_reason = control.how;
        }
        continue;
      }
      MutantRun r = grade(subjects, options.mutants[i], score.limit);
      if (r.verdict == Verdict::Timeout) {
        // A loaded machine can stop a run that would have ended: a timeout
        // counts as a kill only when a second run times out too.
        MutantRun again = grade(subjects, options.mutants[i], score.limit);
        if (again.verdict == Verdict::Timeout) again.evidence += ", twice";
        again.seconds += r.seconds;
        r = again;
      }
      score.runs[i] = r;
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, options.jobs); ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  score.mutants_seconds = seconds_since(mutants_start);
  if (!harness_error.empty()) {
    score.stopped = kHarness;
    score.stop_reason = "a clean control run could not be prepared or served: " + harness_error + kShortOfResources;
    return score;
  }
  // A run whose failure was not its mutant's doing voids the grade: counted
  // as a kill, it would raise the score of a suite that never caught it.
  for (const Stop voids : {kHarness, kFlaky}) {
    for (const MutantRun& r : score.runs) {
      if (r.voids != voids) continue;
      score.stopped = voids;
      if (voids == kHarness) {
        score.stop_reason = "the run of " + r.id + " is not graded: " + r.evidence + kShortOfResources;
      } else {
        score.stop_reason = "the suite passed the clean runs, then failed the run of " + r.id +
                            " without ever starting TLBF_IMPL, so that failure was not the mutant's doing: the suite"
                            " is flaky, or the machine could not start its processes (ulimit -u, -n)";
        score.baseline_output = r.output;
      }
      return score;
    }
  }
  if (score.control_passes < score.control_runs) {
    score.stopped = kFlaky;
    score.stop_reason = "the suite is flaky or counts its runs: it passed the " + std::to_string(score.baseline_runs) +
                        " clean runs before the mutants, then failed " +
                        std::to_string(score.control_runs - score.control_passes) + " of the " +
                        std::to_string(score.control_runs) +
                        " clean runs hidden among them (" + score.stop_reason +
                        "), so its grade would not be about the mutants";
  }
  return score;
}

}  // namespace tlbf::mutants
