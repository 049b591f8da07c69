// How many bits and hash functions a filter gets (docs/format.md, "Sizing").
// The evaluation order of every expression is part of the format: other
// implementations reproduce these results bit for bit by following it.
#pragma once

#include <cstdint>

namespace tlbf {

// ceil((-(double)n * log(p)) / (LN2 * LN2)), converted to u64 the way Rust's
// `as u64` does: NaN and negatives give 0, values >= 2^64 give 2^64 - 1.
// Total on all inputs; with_rate decides which results make a filter.
std::uint64_t optimal_m(std::uint64_t n, double p) noexcept;

// max(1, round(((double)m / (double)n) * LN2)), rounding halves away from
// zero, converted to u32 like Rust's `as u32` (saturating; NaN gives 0, so 1).
std::uint32_t optimal_k(std::uint64_t m, std::uint64_t n) noexcept;

// (1 - exp(-((double)k * (double)n) / (double)m))^k: the rate the classic
// approximation predicts for a filter of m bits and k hashes holding n items.
double predicted_fp_rate(std::uint64_t m, std::uint32_t k, std::uint64_t n) noexcept;

// The double nearest ln 2, written out so that no platform's log(2) is trusted.
inline constexpr double LN2 = 0.6931471805599453;

}  // namespace tlbf
