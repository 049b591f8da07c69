// Where another platform's log may legitimately move optimal_m (the flag
// LogLastBit of docs/vectors.md). The vectors mark such tests acceptable and
// tlbf check accepts the alternatives; both ask this one function.
#pragma once

#include <cstdint>
#include <vector>

namespace tlbf::protocol {

// The m other than optimal_m(n, p) that ln p one unit in the last place
// either side of the correctly rounded ln p gives, or that ln p itself gives
// where this platform's log is not correctly rounded; sorted, and empty when
// none differs, and for inputs with_rate refuses (n = 0, p outside (0, 1)).
std::vector<std::uint64_t> m_alternatives(std::uint64_t n, double p);

}  // namespace tlbf::protocol
