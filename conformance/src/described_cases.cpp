#include "tlbf/conformance/described_cases.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string_view>

#include "header_files.hpp"
#include "tlbf/conformance/judge.hpp"
#include "tlbf/conformance/rule_cases.hpp"
#include "tlbf/protocol/commands.hpp"
#include "tlbf/protocol/oracle_session.hpp"

namespace tlbf::conformance {
namespace {

using Steps = std::vector<DraftStep>;
__extension__ using u128 = unsigned __int128;  // 2^64 and 2^64 + 1, as words

std::string decimal(u128 v) {
  if (v == 0) return "0";
  std::string out;
  for (; v > 0; v /= 10) out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return out;
}

// ---- the grammar ----------------------------------------------------------

// A value type: a word of it, and the requests that put a word in its place
// where nothing else of the request can be wrong, so that err Protocol
// answers exactly the words the grammar (and the field's range) refuses.
struct ValueType {
  std::string_view type;  // the line of the docs' grammar block
  std::string_view slug;  // the case names' part: a type may be read by more than one field
  std::string base;
  bool fixed_length;  // insertions only change the length: left to the length cases
  std::function<Steps(const std::string&)> requests;
};

const std::vector<ValueType>& value_types() {
  static const std::vector<ValueType> types = {
      // m is a u64: every insertion of a digit still fits, and positions_for
      // needs no filter. 0 and m above 2^40 are BadParams, not Protocol.
      {"integer", "integer_u64", "20", false,
       [](const std::string& w) { return Steps{ask("positions_for " + w + " 3 61")}; }},
      // k is a u32; every word made from "12" stays at most 65536, where
      // positions_for's answer is fixed (above it, StrictKBound allows more).
      {"integer", "integer_u32", "12", false,
       [](const std::string& w) { return Steps{ask("positions_for 1000 " + w + " 61")}; }},
      {"hash", "hash", "0123456789abcdef", true,
       [](const std::string& w) { return Steps{ask("mix64 " + w)}; }},
      {"bytes", "bytes", "6f64", false, [](const std::string& w) { return Steps{ask("fnv1a64 " + w)}; }},
      // with_rate, not optimal_m: its p outside (0, 1) is BadParams, where
      // optimal_m's answer would be open (OutOfDomain).
      {"real", "real", "0.25", false,
       [](const std::string& w) { return Steps{ask("with_rate gr_r 4 " + w)}; }},
      {"name", "name", "n_7a", false,
       [](const std::string& w) {
         return Steps{ask("new " + w + " 8 1"), ask("info " + w), ask("drop " + w)};
       }},
  };
  return types;
}

// Where a grammar case puts each printable character in the base word.
struct Position {
  std::string_view name;
  bool inserts;  // changes the length
  std::function<std::string(const std::string&, char)> apply;
};

const std::vector<Position>& positions() {
  static const std::vector<Position> list = {
      {"first", false,
       [](std::string w, char c) {
         w.front() = c;
         return w;
       }},
      {"middle", false,
       [](std::string w, char c) {
         w[w.size() / 2] = c;
         return w;
       }},
      {"last", false,
       [](std::string w, char c) {
         w.back() = c;
         return w;
       }},
      {"before", true, [](const std::string& w, char c) { return c + w; }},
      {"inside", true,
       [](std::string w, char c) {
         w.insert(w.begin() + static_cast<long>(w.size() / 2), c);
         return w;
       }},
      {"after", true, [](const std::string& w, char c) { return w + c; }},
      {"alone", true, [](const std::string&, char c) { return std::string(1, c); }},
  };
  return list;
}

// The productions of a type combined: for reals every sign, whole part, dot,
// fraction and exponent (each present, absent or malformed), the word
// spellings in every case; for bytes the empty string's spelling next to
// signs and digits; for integers signs, prefixes and suffixes of other
// languages' literals.
std::vector<std::string> forms(std::string_view type) {
  std::vector<std::string> out;
  if (type == "real") {
    for (const char* sign : {"", "-", "+"}) {
      for (const char* whole : {"", "0", "25"}) {
        for (const char* dot : {"", "."}) {
          for (const char* fraction : {"", "5", "05"}) {
            for (const char* exponent :
                 {"", "e", "E", "e1", "E-1", "e+1", "e-01", "e1.5", "ee1", "e-", "e+"}) {
              out.push_back(std::string(sign) + whole + dot + fraction + exponent);
            }
          }
        }
      }
    }
    for (const char* word : {"nan", "inf"}) {
      for (int mask = 0; mask < 8; ++mask) {
        std::string w = word;
        for (int i = 0; i < 3; ++i) {
          if (mask >> i & 1)
            w[static_cast<std::size_t>(i)] = static_cast<char>(w[static_cast<std::size_t>(i)] - 32);
        }
        for (const char* sign : {"", "-", "+"}) out.push_back(sign + w);
      }
    }
    for (const char* word :
         {"infinity", "Infinity", "-Infinity", "1e999", "-1e999", "1e-999", "4.9e-324",
          "1.7976931348623157e308", "0x1p-2", "0X.8", "1_0", "0.2_5", "1d", "1f", "0.25f", "0,25", "..5",
          "5..", "0.2.5", "nan(1)", "nan()", "inf(", "nan0", "infe1",
          // exponents past every integer width: p = 0 or inf, where an exponent kept in
          // an int32 (or an int64) wraps to a small one
          "1e-4294967297", "1e4294967296", "1e-2147483649", "1e2147483648", "1e-18446744073709551617",
          "0.1e+0000000000000000000000001", "1e-00000000000000000000000000001"}) {
      out.push_back(word);
    }
  } else if (type == "bytes") {
    for (const char* word : {"-", "--", "-0", "0-", "-00", "00-", "+0", "0+", "+00", "-f", "+f", "f+", "0x00",
                             "x0", "0X", "\\x", "%00", "00%", "0 0"}) {
      if (std::string_view(word).find(' ') == std::string_view::npos) out.push_back(word);
    }
  } else if (type == "integer") {
    for (const char* sign : {"", "+", "-"}) {
      for (const char* prefix : {"", "0", "0x", "0X", "0b", "0o", "#"}) {
        for (const char* suffix : {"", "u", "U", "L", "ul", "n", ".", ".0", "e0", "E1", "_0", "i32"}) {
          out.push_back(std::string(sign) + prefix + "12" + suffix);
        }
      }
    }
  } else if (type == "hash") {
    for (const char* word :
         {"+123456789abcdef", "-123456789abcdef", "0x23456789abcdef", "123456789abcdef ", "0123456789ABCDEF",
          "0123456789abcdeF", "00000000000000000", "000000000000000"}) {
      if (std::string_view(word).find(' ') == std::string_view::npos) out.push_back(word);
    }
  } else if (type == "name") {
    for (const char* word :
         {"a", "_", "0", "__", "a$", "$a", "a-b", "a.b", "a:b", "a/b", "a\\b", "a@b", "a+b", "a#b"})
      out.push_back(word);
  }
  return out;
}

struct Made {
  Case c;
  std::vector<std::string> words;
};

// The case of one type and position (or the type's forms), and the words it sends.
std::vector<Made> made_grammar_cases() {
  std::vector<Made> out;
  const std::string chars = printable_characters();
  for (const auto& t : value_types()) {
    auto make = [&](std::string name, const std::vector<std::string>& words) {
      Steps steps;
      for (const auto& w : words) {
        for (auto& s : t.requests(w)) steps.push_back(std::move(s));
      }
      if (t.slug == "real") steps.push_back(ask("drop gr_r"));
      Case c = case_from_draft(std::move(name), std::move(steps));
      mark_by_judge(c);
      out.push_back({std::move(c), words});
    };
    for (const auto& p : positions()) {
      if (p.inserts && t.fixed_length && p.name != "alone") continue;
      std::vector<std::string> words;
      for (char ch : chars) words.push_back(p.apply(t.base, ch));
      make("protocol/grammar/" + std::string(t.slug) + "/" + std::string(p.name), words);
    }
    if (t.slug != "integer_u32") make("protocol/grammar/" + std::string(t.slug) + "/forms", forms(t.type));
  }
  return out;
}

}  // namespace

std::string printable_characters() {
  std::string out;
  for (char c = 0x21; c <= 0x7e; ++c) out.push_back(c);
  return out;
}

void mark_by_judge(Case& c) {
  Judge judge;
  std::set<std::string> flags;
  protocol::OracleSession oracle;
  for (const auto& step : c.steps) {
    judge.expect(step.request);
    if (!judge.zone().empty()) flags.insert(judge.zone());
    judge.judge(judge.oracle_answer());
  }
  c.acceptable = !flags.empty();
  c.why.clear();
  for (const auto& f : flags) c.why += (c.why.empty() ? "" : " ") + f;
}

std::vector<Case> grammar_cases() {
  std::vector<Case> out;
  for (auto& made : made_grammar_cases()) out.push_back(std::move(made.c));
  return out;
}

std::vector<GrammarWord> grammar_words() {
  std::vector<GrammarWord> out;
  const auto& types = value_types();
  for (auto& made : made_grammar_cases()) {
    const std::string slug = made.c.name.substr(17, made.c.name.find('/', 17) - 17);
    std::string type;
    for (const auto& t : types) {
      if (t.slug == slug) type = t.type;
    }
    // Each word's requests are consecutive steps: the first of them tells.
    std::size_t step = 0;
    for (const auto& t : types) {
      if (t.slug != slug) continue;
      for (const auto& w : made.words) {
        const std::size_t count = t.requests(w).size();
        GrammarWord g{type, w, made.c.name, made.c.steps[step].pattern != "err Protocol"};
        out.push_back(std::move(g));
        step += count;
      }
    }
  }
  return out;
}

// ---- integer widths -------------------------------------------------------

namespace {

// 2^b - 1, 2^b and 2^b + 1 for each boundary b up to `top` bits, and the
// values a u64 rounds in two steps (2^b + 2^(b-53) + 1: nearest is up, but
// halving first and converting rounds down), as decimal words.
std::vector<std::string> boundary_words(int top, bool with_rounding) {
  std::vector<std::string> out;
  for (int b : kWidthBoundaries) {
    if (b > top) continue;
    const u128 p = u128{1} << b;
    for (u128 v : {p - 1, p, p + 1}) out.push_back(decimal(v));
    if (with_rounding && b > 53 && b < 64) out.push_back(decimal(p + (u128{1} << (b - 53)) + 1));
  }
  return out;
}

Case judged(std::string name, Steps steps) {
  Case c = case_from_draft(std::move(name), std::move(steps));
  mark_by_judge(c);
  return c;
}

// m: positions_for reaches every value without a filter (BadParams above 2^40).
Case width_case_m() {
  const auto every = boundary_words(64, true);  // 2^64 and 2^64 + 1 are err Protocol in a u64 field
  Steps m;
  for (const auto& w : every) {
    m.push_back(ask("positions_for " + w + " 3 61"));
    m.push_back(ask("predicted_fp_rate " + w + " 3 1000"));
    m.push_back(ask("optimal_k " + w + " 18446744073709551615"));
  }
  for (const auto& w : boundary_words(16, false)) {
    m.push_back(ask("new wm " + w + " 2"));
    m.push_back(ask("info wm"));
    m.push_back(ask("insert wm 61"));
    m.push_back(ask("count_ones wm"));
  }
  m.push_back(ask("drop wm"));
  return judged("protocol/integers/widths/m", std::move(m));
}

// k: a u32. The rate reaches every width; positions_for and new reach 65536,
// above which StrictKBound leaves their answers open.
Case width_case_k() {
  Steps k;
  for (const auto& w : boundary_words(64, false)) k.push_back(ask("predicted_fp_rate 1000000 " + w + " 5"));
  for (const auto& w : boundary_words(15, false)) k.push_back(ask("positions_for 1000 " + w + " 61"));
  for (const auto& w : boundary_words(16, false)) {
    if (std::stoull(w) > 65536) continue;
    k.push_back(ask("new wk 64 " + w));
    k.push_back(ask("info wk"));
  }
  k.push_back(ask("drop wk"));
  return judged("protocol/integers/widths/k", std::move(k));
}

// n: a u64, in the sizing functions, with_rate (small n only: a large one
// makes a large filter) and the header's n_inserted.
Case width_case_n() {
  const auto every = boundary_words(64, true);  // 2^64 and 2^64 + 1 are err Protocol in a u64 field
  Steps n;
  for (const auto& w : every) {
    n.push_back(ask("optimal_m " + w + " 0.5"));
    n.push_back(ask("optimal_k 1000000 " + w));
    n.push_back(ask("predicted_fp_rate 18446744073709551615 1 " + w));
  }
  for (const auto& w : boundary_words(16, false)) {
    n.push_back(ask("with_rate wn " + w + " 0.5"));
    n.push_back(ask("info wn"));
  }
  n.push_back(ask("drop wn"));
  return judged("protocol/integers/widths/n", std::move(n));
}

// n_inserted: any u64 from a file, then insert carries (and saturates at 2^64 - 1).
Case width_case_n_inserted() {
  Steps counts;
  for (int b : kWidthBoundaries) {
    const u128 p = u128{1} << b;
    for (u128 v : {p - 1, p, p + 1}) {
      if (v > ~std::uint64_t{0}) continue;
      Header h;
      h.n = static_cast<std::uint64_t>(v);
      counts.push_back(ask("from_bytes wc " + file_hex(h)));
      counts.push_back(ask("info wc"));
      counts.push_back(ask("insert wc 61"));
      counts.push_back(ask("info wc"));
    }
  }
  // Counts added by union across each width (below 2^64 - 1, where the sum is
  // fixed): a carry lost between 32-bit halves, a signed overflow test.
  for (int b : kWidthBoundaries) {
    if (b > 63) continue;
    const std::uint64_t p = std::uint64_t{1} << b;
    for (auto [x, y] : {std::pair{p - 1, std::uint64_t{1}}, std::pair{p / 2, p / 2}, std::pair{p - 1, p}}) {
      Header hx, hy;
      hx.n = x;
      hy.n = y;
      counts.push_back(ask("from_bytes wc " + file_hex(hx)));
      counts.push_back(ask("from_bytes wd " + file_hex(hy)));
      counts.push_back(ask("union wc wd"));
      counts.push_back(ask("info wc"));
    }
  }
  counts.push_back(ask("drop wd"));
  counts.push_back(ask("drop wc"));
  return judged("protocol/integers/widths/n_inserted", std::move(counts));
}

// Positions: in filters of m just past each boundary up to 2^40, so that
// most positions need every bit of the width (a u32 position wraps).
Case width_case_positions() {
  Steps pos;
  for (int b : {7, 8, 15, 16, 31, 32, 40}) {
    const std::string mw = decimal((u128{1} << b) + 1);
    for (const char* item : {"61", "636174", "646f67", "00"})
      pos.push_back(ask("positions_for " + mw + " 7 " + item));
  }
  // Byte indexes past 2^16 (g / 8 kept in 16 bits): a filter of 2^20 + 1
  // bits, its file read back, and every item looked up in the copy.
  {
    const char* items[] = {"61", "636174", "646f67", "62697264", "00", "01", "02", "03"};
    std::vector<std::string> made = {"new wp 1048577 3"};
    for (const char* item : items) made.push_back(std::string("insert wp ") + item);
    protocol::OracleSession oracle;
    for (const auto& r : made) oracle.handle(r);
    const std::string file = oracle.handle("to_bytes wp").substr(3);
    for (const auto& r : made) pos.push_back(ask(r));
    pos.push_back(ask("to_bytes wp"));
    pos.push_back(ask("from_bytes wq " + file));
    for (const char* item : items) pos.push_back(ask(std::string("contains wq ") + item));
    pos.push_back(ask("count_ones wq"));
    pos.push_back(ask("drop wp"));
    pos.push_back(ask("drop wq"));
  }
  return judged("protocol/integers/widths/positions", std::move(pos));
}

// The answers themselves: optimal_k's k near each width up to its u32
// saturation, and optimal_m's m near each width up to 2^64.
Case width_case_answers() {
  Steps answers;
  for (int b : kWidthBoundaries) {
    if (b > 32) break;
    for (std::int64_t d : {-2, -1, 0, 1, 2}) {
      const double target = std::ldexp(1.0, b) + static_cast<double>(d);
      const auto m_for = static_cast<std::uint64_t>(std::ceil(target / std::log(2.0) * 1000.0));
      answers.push_back(ask("optimal_k " + std::to_string(m_for) + " 1000"));
    }
  }
  for (int b : kWidthBoundaries) {
    for (double f : {0.999999, 1.0, 1.000001}) {
      const double items = std::floor(std::ldexp(1.0, b) * f * std::log(2.0));
      if (items < 1 || items >= 1.8e19) continue;
      answers.push_back(ask("optimal_m " + decimal(static_cast<u128>(items)) + " 0.5"));
    }
  }
  return judged("protocol/integers/widths/answers", std::move(answers));
}

}  // namespace

std::vector<Case> width_cases() {
  std::vector<Case> out;
  out.push_back(width_case_m());
  out.push_back(width_case_k());
  out.push_back(width_case_n());
  out.push_back(width_case_n_inserted());
  out.push_back(width_case_positions());
  out.push_back(width_case_answers());
  return out;
}

// ---- identity ---------------------------------------------------------------

namespace {}  // namespace

const std::vector<NameCollision>& name_collisions() {
  static const std::vector<NameCollision> list = {
      {"java_hashcode", "Aa", "BB"},
      {"java_hashcode_long", "AaAa", "BBBB"},
      {"djb2", "ab", "bA"},
      {"fnv1a_32", "feGtf", "fy0pa"},
      {"fnv1a_64_low_32_bits", "gadp_q", "gaPbaa"},
      {"sum_of_bytes", "ad", "bc"},
  };
  return list;
}

std::vector<Case> identity_cases() {
  std::vector<Case> out;
  for (const auto& c : name_collisions()) {
    const std::string a = c.a, b = c.b;
    out.push_back(case_from_draft(
        std::string("state/identity/names_colliding_in_") + c.hash,
        {ask("new " + a + " 64 3"), ask("new " + b + " 128 2"), ask("insert " + a + " 61"), ask("info " + a),
         ask("info " + b), ask("contains " + b + " 61"), ask("count_ones " + b), ask("drop " + a),
         ask("info " + a), ask("info " + b), ask("drop " + b)}));
  }
  // Two filters with the same bits and count, under different names: a union
  // of the two is not a union of one with itself, yet adds both counts, and
  // changes the first only.
  out.push_back(
      case_from_draft("state/identity/union_of_equal_contents",
                      {ask("new ec_a 64 3"), ask("new ec_b 64 3"), ask("insert ec_a 61"),
                       ask("insert ec_b 61"), ask("union ec_a ec_b"), ask("info ec_a"), ask("info ec_b"),
                       ask("union ec_b ec_a"), ask("info ec_b"), ask("info ec_a"), ask("insert ec_a 62"),
                       ask("contains ec_b 62"), ask("to_bytes ec_b"), ask("drop ec_a"), ask("drop ec_b")}));
  // Two empty filters, equal in every byte, still two filters.
  out.push_back(
      case_from_draft("state/identity/empty_filters_are_distinct",
                      {ask("new ee_a 64 3"), ask("new ee_b 64 3"), ask("union ee_a ee_b"),
                       ask("insert ee_a 61"), ask("contains ee_b 61"), ask("info ee_b"),
                       ask("union ee_b ee_b"), ask("info ee_a"), ask("drop ee_a"), ask("drop ee_b")}));
  // Every shape of union F G: itself, another of the same m and k, another m
  // with the same byte length, another k, another of both.
  out.push_back(
      case_from_draft("state/identity/union_shapes", {ask("new us_f 20 3"),      ask("insert us_f 636174"),
                                                      ask("new us_same 20 3"),   ask("insert us_same 646f67"),
                                                      ask("new us_m 24 3"),      ask("new us_k 20 4"),
                                                      ask("new us_both 64 5"),   ask("union us_f us_f"),
                                                      ask("info us_f"),          ask("union us_f us_same"),
                                                      ask("info us_f"),          ask("to_bytes us_f"),
                                                      ask("union us_f us_m"),    ask("union us_f us_k"),
                                                      ask("union us_f us_both"), ask("union us_m us_f"),
                                                      ask("info us_f"),          ask("to_bytes us_f"),
                                                      ask("drop us_f"),          ask("drop us_same"),
                                                      ask("drop us_m"),          ask("drop us_k"),
                                                      ask("drop us_both")}));
  // Large k in every command that takes one or makes one, and unions of
  // filters of equal large k (a k compared by reference is equal only while
  // small; Java caches Integer objects from -128 to 127).
  Steps large;
  for (const char* k : {"127", "128", "129", "1000", "65535", "65536"}) {
    const std::string ks = k;
    large.push_back(ask("new lk_a 64 " + ks));
    large.push_back(ask("new lk_b 64 " + ks));
    large.push_back(ask("insert lk_b 61"));
    large.push_back(ask("union lk_a lk_b"));
    large.push_back(ask("info lk_a"));
    large.push_back(ask("contains lk_a 61"));
    large.push_back(ask("from_bytes lk_c " + [&] {
      Header h;
      h.m = 64;
      h.k = std::stoull(ks);
      h.bit_bytes = 8;
      return file_hex(h);
    }()));
    large.push_back(ask("union lk_c lk_b"));
    large.push_back(ask("info lk_c"));
    large.push_back(ask("to_bytes lk_c"));
    large.push_back(ask("predicted_fp_rate 64 " + ks + " 1"));
  }
  for (const char* name : {"lk_a", "lk_b", "lk_c"}) large.push_back(ask(std::string("drop ") + name));
  out.push_back(case_from_draft("state/identity/large_k_everywhere", std::move(large)));
  return out;
}

// ---- header edges ---------------------------------------------------------

namespace {

// m above 2^40 in files whose magic, version, k and reserved are right and
// whose length is what a length computed in wrapping arithmetic expects, so
// that only the bound on m refuses them (docs/format.md, section 10, check
// 4, before the length). The length a right computation expects, 32 +
// ceil(m / 8), is 2^37 bytes and more for every such m, far beyond a line
// (docs/check.md, "Known limits"). Each answer is stated, not asked: the
// bound refuses the file (err Format), and a refused file makes no filter.
Steps wrapped_lengths_of_refused_m() {
  constexpr std::uint64_t kU64Max = ~std::uint64_t{0};
  const std::vector<std::pair<std::uint64_t, std::size_t>> files = {
      // (m + 7) / 8 in u64 wraps to 0 for m from 2^64 - 7 up: 32 bytes.
      {kU64Max - 6, 0},
      {kU64Max - 5, 0},
      {kU64Max - 4, 0},
      {kU64Max - 3, 0},
      {kU64Max - 2, 0},
      {kU64Max - 1, 0},
      {kU64Max, 0},
      // m cut to a u32 is 2^32 - 1, where (m + 7) / 8 in u32 wraps to 0; and
      // (m + 7) / 8 in u64, 2^38, kept in a u32 is 0 too: 32 bytes.
      {(std::uint64_t{1} << 41) - 1, 0},
      // m / 8 + 32 and (m + 7) / 8 computed in u64 and kept in a u32:
      // 2^40 + 32 is 32 and 2^40 is 0; for 2^43 + 8, 33 and 1.
      {std::uint64_t{1} << 43, 0},
      {(std::uint64_t{1} << 43) + 8, 1},
      // The bound plus one, with its right length kept in a u32: 32 + 2^37 + 1
      // is 33. Its right length in full cannot be sent.
      {(std::uint64_t{1} << 40) + 1, 1}};
  Steps out;
  for (const auto& [m, bit_bytes] : files) {
    Header h;
    h.m = m;
    h.bit_bytes = bit_bytes;
    out.push_back({"from_bytes he_m " + file_hex(h), "err Format"});
    out.push_back({"info he_m", "err NoSuchFilter"});
  }
  return out;
}

using HeaderFiles = std::vector<std::pair<std::string, Header>>;

// Refused for their padding or their length alone.
void length_and_padding_files(HeaderFiles& files) {
  const Header good;
  // Padding: every bit past m in the last byte, alone, for m = 1, 5 and 20.
  for (std::uint64_t m : {1ull, 5ull, 20ull}) {
    for (std::uint64_t bit = m % 8; bit < 8; ++bit) {
      Header h = good;
      h.m = m;
      h.bit_bytes = static_cast<std::size_t>((m + 7) / 8);
      h.last_byte = static_cast<std::uint8_t>(1u << bit);
      files.emplace_back("padding", h);
    }
  }
  // Length: a byte short and a byte long of ceil(m / 8), for m = 8, 9 and 64.
  for (std::uint64_t m : {8ull, 9ull, 64ull}) {
    for (long d : {-1L, 1L}) {
      Header h = good;
      h.m = m;
      h.bit_bytes = static_cast<std::size_t>(static_cast<long>((m + 7) / 8) + d);
      files.emplace_back("length", h);
    }
  }
  // Lengths a u32 byte count wraps to: ceil(m / 8) is 2^32 and 2^32 + 1.
  for (std::uint64_t m : {std::uint64_t{1} << 35, (std::uint64_t{1} << 35) + 8}) {
    Header h = good;
    h.m = m;
    h.bit_bytes = static_cast<std::size_t>(((m + 7) / 8) & 0xffffffff);
    files.emplace_back("length", h);
  }
}

// The magic: each of its four bytes changed, the other three right.
Steps magic_steps() {
  const Header good;
  Steps magic;
  for (int at = 0; at < 4; ++at) {
    for (int value : {0x00, 0x20, 0x74, 0x6c, 0xff}) {
      std::string hex = file_hex(good);
      char digits[3];
      std::snprintf(digits, sizeof digits, "%02x", value);
      if (hex.substr(static_cast<std::size_t>(2 * at), 2) == digits) continue;
      hex.replace(static_cast<std::size_t>(2 * at), 2, digits);
      magic.push_back(ask("from_bytes he_magic " + hex));
      magic.push_back(ask("info he_magic"));
    }
  }
  return magic;
}

}  // namespace

std::vector<Case> header_edge_cases() {
  // Each refused value of each field in a file whose every other field and
  // whose length are right, so that no other check can refuse it first; for
  // m above 2^40, whose right length is 2^37 bytes and more, the lengths
  // that wrapping arithmetic takes for right (wrapped_lengths_of_refused_m).
  HeaderFiles files;
  const Header good;  // m = 8, k = 1: one byte of bits
  for (std::uint64_t v : {0ull, 2ull, 0x100ull, 0x10000ull, 0x01000001ull, 0xffffffffull}) {
    Header h = good;
    h.version = v;
    files.emplace_back("version", h);
  }
  for (std::uint64_t v : {1ull, 0x80ull, 0x100ull, 0x10000ull, 0x80000000ull, 0xffffffffull}) {
    Header h = good;
    h.reserved = v;
    files.emplace_back("reserved", h);
  }
  {
    Header m0 = good;
    m0.m = 0;
    m0.bit_bytes = 0;
    files.emplace_back("m", m0);
    Header k0 = good;
    k0.k = 0;
    files.emplace_back("k", k0);
  }
  length_and_padding_files(files);
  std::map<std::string, Steps> by_field;
  for (const auto& [field, h] : files) {
    Steps& steps = by_field[field];
    steps.push_back(ask("from_bytes he_" + field + " " + file_hex(h)));
    steps.push_back(ask("info he_" + field));
  }
  for (auto& step : wrapped_lengths_of_refused_m()) by_field["m"].push_back(std::move(step));
  by_field["magic"] = magic_steps();
  std::vector<Case> out;
  for (auto& [field, steps] : by_field)
    out.push_back(judged("format/header/refused_alone/" + field, std::move(steps)));
  return out;
}

// ---- the order of errors ----------------------------------------------------

namespace {

enum class Arg { Name, Existing, U64, U32, Real, Bytes, File, Hash, Other };

// Each command's arguments (the protocol's command table), with a good word
// for each: a command added to the table gets its error-order cases here.
struct CommandShape {
  std::string word;
  std::vector<std::pair<Arg, std::string>> args;
};

std::pair<Arg, std::string> shape_of(protocol::Arg arg, const protocol::Command& command,
                                     std::size_t filters_before) {
  switch (arg) {
    // The bytes of a command that makes a filter from them are a file.
    case protocol::Arg::Bytes:
      return command.effect == protocol::Effect::Creates ? std::pair{Arg::File, std::string()}
                                                         : std::pair{Arg::Bytes, std::string("61")};
    case protocol::Arg::Hash:
      return {Arg::Hash, "0000000000000001"};
    case protocol::Arg::U64:
      return {Arg::U64, "64"};
    case protocol::Arg::U32:
      return {Arg::U32, "3"};
    case protocol::Arg::Real:
      return {Arg::Real, "0.1"};
    case protocol::Arg::NewName:
      return {Arg::Name, "eo_new"};
    case protocol::Arg::Filter:
      return {Arg::Existing, filters_before == 0 ? "eo_f" : "eo_g"};
  }
  return {Arg::Other, ""};
}

const std::vector<CommandShape>& command_shapes() {
  static const std::vector<CommandShape> shapes = [] {
    std::vector<CommandShape> out;
    for (const auto& command : protocol::commands()) {
      if (command.args.empty()) continue;  // hello: no argument to get wrong
      CommandShape shape{std::string(command.word), {}};
      std::size_t filters = 0;
      for (const auto arg : command.args) {
        shape.args.push_back(shape_of(arg, command, filters));
        filters += arg == protocol::Arg::Filter;
      }
      out.push_back(std::move(shape));
    }
    return out;
  }();
  return shapes;
}

// The ways an argument of each kind can be wrong: its syntax or range of type
// (Protocol), a filter that does not exist (NoSuchFilter), a value that makes
// no filter (BadParams, Format, Mismatch; the sizing functions have none that
// is fixed, see OutOfDomain).
std::vector<std::string> faults(Arg arg, std::string_view command) {
  const protocol::Command* row = protocol::command_named(command);
  const bool sizing = row != nullptr && row->capability == protocol::Capability::Sizing;
  switch (arg) {
    case Arg::Name:
      return {"a-b", "n$"};
    case Arg::Existing:
      return {"a-b", "absent_eo", "eo_m"};  // eo_m: another m, for union's Mismatch
    case Arg::U64:
      return sizing ? std::vector<std::string>{"x1", "18446744073709551616"}
                    : std::vector<std::string>{"x1", "18446744073709551616", "0"};
    case Arg::U32:
      return sizing ? std::vector<std::string>{"+3", "4294967296"}
                    : std::vector<std::string>{"+3", "4294967296", "0"};
    case Arg::Real:
      return sizing ? std::vector<std::string>{"0.1x"} : std::vector<std::string>{"0.1x", "1.5"};
    case Arg::Bytes:
      return {"6", "zz"};
    case Arg::File:
      return {"544", "zz", "00"};
    case Arg::Hash:
      return {"000000000000000g"};
    case Arg::Other:
      return {};
  }
  return {};
}

}  // namespace

std::vector<Case> error_order_cases() {
  // Every pair of arguments of every command, each wrong in every way its
  // kind can be: the answer is the first fault of docs/protocol.md's order
  // (syntax left to right, then filters left to right, then the operation).
  std::vector<Case> out;
  Header good_file;
  for (const auto& shape : command_shapes()) {
    std::vector<std::string> good;
    for (const auto& [arg, word] : shape.args) good.push_back(arg == Arg::File ? file_hex(good_file) : word);
    Steps steps = {ask("new eo_f 64 3"), ask("new eo_g 64 3"), ask("new eo_m 72 3")};
    auto request = [&](const std::vector<std::string>& words) {
      std::string r = shape.word;
      for (const auto& w : words) r += " " + w;
      return r;
    };
    const std::size_t n = shape.args.size();
    for (std::size_t i = 0; i < n; ++i) {
      for (const auto& fi : faults(shape.args[i].first, shape.word)) {
        auto one = good;
        one[i] = fi;
        steps.push_back(ask(request(one)));  // each fault alone
        for (std::size_t j = i + 1; j < n; ++j) {
          for (const auto& fj : faults(shape.args[j].first, shape.word)) {
            auto two = one;
            two[j] = fj;
            steps.push_back(ask(request(two)));
          }
        }
      }
      // With one argument too many as well: the count is checked before any value.
      for (const auto& fi : faults(shape.args[i].first, shape.word)) {
        auto extra = good;
        extra[i] = fi;
        extra.push_back("1");
        steps.push_back(ask(request(extra)));
        extra.pop_back();
        extra.pop_back();  // and one too few
        if (!extra.empty() || n == 1) steps.push_back(ask(request(extra)));
      }
    }
    for (const char* f : {"eo_f", "eo_g", "eo_m", "eo_new"}) steps.push_back(ask(std::string("drop ") + f));
    out.push_back(judged("protocol/errors/pairs/" + shape.word, std::move(steps)));
  }
  return out;
}

}  // namespace tlbf::conformance
