// Where another platform's log may legitimately move optimal_m (the flag
// LogLastBit of docs/vectors.md). The vectors mark such tests acceptable and
// tlbf check accepts the alternatives; both ask this one function.
#pragma once

#include <cstdint>
#include <vector>

namespace tlbf::protocol {

// The m that optimal_m(n, p) would give if log(p) came out one unit in the
// last place higher or lower, where that changes m, sorted; empty when no
// log within one ulp changes it, and for inputs with_rate refuses (n = 0, p
// outside (0, 1)).
std::vector<std::uint64_t> m_alternatives(std::uint64_t n, double p);

}  // namespace tlbf::protocol
