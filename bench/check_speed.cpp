// tlbf check's whole run against one implementation, timed as the command
// makes it: conformance's run_check (check_run.hpp), the call `tlbf check`,
// its tests and this benchmark share, so what is timed includes making the
// cases, planning them, the capability probes and the judging. Each
// selection pipelined and one request at a time, beside a baseline measured
// in the same run: one case, what every check pays whatever its cases. Not
// a test: run it with scripts/bench.
//
// Usage: check_speed COMMAND [RUNS]
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <variant>

#include "tlbf/conformance/check_run.hpp"

namespace {

using tlbf::conformance::CheckRunOptions;

struct Timed {
  double seconds = 0;       // mean of the runs
  std::size_t results = 0;  // the report's rows: capabilities, then cases
  bool conforms = true;     // in every run
};

Timed time_check(CheckRunOptions options, int runs) {
  Timed out;
  tlbf::conformance::CheckObserver quiet;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) {
    const auto ran = tlbf::conformance::run_check(options, quiet);
    const auto* run = std::get_if<tlbf::conformance::CheckRun>(&ran);
    if (run == nullptr) {
      std::fprintf(stderr, "check_speed: %s\n", std::get<tlbf::conformance::CheckError>(ran).why.c_str());
      out.conforms = false;
      return out;
    }
    out.conforms = out.conforms && run->passed;
    out.results = run->reports.empty() ? 0 : run->reports.front().results.size();
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / runs;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: check_speed COMMAND [RUNS]\n");
    return 2;
  }
  const int runs = argc > 2 ? std::stoi(argv[2]) : 5;
  CheckRunOptions options;
  options.impls = {argv[1]};
  // The baseline: one case and no random sequence, so the time is the
  // check's own (start, probes, end, the cases made and chosen).
  CheckRunOptions one_case = options;
  one_case.filter = "vectors/hash/Fnv1a64Test/1";
  one_case.runs = 0;
  const Timed baseline = time_check(one_case, runs);
  std::printf("baseline, one case (start, probe, end): %.3f s, mean of %d runs\n", baseline.seconds, runs);
  bool conforms = baseline.conforms;
  // The vector cases alone (the figure earlier rounds measured), then the
  // whole default check: every case, the behaviour cases, 100 random sequences.
  CheckRunOptions vectors_only = options;
  vectors_only.filter = "vectors/*";
  const std::pair<const char*, CheckRunOptions> selections[] = {{"vector cases", vectors_only},
                                                                {"the whole default check", options}};
  for (const auto& [name, selected] : selections) {
    CheckRunOptions serial = selected;
    serial.no_pipeline = true;
    const Timed pipelined = time_check(selected, runs);
    const Timed one_at_a_time = time_check(serial, runs);
    conforms = conforms && pipelined.conforms && one_at_a_time.conforms;
    std::printf("%s: %zu results, mean of %d runs each\n", name, pipelined.results, runs);
    std::printf("  pipelined            %8.3f s  %6.1fx the baseline\n", pipelined.seconds,
                pipelined.seconds / baseline.seconds);
    std::printf("  one at a time        %8.3f s  %6.1fx the baseline\n", one_at_a_time.seconds,
                one_at_a_time.seconds / baseline.seconds);
    std::printf("  pipelining speed-up  %8.1fx\n", one_at_a_time.seconds / pipelined.seconds);
  }
  if (!conforms)
    std::printf("(the implementation did not conform in every run: these times are not comparable)\n");
  return conforms ? 0 : 1;
}
