#include "tlbf/mutants/catalog.hpp"

namespace tlbf::mutants {

const std::vector<Mutant>& catalog() {
  static const std::vector<Mutant> mutants = {
      {"s01", "oracle/src/sizing.cpp", "optimal_m", "Flooring m instead of taking the ceiling",
       "  return saturating_cast<std::uint64_t>(std::ceil(ideal));",
       "  return saturating_cast<std::uint64_t>(std::floor(ideal));",
       "TLBF_MUTANT(s01) ? std::floor(ideal) : std::ceil(ideal)"},
      {"s02", "oracle/include/tlbf/bloom.hpp", "ProbeSequence::ProbeSequence", "Using mix64(h1) without forcing it odd",
       "      : h_(h1), h2_(mix64(h1) | 1U), m_(m) {}", "      : h_(h1), h2_(mix64(h1)), m_(m) {}",
       "h2_(TLBF_MUTANT(s02) ? mix64(h1) : mix64(h1) | 1U)"},
      {"s03", "oracle/include/tlbf/bloom.hpp", "Bloom::bit_in_byte", "Numbering bits from the most significant end",
       "    return static_cast<unsigned>(g % 8);", "    return static_cast<unsigned>(7 - g % 8);",
       "TLBF_MUTANT(s03) ? 7 - g % 8 : g % 8"},
      {"s04", "oracle/src/sizing.cpp", "optimal_k", "Truncating k instead of rounding",
       "      saturating_cast<std::uint32_t>(std::round(ideal));",
       "      saturating_cast<std::uint32_t>(std::trunc(ideal));",
       "TLBF_MUTANT(s04) ? std::trunc(ideal) : std::round(ideal)"},
      {"s05", "oracle/src/bloom.cpp", "Bloom::union_with", "Forgetting to add the counts in union",
       "  n_inserted_ = saturating_add(n_inserted_, other.n_inserted_);", "",
       "if (!TLBF_MUTANT(s05)) n_inserted_ = saturating_add(n_inserted_, other.n_inserted_);"},
      {"s06", "oracle/src/bloom.cpp", "Bloom::insert", "Setting fewer than k bits on insert",
       "  const std::uint32_t count = k_;", "  const std::uint32_t count = k_ - 1;",
       "TLBF_MUTANT(s06) ? k_ - 1 : k_", 2},
      {"s07", "oracle/include/tlbf/bloom.hpp", "ProbeSequence::next", "Dropping the i * h2 term",
       "    h_ += h2_;", "", "if (!TLBF_MUTANT(s07)) h_ += h2_;"},
      {"s08", "oracle/src/bloom.cpp", "Bloom::union_with", "AND instead of OR in union",
       "    bits_[i] = static_cast<std::uint8_t>(bits_[i] | other.bits_[i]);",
       "    bits_[i] = static_cast<std::uint8_t>(bits_[i] & other.bits_[i]);",
       "TLBF_MUTANT(s08) ? bits_[i] & other.bits_[i] : bits_[i] | other.bits_[i]"},
      {"s09", "oracle/src/bloom.cpp", "Bloom::from_bytes", "Trusting the length in from_bytes",
       "  if (body != want) {", "  if (false) {", "if (body != want && !TLBF_MUTANT(s09)) {", 3},
      {"s10", "oracle/src/hash.cpp", "fnv1a_step", "FNV-1 (multiply, then XOR) instead of FNV-1a",
       "  return (h ^ b) * FNV_PRIME;", "  return (h * FNV_PRIME) ^ b;",
       "TLBF_MUTANT(s10) ? (h * FNV_PRIME) ^ b : (h ^ b) * FNV_PRIME"},
  };
  return mutants;
}

const Mutant* find(std::string_view id) {
  for (const auto& m : catalog()) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

namespace {

std::string prefixed(const std::string& lines, char mark) {
  if (lines.empty()) return "";
  std::string out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t nl = lines.find('\n', start);
    out += mark + lines.substr(start, nl - start) + "\n";
    if (nl == std::string::npos) return out;
    start = nl + 1;
  }
}

std::size_t count_lines(const std::string& lines) {
  if (lines.empty()) return 0;
  std::size_t n = 1;
  for (char c : lines) n += c == '\n';
  return n;
}

}  // namespace

std::string unified_diff(const Mutant& m) {
  return "--- a/" + m.file + "\n+++ b/" + m.file + "\n@@ -1," + std::to_string(count_lines(m.original)) + " +1," +
         std::to_string(count_lines(m.mutated)) + " @@ " + m.function + ": " + m.id + " " + m.description + "\n" +
         prefixed(m.original, '-') + prefixed(m.mutated, '+');
}

}  // namespace tlbf::mutants
