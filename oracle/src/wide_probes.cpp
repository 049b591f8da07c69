#include "wide_probes.hpp"

#include <cstdlib>

#if defined(__x86_64__) && !defined(TLBF_MUTANTS)
#define TLBF_WIDE_PROBES 1
#include <immintrin.h>
// GCC 12's own AVX-512 headers seed unused lanes with a deliberately
// uninitialized value and then warn about it (GCC bug 105593), and without
// optimization some intrinsics are macros whose casts of the all-lanes mask
// trip -Wsign-conversion in this file rather than in the header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
#endif

namespace tlbf::detail {

#ifdef TLBF_WIDE_PROBES

namespace {

#define TLBF_AVX512 __attribute__((target("avx512f,avx512dq")))

// x mod m in each of eight lanes, exact for every 64-bit x and 1 <= m <= 2^40
// (docs/performance.md, "Wide probes", has the proof). Split x = xh * 2^52 + xl;
// then y = xh * (2^52 mod m) + xl is congruent to x, below 2^53, and exact in
// a double, as is every step after it.
struct WideModulus {
  __m512d m, reciprocal, two52_mod_m;
  __m512i low52;

  TLBF_AVX512 explicit WideModulus(std::uint64_t divisor)
      : m(_mm512_set1_pd(static_cast<double>(divisor))),
        reciprocal(_mm512_set1_pd(1.0 / static_cast<double>(divisor))),
        two52_mod_m(_mm512_set1_pd(static_cast<double>((std::uint64_t{1} << 52) % divisor))),
        low52(_mm512_set1_epi64((std::int64_t{1} << 52) - 1)) {}

  TLBF_AVX512 __m512i reduce(__m512i x) const {
    const __m512d high = _mm512_cvtepu64_pd(_mm512_srli_epi64(x, 52));
    const __m512d low = _mm512_cvtepu64_pd(_mm512_and_si512(x, low52));
    const __m512d y = _mm512_fmadd_pd(high, two52_mod_m, low);
    // floor(y / m), or one more or one less: the rounding of 1/m and of the product.
    const __m512d q = _mm512_roundscale_pd(_mm512_mul_pd(y, reciprocal), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m512d r = _mm512_fnmadd_pd(q, m, y);  // y - q*m, an integer in [-m, 2m): exact
    r = _mm512_mask_add_pd(r, _mm512_cmp_pd_mask(r, _mm512_setzero_pd(), _CMP_LT_OQ), r, m);
    r = _mm512_mask_sub_pd(r, _mm512_cmp_pd_mask(r, m, _CMP_GE_OQ), r, m);
    return _mm512_cvttpd_epu64(r);
  }
};

// The SplitMix64 finalizer of hash.hpp, lane by lane, forced odd: h2.
TLBF_AVX512 __m512i step_of(__m512i z) {
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), _mm512_set1_epi64(static_cast<std::int64_t>(0xbf58'476d'1ce4'e5b9ULL)));
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), _mm512_set1_epi64(static_cast<std::int64_t>(0x94d0'49bb'1331'11ebULL)));
  z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
  return _mm512_or_si512(z, _mm512_set1_epi64(1));
}

// Lanes j .. j+7 of h1 that exist, as a mask and as values (absent lanes 0).
struct Lanes {
  __mmask8 mask;
  __m512i h1;
};
TLBF_AVX512 Lanes lanes_at(std::span<const std::uint64_t> h1, std::size_t j) {
  const std::size_t count = h1.size() - j < 8 ? h1.size() - j : 8;
  const auto mask = static_cast<__mmask8>((1U << count) - 1);
  return {mask, _mm512_maskz_loadu_epi64(mask, h1.data() + j)};
}

TLBF_AVX512 bool detect() {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq")) return false;
  const char* portable = std::getenv("TLBF_PORTABLE");
  return portable == nullptr || *portable == '\0';
}

}  // namespace

bool wide_probes_available() noexcept {
  static const bool available = detect();
  return available;
}

TLBF_AVX512 void contains_wide(std::span<const std::uint64_t> h1, std::uint64_t m, std::uint32_t k,
                               std::span<const std::uint8_t> bits, bool* answers) noexcept {
  const WideModulus mod(m);
  // Each probe reads the eight bytes from its own byte on, or the last eight
  // of the array when fewer remain, so no read leaves the array.
  const __m512i last_start = _mm512_set1_epi64(static_cast<std::int64_t>(bits.size() - 8));
  const __m512i one = _mm512_set1_epi64(1);
  for (std::size_t j = 0; j < h1.size(); j += 8) {
    const Lanes lanes = lanes_at(h1, j);
    const __m512i step = step_of(lanes.h1);
    __m512i x = lanes.h1;
    __mmask8 alive = lanes.mask;  // lanes with no clear bit yet
    for (std::uint32_t i = 0; i < k; ++i) {
      const __m512i g = mod.reduce(x);
      const __m512i start = _mm512_min_epu64(_mm512_srli_epi64(g, 3), last_start);
      const __m512i word = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), lanes.mask, start, bits.data(), 1);
      const __m512i bit = _mm512_sub_epi64(g, _mm512_slli_epi64(start, 3));  // < 64: g's place in the word
      alive = _mm512_mask_test_epi64_mask(alive, word, _mm512_sllv_epi64(one, bit));
      x = _mm512_add_epi64(x, step);  // modulo 2^64, as the format requires
      // Stopping when every lane has a clear bit saves the probes of absent
      // items when k is large; asking only every fourth probe keeps the
      // branch, which mispredicts when it stops, off the common path.
      if (i % 4 == 3 && alive == 0) break;
    }
    for (std::size_t lane = 0; lane < 8 && j + lane < h1.size(); ++lane) answers[j + lane] = ((static_cast<unsigned>(alive) >> lane) & 1U) != 0;
  }
}

TLBF_AVX512 void wide_positions(std::span<const std::uint64_t> h1, std::uint64_t m, std::uint32_t k,
                                std::uint64_t* out) noexcept {
  const WideModulus mod(m);
  for (std::size_t j = 0; j < h1.size(); j += 8) {
    const Lanes lanes = lanes_at(h1, j);
    const __m512i step = step_of(lanes.h1);
    __m512i x = lanes.h1;
    for (std::uint32_t i = 0; i < k; ++i) {
      alignas(64) std::uint64_t g[8];
      _mm512_store_si512(g, mod.reduce(x));
      for (std::size_t lane = 0; lane < 8 && j + lane < h1.size(); ++lane) out[(j + lane) * k + i] = g[lane];
      x = _mm512_add_epi64(x, step);
    }
  }
}

#else  // no wide kernel on this processor or in this build

bool wide_probes_available() noexcept { return false; }

void contains_wide(std::span<const std::uint64_t>, std::uint64_t, std::uint32_t, std::span<const std::uint8_t>,
                   bool*) noexcept {
  std::abort();  // unreachable: wide_probes_available() is false
}

void wide_positions(std::span<const std::uint64_t>, std::uint64_t, std::uint32_t, std::uint64_t*) noexcept {
  std::abort();
}

#endif

}  // namespace tlbf::detail
