#include "tlbf/protocol/values.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdio>

#include "tlbf/hex.hpp"

namespace tlbf::protocol {
namespace {

bool all_digits(std::string_view word) {
  if (word.empty()) return false;
  for (char c : word) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

template <typename Int>
std::optional<Int> read_unsigned(std::string_view word) {
  if (!all_digits(word)) return std::nullopt;  // digits only: no sign, no space, not empty
  Int value = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;  // out of range
  return value;
}

// -? ( digits ( . digits* )? | . digits ) ( [eE] [+-]? digits )?
bool is_decimal_real(std::string_view w) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < w.size() && w[i] >= '0' && w[i] <= '9') ++i;
    return i - start;
  };
  if (i < w.size() && w[i] == '-') ++i;
  const std::size_t whole = digits();
  std::size_t fraction = 0;
  if (i < w.size() && w[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (whole == 0 && fraction == 0) return false;
  if (i < w.size() && (w[i] == 'e' || w[i] == 'E')) {
    ++i;
    if (i < w.size() && (w[i] == '+' || w[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == w.size();
}

}  // namespace

std::optional<std::uint64_t> read_u64(std::string_view word) { return read_unsigned<std::uint64_t>(word); }
std::optional<std::uint32_t> read_u32(std::string_view word) { return read_unsigned<std::uint32_t>(word); }

std::optional<std::uint64_t> read_hash(std::string_view word) {
  if (word.size() != 16) return std::nullopt;
  for (char c : word) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  }
  std::uint64_t value = 0;
  std::from_chars(word.data(), word.data() + word.size(), value, 16);
  return value;
}

bool is_bytes(std::string_view word) { return word == "-" || (!word.empty() && is_hex(word)); }

std::optional<std::vector<std::uint8_t>> read_bytes(std::string_view word) {
  if (word == "-") return std::vector<std::uint8_t>{};
  if (word.empty()) return std::nullopt;
  return from_hex(word);
}

std::optional<double> read_real(std::string_view word) {
  if (word == "nan") return std::nan("");
  if (word == "inf") return HUGE_VAL;
  if (word == "-inf") return -HUGE_VAL;
  if (!is_decimal_real(word)) return std::nullopt;
  double value = 0;
  // from_chars is correctly rounded; out-of-range magnitudes report an error,
  // but a decimal too large or too small for a double still names a double.
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return std::strtod(std::string(word).c_str(), nullptr);  // +-HUGE_VAL or a signed zero/subnormal
  }
  if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return value;
}

std::optional<bool> read_bool(std::string_view word) {
  if (word == "true") return true;
  if (word == "false") return false;
  return std::nullopt;
}

bool is_name(std::string_view word) {
  if (word.empty() || word.size() > 32) return false;
  for (char c : word) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string write_hash(std::uint64_t hash) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

std::string write_bytes(std::span<const std::uint8_t> bytes) {
  return bytes.empty() ? std::string("-") : to_hex(bytes);
}

std::string write_real(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof buf, x);
  return {buf, result.ptr};
}

bool all_printable(std::string_view text) {
  // Eight bytes a step, with no branch and no early exit: a line may be 64 MiB
  // long, and a byte loop was a fifth of the time tlbf serve took for one of
  // 16 MiB. Each term's high bits flag bytes: the word's own for bytes above
  // 0x7f, a borrow for bytes below 0x20 (exact as long as every byte below
  // 0x80 is looked at, which the first term covers), a borrow of w ^ 0x7f..
  // for bytes equal to 0x7f.
  constexpr std::uint64_t kOnes = 0x0101010101010101, kHighs = 0x8080808080808080;
  std::uint64_t flagged = 0;
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, text.data() + i, 8);
    const std::uint64_t del = w ^ (kOnes * 0x7f);
    flagged |= w | ((w - kOnes * 0x20) & ~w) | ((del - kOnes) & ~del);
  }
  bool printable = (flagged & kHighs) == 0;
  for (; i < text.size(); ++i) printable &= static_cast<unsigned char>(text[i] - 0x20) <= 0x7e - 0x20;
  return printable;
}

std::optional<std::vector<std::string_view>> split_words(std::string_view line) {
  if (line.empty() || !all_printable(line)) return std::nullopt;
  std::vector<std::string_view> words;
  std::size_t start = 0;
  for (;;) {
    const std::size_t space = line.find(' ', start);
    const std::string_view word = line.substr(start, space - start);
    if (word.empty()) return std::nullopt;  // leading, trailing or double space
    words.push_back(word);
    if (space == std::string_view::npos) return words;
    start = space + 1;
  }
}

}  // namespace tlbf::protocol
