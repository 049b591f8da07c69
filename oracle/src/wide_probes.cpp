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
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
#endif

namespace tlbf::detail {

#ifdef TLBF_WIDE_PROBES

namespace {

#define TLBF_AVX512 __attribute__((target("avx512f,avx512dq")))

// x mod m in each of eight lanes, exact for every 64-bit x and 1 <= m <= 2^40
// (docs/performance.md, "Filters up to 8 MiB", has the proof). Split x = xh * 2^52 + xl;
// then y = xh * (2^52 mod m) + xl is congruent to x, below 2^53, and exact in
// a double, as is every step after it.
struct WideModulus {
  __m512d m, reciprocal, two52_mod_m;
  __m512i low52;
  __m512i m32, two64_mod_m32;  // m and 2^64 mod m in 32-bit lanes, for Walk16 (m <= 2^31)

  TLBF_AVX512 explicit WideModulus(std::uint64_t divisor)
      : m(_mm512_set1_pd(static_cast<double>(divisor))),
        reciprocal(_mm512_set1_pd(1.0 / static_cast<double>(divisor))),
        two52_mod_m(_mm512_set1_pd(static_cast<double>((std::uint64_t{1} << 52) % divisor))),
        low52(_mm512_set1_epi64((std::int64_t{1} << 52) - 1)),
        m32(_mm512_set1_epi32(static_cast<int>(divisor))),
        two64_mod_m32(_mm512_set1_epi32(static_cast<int>((UINT64_MAX % divisor + 1) % divisor))) {}

  TLBF_AVX512 __m512i reduce(__m512i x) const {
    const __m512d high = _mm512_cvtepu64_pd(_mm512_srli_epi64(x, 52));
    const __m512d low = _mm512_cvtepu64_pd(_mm512_and_si512(x, low52));
    const __m512d y = _mm512_fmadd_pd(high, two52_mod_m, low);
    // floor(y / m), or one more or one less: the rounding of 1/m and of the product.
    const __m512d q =
        _mm512_roundscale_pd(_mm512_mul_pd(y, reciprocal), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m512d r = _mm512_fnmadd_pd(q, m, y);  // y - q*m, an integer in [-m, 2m): exact
    r = _mm512_mask_add_pd(r, _mm512_cmp_pd_mask(r, _mm512_setzero_pd(), _CMP_LT_OQ), r, m);
    r = _mm512_mask_sub_pd(r, _mm512_cmp_pd_mask(r, m, _CMP_GE_OQ), r, m);
    return _mm512_cvttpd_epu64(r);
  }
};

// The SplitMix64 finalizer of hash.hpp, lane by lane, forced odd: h2.
TLBF_AVX512 __m512i step_of(__m512i z) {
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)),
                         _mm512_set1_epi64(static_cast<std::int64_t>(0xbf58'476d'1ce4'e5b9ULL)));
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)),
                         _mm512_set1_epi64(static_cast<std::int64_t>(0x94d0'49bb'1331'11ebULL)));
  z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
  return _mm512_or_si512(z, _mm512_set1_epi64(1));
}

// Lanes j .. j+7 of h1 that exist, as a mask and as values (absent lanes 0).
struct Lanes {
  __mmask8 mask;
  __m512i h1;
};
TLBF_AVX512 Lanes lanes_at(std::span<const std::uint64_t> h1, std::size_t j) {
  const std::size_t count = j >= h1.size() ? 0 : h1.size() - j < 8 ? h1.size() - j : 8;
  const auto mask = static_cast<__mmask8>((1U << count) - 1);
  return {mask, _mm512_maskz_loadu_epi64(mask, h1.data() + (count > 0 ? j : 0))};  // no pointer past the end
}

// Sixteen items' probe positions in 32-bit lanes (m <= 2^31), each from the
// one before by additions: g_{i+1} = g_i + (h2 mod m), less 2^64 mod m where
// h1 + i*h2 + h2 wraps past 2^64, all modulo m. Only the wrap needs the
// 64-bit sums, two vectors of eight; the rest is done sixteen at a time.
struct Walk16 {
  __m512i x_low, x_high, step_low, step_high;  // h1 + i*h2 of items 0-7 and 8-15
  __m512i g, step_mod_m;                       // 32-bit lanes
  __mmask16 live;                              // lanes that hold an item

  // Inlined: as a call it spilled its vectors to the stack (11.4 against 11.0 ns).
  TLBF_AVX512 __attribute__((always_inline))
  Walk16(const WideModulus& mod, std::span<const std::uint64_t> h1, std::size_t j) {
    const Lanes low = lanes_at(h1, j), high = lanes_at(h1, j + 8);
    x_low = low.h1;
    x_high = high.h1;
    step_low = step_of(low.h1);
    step_high = step_of(high.h1);
    g = join(mod.reduce(x_low), mod.reduce(x_high));
    step_mod_m = join(mod.reduce(step_low), mod.reduce(step_high));
    live = _mm512_kunpackb(high.mask, low.mask);
  }

  TLBF_AVX512 void advance(const WideModulus& mod) {
    const __m512i m = mod.m32, two64_mod_m = mod.two64_mod_m32;
    const __m512i next_low = _mm512_add_epi64(x_low, step_low);  // modulo 2^64, as the format requires
    const __m512i next_high = _mm512_add_epi64(x_high, step_high);
    const __mmask16 wrapped =
        _mm512_kunpackb(_mm512_cmplt_epu64_mask(next_high, x_high), _mm512_cmplt_epu64_mask(next_low, x_low));
    x_low = next_low;
    x_high = next_high;
    __m512i r = _mm512_add_epi32(g, step_mod_m);  // below 2m <= 2^32
    r = _mm512_mask_sub_epi32(r, _mm512_cmpge_epu32_mask(r, m), r, m);
    // Where the sum wrapped, take 2^64 mod m away, adding m first if it would go below 0.
    r = _mm512_mask_add_epi32(r, _mm512_mask_cmplt_epu32_mask(wrapped, r, two64_mod_m), r, m);
    g = _mm512_mask_sub_epi32(r, wrapped, r, two64_mod_m);
  }

 private:
  // Eight 64-bit values below 2^32 each, low lanes first, as sixteen 32-bit lanes.
  TLBF_AVX512 static __m512i join(__m512i low, __m512i high) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(low)), _mm512_cvtepi64_epi32(high),
                              1);
  }
};

// Compiled for any x86-64, not for AVX-512: it runs before anyone knows.
bool detect() {
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
  // Each probe reads the four bytes from its own byte on, or the last four
  // of the array when fewer remain, so no read leaves the array.
  const __m512i last_start = _mm512_set1_epi32(static_cast<int>(bits.size() - 4));
  const __m512i one = _mm512_set1_epi32(1);
  for (std::size_t j = 0; j < h1.size(); j += 16) {
    Walk16 walk(mod, h1, j);
    __mmask16 alive = walk.live;  // lanes with no clear bit yet
    for (std::uint32_t i = 0; i < k; ++i) {
      const __m512i start = _mm512_min_epu32(_mm512_srli_epi32(walk.g, 3), last_start);
      const __m512i word =
          _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), walk.live, start, bits.data(), 1);
      const __m512i bit =
          _mm512_sub_epi32(walk.g, _mm512_slli_epi32(start, 3));  // < 32: g's place in the word
      alive = _mm512_mask_test_epi32_mask(alive, word, _mm512_sllv_epi32(one, bit));
      walk.advance(mod);
      // Stopping when every lane has a clear bit saves the probes of absent
      // items when k is large; asking only every fourth probe keeps the
      // branch, which mispredicts when it stops, off the common path.
      if (i % 4 == 3 && alive == 0) break;
    }
    for (std::size_t lane = 0; lane < 16 && j + lane < h1.size(); ++lane) {
      answers[j + lane] = ((static_cast<unsigned>(alive) >> lane) & 1U) != 0;
    }
  }
}

TLBF_AVX512 void wide_positions(std::span<const std::uint64_t> h1, std::uint64_t m, std::uint32_t k,
                                std::uint64_t* out) noexcept {
  const WideModulus mod(m);
  for (std::size_t j = 0; j < h1.size(); j += 16) {
    Walk16 walk(mod, h1, j);
    for (std::uint32_t i = 0; i < k; ++i) {
      alignas(64) std::uint32_t g[16];
      _mm512_store_si512(g, walk.g);
      for (std::size_t lane = 0; lane < 16 && j + lane < h1.size(); ++lane) out[(j + lane) * k + i] = g[lane];
      walk.advance(mod);
    }
  }
}

#else  // no wide kernel on this processor or in this build

bool wide_probes_available() noexcept { return false; }

void contains_wide(std::span<const std::uint64_t>, std::uint64_t, std::uint32_t,
                   std::span<const std::uint8_t>, bool*) noexcept {
  std::abort();  // unreachable: wide_probes_available() is false
}

void wide_positions(std::span<const std::uint64_t>, std::uint64_t, std::uint32_t, std::uint64_t*) noexcept {
  std::abort();
}

#endif

}  // namespace tlbf::detail
