// The oracle's speed against the floors measured in the same run
// (docs/performance.md). Run by scripts/bench, which prints the ratios.
//
// - HashFloor: FNV-1a 64 and the finalizer alone, per item, one item at a
//   time; HashManyFloor: the same through fnv1a64_many, four side by side.
// - MemoryFloor: 7 random reads per item (k = 7) over a buffer of the
//   filter's size and storage, at positions drawn in advance, independent of
//   each other so that they overlap as well as the hardware allows; plain
//   reads (second argument 0), and with a software prefetch 32 reads ahead.
// ratios.py takes the faster of each pair as the floor.
// - Contains and Insert, scalar and batched, on a filter of 256 KiB (in
//   cache) and 1 GiB, half its bits set, k = 7, with items present (all 7
//   probes hit) and absent (the first clear bit ends the probe). On 1 GiB
//   each iteration takes fresh items from a pool of 2^22 (see kLargePool).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tlbf/oracle.hpp"

namespace {

constexpr std::uint32_t kK = 7;
constexpr std::size_t kItems = 1 << 16;  // per iteration
// Distinct items for the 1 GiB filter: 2^22 of them touch about 1.8 GB of
// cache lines, far beyond this machine's 260 MiB L3, so that the filter is
// read from memory as the floor's buffer is, not from lines a few thousand
// items cached on the previous iteration. Each iteration takes the next
// kItems of them.
constexpr std::size_t kLargePool = 1 << 22;

struct Items {
  std::vector<std::uint8_t> storage;
  std::vector<tlbf::ByteView> views;
};

const Items& items(std::size_t length, std::uint64_t seed, std::size_t count) {
  static std::map<std::tuple<std::size_t, std::uint64_t, std::size_t>, std::unique_ptr<Items>> cache;
  auto& slot = cache[{length, seed, count}];
  if (!slot) {
    slot = std::make_unique<Items>();
    std::mt19937_64 rng(seed);
    slot->storage.resize(length * count);
    for (std::size_t i = 0; i < slot->storage.size(); i += 8) {
      const std::uint64_t r = rng();
      for (std::size_t j = 0; j < 8 && i + j < slot->storage.size(); ++j)
        slot->storage[i + j] = static_cast<std::uint8_t>(r >> (8 * j));
    }
    for (std::size_t i = 0; i < count; ++i)
      slot->views.emplace_back(slot->storage.data() + i * length, length);
  }
  return *slot;
}

std::size_t pool_for(std::size_t filter_bytes) {
  return filter_bytes > (std::size_t{64} << 20) ? kLargePool : kItems;
}

// The items of one iteration: the next kItems of the pool, round and round.
std::span<const tlbf::ByteView> slice(const Items& pool, std::size_t iteration) {
  const std::size_t slices = pool.views.size() / kItems;
  return std::span<const tlbf::ByteView>(pool.views).subspan((iteration % slices) * kItems, kItems);
}

// A filter of `bytes` bytes with half its bits set at random, as a filter
// loaded to its design point is, and the present items inserted into it.
tlbf::Bloom& filter(std::size_t bytes) {
  static std::map<std::size_t, std::unique_ptr<tlbf::Bloom>> cache;
  auto& slot = cache[bytes];
  if (!slot) {
    std::vector<std::uint8_t> file(tlbf::HEADER_LEN + bytes, 0);
    const std::uint8_t header[] = {'T', 'L', 'B', 'F', 1, 0, 0, 0};
    std::copy(std::begin(header), std::end(header), file.begin());
    const std::uint64_t m = std::uint64_t{bytes} * 8;
    for (int i = 0; i < 8; ++i)
      file[8 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(m >> (8 * i));
    file[16] = kK;
    std::mt19937_64 rng(7);
    for (std::size_t i = tlbf::HEADER_LEN; i < file.size(); i += 8) {
      const std::uint64_t r = rng();
      for (std::size_t j = 0; j < 8 && i + j < file.size(); ++j)
        file[i + j] = static_cast<std::uint8_t>(r >> (8 * j));
    }
    slot = std::make_unique<tlbf::Bloom>(tlbf::Bloom::from_bytes(file).value());
    for (std::size_t length : {std::size_t{16}, std::size_t{64}})
      slot->insert_many(items(length, 1, pool_for(bytes)).views);
  }
  return *slot;
}

std::size_t filter_bytes(const benchmark::State& state) {
  return static_cast<std::size_t>(state.range(0)) << 10;
}
std::size_t item_length(const benchmark::State& state) { return static_cast<std::size_t>(state.range(1)); }
std::uint64_t item_seed(const benchmark::State& state) {
  return state.range(2) ? 1 : 2;
}  // 1: present, 2: absent

void HashFloor(benchmark::State& state) {
  const auto& in = items(static_cast<std::size_t>(state.range(0)), 1, kItems);
  for (auto _ : state) {
    for (const auto& item : in.views) {
      const std::uint64_t h1 = tlbf::fnv1a64(item);
      benchmark::DoNotOptimize(tlbf::mix64(h1) | 1U);
      benchmark::DoNotOptimize(h1);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kItems));
}

void HashManyFloor(benchmark::State& state) {
  const auto& in = items(static_cast<std::size_t>(state.range(0)), 1, kItems);
  std::vector<std::uint64_t> h1(kItems);
  for (auto _ : state) {
    tlbf::fnv1a64_many(in.views, h1);
    for (std::uint64_t h : h1) benchmark::DoNotOptimize(tlbf::mix64(h) | 1U);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kItems));
}

// The read positions are drawn before timing starts, as many as the items of
// the filter's pool will probe, and streamed from an array: positions computed
// on the fly would put the generator's dependency chain into the floor (a
// xorshift did: it made the 256 KiB floor 14 ns, almost all arithmetic).
void MemoryFloor(benchmark::State& state) {
  const std::size_t bytes = filter_bytes(state);
  // Made once, as the filters are, and in the same storage (huge pages where offered).
  static std::map<std::size_t, std::pair<tlbf::BitArray, std::vector<std::uint32_t>>> made;
  auto& [buffer, positions] = made[bytes];
  if (buffer.empty()) {
    buffer.assign(bytes, 1);
    std::mt19937_64 rng(5);
    positions.resize(pool_for(bytes) * kK);
    for (auto& p : positions) p = static_cast<std::uint32_t>(rng() % bytes);
  }
  const std::size_t per_iteration = kItems * kK;
  const std::size_t ahead = static_cast<std::size_t>(state.range(1));  // reads to prefetch ahead, 0 for none
  const std::size_t rounds = positions.size() / per_iteration;
  std::uint64_t sum = 0;
  std::size_t iteration = 0;
  for (auto _ : state) {
    const std::uint32_t* at = positions.data() + (iteration++ % rounds) * per_iteration;
    for (std::size_t i = 0; i < per_iteration; ++i) {
      if (ahead > 0) __builtin_prefetch(buffer.data() + at[std::min(i + ahead, per_iteration - 1)]);
      sum += buffer[at[i]];
    }
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kItems));
}

void ContainsScalar(benchmark::State& state) {
  const tlbf::Bloom& f = filter(filter_bytes(state));
  const auto& in = items(item_length(state), item_seed(state), pool_for(filter_bytes(state)));
  std::size_t hits = 0, iteration = 0;
  for (auto _ : state) {
    for (const auto& item : slice(in, iteration++)) hits += f.contains(item);
  }
  benchmark::DoNotOptimize(hits);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kItems));
}

void ContainsBatched(benchmark::State& state) {
  const tlbf::Bloom& f = filter(filter_bytes(state));
  const auto& in = items(item_length(state), item_seed(state), pool_for(filter_bytes(state)));
  const auto answers = std::make_unique<bool[]>(kItems);
  std::size_t iteration = 0;
  for (auto _ : state) {
    f.contains_many(slice(in, iteration++), {answers.get(), kItems});
    benchmark::DoNotOptimize(answers[0]);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kItems));
}

// Inserting the same items again sets no new bit, but does every probe and
// every write, which is all the work an insert has.
void InsertScalar(benchmark::State& state) {
  tlbf::Bloom& f = filter(filter_bytes(state));
  const auto& in = items(item_length(state), item_seed(state), pool_for(filter_bytes(state)));
  std::size_t iteration = 0;
  for (auto _ : state) {
    for (const auto& item : slice(in, iteration++)) f.insert(item);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kItems));
}

void InsertBatched(benchmark::State& state) {
  tlbf::Bloom& f = filter(filter_bytes(state));
  const auto& in = items(item_length(state), item_seed(state), pool_for(filter_bytes(state)));
  std::size_t iteration = 0;
  for (auto _ : state) f.insert_many(slice(in, iteration++));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kItems));
}

// Sizes in KiB: 256 KiB in cache, 1 GiB far beyond it.
constexpr std::int64_t kInCache = 256, kLarge = 1 << 20;

}  // namespace

BENCHMARK(HashFloor)->Arg(16)->Arg(64);
BENCHMARK(HashManyFloor)->Arg(16)->Arg(64);
BENCHMARK(MemoryFloor)->ArgsProduct({{kInCache, kLarge}, {0, 32}});
BENCHMARK(ContainsScalar)->ArgsProduct({{kInCache, kLarge}, {16, 64}, {1, 0}});
BENCHMARK(ContainsBatched)->ArgsProduct({{kInCache, kLarge}, {16, 64}, {1, 0}});
BENCHMARK(InsertScalar)->ArgsProduct({{kInCache, kLarge}, {16, 64}, {1}});
BENCHMARK(InsertBatched)->ArgsProduct({{kInCache, kLarge}, {16, 64}, {1}});

BENCHMARK_MAIN();
