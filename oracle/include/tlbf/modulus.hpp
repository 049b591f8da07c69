// Reduction modulo a fixed m without a division instruction
// (docs/performance.md, "Division-free mod m", has the proof).
#pragma once

#include <cstdint>

namespace tlbf {

// GCC and clang both have it; __extension__ tells -Wpedantic that we know.
__extension__ using Uint128 = unsigned __int128;

// x mod m for a divisor fixed at construction, by Barrett reduction:
// q' = floor(x * M / 2^64) with M = floor((2^64 - 1) / m) is floor(x / m) or
// one less, so x - q' * m is the remainder or the remainder plus m, and one
// conditional subtraction finishes. Exact for every m >= 1 and every 64-bit
// x; the probe loop uses it for m up to 2^40.
class Modulus {
 public:
  // Precondition: m >= 1.
  constexpr explicit Modulus(std::uint64_t m) noexcept : m_(m), magic_(UINT64_MAX / m) {}

  constexpr std::uint64_t divisor() const noexcept { return m_; }

  constexpr std::uint64_t reduce(std::uint64_t x) const noexcept {
    const auto q = static_cast<std::uint64_t>((static_cast<Uint128>(x) * magic_) >> 64);
    const std::uint64_t r = x - q * m_;
    return r >= m_ ? r - m_ : r;
  }

  friend constexpr bool operator==(const Modulus&, const Modulus&) = default;

 private:
  std::uint64_t m_;
  std::uint64_t magic_;
};

}  // namespace tlbf
