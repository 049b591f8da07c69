// Requests per second of each protocol implementation on the same pipelined
// stream of contains requests, and each one's ratio to tlbf serve measured in
// the same run. Not a test: run it with scripts/bench.
//
// Usage: protocol_throughput [REQUESTS] NAME=COMMAND...
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "tlbf/conformance/process.hpp"
#include "tlbf/hex.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::string item(int i) {
  const std::string text = "item-" + std::to_string(i);
  return tlbf::to_hex(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

// A filter holding items 0..9999, then `requests` contains requests, half for
// present items and half for absent ones.
std::string make_stream(long requests) {
  std::string s = "with_rate f 10000 0.01\n";
  for (int i = 0; i < 10000; ++i) s += "insert f " + item(i) + "\n";
  for (long i = 0; i < requests; ++i) {
    s += "contains f " + item(static_cast<int>(i % 20000)) + "\n";
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  long requests = 1'000'000;
  std::vector<std::pair<std::string, std::string>> impls;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string::npos) {
      requests = std::stol(arg);
    } else {
      impls.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
    }
  }
  if (impls.empty()) {
    std::cerr << "usage: protocol_throughput [REQUESTS] NAME=COMMAND... (the first is the baseline)\n";
    return 2;
  }
  const std::string stream = make_stream(requests);
  const long total = requests + 10001;
  std::printf("%ld pipelined requests (%ld contains), %.1f MB of input\n\n", total, requests,
              static_cast<double>(stream.size()) / 1e6);
  std::printf("%-10s %10s %14s %12s\n", "impl", "seconds", "requests/s", "vs baseline");

  double baseline = 0;
  std::string baseline_out;
  int status = 0;
  for (const auto& [name, command] : impls) {
    const auto start = Clock::now();
    const auto run = tlbf::conformance::run_with_input(command, stream, std::chrono::minutes(10));
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (!run.exited_cleanly()) {
      std::printf("%-10s %s\n", name.c_str(), run.how_it_ended().c_str());
      status = 1;
      continue;
    }
    if (baseline_out.empty()) baseline_out = run.out;
    const bool agrees = run.out == baseline_out;  // the speed of a wrong answer is no figure
    const double rate = static_cast<double>(total) / seconds;
    if (baseline == 0) baseline = rate;
    std::printf("%-10s %10.3f %14.0f %11.3fx%s\n", name.c_str(), seconds, rate, rate / baseline,
                agrees ? "" : "  (ANSWERS DIFFER FROM THE BASELINE)");
    if (!agrees) status = 1;
  }
  return status;
}
