#include "tlbf/sizing.hpp"

#include "tlbf/mutant_switch.hpp"

#include <cmath>
#include <limits>

namespace tlbf {
namespace {

// Rust's float-to-int `as` cast: NaN -> 0, saturate at both ends, else
// truncate. Defined for every double, unlike a C++ cast.
template <typename Int>
Int saturating_cast(double x) noexcept {
  if (std::isnan(x) || x <= 0.0) return 0;
  // 2^bits is exact in double; anything at or above it saturates.
  constexpr double limit = static_cast<double>(std::numeric_limits<Int>::max()) + 1.0;
  if (x >= limit) return std::numeric_limits<Int>::max();
  return static_cast<Int>(x);
}

}  // namespace

std::uint64_t optimal_m(std::uint64_t n, double p) noexcept {
  const double ln2_squared = LN2 * LN2;  // one rounded product: 0.4804530139182014
  const double ideal = (-static_cast<double>(n) * std::log(p)) / ln2_squared;
  // An ideal that is already an integer is kept as it is: ceil(20.0) == 20.
  return saturating_cast<std::uint64_t>(TLBF_MUTANT(s01) ? std::floor(ideal) : std::ceil(ideal));
}

std::uint32_t optimal_k(std::uint64_t m, std::uint64_t n) noexcept {
  const double ideal = (static_cast<double>(m) / static_cast<double>(n)) * LN2;
  const std::uint32_t k =  // round: halves away from zero
      saturating_cast<std::uint32_t>(TLBF_MUTANT(s04) ? std::trunc(ideal) : std::round(ideal));
  return k < 1 ? 1 : k;
}

double predicted_fp_rate(std::uint64_t m, std::uint32_t k, std::uint64_t n) noexcept {
  const double kd = static_cast<double>(k);
  const double load = (kd * static_cast<double>(n)) / static_cast<double>(m);
  return std::pow(1.0 - std::exp(-load), kd);
}

}  // namespace tlbf
