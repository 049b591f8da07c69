#include "tlbf/mutants/scorer.hpp"

#include <atomic>
#include <mutex>
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
  std::string line = "TLBF_IMPL=" + conformance::shell_quote(impl);
  line += mutant.empty() ? " TLBF_MUTANT= " : " TLBF_MUTANT=" + conformance::shell_quote(mutant) + " ";
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

Score score_suite(const ScoreOptions& options) {
  Score score;
  // The baseline has no bound but a generous one: it is the user's own suite on the real thing.
  const auto start = Clock::now();
  const auto baseline = conformance::run_with_input(suite_command(options.suite, options.reference, ""), "",
                                                    std::chrono::hours(1));
  score.baseline_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  score.baseline_output = baseline.out + baseline.err;
  if (!baseline.exited_cleanly()) {
    score.stopped = 3;
    score.stop_reason = "the suite fails on the clean reference (" + baseline.how_it_ended() + "); fix it before grading it";
    return score;
  }
  const auto limit = std::max(options.timeout_floor,
                              std::chrono::milliseconds(static_cast<long long>(score.baseline_seconds * 1000 * options.timeout_factor)));
  const auto sanity = conformance::run_with_input(suite_command(options.suite, options.refuser, ""), "", limit);
  if (sanity.exited_cleanly()) {
    score.stopped = 4;
    score.stop_reason = "the suite passes even against an implementation that answers every request with an error: "
                        "it is not testing the implementation (does it read TLBF_IMPL?)";
    return score;
  }

  score.runs.resize(options.mutants.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < options.mutants.size();) {
      const std::string& id = options.mutants[i];
      const auto began = Clock::now();
      const auto run = conformance::run_with_input(
          suite_command(options.suite, options.mutant_server + " " + id, id), "", limit);
      MutantRun& r = score.runs[i];
      r.id = id;
      r.seconds = std::chrono::duration<double>(Clock::now() - began).count();
      if (!run.started) {
        r.verdict = Verdict::Error;
        r.evidence = "the suite could not be started";
      } else if (run.timed_out) {
        r.verdict = Verdict::Timeout;
        r.evidence = "stopped after " + std::to_string(limit.count()) + " ms";
      } else if (run.exited_cleanly()) {
        r.verdict = Verdict::Survived;
        r.evidence = evidence_from(run.out + run.err);
      } else {
        r.verdict = Verdict::Killed;
        r.evidence = evidence_from(run.out + run.err);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, options.jobs); ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  return score;
}

}  // namespace tlbf::mutants
