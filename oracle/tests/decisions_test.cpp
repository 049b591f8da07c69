// The questions the specification leaves open, as docs/format.md decides
// them. Each test names the section of that page it holds to.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_support.hpp"
#include "tlbf/oracle.hpp"

namespace tlbf {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint32_t kU32Max = std::numeric_limits<std::uint32_t>::max();

// "Sizing": (ln 2)^2 is the rounded product LN2 * LN2, one ulp below the
// double nearest (ln 2)^2 (0.48045301391820144, from a 60-digit calculation).
TEST(Decisions, Ln2SquaredIsTheRoundedProduct) {
  EXPECT_EQ(LN2, 0x1.62e42fefa39efp-1);  // the double nearest ln 2
  EXPECT_EQ(LN2 * LN2, 0.4804530139182014);
  EXPECT_NE(LN2 * LN2, 0.48045301391820144);
}

// "Sizing": an ideal m that is exactly an integer is the answer; ceil adds
// nothing. The p below was found by searching doubles near exp(-20 ln^2 2 / 4):
// with it the documented expression gives exactly 20.0, and with the next
// smaller double it gives 20.000000000000004.
TEST(Decisions, IdealMThatIsAnIntegerIsKept) {
  const double p = 0.09051270335250715;
  const double below = std::nextafter(p, 0.0);
  const auto ideal = [](double q) { return (-4.0 * std::log(q)) / (LN2 * LN2); };
  // Preconditions on this platform's log; if they fail, the search must be redone.
  ASSERT_EQ(ideal(p), 20.0);
  ASSERT_GT(ideal(below), 20.0);
  EXPECT_EQ(optimal_m(4, p), 20U);
  EXPECT_EQ(optimal_m(4, below), 21U);
}

// "Sizing": optimal_m and optimal_k are total, converting like Rust's `as`.
TEST(Decisions, SizingFunctionsSaturateLikeRustCasts) {
  EXPECT_EQ(optimal_m(0, 0.1), 0U);                                       // ideal 0
  EXPECT_EQ(optimal_m(4, std::numeric_limits<double>::quiet_NaN()), 0U);  // NaN
  EXPECT_EQ(optimal_m(4, 2.0), 0U);                                       // negative ideal
  EXPECT_EQ(optimal_m(4, 0.0), kU64Max);                                  // log 0 = -inf
  EXPECT_EQ(optimal_m(kU64Max, 1e-300), kU64Max);                         // about 2.6e22
  EXPECT_EQ(optimal_k(MAX_BITS, 1), kU32Max);                             // about 7.6e11
  EXPECT_EQ(optimal_k(5, 0), kU32Max);                                    // m / 0 = inf
  EXPECT_EQ(optimal_k(0, 0), 1U);                                         // NaN -> 0 -> 1
}

// "The range of k": 1 ..= 65536, everywhere a k enters.
TEST(Decisions, KIsAtMostMaxK) {
  EXPECT_TRUE(Bloom::create(20, MAX_K).ok());
  test::expect_error(Bloom::create(20, MAX_K + 1), ErrorKind::BadParams, "k = 65537");
  // The most with_rate can ask for: p the smallest subnormal, -ln p = 744.44,
  // so m = ceil(744.44 / 0.48045) = 1550 and k = round(1550 ln 2) = round(1074.38).
  const Bloom extreme = test::unwrap(Bloom::with_rate(1, std::numeric_limits<double>::denorm_min()));
  EXPECT_EQ(extreme.m(), 1550U);
  EXPECT_EQ(extreme.k(), 1074U);
}

// "Union": counts add and saturate at 2^64 - 1; so does insert's count.
TEST(Decisions, CountsSaturate) {
  auto header = [](std::uint64_t n) {
    // m = 8, k = 1, no bits set, n_inserted = n
    std::vector<std::uint8_t> b = {'T', 'L', 'B', 'F', 1, 0, 0, 0, 8, 0, 0, 0,
                                   0,   0,   0,   0,   1, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
    b.push_back(0);
    return b;
  };
  Bloom almost_full = test::unwrap(Bloom::from_bytes(header(kU64Max - 1)));
  const Bloom five = test::unwrap(Bloom::from_bytes(header(5)));
  ASSERT_TRUE(almost_full.union_with(five).ok());
  EXPECT_EQ(almost_full.n_inserted(), kU64Max);
  almost_full.insert("one more");
  EXPECT_EQ(almost_full.n_inserted(), kU64Max);

  Bloom small = test::unwrap(Bloom::from_bytes(header(kU64Max - 1)));
  small.insert("x");
  EXPECT_EQ(small.n_inserted(), kU64Max);
}

// "Union": a filter merged with itself keeps its bits and doubles its count.
TEST(Decisions, UnionWithItself) {
  Bloom filter = test::unwrap(Bloom::with_rate(4, 0.1));
  filter.insert("cat");
  const auto bits = std::vector<std::uint8_t>(filter.bits().begin(), filter.bits().end());
  ASSERT_TRUE(filter.union_with(filter).ok());
  EXPECT_EQ(std::vector<std::uint8_t>(filter.bits().begin(), filter.bits().end()), bits);
  EXPECT_EQ(filter.n_inserted(), 2U);
}

// "Reading": n_inserted is not checked against the bits; any value loads.
TEST(Decisions, AnyCountLoads) {
  Bloom filter = test::unwrap(Bloom::create(9, 2));
  const auto empty = filter.to_bytes();
  auto claims_many = empty;
  claims_many[31] = 0xff;
  EXPECT_EQ(test::unwrap(Bloom::from_bytes(claims_many)).n_inserted(), 0xffULL << 56);
}

// "Reading": when several fields are wrong, the first check in the
// documented order names the error.
TEST(Decisions, FirstFailingCheckWins) {
  std::vector<std::uint8_t> all_wrong(40, 0xff);  // bad magic, version, m, k, reserved, length
  test::expect_error(Bloom::from_bytes(all_wrong), ErrorKind::Format, "magic");
  Bloom filter = test::unwrap(Bloom::create(20, 3));
  auto bytes = filter.to_bytes();
  bytes[4] = 9;      // version
  bytes[16] = 0;     // k
  bytes[20] = 1;     // reserved
  bytes.pop_back();  // length
  test::expect_error(Bloom::from_bytes(bytes), ErrorKind::Format, "version = 9");
  bytes[4] = 1;
  test::expect_error(Bloom::from_bytes(bytes), ErrorKind::Format, "k = 0");
  bytes[16] = 3;
  test::expect_error(Bloom::from_bytes(bytes), ErrorKind::Format, "reserved = 1");
  bytes[20] = 0;
  test::expect_error(Bloom::from_bytes(bytes), ErrorKind::Format, "truncated");
}

// "Positions": the sum h1 + i*h2 wraps modulo 2^64 before the reduction mod m.
// Worked by hand for m = 2^40 - 1 and the item "cat" (h1 = 0xf5e307190ce4a327,
// h2 = 0xabc55d317f9d6793): h1 + h2 = 0x1a1a8644a8c820aba, which wraps to
// 0xa1a8644a8c820aba. The reductions mod 2^40 - 1 were done with python3's
// big integers, masking each sum to 64 bits first.
TEST(Decisions, ProbesWrapBeforeTheModulo) {
  const std::uint64_t m = MAX_BITS - 1;
  const auto positions = positions_for(m, 3, test::bytes("cat"));
  ASSERT_EQ(positions.size(), 3U);
  EXPECT_EQ(positions[0], 107606607406U);
  EXPECT_EQ(positions[1], 320195506974U);  // unwrapped, it would be 320212284190
  EXPECT_EQ(positions[2], 532784406542U);  // unwrapped, it would be 532817960974
}

// predicted_fp_rate follows the documented expression: for the worked
// example, (1 - e^-0.3)^3 = 0.2591817793^3 = 0.0174106 (calculator).
TEST(Decisions, PredictedRateOfTheWorkedExample) {
  EXPECT_NEAR(predicted_fp_rate(20, 3, 2), 0.0174106, 1e-7);
  EXPECT_EQ(predicted_fp_rate(20, 3, 0), 0.0);
  EXPECT_NEAR(predicted_fp_rate(9586, 7, 1000), 0.01, 0.0005);
}

}  // namespace
}  // namespace tlbf
