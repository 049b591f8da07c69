// The described cases (src/described_cases.cpp) held to their descriptions:
// every word a grammar case sends is answered err Protocol exactly when the
// grammar block of docs/protocol.md (read here, not compiled in) refuses it;
// every printable character is tried at every position of every type; each
// colliding pair of names collides under its hash, written out here; each
// integer field meets every width boundary.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "tlbf/conformance/described_cases.hpp"
#include "tlbf/conformance/rule_cases.hpp"

namespace tlbf::conformance {
namespace {

std::map<std::string, std::regex> docs_grammar() {
  std::ifstream in(TLBF_PROTOCOL_MD);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const auto start = doc.find("```grammar\n");
  EXPECT_NE(start, std::string::npos) << "docs/protocol.md has no grammar block";
  const auto end = doc.find("```", start + 11);
  std::istringstream block(doc.substr(start + 11, end - start - 11));
  std::map<std::string, std::regex> out;
  for (std::string line; std::getline(block, line);) {
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string name = line.substr(0, line.find(' '));
    out.emplace(name, std::regex("^(" + line.substr(eq + 3) + ")$"));
  }
  return out;
}

// Fits the field once the grammar accepts it: a u64, or a u32 for k.
bool fits(const std::string& word, bool u32) {
  const std::string digits = word.substr(std::min(word.find_first_not_of('0'), word.size()));
  const std::string top = u32 ? "4294967295" : "18446744073709551615";
  return digits.size() < top.size() || (digits.size() == top.size() && digits <= top);
}

TEST(DescribedCases, EveryWordIsAnsweredAsTheDocsGrammarDecides) {
  const auto grammar = docs_grammar();
  ASSERT_EQ(grammar.size(), 6u);
  std::set<std::string> types_seen;
  std::size_t words = 0;
  for (const auto& g : grammar_words()) {
    ASSERT_TRUE(grammar.count(g.type)) << g.type << " is no line of the grammar block";
    types_seen.insert(g.type);
    bool want = std::regex_match(g.word, grammar.at(g.type));
    if (want && g.type == "integer") want = fits(g.word, g.case_name.find("u32") != std::string::npos);
    EXPECT_EQ(g.accepted, want) << g.case_name << " sends '" << g.word << "'";
    ++words;
  }
  // boolean is only ever written, by the implementation: no request takes one.
  EXPECT_EQ(types_seen, (std::set<std::string>{"integer", "hash", "bytes", "real", "name"}));
  EXPECT_GT(words, 3000u);
}

TEST(DescribedCases, EveryPrintableCharacterIsTriedAtEveryPosition) {
  const std::string chars = printable_characters();
  EXPECT_EQ(chars.size(), 94u);
  std::map<std::string, std::set<std::string>> by_case;
  for (const auto& g : grammar_words()) by_case[g.case_name].insert(g.word);
  for (const char* type : {"integer_u64", "integer_u32", "hash", "bytes", "real", "name"}) {
    const bool fixed_length = std::string(type) == "hash";
    for (const char* position : {"first", "middle", "last", "before", "inside", "after", "alone"}) {
      const std::string name = std::string("protocol/grammar/") + type + "/" + position;
      const bool inserts = std::string(position) == "before" || std::string(position) == "inside" ||
                           std::string(position) == "after";
      if (fixed_length && inserts) {
        EXPECT_FALSE(by_case.count(name)) << name;
        continue;
      }
      ASSERT_TRUE(by_case.count(name)) << name;
      EXPECT_EQ(by_case[name].size(), chars.size())
          << name << ": a character is missing or two give one word";
    }
  }
  // The real forms hold the kinds of spelling docs/protocol.md names, accepted and refused.
  const auto& reals = by_case["protocol/grammar/real/forms"];
  for (const char* w : {"25.", ".5", "25.E-1", "-.5e+1", "1e999", ".", "-", "e1", "25e", "+5", "0x1p-2",
                        "1_0", "NaN", "Infinity", "-inf", "+inf"}) {
    EXPECT_TRUE(reals.count(w)) << "protocol/grammar/real/forms does not send " << w;
  }
}

std::uint32_t java_hashcode(const std::string& s) {
  std::uint32_t h = 0;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    h = 31 * h + c;
  }
  return h;
}
std::uint32_t djb2(const std::string& s) {
  std::uint32_t h = 5381;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    h = h * 33 + c;
  }
  return h;
}
std::uint32_t fnv1a_32(const std::string& s) {
  std::uint32_t h = 0x811c9dc5;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    h = (h ^ c) * 0x01000193;
  }
  return h;
}
std::uint64_t fnv1a_64(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    h = (h ^ c) * 0x100000001b3;
  }
  return h;
}
std::uint32_t byte_sum(const std::string& s) {
  std::uint32_t h = 0;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    h += c;
  }
  return h;
}

TEST(DescribedCases, EachPairOfNamesCollidesUnderItsHash) {
  std::set<std::string> hashes;
  for (const auto& c : name_collisions()) {
    const std::string a = c.a, b = c.b, hash = c.hash;
    EXPECT_NE(a, b);
    hashes.insert(hash);
    std::uint64_t ha = 0, hb = 0;
    if (hash.rfind("java_hashcode", 0) == 0)
      ha = java_hashcode(a), hb = java_hashcode(b);
    else if (hash == "djb2")
      ha = djb2(a), hb = djb2(b);
    else if (hash == "fnv1a_32")
      ha = fnv1a_32(a), hb = fnv1a_32(b);
    else if (hash == "fnv1a_64_low_32_bits")
      ha = fnv1a_64(a) & 0xffffffff, hb = fnv1a_64(b) & 0xffffffff;
    else if (hash == "sum_of_bytes")
      ha = byte_sum(a), hb = byte_sum(b);
    else
      ADD_FAILURE() << "no hash written out for " << hash;
    EXPECT_EQ(ha, hb) << hash << ": " << a << " and " << b;
  }
  EXPECT_TRUE(hashes.count("java_hashcode") && hashes.count("djb2") && hashes.count("fnv1a_32"));
}

std::string decimal_2_pow_plus(int b, int d) {
  // 2^b + d, for b up to 64, in decimal, without 128-bit arithmetic: doubling a digit string.
  std::string v = "1";
  for (int i = 0; i < b; ++i) {
    int carry = 0;
    for (auto it = v.rbegin(); it != v.rend(); ++it) {
      const int x = (*it - '0') * 2 + carry;
      *it = static_cast<char>('0' + x % 10);
      carry = x / 10;
    }
    if (carry) v.insert(v.begin(), '1');
  }
  // d is -1, 0 or 1 and 2^b ends in 2, 4, 6 or 8 (b >= 1): no borrow or carry past the last digit.
  v.back() = static_cast<char>(v.back() + d);
  return v;
}

TEST(DescribedCases, EveryIntegerFieldMeetsEveryWidthBoundary) {
  std::map<std::string, std::string> requests;  // case name -> all its requests
  for (const auto& c : width_cases()) {
    for (const auto& s : c.steps) requests[c.name] += s.request + "\n";
  }
  auto sends = [&](const std::string& name, const std::string& text) {
    return requests[name].find(text) != std::string::npos;
  };
  for (int b : kWidthBoundaries) {
    for (int d : {-1, 0, 1}) {
      const std::string v = decimal_2_pow_plus(b, d);
      EXPECT_TRUE(sends("protocol/integers/widths/m", "positions_for " + v + " "))
          << "m = 2^" << b << " + " << d;
      EXPECT_TRUE(sends("protocol/integers/widths/k", "predicted_fp_rate 1000000 " + v + " "))
          << "k = 2^" << b << " + " << d;
      EXPECT_TRUE(sends("protocol/integers/widths/n", "optimal_m " + v + " ")) << "n = 2^" << b << " + " << d;
    }
  }
  // 2^63 + 2^10 + 1: a u64 rounded to a double in one step, and halved first.
  EXPECT_TRUE(sends("protocol/integers/widths/n", "optimal_m 9223372036854776833 0.5"));
  for (const char* field : {"n_inserted", "positions", "answers"}) {
    EXPECT_FALSE(requests["protocol/integers/widths/" + std::string(field)].empty()) << field;
  }
}

TEST(DescribedCases, TheyAreAmongTheDeterministicCases) {
  std::set<std::string> names;
  auto cases = deterministic_cases().value();  // a file that does not parse fails the test here
  for (const auto& c : cases) names.insert(c.name);
  for (const auto& c : grammar_cases()) EXPECT_TRUE(names.count(c.name)) << c.name;
  for (const auto& c : width_cases()) EXPECT_TRUE(names.count(c.name)) << c.name;
  for (const auto& c : identity_cases()) EXPECT_TRUE(names.count(c.name)) << c.name;
}

}  // namespace
}  // namespace tlbf::conformance

namespace tlbf::conformance {
namespace {

TEST(LargeCases, TheTwoItemsShareTheirLow32BitsOfPositionAndNothingElse) {
  for (auto& c : large_cases()) {
    EXPECT_EQ(c.name.rfind("large/", 0), 0u) << c.name;
    if (c.name != "large/index_keeps_64_bits") continue;
    make_steps_now(c);
    // Steps 4 and 5 ask the oracle for each item's one position.
    ASSERT_GE(c.steps.size(), 5u);
    ASSERT_EQ(c.steps[3].request.rfind("positions lx ", 0), 0u);
    const auto a = std::stoull(c.steps[3].pattern.substr(3)), b = std::stoull(c.steps[4].pattern.substr(3));
    EXPECT_NE(a, b);
    EXPECT_EQ(a & 0xffffffff, b & 0xffffffff);
    EXPECT_EQ(c.steps[2].pattern, "ok false") << "the second item is not in the filter of the first";
  }
}

TEST(LargeCases, TheyAreNotInTheDefaultCheck) {
  auto cases = deterministic_cases().value();  // a file that does not parse fails the test here
  for (const auto& c : cases) EXPECT_NE(c.name.rfind("large/", 0), 0u) << c.name;
}

}  // namespace
}  // namespace tlbf::conformance
