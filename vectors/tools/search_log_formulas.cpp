// Finds p where ln p computed another way lands two units in the last place
// from the correctly rounded ln p, and the m it gives at n = 3 * 10^18 is none
// of those the judge accepts (docs/format.md, section 7; the sizing vectors
// flagged LogFormula). Run by hand, not by a test: the log2 form needs about
// 10^8 draws (15 s here) for three finds. Its finds were committed in
// vectors/src/generate.cpp; check_correctly_rounded_log.py confirms each with
// a 60-digit log, so this search's own reference needs only to be a filter.
//
//   c++ -O2 vectors/tools/search_log_formulas.cpp -o /tmp/search && /tmp/search [FINDS]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace {

constexpr double LN2 = 0.6931471805599453;
constexpr double LN10 = 2.302585092994046;

std::int64_t bits_of(double x) {
  std::int64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// ln p rounded to a double from a long double log, or false where the long
// double lies within 4 of its units of a midpoint between two doubles (its
// rounding could then go either way).
bool rounded_log(double p, double& out) {
  const long double l = logl(static_cast<long double>(p));
  const double d = static_cast<double>(l);
  const long double slack = fabsl(l) * 4 * 1.0842021724855044e-19L;
  for (double other : {std::nextafter(d, INFINITY), std::nextafter(d, -INFINITY)}) {
    const long double mid = (static_cast<long double>(d) + other) / 2;
    if (fabsl(l - mid) < slack) return false;
  }
  out = d;
  return true;
}

std::uint64_t m_of(std::uint64_t n, double log_p) {
  return static_cast<std::uint64_t>(std::ceil((-static_cast<double>(n) * log_p) / (LN2 * LN2)));
}

}  // namespace

int main(int argc, char** argv) {
  const int wanted = argc > 1 ? std::atoi(argv[1]) : 3;
  constexpr std::uint64_t n = 3000000000000000000;  // p above 0.42 keeps m below 2^64
  const char* names[] = {"log2(p) * LN2", "log10(p) * LN10", "log1p(-(1 - p))"};
  int found[3] = {0, 0, 0};
  std::mt19937_64 draw(20261204);
  for (std::uint64_t i = 0; i < 4000000000 && (found[0] < wanted || found[1] < wanted || found[2] < wanted);
       ++i) {
    const double p = 0.42 + 0.58 * std::ldexp(static_cast<double>(draw() >> 11), -53);
    if (!(p > 0 && p < 1)) continue;
    const double forms[3] = {std::log2(p) * LN2, std::log10(p) * LN10, std::log1p(-(1 - p))};
    double reference = 0;
    bool have = false;
    for (int f = 0; f < 3; ++f) {
      if (found[f] >= wanted || std::llabs(bits_of(forms[f]) - bits_of(std::log(p))) < 2) continue;
      if (!have && !rounded_log(p, reference)) break;
      have = true;
      if (std::llabs(bits_of(forms[f]) - bits_of(reference)) != 2) continue;
      const std::uint64_t m = m_of(n, forms[f]);
      if (m == m_of(n, reference) || m == m_of(n, std::nextafter(reference, -1.0)) ||
          m == m_of(n, std::nextafter(reference, 1.0)))
        continue;
      std::printf("%-16s p = %.17g  m = %llu, the formula's m = %llu\n", names[f], p,
                  static_cast<unsigned long long>(m_of(n, reference)), static_cast<unsigned long long>(m));
      ++found[f];
    }
  }
  return 0;
}
