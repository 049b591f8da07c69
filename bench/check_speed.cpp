// The whole default check (every vector case) against one implementation,
// pipelined and one request at a time, and the ratio of the two, measured in
// the same run. Not a test: run it with scripts/bench.
//
// Usage: check_speed COMMAND [RUNS]
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "tlbf/conformance/check_suite.hpp"
#include "tlbf/conformance/runner.hpp"

namespace {

double seconds_per_check(const std::string& command, const std::vector<tlbf::conformance::Case>& cases,
                         bool pipelined, int runs, bool& conforms) {
  tlbf::conformance::RunnerOptions options;
  options.pipelined = pipelined;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i)
    conforms = tlbf::conformance::check(command, cases, options).conforms() && conforms;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / runs;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: check_speed COMMAND [RUNS]\n");
    return 2;
  }
  const std::string command = argv[1];
  const int runs = argc > 2 ? std::stoi(argv[2]) : 5;
  // The vector cases alone (the figure earlier rounds measured), then every
  // deterministic case of the default check: the vectors, the rules, the corpus.
  tlbf::conformance::CheckSelection vectors_only;
  vectors_only.filter = "vectors/*";
  const tlbf::conformance::CheckSelection default_check;
  const std::pair<const char*, std::vector<tlbf::conformance::Case>> sets[] = {
      {"vector cases", tlbf::conformance::select_check_cases(vectors_only).value().cases},
      {"all deterministic cases", tlbf::conformance::select_check_cases(default_check).value().cases}};
  bool conforms = true;
  // What every check pays whatever its cases: starting the implementation,
  // the capability probes, and its end.
  const double fixed = seconds_per_check(command, {}, true, runs, conforms);
  std::printf("no cases (start, probe, end): %.3f s, mean of %d runs\n", fixed, runs);
  for (const auto& [set, cases] : sets) {
    std::size_t requests = 0;
    for (const auto& c : cases) requests += c.steps.size() + 1;
    const double pipelined = seconds_per_check(command, cases, true, runs, conforms);
    const double serial = seconds_per_check(command, cases, false, runs, conforms);
    std::printf("%s: %zu cases, %zu requests, mean of %d runs each\n", set, cases.size(), requests, runs);
    std::printf("  pipelined            %8.3f s\n", pipelined);
    std::printf("  one at a time        %8.3f s\n", serial);
    std::printf("  pipelining speed-up  %8.1fx\n", serial / pipelined);
  }
  if (!conforms)
    std::printf("(the implementation did not conform in every run: these times are not comparable)\n");
  return conforms ? 0 : 1;
}
