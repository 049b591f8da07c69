// Probing sixteen items at once with AVX-512 (docs/performance.md, "Filters up to
// 8 MiB"): the part of contains_many that dominates once the hashing is fast
// and the filter is in cache. Internal to the oracle; the tests reach it
// through contains_many and through wide_positions.
#pragma once

#include <cstdint>
#include <span>

namespace tlbf::detail {

// True when the wide kernel may run: an x86-64 processor with AVX-512 F and
// DQ, and TLBF_PORTABLE unset or empty in the environment (read once). The
// mutant build never runs it: its switches live in the portable code.
bool wide_probes_available() noexcept;

// For each j < h1.size(): answers[j] is true when all k probe positions of
// the item with FNV-1a hash h1[j] are set in `bits`, an m-bit array in the
// format's layout. Preconditions: wide_probes_available(); 1 <= m <= 2^31
// (256 MiB of bits; positions are 32-bit lanes); bits.size() == ceil(m / 8)
// >= 4; answers as long as h1.
void contains_wide(std::span<const std::uint64_t> h1, std::uint64_t m, std::uint32_t k,
                   std::span<const std::uint8_t> bits, bool* answers) noexcept;

// The probe positions the kernel computes, g_i for i < k of each h1[j], at
// out[j * k + i]: what the tests hold to the plain definition. Same
// preconditions on m; out as long as h1.size() * k.
void wide_positions(std::span<const std::uint64_t> h1, std::uint64_t m, std::uint32_t k,
                    std::uint64_t* out) noexcept;

}  // namespace tlbf::detail
