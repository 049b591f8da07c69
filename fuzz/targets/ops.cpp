// The input as a sequence of operations on three filter slots
// (docs/fuzzing.md, "fuzz_ops"). A model keeps the items inserted into
// each slot; after every operation the invariants are checked: no false
// negatives, byte round trips, union is OR with the counts added, sizing as
// the formulas say, every refusal of the right kind, and the batched calls
// agreeing with the scalar ones.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "../check.hpp"
#include "../input_reader.hpp"
#include "tlbf/bloom.hpp"
#include "tlbf/sizing.hpp"

namespace {

using Item = std::vector<std::uint8_t>;

struct Slot {
  std::optional<tlbf::Bloom> filter;
  std::vector<Item> inserted;  // the model: every one must stay present
};

constexpr std::size_t kMaxModelItems = 256;

void check_no_false_negatives(const Slot& s) {
  if (!s.filter) return;
  for (const auto& item : s.inserted) {
    TLBF_FUZZ_CHECK(s.filter->contains(tlbf::ByteView(item)), "an inserted item of %zu bytes is missing",
                    item.size());
  }
  TLBF_FUZZ_CHECK(s.filter->count_ones() <= s.filter->m(), "more set bits than m");
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

double rate(tlbf::fuzz::InputReader& in) {
  static constexpr std::array<double, 6> kRates = {0.5, 0.1, 0.01, 0.001, 0.3, 1e-9};
  const std::uint8_t choice = in.byte();
  if (choice % 8 != 7) return kRates[choice % kRates.size()];
  const std::uint64_t raw = in.uint(8);  // anything, NaN and negatives included
  double p;
  std::memcpy(&p, &raw, sizeof p);
  return p;
}

using Slots = std::array<Slot, 3>;
using Reader = tlbf::fuzz::InputReader;

void make_with_rate(Slot& s, Slots&, Reader& in) {
  const std::uint64_t n = in.uint(2) % 2000;
  const double p = rate(in);
  const auto made = tlbf::Bloom::with_rate(n, p);
  const bool allowed = n >= 1 && p > 0.0 && p < 1.0 && tlbf::optimal_m(n, p) <= tlbf::MAX_BITS;
  TLBF_FUZZ_CHECK(made.ok() == allowed, "with_rate(%llu, %g) %s", static_cast<unsigned long long>(n), p,
                  made.ok() ? "accepted" : made.error().describe().c_str());
  if (!made) {
    TLBF_FUZZ_CHECK(made.error().kind == tlbf::ErrorKind::BadParams, "with_rate refused with the wrong kind");
    return;
  }
  const std::uint64_t m = tlbf::optimal_m(n, p);
  TLBF_FUZZ_CHECK(made.value().m() == m && made.value().k() == tlbf::optimal_k(m, n),
                  "with_rate sized it wrong");
  s = Slot{made.value(), {}};
}

// new, with the bounds and just past them.
void make_new(Slot& s, Slots&, Reader& in) {
  const std::uint8_t pick = in.byte();
  const std::uint64_t m = pick % 8 == 0 ? 0 : pick % 8 == 1 ? tlbf::MAX_BITS + 1 : in.uint(2) + 1;
  const std::uint8_t kpick = in.byte();
  const std::uint32_t k = kpick % 16 == 0 ? 0 : kpick % 16 == 1 ? tlbf::MAX_K + 1 : 1U + kpick % 32U;
  const auto made = tlbf::Bloom::create(m, k);
  const bool allowed = m >= 1 && m <= tlbf::MAX_BITS && k >= 1 && k <= tlbf::MAX_K;
  TLBF_FUZZ_CHECK(made.ok() == allowed, "new(%llu, %u) %s", static_cast<unsigned long long>(m), k,
                  made.ok() ? "accepted" : "refused");
  if (!made) {
    TLBF_FUZZ_CHECK(made.error().kind == tlbf::ErrorKind::BadParams, "new refused with the wrong kind");
    return;
  }
  TLBF_FUZZ_CHECK(made.value().count_ones() == 0 && made.value().n_inserted() == 0,
                  "a new filter is not empty");
  s = Slot{made.value(), {}};
}

void insert(Slot& s, Slots&, Reader& in) {
  const Item item = in.bytes(16);
  if (!s.filter) return;
  const std::uint64_t before = s.filter->n_inserted();
  s.filter->insert(tlbf::ByteView(item));
  TLBF_FUZZ_CHECK(s.filter->contains(tlbf::ByteView(item)), "an item is missing right after its insert");
  TLBF_FUZZ_CHECK(s.filter->n_inserted() == saturating_add(before, 1), "insert did not count the item");
  if (s.inserted.size() < kMaxModelItems) s.inserted.push_back(item);
}

void contains(Slot& s, Slots&, Reader& in) {
  const Item item = in.bytes(16);
  if (!s.filter) return;
  const bool present = s.filter->contains(tlbf::ByteView(item));
  const bool inserted = std::find(s.inserted.begin(), s.inserted.end(), item) != s.inserted.end();
  TLBF_FUZZ_CHECK(present || !inserted, "a false negative");
}

void merge(Slot& s, Slots& slots, Reader& in) {
  Slot& other = slots[in.byte() % slots.size()];
  if (!s.filter || !other.filter) return;
  const tlbf::Bloom a = *s.filter;
  const tlbf::Bloom b = *other.filter;  // the same slot works too: F OR F
  const auto done = s.filter->union_with(b);
  if (a.m() != b.m() || a.k() != b.k()) {
    TLBF_FUZZ_CHECK(!done && done.error().kind == tlbf::ErrorKind::Mismatch, "a union of different shapes");
    TLBF_FUZZ_CHECK(*s.filter == a, "a refused union changed the filter");
    return;
  }
  TLBF_FUZZ_CHECK(done.ok(), "a union of equal shapes was refused");
  for (std::size_t i = 0; i < a.bits().size(); ++i) {
    TLBF_FUZZ_CHECK(s.filter->bits()[i] == (a.bits()[i] | b.bits()[i]), "union is not OR at byte %zu", i);
  }
  TLBF_FUZZ_CHECK(s.filter->n_inserted() == saturating_add(a.n_inserted(), b.n_inserted()), "union counts");
  const std::vector<Item> more = other.inserted;
  for (const auto& item : more) {
    if (s.inserted.size() < kMaxModelItems) s.inserted.push_back(item);
  }
}

// to_bytes then from_bytes.
void round_trip(Slot& s, Slots&, Reader&) {
  if (!s.filter) return;
  const auto bytes = s.filter->to_bytes();
  TLBF_FUZZ_CHECK(bytes.size() == tlbf::HEADER_LEN + (s.filter->m() + 7) / 8, "to_bytes length");
  const auto back = tlbf::Bloom::from_bytes(bytes);
  TLBF_FUZZ_CHECK(back.ok() && back.value() == *s.filter, "a filter does not survive its own bytes");
}

// A corrupted copy: refused, or accepted as exactly those bytes.
void load_corrupted_copy(Slot& s, Slots&, Reader& in) {
  if (!s.filter) return;
  auto bytes = s.filter->to_bytes();
  const std::size_t at = static_cast<std::size_t>(in.uint(2)) % bytes.size();
  bytes[at] = static_cast<std::uint8_t>(bytes[at] ^ (in.byte() | 1U));
  const auto back = tlbf::Bloom::from_bytes(bytes);
  if (back) {
    TLBF_FUZZ_CHECK(back.value().to_bytes() == bytes, "accepted corrupt bytes that do not round-trip");
  } else {
    TLBF_FUZZ_CHECK(back.error().kind == tlbf::ErrorKind::Format,
                    "corrupt bytes refused with the wrong kind");
  }
}

void load_raw_bytes(Slot& s, Slots&, Reader& in) {
  const Item raw = in.bytes(96);
  const auto loaded = tlbf::Bloom::from_bytes(tlbf::ByteView(raw));
  if (!loaded) {
    TLBF_FUZZ_CHECK(loaded.error().kind == tlbf::ErrorKind::Format, "raw bytes refused with the wrong kind");
    return;
  }
  TLBF_FUZZ_CHECK(loaded.value().to_bytes() == raw, "accepted raw bytes that do not round-trip");
  s = Slot{loaded.value(), {}};
}

// The batched calls against the scalar ones, on a copy.
void batched_against_scalar(Slot& s, Slots&, Reader& in) {
  if (!s.filter) return;
  std::vector<Item> items(in.byte() % 40);
  for (auto& item : items) item = in.bytes(12);
  std::vector<tlbf::ByteView> views(items.begin(), items.end());
  tlbf::Bloom scalar = *s.filter;
  for (const auto& item : items) scalar.insert(tlbf::ByteView(item));
  tlbf::Bloom batched = *s.filter;
  batched.insert_many(views);
  TLBF_FUZZ_CHECK(batched == scalar, "insert_many and insert disagree on %zu items", items.size());
  std::array<bool, 40> answers{};
  s.filter->contains_many(views, answers);
  for (std::size_t i = 0; i < items.size(); ++i) {
    TLBF_FUZZ_CHECK(answers[i] == s.filter->contains(tlbf::ByteView(items[i])),
                    "contains_many and contains disagree");
  }
}

void drop(Slot& s, Slots&, Reader&) { s = Slot{}; }

// Each operation reads its operands from the input after the byte that picks
// its slot. The order is the encoding the corpus was written in: moving an
// entry would turn every saved input into another program.
using Operation = void (*)(Slot&, Slots&, Reader&);
constexpr std::array<Operation, 10> kOperations = {
    make_with_rate,
    make_new,
    insert,
    contains,
    merge,
    round_trip,
    load_corrupted_copy,
    load_raw_bytes,
    batched_against_scalar,
    drop,
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in({data, size});
  Slots slots;
  for (int steps = 0; !in.done() && steps < 64; ++steps) {
    const Operation operation = kOperations[in.byte() % kOperations.size()];
    Slot& s = slots[in.byte() % slots.size()];
    operation(s, slots, in);
    check_no_false_negatives(s);  // the only slot an operation changes
  }
  return 0;
}
