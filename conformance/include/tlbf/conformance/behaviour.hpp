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

// A case that decides what to send from earlier answers (a filter's own
// bytes fed back to it, its own m and k in a statistical bound).
struct InteractiveCase {
  std::string name;
  std::set<Capability> needs;
  // nullopt when the implementation behaves; else what was wrong.
  std::function<std::optional<std::string>(const Send&)> run;
};

// No false negatives (directly, after a byte round trip, in a union), the
// false-positive count within three standard deviations of N f^k and below 2%
// at a 1% design, union equal to the filter of both sets with counts added,
// and mismatched unions refused. Items come from `seed`, so runs repeat.
std::vector<InteractiveCase> behavioural_cases(std::uint64_t seed);

}  // namespace tlbf::conformance
