// RapidCheck properties over small random filters: the laws any correct
// TLBF implementation obeys, whatever the items and parameters.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tlbf/oracle.hpp"

namespace tlbf {
namespace {

using Items = std::vector<std::string>;

// Small m and k keep filters dense enough that collisions, padding bits and
// odd sizes are exercised on every run.
Bloom arbitrary_empty_filter() {
  const auto m = *rc::gen::inRange<std::uint64_t>(1, 2049);
  const auto k = *rc::gen::inRange<std::uint32_t>(1, 17);
  auto made = Bloom::create(m, k);
  RC_ASSERT(made.ok());
  return std::move(made).value();
}

Bloom filled(Bloom filter, const Items& items) {
  for (const auto& item : items) filter.insert(item);
  return filter;
}

std::vector<std::uint8_t> bits_of(const Bloom& filter) {
  return {filter.bits().begin(), filter.bits().end()};
}

RC_GTEST_PROP(Properties, EveryInsertedItemIsPresent, (const Items& items)) {
  const Bloom filter = filled(arbitrary_empty_filter(), items);
  for (const auto& item : items) RC_ASSERT(filter.contains(item));
  RC_ASSERT(filter.n_inserted() == items.size());
  RC_ASSERT(filter.count_ones() <= filter.m());
  RC_ASSERT(filter.count_ones() <= items.size() * filter.k());
}

RC_GTEST_PROP(Properties, BytesRoundTrip, (const Items& items)) {
  const Bloom filter = filled(arbitrary_empty_filter(), items);
  const auto bytes = filter.to_bytes();
  RC_ASSERT(bytes.size() == HEADER_LEN + (filter.m() + 7) / 8);
  const auto reloaded = Bloom::from_bytes(bytes);
  RC_ASSERT(reloaded.ok());
  RC_ASSERT(reloaded.value() == filter);
  RC_ASSERT(reloaded.value().to_bytes() == bytes);
}

RC_GTEST_PROP(Properties, UnionEqualsOneFilterOfBothSets, (const Items& left, const Items& right)) {
  const Bloom empty = arbitrary_empty_filter();
  Bloom merged = filled(empty, left);
  RC_ASSERT(merged.union_with(filled(empty, right)).ok());
  Items both = left;
  both.insert(both.end(), right.begin(), right.end());
  RC_ASSERT(merged == filled(empty, both));
}

RC_GTEST_PROP(Properties, UnionIsCommutativeOnBits, (const Items& a, const Items& b)) {
  const Bloom empty = arbitrary_empty_filter();
  Bloom ab = filled(empty, a);
  Bloom ba = filled(empty, b);
  RC_ASSERT(ab.union_with(filled(empty, b)).ok());
  RC_ASSERT(ba.union_with(filled(empty, a)).ok());
  RC_ASSERT(bits_of(ab) == bits_of(ba));
  RC_ASSERT(ab.n_inserted() == ba.n_inserted());
}

RC_GTEST_PROP(Properties, UnionIsAssociativeOnBits, (const Items& a, const Items& b, const Items& c)) {
  const Bloom empty = arbitrary_empty_filter();
  Bloom left = filled(empty, a);  // (a | b) | c
  RC_ASSERT(left.union_with(filled(empty, b)).ok());
  RC_ASSERT(left.union_with(filled(empty, c)).ok());
  Bloom right_tail = filled(empty, b);  // a | (b | c)
  RC_ASSERT(right_tail.union_with(filled(empty, c)).ok());
  Bloom right = filled(empty, a);
  RC_ASSERT(right.union_with(right_tail).ok());
  RC_ASSERT(bits_of(left) == bits_of(right));
  RC_ASSERT(left.n_inserted() == right.n_inserted());
}

RC_GTEST_PROP(Properties, PositionsAreKValuesBelowM, (const std::string& item)) {
  const Bloom filter = arbitrary_empty_filter();
  const auto positions = filter.bit_positions(item);
  RC_ASSERT(positions.size() == filter.k());
  for (auto g : positions) RC_ASSERT(g < filter.m());
}

RC_GTEST_PROP(Properties, FromBytesAcceptsExactlyWhatToBytesCouldWrite, ()) {
  // Random bits behind a valid header, the body sometimes a byte or two short
  // or long: accepted only when the length fits m and the padding is clear,
  // and then it round-trips to the same bytes.
  const auto m = *rc::gen::inRange<std::uint64_t>(1, 200);
  const auto exact = static_cast<int>((m + 7) / 8);
  const auto body_len = std::max(0, exact + *rc::gen::inRange(-2, 3));
  const auto body = *rc::gen::container<std::vector<std::uint8_t>>(static_cast<std::size_t>(body_len),
                                                                   rc::gen::arbitrary<std::uint8_t>());
  std::vector<std::uint8_t> input = {'T', 'L', 'B', 'F', 1, 0, 0, 0};
  for (int i = 0; i < 8; ++i) input.push_back(static_cast<std::uint8_t>(m >> (8 * i)));
  input.insert(input.end(), {2, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0});
  input.insert(input.end(), body.begin(), body.end());

  const bool length_fits = body_len == exact;
  const bool padding_clear = m % 8 == 0 || (body.empty() ? true : (body.back() >> (m % 8)) == 0);
  const auto loaded = Bloom::from_bytes(input);
  RC_ASSERT(loaded.ok() == (length_fits && padding_clear));
  if (loaded.ok()) {
    RC_ASSERT(loaded.value().to_bytes() == input);
  } else {
    RC_ASSERT(loaded.error().kind == ErrorKind::Format);
  }
}

RC_GTEST_PROP(Properties, HeaderChecksGiveFromBytesErrorFromTheFirst32BytesAndTheLength, ()) {
  // A header with a byte or two sometimes changed, then a body of about the
  // right length, or the input cut inside the header: check_header, seeing
  // the first 32 bytes and the length alone, gives from_bytes's error unless
  // that error is the padding, and file_size_from_header the length it wants.
  const auto m = *rc::gen::inRange<std::uint64_t>(1, 200);
  std::vector<std::uint8_t> input = {'T', 'L', 'B', 'F', 1, 0, 0, 0};
  for (int i = 0; i < 8; ++i) input.push_back(static_cast<std::uint8_t>(m >> (8 * i)));
  input.insert(input.end(), {2, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0});
  // Half the time one byte changed, one of the twelve below (two of each of
  // magic, version, m, k, reserved and n), so that each header check is the
  // one that fails in about 1 case in 12.
  if (*rc::gen::arbitrary<bool>()) {
    const auto at = *rc::gen::element<std::size_t>(0, 3, 4, 7, 8, 13, 16, 19, 20, 23, 24, 31);
    input[at] = *rc::gen::arbitrary<std::uint8_t>();
  }
  if (*rc::gen::inRange(0, 8) == 0) {
    input.resize(*rc::gen::inRange<std::size_t>(0, HEADER_LEN));
  } else {
    const auto body_len = std::max(0, static_cast<int>((m + 7) / 8) + *rc::gen::inRange(-2, 3));
    const auto body = *rc::gen::container<std::vector<std::uint8_t>>(static_cast<std::size_t>(body_len),
                                                                     rc::gen::arbitrary<std::uint8_t>());
    input.insert(input.end(), body.begin(), body.end());
  }
  const ByteView header = ByteView(input).first(std::min(input.size(), HEADER_LEN));

  const auto whole = Bloom::from_bytes(input);
  const auto checked = Bloom::check_header(header, input.size());
  if (whole.ok()) {
    RC_ASSERT(checked.ok());
  } else if (checked.ok()) {
    RC_ASSERT(whole.error().message.rfind("padding:", 0) == 0);
  } else {
    RC_ASSERT(checked.error().kind == whole.error().kind);
    RC_ASSERT(checked.error().message == whole.error().message);
  }
  const auto wanted = Bloom::file_size_from_header(header);
  if (wanted.ok() && input.size() >= HEADER_LEN) RC_ASSERT(checked.ok() == (wanted.value() == input.size()));
  if (!wanted.ok()) RC_ASSERT(!checked.ok() && checked.error().message == wanted.error().message);
}

}  // namespace
}  // namespace tlbf
