#include "tlbf/hash.hpp"

#include "tlbf/mutant_switch.hpp"

namespace tlbf {

std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes) noexcept {
  std::uint64_t h = FNV_OFFSET;
  for (std::uint8_t b : bytes) {
    if (TLBF_MUTANT(s10)) {  // FNV-1: multiply, then XOR
      h *= FNV_PRIME;
      h ^= b;
      continue;
    }
    h ^= b;          // XOR first: FNV-1a. Multiplying first would be FNV-1.
    h *= FNV_PRIME;  // unsigned: wraps modulo 2^64
  }
  return h;
}

std::uint64_t fnv1a64(std::string_view text) noexcept {
  return fnv1a64(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace tlbf
