// The specification's behavioural checks, through the protocol: properties
// every Bloom filter has, whatever its hashes and byte layout.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tlbf/conformance/cases.hpp"

namespace tlbf::conformance {

// Sends requests to the implementation under test and returns one response
// for each, in order. Throws SessionFault if the implementation crashes,
// hangs or otherwise stops answering; the runner pins it on the case.
using Send = std::function<std::vector<std::string>(const std::vector<std::string>&)>;

struct SessionFault {
  std::string reason;
};

// What an interactive case gets from the runner.
struct Link {
  Send send;
  std::function<void()> restart;  // a fresh implementation process, after a fault
  std::set<Capability> offered;
};

// A case that decides what to send from earlier answers (a filter's own
// bytes fed back to it, its own m and k in a statistical bound).
struct InteractiveCase {
  std::string name;
  std::set<Capability> needs;
  // nullopt when the implementation behaves; else what was wrong.
  std::function<std::optional<std::string>(const Link&)> run;
};

// A case whose whole conversation is through `send`.
inline std::function<std::optional<std::string>(const Link&)> by_send(
    std::function<std::optional<std::string>(const Send&)> body) {
  return [body = std::move(body)](const Link& link) { return body(link.send); };
}

// No false negatives (directly, after a byte round trip, in a union), the
// false-positive count within three standard deviations of N f^k and below 2%
// at a 1% design, union equal to the filter of both sets with counts added,
// and mismatched unions refused. Items come from `seed`, so runs repeat.
std::vector<InteractiveCase> behavioural_cases(std::uint64_t seed);

// Model-based random testing (RapidCheck's stateful API): `runs` random
// sequences of requests over two filters, drawn from the offered
// capabilities, every response compared with the oracle's. A failure is
// shrunk and reported as a transcript. The same seed gives the same run.
InteractiveCase model_based_case(std::uint64_t seed, int runs);

}  // namespace tlbf::conformance
