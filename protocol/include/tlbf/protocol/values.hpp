// The value syntax of line protocol v1 (docs/protocol.md, section 2): one
// reader and one writer for each kind of word. Readers return nullopt for a
// word that is not of their kind, so that callers answer err Protocol.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tlbf::protocol {

// Lines, "\n" included, are at most this long.
inline constexpr std::size_t MAX_LINE = std::size_t{64} << 20;

std::optional<std::uint64_t> read_u64(std::string_view word);
std::optional<std::uint32_t> read_u32(std::string_view word);
// Exactly 16 lowercase hex digits.
std::optional<std::uint64_t> read_hash(std::string_view word);
// Hex (either case), or "-" for no bytes.
std::optional<std::vector<std::uint8_t>> read_bytes(std::string_view word);
// True exactly when read_bytes(word) gives bytes, without making them.
bool is_bytes(std::string_view word);
// The grammar of section 2, then a correctly rounded conversion.
std::optional<double> read_real(std::string_view word);
std::optional<bool> read_bool(std::string_view word);
// 1 to 32 of [A-Za-z0-9_].
bool is_name(std::string_view word);

std::string write_hash(std::uint64_t hash);
std::string write_bytes(std::span<const std::uint8_t> bytes);  // lowercase; "-" when empty
std::string write_real(double x);                              // shortest round trip: 0.1, 1e-06, nan, inf

// True when every byte of `text` is printable ASCII, 0x20 to 0x7e.
bool all_printable(std::string_view text);

// Splits a request into words, or nullopt if it breaks the framing rules:
// empty, a byte outside 0x20..0x7e, or not exactly one space between words.
// A trailing "\r" must already have been removed.
std::optional<std::vector<std::string_view>> split_words(std::string_view line);

}  // namespace tlbf::protocol
