#include "tlbf/hex.hpp"

#include <array>
#include <cstdint>

namespace tlbf {
namespace {

// A hex digit's value for every byte, -1 for bytes that are not one: one
// load a digit, as a request may carry 64 MiB of them.
constexpr std::array<std::int8_t, 256> kDigitValues = [] {
  std::array<std::int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int c = '0'; c <= '9'; ++c) table[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c)
    table[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c)
    table[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c - 'A' + 10);
  return table;
}();

int digit_value(char c) noexcept { return kDigitValues[static_cast<unsigned char>(c)]; }

}  // namespace

int hex_digit(char c) noexcept { return digit_value(c); }

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 0xFU];
  }
  return out;
}

bool is_hex(std::string_view text) {
  if (text.size() % 2 != 0) return false;
  int bad = 0;  // as in from_hex: one test at the end
  for (const char c : text) bad |= digit_value(c);
  return bad >= 0;
}

std::optional<std::vector<std::uint8_t>> from_hex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::vector<std::uint8_t> out(text.size() / 2);
  int bad = 0;  // any digit's -1 sets the sign bit: one test at the end, no branch a digit
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = digit_value(text[2 * i]);
    const int lo = digit_value(text[2 * i + 1]);
    bad |= hi | lo;
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  if (bad < 0) return std::nullopt;
  return out;
}

}  // namespace tlbf
