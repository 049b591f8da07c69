#include "tlbf/protocol/log_last_bit.hpp"

#include <algorithm>
#include <cmath>

#include "tlbf/sizing.hpp"

namespace tlbf::protocol {

std::vector<std::uint64_t> m_alternatives(std::uint64_t n, double p) {
  std::vector<std::uint64_t> out;
  // Out of domain, nothing to move. At p = 0.5 every libm returns -LN2
  // exactly (the exponent alone, with a mantissa of 1, whose log is 0), which
  // is what the decision cases of conformance/src/rule_cases.cpp rely on.
  if (n < 1 || !(p > 0.0 && p < 1.0) || p == 0.5) return out;
  const double log_p = std::log(p);
  for (double nudged : {std::nextafter(log_p, -HUGE_VAL), std::nextafter(log_p, HUGE_VAL)}) {
    const double ideal = (-static_cast<double>(n) * nudged) / (LN2 * LN2);
    if (!(ideal > 0) || ideal >= 18446744073709551616.0) continue;
    const auto m = static_cast<std::uint64_t>(std::ceil(ideal));
    if (m != optimal_m(n, p) && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tlbf::protocol
