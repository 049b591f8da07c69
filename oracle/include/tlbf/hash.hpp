// The two hash functions TLBF v1 fixes (docs/format.md, "Hashing").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tlbf {

inline constexpr std::uint64_t FNV_OFFSET = 0xcbf2'9ce4'8422'2325ULL;
inline constexpr std::uint64_t FNV_PRIME = 0x0000'0100'0000'01b3ULL;

// FNV-1a 64 of the bytes: for each byte, XOR it in, then multiply by
// FNV_PRIME modulo 2^64, starting from FNV_OFFSET. fnv1a64("") == FNV_OFFSET.
std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes) noexcept;
std::uint64_t fnv1a64(std::string_view text) noexcept;

// fnv1a64 of each item: out[i] = fnv1a64(items[i]), out at least as long as
// items. Faster than one call per item, because the hashes of several items
// are computed side by side.
void fnv1a64_many(std::span<const std::span<const std::uint8_t>> items,
                  std::span<std::uint64_t> out) noexcept;

// The SplitMix64 finalizer (no increment step): a bijection on 64-bit words,
// mix64(0) == 0.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58'476d'1ce4'e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d0'49bb'1331'11ebULL;
  return z ^ (z >> 31);
}

}  // namespace tlbf
