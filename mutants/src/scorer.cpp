#include "tlbf/mutants/scorer.hpp"

#include <atomic>
#include <sstream>
#include <thread>

#include "tlbf/conformance/process.hpp"

namespace tlbf::mutants {
namespace {

using Clock = std::chrono::steady_clock;

// The lines that say what failed: those that mention a failure, else the last few.
std::string evidence_from(const std::string& output) {
  std::istringstream in(output);
  std::vector<std::string> lines, failing;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    lines.push_back(line);
    if (failing.size() < 3 && (line.find("FAIL") != std::string::npos || line.find("fail") != std::string::npos ||
                               line.find("Error") != std::string::npos)) {
      failing.push_back(line);
    }
  }
  if (failing.empty()) {
    for (std::size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i) failing.push_back(lines[i]);
  }
  std::string out;
  for (const auto& line : failing) out += (out.empty() ? "" : "\n") + line.substr(0, 200);
  return out;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

conformance::RunResult run(const SuiteRun& suite, std::chrono::milliseconds limit) {
  const std::string line =
      suite.directory.empty() ? suite.command : "cd " + conformance::shell_quote(suite.directory) + " && " + suite.command;
  return conformance::run_with_input(line, "", limit);
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

std::string suite_command(const std::vector<std::string>& suite, const std::string& impl, const std::string& mutant) {
  std::string line = impl.empty() ? "" : "TLBF_IMPL=" + conformance::shell_quote(impl) + " ";
  line += "TLBF_MUTANT=" + conformance::shell_quote(mutant) + " exec";
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

Score score_suite(Subjects& subjects, const ScoreOptions& options) {
  Score score;
  // The baseline has no bound but a generous one: it is the user's own suite on the real thing.
  const auto start = Clock::now();
  const SuiteRun clean = subjects.clean();
  const auto baseline = clean.error.empty() ? run(clean, std::chrono::hours(1)) : conformance::RunResult{};
  subjects.finish(clean);
  score.baseline_seconds = seconds_since(start);
  score.baseline_output = clean.error.empty() ? baseline.out + baseline.err : clean.error + "\n";
  if (!baseline.exited_cleanly()) {
    score.stopped = 3;
    score.stop_reason = "the suite fails on the clean reference (" +
                        (clean.error.empty() ? baseline.how_it_ended() : "it could not be prepared") +
                        "); fix it before grading it";
    return score;
  }
  const auto limit = std::max(options.timeout_floor,
                              std::chrono::milliseconds(static_cast<long long>(score.baseline_seconds * 1000 * options.timeout_factor)));
  if (const auto broken = subjects.broken()) {
    const auto sanity = broken->error.empty() ? run(*broken, limit) : conformance::RunResult{};
    subjects.finish(*broken);
    if (!broken->error.empty()) {
      score.stopped = 2;
      score.stop_reason = "the sanity check could not be prepared: " + broken->error;
      return score;
    }
    if (sanity.exited_cleanly()) {
      score.stopped = 4;
      score.stop_reason = "the suite passes even against " + subjects.broken_description() +
                          ": it is not testing the implementation";
      return score;
    }
  }

  const auto mutants_start = Clock::now();
  score.runs.resize(options.mutants.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < options.mutants.size();) {
      MutantRun& r = score.runs[i];
      r.id = options.mutants[i];
      const SuiteRun prepared = subjects.mutant(r.id);
      const auto began = Clock::now();
      if (!prepared.error.empty()) {
        r.verdict = Verdict::Error;
        r.evidence = prepared.error;
        subjects.finish(prepared);
        continue;
      }
      const auto result = run(prepared, limit);
      r.seconds = seconds_since(began);
      subjects.finish(prepared);
      if (!result.started) {
        r.verdict = Verdict::Error;
        r.evidence = "the suite could not be started";
      } else if (result.timed_out) {
        r.verdict = Verdict::Timeout;
        r.evidence = "stopped after " + std::to_string(limit.count()) + " ms";
      } else {
        r.verdict = result.exited_cleanly() ? Verdict::Survived : Verdict::Killed;
        r.evidence = evidence_from(result.out + result.err);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, options.jobs); ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  score.mutants_seconds = seconds_since(mutants_start);
  return score;
}

}  // namespace tlbf::mutants
