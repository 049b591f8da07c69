// The fast paths against the plain ones (docs/performance.md): Modulus
// against `%`, the four-wide hashing against one hash at a time, the AVX-512
// kernel against the format's definition, the batched calls against the
// scalar ones, and the zeroed storage of large filters.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "tlbf/oracle.hpp"
#include "wide_probes.hpp"

namespace tlbf {
namespace {

constexpr std::uint64_t kMax = UINT64_MAX;

TEST(Modulus, AgreesWithTheRemainderAtTheEdges) {
  const std::vector<std::uint64_t> divisors = {1,
                                               2,
                                               3,
                                               7,
                                               8,
                                               20,
                                               255,
                                               256,
                                               (1ULL << 32) - 1,
                                               1ULL << 32,
                                               (1ULL << 32) + 1,
                                               MAX_BITS - 1,
                                               MAX_BITS,
                                               MAX_BITS + 1,
                                               1ULL << 63,
                                               (1ULL << 63) + 1,
                                               kMax - 1,
                                               kMax};
  for (const std::uint64_t m : divisors) {
    const Modulus mod(m);
    std::vector<std::uint64_t> xs = {
        0,    1,        2,        m - 1,        m,        m + 1,      2 * m - 1,       2 * m,
        kMax, kMax - 1, kMax - m, kMax - m + 1, kMax / 2, 1ULL << 63, (1ULL << 63) - 1};
    // The multiples of m nearest the top, where q' is most likely one short.
    const std::uint64_t top = kMax / m * m;
    for (std::uint64_t d = 0; d < 3 && d <= top; ++d)
      xs.push_back(top - d * m), xs.push_back(top - d * m + m - 1);
    for (const std::uint64_t x : xs) {
      EXPECT_EQ(mod.reduce(x), x % m) << "x = " << x << ", m = " << m;
    }
  }
}

TEST(Modulus, AgreesWithTheRemainderForSmallDivisorsExhaustivelyNearEveryMultiple) {
  // Every m up to 4096, at every x within 2 of each of its multiples below 2^16 and near 2^64.
  for (std::uint64_t m = 1; m <= 4096; ++m) {
    const Modulus mod(m);
    for (std::uint64_t base = 0; base < (1U << 16); base += m) {
      for (std::uint64_t x = base >= 2 ? base - 2 : 0; x <= base + 2; ++x)
        ASSERT_EQ(mod.reduce(x), x % m) << x << " " << m;
    }
    for (std::uint64_t i = 0; i <= 3 * m; ++i) {
      const std::uint64_t x = kMax - i;
      ASSERT_EQ(mod.reduce(x), x % m) << x << " " << m;
    }
  }
}

RC_GTEST_PROP(Modulus, AgreesWithTheRemainderForEveryFilterSize, (std::uint64_t x)) {
  const auto m = *rc::gen::inRange<std::uint64_t>(1, MAX_BITS + 1);
  RC_ASSERT(Modulus(m).reduce(x) == x % m);
}

RC_GTEST_PROP(Modulus, AgreesWithTheRemainderForEvery64BitDivisor, (std::uint64_t x, std::uint64_t m)) {
  RC_PRE(m != 0);
  RC_ASSERT(Modulus(m).reduce(x) == x % m);
}

std::vector<ByteView> views(const std::vector<std::string>& items) {
  std::vector<ByteView> out;
  for (const auto& item : items)
    out.emplace_back(reinterpret_cast<const std::uint8_t*>(item.data()), item.size());
  return out;
}

// The probe positions by the format's definition, with `%` and nothing else.
std::vector<std::uint64_t> plain_positions(std::uint64_t h1, std::uint64_t m, std::uint32_t k) {
  const std::uint64_t h2 = mix64(h1) | 1U;
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < k; ++i) out.push_back((h1 + i * h2) % m);  // unsigned: modulo 2^64
  return out;
}

void expect_wide_positions_plain(const std::vector<std::uint64_t>& h1, std::uint64_t m, std::uint32_t k) {
  std::vector<std::uint64_t> got(h1.size() * k + 1, 0x5eed);
  detail::wide_positions(h1, m, k, got.data());
  for (std::size_t j = 0; j < h1.size(); ++j) {
    const auto want = plain_positions(h1[j], m, k);
    for (std::uint32_t i = 0; i < k; ++i) {
      ASSERT_EQ(got[j * k + i], want[i]) << "h1 = " << h1[j] << ", m = " << m << ", i = " << i;
    }
  }
  ASSERT_EQ(got.back(), 0x5eedU);  // nothing written past the positions
}

TEST(WideProbes, PositionsMatchThePlainDefinitionAtTheEdges) {
  if (!detail::wide_probes_available()) GTEST_SKIP() << "no AVX-512 here, or TLBF_PORTABLE is set";
  constexpr std::uint64_t kMaxBits = std::uint64_t{1} << 31;  // the kernel's limit
  // h1 at and around the split at 2^52, 2^32 and the ends of the range; 19
  // of them, so that a group of sixteen and a part-filled group both run.
  const std::vector<std::uint64_t> h1 = {0,
                                         1,
                                         2,
                                         3,
                                         (std::uint64_t{1} << 52) - 1,
                                         std::uint64_t{1} << 52,
                                         (std::uint64_t{1} << 52) + 1,
                                         std::uint64_t{1} << 53,
                                         (std::uint64_t{1} << 32) - 1,
                                         std::uint64_t{1} << 32,
                                         std::uint64_t{1} << 63,
                                         (std::uint64_t{1} << 63) + 1,
                                         UINT64_MAX - (std::uint64_t{1} << 52),
                                         UINT64_MAX,
                                         UINT64_MAX - 1,
                                         0xf5e307190ce4a327ULL,
                                         0x0123456789abcdefULL,
                                         0xabc55d317f9d6793ULL,
                                         0x5555555555555555ULL};
  // 64 probes: x = h1 + i*h2 wraps past 2^64 dozens of times.
  for (std::uint64_t m :
       {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{7}, std::uint64_t{20},
        std::uint64_t{64}, std::uint64_t{1000003}, (std::uint64_t{1} << 23) - 1,
        (std::uint64_t{1} << 26) + 15, (kMaxBits >> 1) + 1, kMaxBits - 3, kMaxBits - 1, kMaxBits}) {
    expect_wide_positions_plain(h1, m, 64);
  }
  // Multiples of m whose quotient the double product rounds down, so that
  // the remainder first comes out as m (found by a search over random pairs).
  expect_wide_positions_plain({2596111898138944}, 1547010016, 3);
  expect_wide_positions_plain({2870241346837668}, 1785229926, 3);
}

RC_GTEST_PROP(WideProbes, PositionsMatchThePlainDefinition, (const std::vector<std::uint64_t>& h1)) {
  if (!detail::wide_probes_available()) return;  // the Edges test reports the skip
  const auto m = *rc::gen::inRange<std::uint64_t>(1, (std::uint64_t{1} << 31) + 1);
  const auto k = *rc::gen::inRange<std::uint32_t>(1, 40);
  std::vector<std::uint64_t> got(h1.size() * k);
  detail::wide_positions(h1, m, k, got.data());
  for (std::size_t j = 0; j < h1.size(); ++j) {
    const auto want = plain_positions(h1[j], m, k);
    for (std::uint32_t i = 0; i < k; ++i) RC_ASSERT(got[j * k + i] == want[i]);
  }
}

// A filter whose answers every position decides: only the item's own k bits
// set, then each one cleared in turn, for every lane of a group of sixteen and
// the one after, and for filters whose last probes sit in the array's last
// four bytes.
TEST(WideProbes, EveryClearBitIsSeenInEveryLane) {
  for (std::uint64_t m : {std::uint64_t{25}, std::uint64_t{32}, std::uint64_t{64}, std::uint64_t{71},
                          std::uint64_t{1000}, std::uint64_t{8'000'000}}) {
    for (std::size_t lane = 0; lane < 17; ++lane) {
      std::vector<std::string> items;
      for (std::size_t j = 0; j < 17; ++j)
        items.push_back("lane " + std::to_string(j) + " of m = " + std::to_string(m));
      Bloom filter = Bloom::create(m, 5).value();
      filter.insert(items[lane]);
      const auto positions = filter.bit_positions(items[lane]);
      for (std::size_t cleared = 0; cleared <= positions.size(); ++cleared) {
        auto bytes = filter.to_bytes();
        if (cleared < positions.size()) {
          const std::uint64_t g = positions[cleared];
          bytes[HEADER_LEN + g / 8] = static_cast<std::uint8_t>(bytes[HEADER_LEN + g / 8] & ~(1U << (g % 8)));
        }
        const Bloom probed = Bloom::from_bytes(bytes).value();
        const auto answers = std::make_unique<bool[]>(items.size());
        probed.contains_many(views(items), {answers.get(), items.size()});
        for (std::size_t j = 0; j < items.size(); ++j) {
          EXPECT_EQ(answers[j], probed.contains(items[j]))
              << "m = " << m << ", lane " << j << ", cleared " << cleared;
        }
        EXPECT_EQ(answers[lane], cleared == positions.size()) << "m = " << m << ", lane " << lane;
      }
    }
  }
}

// Bit arrays that end where readable memory ends, with a page that cannot be
// read right after: a kernel that read past the array would crash here
// rather than read a few bytes of someone else's memory unnoticed.
TEST(WideProbes, NeverReadPastTheArray) {
  if (!detail::wide_probes_available()) GTEST_SKIP() << "no AVX-512 here, or TLBF_PORTABLE is set";
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* mapped = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  auto* first = static_cast<std::uint8_t*>(mapped);
  ASSERT_EQ(mprotect(first + page, page, PROT_NONE), 0);
  std::vector<std::uint64_t> h1(1000);
  std::mt19937_64 rng(7);
  for (auto& h : h1) h = rng();
  for (std::size_t len :
       {std::size_t{4}, std::size_t{5}, std::size_t{7}, std::size_t{13}, std::size_t{100}}) {
    std::uint8_t* bits = first + page - len;
    std::fill(bits, bits + len, std::uint8_t{0xFF});
    const auto answers = std::make_unique<bool[]>(h1.size());
    detail::contains_wide(h1, 8 * len, 3, {bits, len}, answers.get());
    for (std::size_t j = 0; j < h1.size(); ++j) ASSERT_TRUE(answers[j]) << "every bit is set; len " << len;
  }
  munmap(mapped, 2 * page);
}

// The kernel runs exactly where it should: never in the mutant build (its
// switches live in the portable code), never with TLBF_PORTABLE set, and
// wherever the processor has AVX-512 F and DQ otherwise.
TEST(WideProbes, RunExactlyWhereTheProcessorHasThemAndTlbfPortableIsUnset) {
  const char* portable = std::getenv("TLBF_PORTABLE");
  const bool asked_off = portable != nullptr && *portable != '\0';
#if defined(TLBF_MUTANTS) || !defined(__x86_64__)
  const bool expected = false;
#else
  __builtin_cpu_init();
  const bool expected = !asked_off && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#endif
  EXPECT_EQ(detail::wide_probes_available(), expected) << "TLBF_PORTABLE " << (asked_off ? "set" : "unset");
}

// Four hashes side by side over their common length, then each alone: every
// mix of lengths, and counts that leave 0 to 3 items over.
RC_GTEST_PROP(HashMany, AgreesWithOneHashAtATime, (const std::vector<std::string>& items)) {
  std::vector<std::uint64_t> out(items.size() + 1, 0x5eed);
  fnv1a64_many(views(items), out);
  for (std::size_t i = 0; i < items.size(); ++i) RC_ASSERT(out[i] == fnv1a64(items[i]));
  RC_ASSERT(out[items.size()] == 0x5eedU);  // nothing written past the items
}

TEST(HashMany, GivesThePublishedValues) {
  // FNV-1a 64 of "", "a" and "foobar" from the FNV authors' test vectors; "cat" from the worked example.
  const std::vector<std::string> items = {"", "a", "cat", "foobar", "a", ""};
  std::vector<std::uint64_t> out(items.size());
  fnv1a64_many(views(items), out);
  EXPECT_EQ(
      out, (std::vector<std::uint64_t>{0xcbf29ce484222325ULL, 0xaf63dc4c8601ec8cULL, 0xf5e307190ce4a327ULL,
                                       0x85944171f73967e8ULL, 0xaf63dc4c8601ec8cULL, 0xcbf29ce484222325ULL}));
}

RC_GTEST_PROP(Batched, InsertManyBuildsTheFilterInsertBuilds, (const std::vector<std::string>& items)) {
  const auto m = *rc::gen::inRange<std::uint64_t>(1, 5000);
  const auto k = *rc::gen::inRange<std::uint32_t>(1, 24);
  Bloom one_by_one = Bloom::create(m, k).value();
  Bloom batched = one_by_one;
  for (const auto& item : items) one_by_one.insert(item);
  batched.insert_many(views(items));
  RC_ASSERT(batched == one_by_one);
}

RC_GTEST_PROP(Batched, ContainsManyAnswersAsContainsDoes,
              (const std::vector<std::string>& inserted, const std::vector<std::string>& probes)) {
  const auto m = *rc::gen::inRange<std::uint64_t>(1, 3000);
  const auto k = *rc::gen::inRange<std::uint32_t>(1, 24);
  Bloom filter = Bloom::create(m, k).value();
  for (const auto& item : inserted) filter.insert(item);
  std::vector<std::string> asked = probes;
  asked.insert(asked.end(), inserted.begin(), inserted.end());
  std::vector<char> answers_storage(asked.size() + 1, 2);  // 2: not written
  std::span<bool> answers(reinterpret_cast<bool*>(answers_storage.data()), asked.size());
  std::vector<bool> expected;
  for (const auto& item : asked) expected.push_back(filter.contains(item));
  filter.contains_many(views(asked), answers);
  for (std::size_t i = 0; i < asked.size(); ++i) RC_ASSERT(answers[i] == expected[i]);
  RC_ASSERT(answers_storage[asked.size()] == 2);  // nothing written past the answers
}

// Filters beyond 8 MiB take contains_many's other path: rounds with
// prefetching. Twelve seeded cases rather than a property's hundreds: each
// makes filters of 8 to 16 MiB, which a sanitizer build pays for dearly.
TEST(Batched, OnLargeFiltersBothCallsAgreeWithTheScalarOnes) {
  std::mt19937_64 rng(20261129);
  for (int round = 0; round < 12; ++round) {
    const std::uint64_t m = (std::uint64_t{1} << 26) + 1 + rng() % (std::uint64_t{1} << 26);
    const auto k = static_cast<std::uint32_t>(1 + rng() % 24);
    std::vector<std::string> inserted, asked;
    for (std::uint64_t i = 0, n = rng() % 3000; i < n; ++i) inserted.push_back("in " + std::to_string(rng()));
    for (std::uint64_t i = 0, n = rng() % 3000; i < n; ++i) asked.push_back("out " + std::to_string(rng()));
    asked.insert(asked.end(), inserted.begin(), inserted.end());
    Bloom scalar = Bloom::create(m, k).value();
    Bloom batched = scalar;
    for (const auto& item : inserted) scalar.insert(item);
    batched.insert_many(views(inserted));
    ASSERT_EQ(batched, scalar) << "m = " << m << ", k = " << k;
    const auto answers = std::make_unique<bool[]>(asked.size() + 1);
    scalar.contains_many(views(asked), {answers.get(), asked.size()});
    std::size_t disagreements = 0, present = 0;
    for (std::size_t i = 0; i < asked.size(); ++i) {
      disagreements += answers[i] != scalar.contains(asked[i]);
      present += answers[i];
    }
    EXPECT_EQ(disagreements, 0U) << "m = " << m << ", k = " << k;
    EXPECT_GE(present, inserted.size());  // every inserted item, and maybe a false positive
  }
}

TEST(Batched, HandlesEmptyInputsAndBlocksOfEveryLength) {
  Bloom filter = Bloom::create(1000, 7).value();
  filter.insert_many({});
  filter.contains_many({}, {});
  EXPECT_EQ(filter.count_ones(), 0U);
  for (std::size_t n = 1; n <= 40; ++n) {  // across the block size, and a few blocks
    std::vector<std::string> items;
    for (std::size_t i = 0; i < n; ++i)
      items.push_back("item " + std::to_string(n) + "/" + std::to_string(i));
    Bloom a = Bloom::create(1000, 7).value(), b = a;
    for (const auto& item : items) a.insert(item);
    b.insert_many(views(items));
    EXPECT_EQ(a, b) << n;
    EXPECT_EQ(b.n_inserted(), n);
  }
}

// from_bytes over an owned buffer against from_bytes over a view: the same
// filter or the same error, on bytes that are mostly valid with one change.
RC_GTEST_PROP(OwnedBuffer, FromBytesAgreesWithTheView, (const std::vector<std::string>& items)) {
  const auto m = *rc::gen::inRange<std::uint64_t>(1, 300);
  const auto k = *rc::gen::inRange<std::uint32_t>(1, 9);
  Bloom filter = Bloom::create(m, k).value();
  for (const auto& item : items) filter.insert(item);
  std::vector<std::uint8_t> bytes = filter.to_bytes();
  const auto head = filter.header();
  RC_ASSERT(std::vector<std::uint8_t>(head.begin(), head.end()) ==
            std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 32));
  if (*rc::gen::arbitrary<bool>()) {  // corrupt one byte, or cut or extend the input
    switch (*rc::gen::inRange(0, 3)) {
      case 0:
        bytes[*rc::gen::inRange<std::size_t>(0, bytes.size())] ^= *rc::gen::inRange<std::uint8_t>(1, 255);
        break;
      case 1:
        bytes.resize(*rc::gen::inRange<std::size_t>(0, bytes.size()));
        break;
      default:
        bytes.push_back(0);
        break;
    }
  }
  const auto viewed = Bloom::from_bytes(ByteView(bytes));
  const auto owned = Bloom::from_bytes(BitArray(bytes.begin(), bytes.end()));
  RC_ASSERT(viewed.ok() == owned.ok());
  if (viewed.ok()) {
    RC_ASSERT(viewed.value() == owned.value());
  } else {
    RC_ASSERT(viewed.error() == owned.error());
  }
}

TEST(BitArray, LargeFiltersStartZeroAndWork) {
  // 2^27 bits = 16 MiB: above the size that is mapped rather than taken from the heap.
  const std::uint64_t m = std::uint64_t{1} << 27;
  ASSERT_GE(bit_array_len(m), detail::kMappedFrom);
  Bloom filter = Bloom::create(m, 7).value();
  EXPECT_EQ(filter.count_ones(), 0U);
  filter.insert(std::string("tlbf"));
  EXPECT_TRUE(filter.contains(std::string("tlbf")));
  EXPECT_EQ(filter.count_ones(), 7U);
  const auto bytes = filter.to_bytes();
  const auto back = Bloom::from_bytes(bytes);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), filter);
  const auto owned = Bloom::from_bytes(BitArray(bytes.begin(), bytes.end()));
  ASSERT_TRUE(owned.ok());
  EXPECT_EQ(owned.value(), filter);
  Bloom copy = filter;  // copies are whole copies, not zero pages
  EXPECT_EQ(copy, filter);
}

}  // namespace
}  // namespace tlbf
