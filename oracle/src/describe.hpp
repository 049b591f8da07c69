// Formatting for error messages: values are shown the way a person would type
// them back in (shortest round-trip decimals, bytes in hex).
#pragma once

#include <charconv>
#include <cstdint>
#include <span>
#include <string>

namespace tlbf::detail {

inline std::string shortest(double x) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof buf, x);
  return {buf, result.ptr};
}

inline std::string hex_bytes(std::span<const std::uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    if (!out.empty()) out += ' ';
    out += digits[b >> 4];
    out += digits[b & 0xFU];
  }
  return out;
}

}  // namespace tlbf::detail
