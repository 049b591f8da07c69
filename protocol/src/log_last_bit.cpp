#include "tlbf/protocol/log_last_bit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tlbf/sizing.hpp"

namespace tlbf::protocol {
namespace {

// ln p rounded to the nearest double, from a log in long double (64 bits of
// mantissa on x86, 113 on aarch64): where that log lies within 4 of its own
// units of a midpoint between two doubles its rounding is uncertain, and the
// platform's log stands in. Where long double is double (4 units are then a
// double's) that is the platform's log too.
double rounded_log(double p) {
  const long double wide = std::log(static_cast<long double>(p));
  const double d = static_cast<double>(wide);
  const long double slack = std::fabs(wide) * 4 * std::numeric_limits<long double>::epsilon();
  for (double other : {std::nextafter(d, HUGE_VAL), std::nextafter(d, -HUGE_VAL)}) {
    const long double mid = (static_cast<long double>(d) + other) / 2;
    if (std::fabs(wide - mid) < slack) return std::log(p);
  }
  return d;
}

}  // namespace

std::vector<std::uint64_t> m_alternatives(std::uint64_t n, double p) {
  std::vector<std::uint64_t> out;
  // Out of domain, nothing to move. At p = 0.5 every libm returns -LN2
  // exactly (the exponent alone, with a mantissa of 1, whose log is 0), which
  // is what the decision cases of conformance/src/rule_cases.cpp rely on.
  if (n < 1 || !(p > 0.0 && p < 1.0) || p == 0.5) return out;
  // The reference is the correctly rounded ln p, not this platform's log
  // (docs/format.md, "The log's reference"); the two agree on every p of the
  // vectors, and optimal_m's own answer is acceptable in any case.
  const double log_p = rounded_log(p);
  for (double nudged : {std::nextafter(log_p, -HUGE_VAL), log_p, std::nextafter(log_p, HUGE_VAL)}) {
    const double ideal = (-static_cast<double>(n) * nudged) / (LN2 * LN2);
    if (!(ideal > 0) || ideal >= 18446744073709551616.0) continue;
    const auto m = static_cast<std::uint64_t>(std::ceil(ideal));
    if (m != optimal_m(n, p) && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tlbf::protocol
