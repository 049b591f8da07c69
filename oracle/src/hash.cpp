#include "tlbf/hash.hpp"

#include <algorithm>

#include "tlbf/mutant_switch.hpp"

namespace tlbf {
namespace {

// One byte of FNV-1a: XOR it in, then multiply (unsigned: modulo 2^64).
// Multiplying first would be FNV-1, a different hash.
inline std::uint64_t fnv1a_step(std::uint64_t h, std::uint8_t b) noexcept {
  return TLBF_MUTANT(s10) ? (h * FNV_PRIME) ^ b : (h ^ b) * FNV_PRIME;
}

// FNV-1a carried on over more bytes from the state h.
std::uint64_t fnv1a_from(std::uint64_t h, std::span<const std::uint8_t> bytes) noexcept {
  for (std::uint8_t b : bytes) h = fnv1a_step(h, b);
  return h;
}

}  // namespace

std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes) noexcept { return fnv1a_from(FNV_OFFSET, bytes); }

std::uint64_t fnv1a64(std::string_view text) noexcept {
  return fnv1a64(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

void fnv1a64_many(std::span<const std::span<const std::uint8_t>> items,
                  std::span<std::uint64_t> out) noexcept {
  std::size_t i = 0;
  // Four at a time, byte for byte over their common length: each hash is a
  // chain of multiplies that must wait for one another, and four chains side
  // by side keep the multiplier busy where one would leave it idle.
  for (; i + 4 <= items.size(); i += 4) {
    const std::uint8_t* a = items[i].data();
    const std::uint8_t* b = items[i + 1].data();
    const std::uint8_t* c = items[i + 2].data();
    const std::uint8_t* d = items[i + 3].data();
    const std::size_t common =
        std::min({items[i].size(), items[i + 1].size(), items[i + 2].size(), items[i + 3].size()});
    std::uint64_t ha = FNV_OFFSET, hb = FNV_OFFSET, hc = FNV_OFFSET, hd = FNV_OFFSET;
    for (std::size_t at = 0; at < common; ++at) {
      ha = fnv1a_step(ha, a[at]);
      hb = fnv1a_step(hb, b[at]);
      hc = fnv1a_step(hc, c[at]);
      hd = fnv1a_step(hd, d[at]);
    }
    const std::uint64_t started[4] = {ha, hb, hc, hd};
    for (std::size_t j = 0; j < 4; ++j) out[i + j] = fnv1a_from(started[j], items[i + j].subspan(common));
  }
  for (; i < items.size(); ++i) out[i] = fnv1a64(items[i]);
}

}  // namespace tlbf
