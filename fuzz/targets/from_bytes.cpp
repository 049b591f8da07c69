// Any bytes into Bloom::from_bytes (docs/fuzzing.md). Accepted input must
// be exactly what to_bytes writes for the filter it decodes to, with the
// format's invariants; refused input must be a Format error. Both overloads
// of from_bytes (over a view, and over a buffer it keeps) must agree. Crashes, leaks
// and undefined behaviour are the sanitizers' to find; an allocation beyond
// what the input justifies is caught by libFuzzer's -malloc_limit_mb, which
// scripts/fuzz sets far below what a forged header could ask for.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "../check.hpp"
#include "tlbf/bloom.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> input(data, size);
  const auto loaded = tlbf::Bloom::from_bytes(input);
  // The overload that loads in place must give the same verdict.
  const auto owned = tlbf::Bloom::from_bytes(tlbf::BitArray(input.begin(), input.end()));
  TLBF_FUZZ_CHECK(owned.ok() == loaded.ok(), "the two from_bytes disagree on accepting %zu bytes", size);
  if (!loaded) {
    TLBF_FUZZ_CHECK(owned.error() == loaded.error(), "the two from_bytes refuse differently");
  } else {
    TLBF_FUZZ_CHECK(owned.value() == loaded.value(), "the two from_bytes load different filters");
  }
  if (!loaded) {
    TLBF_FUZZ_CHECK(loaded.error().kind == tlbf::ErrorKind::Format, "refused with %s, not Format",
                    loaded.error().describe().c_str());
    return 0;
  }
  const tlbf::Bloom& b = loaded.value();
  const auto again = b.to_bytes();
  TLBF_FUZZ_CHECK(std::equal(again.begin(), again.end(), input.begin(), input.end()),
                  "accepted %zu bytes that do not re-serialize to themselves (%zu bytes)", size,
                  again.size());
  TLBF_FUZZ_CHECK(b.m() >= 1 && b.m() <= tlbf::MAX_BITS, "m = %llu", static_cast<unsigned long long>(b.m()));
  TLBF_FUZZ_CHECK(b.k() >= 1 && b.k() <= tlbf::MAX_K, "k = %u", b.k());
  TLBF_FUZZ_CHECK(b.bits().size() == (b.m() + 7) / 8, "%zu bytes of bits for m = %llu", b.bits().size(),
                  static_cast<unsigned long long>(b.m()));
  TLBF_FUZZ_CHECK(b.count_ones() <= b.m(), "count_ones %llu > m",
                  static_cast<unsigned long long>(b.count_ones()));
  if (b.m() % 8 != 0) {
    TLBF_FUZZ_CHECK((static_cast<unsigned>(b.bits().back()) >> (b.m() % 8)) == 0, "padding bits set");
  }
  return 0;
}
