// The TLBF v1 Bloom filter: m bits, k probes per item by double hashing, and
// the portable byte layout of docs/format.md.
//
// Names follow the specification's interface, except where C++ reserves the
// word: the spec's `new` is `Bloom::create` and its `union` is `union_with`.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include "tlbf/bit_array.hpp"
#include "tlbf/error.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/modulus.hpp"
#include "tlbf/mutant_switch.hpp"

namespace tlbf {

inline constexpr std::uint8_t MAGIC[4] = {'T', 'L', 'B', 'F'};
inline constexpr std::uint32_t VERSION = 1;
inline constexpr std::size_t HEADER_LEN = 32;
inline constexpr std::uint64_t MAX_BITS = std::uint64_t{1} << 40;
// Not in the specification: TLBF v1 as this project decides it caps k, so that
// a forged header cannot make every query take billions of probes. with_rate
// never asks for more than 1075 (docs/format.md, "The range of k").
inline constexpr std::uint32_t MAX_K = std::uint32_t{1} << 16;

using ByteView = std::span<const std::uint8_t>;

// The probe positions of one item: g_i = ((h1 + i*h2) mod 2^64) mod m, with
// h1 = fnv1a64(item) and h2 = mix64(h1) | 1. next() returns g_0, g_1, ... in
// order, without limit; callers take k of them. Allocates nothing. The
// reduction mod m is Modulus's, which the tests hold to `%`.
class ProbeSequence {
 public:
  ProbeSequence(std::uint64_t h1, Modulus m) noexcept
      // odd h2 keeps probes apart when m is a power of two
      : h_(h1), h2_(TLBF_MUTANT(s02) ? mix64(h1) : mix64(h1) | 1U), m_(m) {}
  // Precondition: m >= 1.
  ProbeSequence(std::uint64_t h1, std::uint64_t m) noexcept : ProbeSequence(h1, Modulus(m)) {}
  // A placeholder, for arrays of sequences filled in later.
  ProbeSequence() noexcept : h_(0), h2_(1), m_(kOne) {}

  std::uint64_t next() noexcept {
    const std::uint64_t g = m_.reduce(h_);
    if (!TLBF_MUTANT(s07)) h_ += h2_;  // unsigned arithmetic wraps modulo 2^64, as the format requires
    return g;
  }

 private:
  static constexpr Modulus kOne{1};
  std::uint64_t h_;
  std::uint64_t h2_;
  Modulus m_;
};

// Same positions as a vector, for callers that need them all (the protocol's
// stateless positions_for, tests). Precondition: m >= 1.
std::vector<std::uint64_t> positions_for(std::uint64_t m, std::uint32_t k, ByteView item);

class Bloom {
 public:
  // A filter sized for n items at false-positive rate p: m = optimal_m(n, p),
  // k = optimal_k(m, n). BadParams unless n >= 1, 0 < p < 1 (so not NaN), and
  // m <= MAX_BITS.
  static Result<Bloom> with_rate(std::uint64_t n, double p);

  // An empty filter of m bits and k probes (the spec's `new`). BadParams unless
  // 1 <= m <= MAX_BITS and 1 <= k <= MAX_K, or if the bits cannot be allocated.
  static Result<Bloom> create(std::uint64_t m, std::uint32_t k);

  std::uint64_t m() const noexcept { return m_; }
  std::uint32_t k() const noexcept { return k_; }
  // Insert calls so far, plus the counts of filters merged in; saturates at 2^64 - 1.
  std::uint64_t n_inserted() const noexcept { return n_inserted_; }

  std::vector<std::uint64_t> bit_positions(ByteView item) const;
  std::vector<std::uint64_t> bit_positions(std::string_view item) const;

  // Sets the item's k bits and counts the call. Allocates nothing.
  void insert(ByteView item) noexcept;
  void insert(std::string_view item) noexcept;

  // True when all k of the item's bits are set. Allocates nothing.
  bool contains(ByteView item) const noexcept;
  bool contains(std::string_view item) const noexcept;

  // Batched: the same filter as insert on each item in turn, and the same
  // answers as contains on each (answers[i] for items[i]; answers must be at
  // least as long as items). Items are hashed four side by side and taken in
  // blocks whose memory accesses overlap: each round computes and prefetches
  // the next probe of every item still in play, and contains drops an item at
  // its first clear bit. For filters of at most 8 MiB contains probes item
  // after item instead, sixteen at once where the processor has AVX-512
  // (docs/performance.md, "Batched calls"). Allocates nothing.
  void insert_many(std::span<const ByteView> items) noexcept;
  void contains_many(std::span<const ByteView> items, std::span<bool> answers) const noexcept;

  // This filter becomes the bitwise OR of itself and other, and the counts add
  // (saturating). Mismatch, and no change, when m or k differ.
  Status union_with(const Bloom& other);

  // The number of set bits, at most m.
  std::uint64_t count_ones() const noexcept;

  // The 32-byte header followed by ceil(m/8) bytes of bits.
  std::vector<std::uint8_t> to_bytes() const;

  // The inverse of to_bytes, and nothing else: Format for any input that
  // to_bytes could not have written. Checks run in the order of
  // docs/format.md ("Reading"), and the length is checked before anything is
  // allocated, so a forged header costs nothing.
  static Result<Bloom> from_bytes(ByteView bytes);

  // The same checks and the same filter as from_bytes(ByteView), taking the
  // bits from `file` where they lie (the header is moved out of the way), so
  // that loading a large file needs no second copy of it.
  static Result<Bloom> from_bytes(BitArray&& file);

  // For a reader that must not read an unbounded file before refusing it:
  // checks 1 to 7 of from_bytes (all but the padding), which need only the
  // file's first 32 bytes (`header`, fewer when the file is shorter) and its
  // length, with the error from_bytes gives that file. When they pass, the
  // file is HEADER_LEN + ceil(m/8) bytes long.
  static Status check_header(ByteView header, std::uint64_t file_size);

  // Checks 1 to 6 of from_bytes on a file's first 32 bytes (short when
  // `header` has fewer) and the length a file with that header must have,
  // HEADER_LEN + ceil(m/8): how much to read of a file of unknown length.
  static Result<std::uint64_t> file_size_from_header(ByteView header);

  // The first 32 bytes of to_bytes: with bits(), all of it, without a copy.
  std::array<std::uint8_t, HEADER_LEN> header() const;

  // The bit array as stored: byte g/8, bit g%8 (least significant first).
  ByteView bits() const noexcept { return bits_; }

  friend bool operator==(const Bloom&, const Bloom&) = default;

 private:
  Bloom(std::uint64_t m, std::uint32_t k, std::uint64_t n_inserted, BitArray bits) noexcept;

  // The two ways of contains_many: item after item while the filter fits in
  // a cache (kCached in bloom.cpp), in rounds over blocks past that.
  void contains_in_cache(std::span<const ByteView> items, std::span<bool> answers) const noexcept;
  void contains_in_rounds(std::span<const ByteView> items, std::span<bool> answers) const noexcept;

  // Where bit g lives, to fetch ahead of reading or writing it.
  void prefetch(std::uint64_t g, bool for_write) const noexcept {
    if (TLBF_MUTANT(s09) && g / 8 >= bits_.size()) return;  // only a mutant's truncated file gets here
    if (for_write) {
      __builtin_prefetch(bits_.data() + g / 8, 1);
    } else {
      __builtin_prefetch(bits_.data() + g / 8, 0);
    }
  }

  // Bit g lives in byte g / 8 at bit g % 8, least significant first.
  static unsigned bit_in_byte(std::uint64_t g) noexcept {
    return static_cast<unsigned>(TLBF_MUTANT(s03) ? 7 - g % 8 : g % 8);
  }
  void check_in_range(std::uint64_t g) const noexcept {
    // Only a mutant that trusted a file's length can get here out of range:
    // it stops as a Rust implementation would panic, not with undefined behaviour.
    if (TLBF_MUTANT(s09) && g / 8 >= bits_.size()) std::abort();
  }
  bool bit_is_set(std::uint64_t g) const noexcept {
    check_in_range(g);
    return ((static_cast<unsigned>(bits_[g / 8]) >> bit_in_byte(g)) & 1U) != 0;
  }
  void set_bit(std::uint64_t g) noexcept {
    check_in_range(g);
    bits_[g / 8] = static_cast<std::uint8_t>(bits_[g / 8] | (1U << bit_in_byte(g)));
  }

  std::uint64_t m_;
  Modulus mod_;  // reduces mod m_ without dividing
  std::uint32_t k_;
  std::uint64_t n_inserted_;
  BitArray bits_;
};

// Number of bytes the bit array of an m-bit filter takes: ceil(m / 8).
constexpr std::uint64_t bit_array_len(std::uint64_t m) noexcept { return m / 8 + (m % 8 != 0); }

}  // namespace tlbf
