// The specification's worked example (section 3, "Worked example by hand"),
// computed by the installed oracle. Every expected value below is copied
// from the specification's text, not from any implementation. Prints what
// differs and exits 1, or prints the bytes and exits 0.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "tlbf/oracle.hpp"

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("worked example: wrong %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  // with_rate(4, 0.1): m = 20, k = 3.
  auto made = tlbf::Bloom::with_rate(4, 0.1);
  if (!made) {
    std::printf("worked example: with_rate(4, 0.1) refused: %s\n", made.error().describe().c_str());
    return 1;
  }
  tlbf::Bloom filter = std::move(made).value();
  expect(filter.m() == 20, "m");
  expect(filter.k() == 3, "k");

  // cat: h1 = f5e307190ce4a327, h2 = abc55d317f9d6793, g = 11, 14, 17;
  // dog: 13, 0, 3; bird: 14, 7, 16.
  expect(tlbf::fnv1a64("cat") == 0xf5e307190ce4a327U, "fnv1a64(cat)");
  expect((tlbf::mix64(0xf5e307190ce4a327U) | 1U) == 0xabc55d317f9d6793U, "h2 of cat");
  expect(filter.bit_positions("cat") == std::vector<std::uint64_t>{11, 14, 17}, "positions of cat");
  expect(filter.bit_positions("dog") == std::vector<std::uint64_t>{13, 0, 3}, "positions of dog");
  expect(filter.bit_positions("bird") == std::vector<std::uint64_t>{14, 7, 16}, "positions of bird");

  filter.insert("cat");
  filter.insert("dog");
  expect(!filter.contains("bird"), "contains(bird): bit 7 is clear");
  expect(filter.count_ones() == 6, "count of set bits");

  const std::vector<std::uint8_t> spec_bytes = {
      0x54, 0x4c, 0x42, 0x46, 0x01, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // "TLBF", version 1, m = 20
      0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // k = 3, reserved 0, n_inserted = 2
      0x09, 0x68, 0x02,                                                                                // the bits
  };
  const std::vector<std::uint8_t> bytes = filter.to_bytes();
  expect(bytes == spec_bytes, "to_bytes");

  for (const std::uint8_t b : bytes) std::printf("%02x", b);
  std::printf("\n");
  return failures == 0 ? 0 : 1;
}
