#include "tlbf/bloom.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <utility>

#include "describe.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/sizing.hpp"
#include "wide_probes.hpp"

namespace tlbf {
namespace {

using detail::hex_bytes;
using detail::shortest;

ByteView bytes_of(std::string_view text) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept {
  const std::uint64_t sum = a + b;
  return sum < a ? std::numeric_limits<std::uint64_t>::max() : sum;
}

// Header field offsets (docs/format.md, "Header").
constexpr std::size_t OFF_MAGIC = 0;
constexpr std::size_t OFF_VERSION = 4;
constexpr std::size_t OFF_M = 8;
constexpr std::size_t OFF_K = 16;
constexpr std::size_t OFF_RESERVED = 20;
constexpr std::size_t OFF_N = 24;

template <typename Int>
void put_le(std::span<std::uint8_t> out, std::size_t at, Int value) {
  for (std::size_t i = 0; i < sizeof(Int); ++i) {
    out[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
  }
}

template <typename Int>
Int get_le(ByteView in, std::size_t at) {
  Int value = 0;
  for (std::size_t i = 0; i < sizeof(Int); ++i) {
    value = static_cast<Int>(value | (static_cast<Int>(in[at + i]) << (8 * i)));
  }
  return value;
}

Error format_error(std::string message) { return Error{ErrorKind::Format, std::move(message)}; }
Error bad_params(std::string message) { return Error{ErrorKind::BadParams, std::move(message)}; }

}  // namespace

std::vector<std::uint64_t> positions_for(std::uint64_t m, std::uint32_t k, ByteView item) {
  std::vector<std::uint64_t> out;
  out.reserve(k);
  ProbeSequence probes(fnv1a64(item), m);
  for (std::uint32_t i = 0; i < k; ++i) out.push_back(probes.next());
  return out;
}

Bloom::Bloom(std::uint64_t m, std::uint32_t k, std::uint64_t n_inserted, BitArray bits) noexcept
    : m_(m), mod_(m), k_(k), n_inserted_(n_inserted), bits_(std::move(bits)) {}

Result<Bloom> Bloom::with_rate(std::uint64_t n, double p) {
  if (n < 1) return bad_params("n = 0; the expected item count must be at least 1");
  // Written so that NaN fails too: every comparison with NaN is false.
  if (!(p > 0.0 && p < 1.0)) {
    return bad_params("p = " + shortest(p) + "; the false-positive rate must lie in (0, 1)");
  }
  const std::uint64_t m = optimal_m(n, p);
  if (m > MAX_BITS) {
    return bad_params("n = " + std::to_string(n) + ", p = " + shortest(p) + " need m = " + std::to_string(m) +
                      " bits; at most 2^40 are allowed");
  }
  return create(m, optimal_k(m, n));
}

Result<Bloom> Bloom::create(std::uint64_t m, std::uint32_t k) {
  if (m < 1 || m > MAX_BITS) {
    return bad_params("m = " + std::to_string(m) + "; must be 1 ..= 2^40");
  }
  if (k < 1 || k > MAX_K) {
    return bad_params("k = " + std::to_string(k) + "; must be 1 ..= 65536");
  }
  try {
    return Bloom(m, k, 0, BitArray(bit_array_len(m)));  // zero without writing: see bit_array.hpp
  } catch (const std::bad_alloc&) {
    return bad_params("m = " + std::to_string(m) + " needs " + std::to_string(bit_array_len(m)) +
                      " bytes of bits, which this machine could not allocate");
  }
}

std::vector<std::uint64_t> Bloom::bit_positions(ByteView item) const { return positions_for(m_, k_, item); }
std::vector<std::uint64_t> Bloom::bit_positions(std::string_view item) const {
  return bit_positions(bytes_of(item));
}

void Bloom::insert(ByteView item) noexcept {
  ProbeSequence probes(fnv1a64(item), mod_);
  const std::uint32_t count = TLBF_MUTANT(s06) ? k_ - 1 : k_;  // s06: one bit short
  for (std::uint32_t i = 0; i < count; ++i) {
    set_bit(probes.next());
  }
  n_inserted_ = saturating_add(n_inserted_, 1);
}
void Bloom::insert(std::string_view item) noexcept { insert(bytes_of(item)); }

bool Bloom::contains(ByteView item) const noexcept {
  ProbeSequence probes(fnv1a64(item), mod_);
  for (std::uint32_t i = 0; i < k_; ++i) {
    if (!bit_is_set(probes.next())) return false;  // one clear bit settles it
  }
  return true;
}
bool Bloom::contains(std::string_view item) const noexcept { return contains(bytes_of(item)); }

// Items per block of the batched calls: enough probes in flight to cover a
// cache miss, few enough that the block's state stays in registers and L1.
constexpr std::size_t kBlock = 32;
// Filters up to this many bytes are probed item after item, without rounds:
// on the machine of docs/performance.md (2 MiB of L2 a core, 260 MiB of L3)
// that was as fast or faster up to 8 MiB, and rounds won from 16 MiB up.
constexpr std::size_t kCached = std::size_t{8} << 20;
static_assert(std::uint64_t{kCached} * 8 <= std::uint64_t{1} << 31, "the wide kernel takes m <= 2^31");

void Bloom::insert_many(std::span<const ByteView> items) noexcept {
  const std::uint32_t count = TLBF_MUTANT(s06) ? k_ - 1 : k_;  // s06, as in insert
  std::array<std::uint64_t, kBlock> h1;
  std::array<ProbeSequence, kBlock> probes;
  std::array<std::uint64_t, kBlock> next;
  for (std::size_t base = 0; base < items.size(); base += kBlock) {
    const std::size_t n = std::min(kBlock, items.size() - base);
    fnv1a64_many(items.subspan(base, n), h1);
    for (std::size_t j = 0; j < n; ++j) {
      probes[j] = ProbeSequence(h1[j], mod_);
      next[j] = probes[j].next();
      prefetch(next[j], true);
    }
    // Bits are only ever set, so the order of the writes cannot change the result.
    for (std::uint32_t round = 0; round < count; ++round) {
      const bool more = round + 1 < count;
      for (std::size_t j = 0; j < n; ++j) {
        set_bit(next[j]);
        if (more) {
          next[j] = probes[j].next();
          prefetch(next[j], true);
        }
      }
    }
    for (std::size_t j = 0; j < n; ++j) n_inserted_ = saturating_add(n_inserted_, 1);
  }
}

void Bloom::contains_many(std::span<const ByteView> items, std::span<bool> answers) const noexcept {
  if (bits_.size() <= kCached) {
    contains_in_cache(items, answers);
  } else {
    contains_in_rounds(items, answers);
  }
}

// The filter fits in a cache: few misses to overlap, and the bookkeeping of
// rounds would cost more than it saves. Where the processor has AVX-512,
// sixteen items are probed at once (wide_probes.hpp).
void Bloom::contains_in_cache(std::span<const ByteView> items, std::span<bool> answers) const noexcept {
  const bool wide = bits_.size() >= 4 && detail::wide_probes_available();
  std::array<std::uint64_t, kBlock> h1;
  for (std::size_t base = 0; base < items.size(); base += kBlock) {
    const std::size_t n = std::min(kBlock, items.size() - base);
    fnv1a64_many(items.subspan(base, n), h1);
    if (wide) {
      detail::contains_wide(std::span(h1).first(n), m_, k_, bits_, answers.data() + base);
      continue;
    }
    for (std::size_t j = 0; j < n; ++j) {
      ProbeSequence probes(h1[j], mod_);
      bool all_set = true;
      for (std::uint32_t i = 0; i < k_; ++i) all_set &= bit_is_set(probes.next());
      answers[base + j] = all_set;
    }
  }
}

void Bloom::contains_in_rounds(std::span<const ByteView> items, std::span<bool> answers) const noexcept {
  // Two blocks in flight: while the rounds of one wait on memory, the items
  // of the next are hashed a share per round, so that the hashing overlaps
  // the misses instead of taking turns with them.
  struct Block {
    std::array<ProbeSequence, kBlock> probes;
    std::array<std::uint64_t, kBlock> next;
    std::size_t base = 0, size = 0;
  };
  std::array<Block, 2> blocks;
  const auto begin = [&](Block& block, std::size_t base) {
    block.base = base;
    block.size = base < items.size() ? std::min(kBlock, items.size() - base) : 0;
  };
  // Hashes items from .. to of the block and fetches their first probes.
  const auto hash_some = [&](Block& block, std::size_t from, std::size_t to) {
    std::array<std::uint64_t, kBlock> h1;
    fnv1a64_many(items.subspan(block.base + from, to - from), h1);
    for (std::size_t j = from; j < to; ++j) {
      block.probes[j] = ProbeSequence(h1[j - from], mod_);
      block.next[j] = block.probes[j].next();
      prefetch(block.next[j], false);
    }
  };
  Block* current = &blocks[0];
  Block* coming = &blocks[1];
  begin(*current, 0);
  hash_some(*current, 0, current->size);
  std::array<std::uint8_t, kBlock> alive;  // indices into the block of items with no clear bit yet
  for (; current->size > 0; std::swap(current, coming)) {
    begin(*coming, current->base + kBlock);
    std::size_t hashed = 0;
    for (std::size_t j = 0; j < current->size; ++j) alive[j] = static_cast<std::uint8_t>(j);
    std::size_t in_play = current->size;
    for (std::uint32_t round = 0; round < k_ && in_play > 0; ++round) {
      const bool more = round + 1 < k_;
      std::size_t kept = 0;
      // Without branches on the bits: whether a bit is set is a coin toss the
      // branch predictor would lose. A dropped item's next probe is computed
      // and fetched anyway, which costs less than a mispredicted branch.
      for (std::size_t t = 0; t < in_play; ++t) {
        const std::size_t j = alive[t];
        const bool set = bit_is_set(current->next[j]);
        answers[current->base + j] = set;  // false settles it; true until a later round says otherwise
        alive[kept] = static_cast<std::uint8_t>(j);
        kept += set;
        if (more) {
          current->next[j] = current->probes[j].next();
          prefetch(current->next[j], false);
        }
      }
      in_play = kept;
      // This round's share of the coming block, in fours (fnv1a64_many's stride).
      const std::size_t share = std::min(coming->size, (coming->size * (round + 1) / k_ + 3) / 4 * 4);
      if (share > hashed) hash_some(*coming, hashed, share);
      hashed = std::max(hashed, share);
    }
    if (coming->size > hashed) hash_some(*coming, hashed, coming->size);  // the rounds ended early
  }
}

Status Bloom::union_with(const Bloom& other) {
  if (m_ != other.m_ || k_ != other.k_) {
    return Error{ErrorKind::Mismatch, "m = " + std::to_string(m_) + ", k = " + std::to_string(k_) +
                                          " cannot merge with m = " + std::to_string(other.m_) +
                                          ", k = " + std::to_string(other.k_)};
  }
  // Equal m means equal lengths, except in a mutant that trusted a file's length.
  for (std::size_t i = 0; i < std::min(bits_.size(), other.bits_.size()); ++i) {
    bits_[i] =
        static_cast<std::uint8_t>(TLBF_MUTANT(s08) ? bits_[i] & other.bits_[i] : bits_[i] | other.bits_[i]);
  }
  if (!TLBF_MUTANT(s05)) n_inserted_ = saturating_add(n_inserted_, other.n_inserted_);
  return success();
}

std::uint64_t Bloom::count_ones() const noexcept {
  // Eight words at a time, a block of zeros skipped after one OR: a filter of
  // 2^31 + 64 bits with a few items set (a rule case of the default check) is
  // counted in about 0.05 s, where a popcount per byte took 2.5 s without the
  // popcnt instruction (a portable build has none).
  std::uint64_t ones = 0;
  const std::uint8_t* p = bits_.data();
  const std::size_t n = bits_.size();
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    std::uint64_t w[8];
    std::memcpy(w, p + i, sizeof w);
    std::uint64_t any = 0;
    for (std::uint64_t x : w) any |= x;
    if (any == 0) continue;
    for (std::uint64_t x : w) ones += static_cast<std::uint64_t>(std::popcount(x));
  }
  for (; i < n; ++i) ones += static_cast<std::uint64_t>(std::popcount(p[i]));
  return ones;  // padding bits are zero by construction, so this is at most m
}

std::array<std::uint8_t, HEADER_LEN> Bloom::header() const {
  std::array<std::uint8_t, HEADER_LEN> out{};
  for (std::size_t i = 0; i < 4; ++i) out[OFF_MAGIC + i] = MAGIC[i];
  put_le<std::uint32_t>(out, OFF_VERSION, VERSION);
  put_le<std::uint64_t>(out, OFF_M, m_);
  put_le<std::uint32_t>(out, OFF_K, k_);
  put_le<std::uint32_t>(out, OFF_RESERVED, 0);
  put_le<std::uint64_t>(out, OFF_N, n_inserted_);
  return out;
}

std::vector<std::uint8_t> Bloom::to_bytes() const {
  const auto head = header();
  std::vector<std::uint8_t> out(HEADER_LEN + bits_.size());
  std::copy(head.begin(), head.end(), out.begin());
  std::copy(bits_.begin(), bits_.end(), out.begin() + static_cast<std::ptrdiff_t>(HEADER_LEN));
  return out;
}

namespace {

struct Header {
  std::uint64_t m;
  std::uint32_t k;
  std::uint64_t n_inserted;
};

// Checks 1 to 6 of from_bytes, on the header's 32 bytes (short when fewer).
Result<Header> check_fields(ByteView bytes) {
  // The order of these checks is part of docs/format.md ("Reading").
  if (bytes.size() < HEADER_LEN) {
    return format_error("short: the input is " + std::to_string(bytes.size()) +
                        " bytes; the header alone is 32");
  }
  if (!std::equal(std::begin(MAGIC), std::end(MAGIC), bytes.begin() + OFF_MAGIC)) {
    return format_error("magic = " + hex_bytes(bytes.subspan(OFF_MAGIC, 4)) +
                        "; must be 54 4c 42 46 (\"TLBF\")");
  }
  const auto version = get_le<std::uint32_t>(bytes, OFF_VERSION);
  if (version != VERSION) {
    return format_error("version = " + std::to_string(version) + "; only 1 is known");
  }
  const auto m = get_le<std::uint64_t>(bytes, OFF_M);
  if (m < 1 || m > MAX_BITS) {
    return format_error("m = " + std::to_string(m) + " in header; must be 1 ..= 2^40");
  }
  const auto k = get_le<std::uint32_t>(bytes, OFF_K);
  if (k < 1 || k > MAX_K) {
    return format_error("k = " + std::to_string(k) + " in header; must be 1 ..= 65536");
  }
  const auto reserved = get_le<std::uint32_t>(bytes, OFF_RESERVED);
  if (reserved != 0) {
    return format_error("reserved = " + std::to_string(reserved) + "; must be 0");
  }
  return Header{m, k, get_le<std::uint64_t>(bytes, OFF_N)};
}

// Checks 1 to 7 of from_bytes: those of the header, then the length.
Result<Header> check_header_and_length(ByteView header, std::uint64_t file_size) {
  if (file_size < HEADER_LEN)
    return check_fields(header.first(std::min<std::size_t>(header.size(), file_size)));
  const auto fields = check_fields(header);
  if (!fields) return fields.error();
  const std::uint64_t m = fields.value().m;
  // m <= 2^40 here, so neither side of this comparison can overflow.
  const std::uint64_t body = file_size - HEADER_LEN;
  const std::uint64_t want = bit_array_len(m);
  if (body != want && !TLBF_MUTANT(s09)) {
    const std::string how = body < want ? "truncated" : std::to_string(body - want) + " bytes too many";
    return format_error("length: m = " + std::to_string(m) + " needs " + std::to_string(want) +
                        " bytes of bits after the header, the input has " + std::to_string(body) + " (" +
                        how + ")");
  }
  return fields;
}

// Every check of from_bytes, on the whole input, without allocating.
Result<Header> check_file(ByteView bytes) {
  const auto checked = check_header_and_length(bytes, bytes.size());
  if (!checked) return checked.error();
  const std::uint64_t m = checked.value().m;
  const std::uint64_t want = bit_array_len(m);
  if (m % 8 != 0 && bytes.size() - HEADER_LEN == want) {
    const std::uint8_t last = bytes[bytes.size() - 1];
    const auto padding_mask = static_cast<std::uint8_t>(0xFFU << (m % 8));
    if ((last & padding_mask) != 0) {
      return format_error("padding: bits " + std::to_string(m) + " .. " + std::to_string(want * 8 - 1) +
                          " lie beyond m = " + std::to_string(m) + " and must be 0 (last byte is " +
                          hex_bytes(bytes.last(1)) + ")");
    }
  }
  return checked;
}

}  // namespace

Result<std::uint64_t> Bloom::file_size_from_header(ByteView header) {
  const auto fields = check_fields(header.first(std::min<std::size_t>(header.size(), HEADER_LEN)));
  if (!fields) return fields.error();
  return HEADER_LEN + bit_array_len(fields.value().m);
}

Status Bloom::check_header(ByteView header, std::uint64_t file_size) {
  const auto checked =
      check_header_and_length(header.first(std::min<std::size_t>(header.size(), HEADER_LEN)), file_size);
  if (!checked) return checked.error();
  return success();
}

Result<Bloom> Bloom::from_bytes(ByteView bytes) {
  const auto checked = check_file(bytes);
  if (!checked) return checked.error();
  const Header& h = checked.value();
  return Bloom(h.m, h.k, h.n_inserted,
               BitArray(bytes.begin() + static_cast<std::ptrdiff_t>(HEADER_LEN), bytes.end()));
}

Result<Bloom> Bloom::from_bytes(BitArray&& file) {
  const auto checked = check_file(file);
  if (!checked) return checked.error();
  const Header& h = checked.value();
  file.erase(file.begin(),
             file.begin() + static_cast<std::ptrdiff_t>(HEADER_LEN));  // the bits, where they lie
  return Bloom(h.m, h.k, h.n_inserted, std::move(file));
}

}  // namespace tlbf
