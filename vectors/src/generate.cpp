// The cases of every vector file. Inputs and flags are chosen here; every
// expected value is computed by the oracle through test_types.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "codec.hpp"
#include "flags.hpp"
#include "test_types.hpp"
#include "tlbf/oracle.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {
namespace {

using Flags = std::vector<std::string>;
using Bytes = std::vector<std::uint8_t>;
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Bytes text(std::string_view s) { return {s.begin(), s.end()}; }

std::vector<Bytes> words(const std::string& prefix, int from, int to) {
  std::vector<Bytes> out;
  for (int i = from; i < to; ++i) out.push_back(text(prefix + std::to_string(i)));
  return out;
}

json hex_list(const std::vector<Bytes>& items) {
  json out = json::array();
  for (const auto& item : items) out.push_back(hex(item));
  return out;
}

// Collects the tests of one file, group by group, numbering them.
class FileBuilder {
 public:
  FileBuilder(std::string name, std::vector<std::string> header)
      : name_(std::move(name)), header_(std::move(header)) {}

  void group(const std::string& type) { groups_.push_back({type, json::array()}); }

  // Adds a test from its inputs; returns the completed test.
  json add(const std::string& comment, Flags flags, json inputs) {
    json test;
    test["tcId"] = ++count_;
    test["comment"] = comment;
    test["flags"] = flags;
    for (const auto& [key, value] : inputs.items()) test[key] = value;
    // The generator's inputs are its own: a Failure here is a bug of tlbf's,
    // and value() ends the run with it.
    const TestType& type = *test_type(groups_.back().first).value();
    json done = complete_test(type, test, lenient_flags()).value();
    groups_.back().second.push_back(done);
    return done;
  }

  // Replaces the flags of the last test (for flags that depend on its outputs).
  void reflag(Flags flags) {
    json& last = groups_.back().second.back();
    last["flags"] = flags;
    last = complete_test(*test_type(groups_.back().first).value(), last, lenient_flags()).value();
  }

  VectorFile finish() const {
    std::set<std::string> used;
    json groups = json::array();
    for (const auto& [type, tests] : groups_) {
      for (const auto& t : tests) {
        for (const auto& f : t["flags"]) used.insert(f.get<std::string>());
      }
      groups.push_back({{"type", type}, {"tests", tests}});
    }
    json notes = json::object();
    for (const auto& flag : used) {
      const FlagNote& note = flag_notes().at(flag);
      notes[flag] = {{"bugType", note.bug_type}, {"description", note.description}};
    }
    const std::string stem = name_.substr(0, name_.size() - 5);  // without ".json"
    json doc;
    doc["algorithm"] = "TLBF";
    doc["formatVersion"] = 1;
    doc["schemaVersion"] = SCHEMA_VERSION;
    doc["schema"] = stem + ".schema.json";
    doc["generator"] = "tlbf vectors generate";
    doc["numberOfTests"] = count_;
    doc["header"] = header_;
    doc["notes"] = notes;
    doc["testGroups"] = groups;
    return {name_, doc};
  }

 private:
  std::string name_;
  std::vector<std::string> header_;
  std::vector<std::pair<std::string, json>> groups_;
  int count_ = 0;
};

Flags with(Flags flags, bool condition, const std::string& flag) {
  if (condition && std::find(flags.begin(), flags.end(), flag) == flags.end()) flags.push_back(flag);
  return flags;
}

// ---- hashes -----------------------------------------------------------------

VectorFile hash_file() {
  FileBuilder f("tlbf_hash_v1.json",
                {"FNV-1a 64 of items, and the SplitMix64 finalizer mix64 (docs/format.md, section 2).",
                 "Items and hashes are hex; compare hashes as 16 lowercase hex digits."});
  f.group("Fnv1a64Test");
  f.add("the empty item hashes to the offset basis", {"EmptyItem", "PublishedValue"}, {{"item", ""}});
  f.add("\"a\"", {"PublishedValue"}, {{"item", hex(text("a"))}});
  f.add("\"foobar\"", {"PublishedValue"}, {{"item", hex(text("foobar"))}});
  for (const char* word : {"cat", "dog", "bird"}) {
    f.add(std::string("\"") + word + "\"", {"WorkedExample"}, {{"item", hex(text(word))}});
  }
  for (int b = 0; b < 256; ++b) {
    f.add("the single byte " + std::to_string(b), with({"SingleByte"}, b >= 0x80, "NotUtf8"),
          {{"item", hex(Bytes{static_cast<std::uint8_t>(b)})}});
  }
  Bytes all(256);
  for (int b = 0; b < 256; ++b) all[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(b);
  f.add("bytes 0 to 255 in order", {"AllByteValues", "NotUtf8"}, {{"item", hex(all)}});
  f.add("an invalid UTF-8 sequence", {"NotUtf8"}, {{"item", "c328"}});
  f.add("two zero bytes", {"Typical"}, {{"item", "0000"}});
  Bytes kib(1024);
  for (std::size_t i = 0; i < kib.size(); ++i) kib[i] = static_cast<std::uint8_t>(i * 7 + 3);
  f.add("1 KiB", {"LongItem", "NotUtf8"}, {{"item", hex(kib)}});
  f.add("4 KiB of 'x'", {"LongItem"}, {{"item", hex(Bytes(4096, 'x'))}});

  f.group("Mix64Test");
  f.add("0 is a fixed point", {"MixFixedPoint"}, {{"input", hash(0)}});
  f.add("1", {"Typical"}, {{"input", hash(1)}});
  f.add("the golden gamma: the first output of SplitMix64 seeded with 0", {"PublishedValue"},
        {{"input", hash(0x9e3779b97f4a7c15ULL)}});
  f.add("h1 of \"cat\"", {"WorkedExample"}, {{"input", hash(fnv1a64("cat"))}});
  f.add("h1 of \"dog\"", {"WorkedExample"}, {{"input", hash(fnv1a64("dog"))}});
  f.add("every bit set", {"AllOnes"}, {{"input", hash(kU64Max)}});
  f.add("the top bit alone", {"Typical"}, {{"input", hash(1ULL << 63)}});
  return f.finish();
}

// ---- sizing -----------------------------------------------------------------

Flags sizing_flags(Flags flags, std::uint64_t n, double p) {
  return with(std::move(flags), ideal_m_depends_on_last_bit_of_log(n, p), "LogLastBit");
}

struct MCase {
  std::uint64_t n;
  double p;
  const char* comment;
  Flags flags;
};

void optimal_m_tests(FileBuilder& f) {
  const MCase m_cases[] = {
      {4, 0.1, "the worked example: 19.17 bits", {"WorkedExample", "CeilOfM"}},
      {1000, 0.01, "9585.06 bits", {"SizingTable", "CeilOfM"}},
      {100, 0.001, "1437.76 bits", {"SizingTable", "CeilOfM"}},
      {10, 1e-6, "287.55 bits", {"SizingTable", "CeilOfM", "LowP"}},
      {1, 0.5, "1.44 bits", {"SizingTable", "CeilOfM"}},
      {3, 0.3, "7.52 bits", {"SizingTable", "CeilOfM"}},
      {1, 0.3, "2.51 bits: m = 3 gives k = 2, where m = 2 would give k = 1", {"TinyN", "CeilOfM"}},
      {1000, 1e-9, "p = 1e-9", {"LowP", "CeilOfM"}},
      {7, 1e-15, "p = 1e-15", {"LowP", "CeilOfM"}},
      {1, 1e-300, "p = 1e-300", {"LowP", "CeilOfM"}},
      {1, 5e-324, "the smallest double", {"LowP", "SmallestP", "CeilOfM"}},
      {4, 0.09051270335250715, "the ideal is exactly 20.0", {"IdealMIsInteger"}},
      {4, 0.09051270335250713, "the next smaller p: the ideal is 20.000000000000004", {"CeilOfM"}},
      {10, 0.008192549468178958, "the ideal is exactly 100.0", {"IdealMIsInteger"}},
      {1, 6.711786678855932e-05, "the ideal is exactly 20.0", {"IdealMIsInteger"}},
      {0, 0.1, "n = 0: the ideal is 0", {"OutOfDomain"}},
      {4, 0.0, "p = 0: log is -inf, the ideal +inf, which saturates", {"OutOfDomain"}},
      {4, 1.0, "p = 1: the ideal is 0", {"OutOfDomain"}},
      {4, -0.5, "a negative p: log is NaN", {"OutOfDomain"}},
      {4, kNaN, "p = NaN", {"OutOfDomain"}},
      {4, kInf, "p = inf: the ideal is -inf", {"OutOfDomain"}},
      {kU64Max, 1e-300, "an ideal above 2^64 saturates", {"OutOfDomain"}},
  };
  f.group("OptimalMTest");
  for (const auto& c : m_cases)
    f.add(c.comment, sizing_flags(c.flags, c.n, c.p), {{"n", c.n}, {"p", real(c.p)}});
}

struct KCase {
  std::uint64_t m, n;
  const char* comment;
  Flags flags;
};

void optimal_k_tests(FileBuilder& f) {
  const KCase k_cases[] = {
      {20, 4, "the worked example: 3.466", {"WorkedExample"}},
      {9586, 1000, "6.644 rounds to 7; truncation gives 6", {"SizingTable", "RoundingOfK"}},
      {1438, 100, "9.967", {"SizingTable", "RoundingOfK"}},
      {288, 10, "19.96", {"SizingTable", "RoundingOfK"}},
      {2, 1, "1.386", {"SizingTable"}},
      {18, 5, "2.495 rounds down", {"Typical"}},
      {11, 3, "2.541 rounds up", {"RoundingOfK"}},
      {3, 1, "2.079", {"TinyN"}},
      {1, 1000, "0.000693 rounds to 0, and k is 1", {"KAtLeastOne"}},
      {1550, 1, "1074.38: the largest k with_rate asks for", {"SmallestP"}},
      {MAX_BITS, 1, "7.6e11 saturates at 2^32 - 1", {"OutOfDomain"}},
      {5, 0, "n = 0: m / 0 is inf", {"OutOfDomain"}},
      {0, 0, "0 / 0 is NaN, which converts to 0, and k is 1", {"OutOfDomain"}},
  };
  f.group("OptimalKTest");
  for (const auto& c : k_cases) f.add(c.comment, c.flags, {{"m", c.m}, {"n", c.n}});
}

struct RateCase {
  std::uint64_t m;
  std::uint32_t k;
  std::uint64_t n;
  const char* comment;
  Flags flags;
};

void predicted_fp_rate_tests(FileBuilder& f) {
  const RateCase rate_cases[] = {
      {20, 3, 2, "the worked example: 0.0174106", {"WorkedExample", "PredictedRate"}},
      {9586, 7, 1000, "about 1% at the design load", {"PredictedRate"}},
      {1438, 10, 100, "about 0.1% at the design load", {"PredictedRate"}},
      {20, 3, 0, "nothing inserted", {"PredictedRate"}},
      {MAX_BITS, 1, 1, "one item in the largest filter", {"PredictedRate", "MaxBits"}},
      {0, 0, 0, "0 / 0: NaN, then pow(NaN, 0) = 1", {"PredictedRate", "OutOfDomain"}},
  };
  f.group("PredictedFpRateTest");
  for (const auto& c : rate_cases) f.add(c.comment, c.flags, {{"m", c.m}, {"k", c.k}, {"n", c.n}});
}

// The smallest n whose m at p = 0.5 exceeds 2^40.
std::uint64_t smallest_n_over_max_bits_at_half() {
  std::uint64_t lo = 1, hi = MAX_BITS;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (optimal_m(mid, 0.5) > MAX_BITS)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

void with_rate_tests(FileBuilder& f) {
  const MCase rate_cases_with[] = {
      {4, 0.1, "the worked example", {"WorkedExample"}},
      {1000, 0.01, "1000 items at 1%", {"SizingTable"}},
      {10, 1e-6, "p = 1e-6", {"SizingTable", "LowP"}},
      {1, 0.3, "rounding m up changes k", {"TinyN"}},
      {1, 5e-324, "the smallest double", {"SmallestP", "LowP"}},
      {4, 0.09051270335250715, "the ideal m is exactly 20.0", {"IdealMIsInteger"}},
      {0, 0.1, "n = 0", {"BadN"}},
      {4, 0.0, "p = 0", {"BadP"}},
      {4, 1.0, "p = 1", {"BadP"}},
      {4, -0.1, "p < 0", {"BadP"}},
      {4, 1.5, "p > 1", {"BadP"}},
      {4, kInf, "p = inf", {"BadP"}},
      {4, -kInf, "p = -inf", {"BadP"}},
      {4, kNaN, "p = NaN", {"NaN"}},
      {MAX_BITS, 0.1, "2^40 items at 10% need about 5.3e12 bits", {"TooManyBits"}},
      {smallest_n_over_max_bits_at_half(),
       0.5,
       "the smallest n whose m exceeds 2^40 at p = 0.5",
       {"TooManyBits"}},
  };
  f.group("WithRateTest");
  for (const auto& c : rate_cases_with)
    f.add(c.comment, sizing_flags(c.flags, c.n, c.p), {{"n", c.n}, {"p", real(c.p)}});
}

// p where ln p computed another way lands two ulps from the correctly rounded
// ln p, and the m it gives at n = 3 * 10^18 (where one ulp of ln p moves the
// ideal m by about one step of the doubles there) is neither the expected m
// nor a LogLastBit alternative. Found by a search over p in (0.42, 1)
// (vectors/tests/search_log_formulas.cpp) with a long double log as the
// reference, each kept only where that log rounds to a double unambiguously;
// check_correctly_rounded_log.py confirms each with a 60-digit log.
void log_formula_tests(FileBuilder& f) {
  constexpr std::uint64_t n = 3000000000000000000;
  const MCase m_cases[] = {
      {n, 0.88250758042393684, "ln p as log2(p) * LN2 is two ulps off (the example of issue 38)", {}},
      {n, 0.88258205126397549, "ln p as log2(p) * LN2 is two ulps off", {}},
      {n, 0.93942065357215876, "ln p as log2(p) * LN2 is two ulps off", {}},
      {n, 0.88313584491280084, "ln p as log2(p) * LN2 is two ulps off", {}},
      {n, 0.49527405681182735, "ln p as log10(p) * LN10 is two ulps off", {}},
      {n, 0.43100588734413231, "ln p as log10(p) * LN10 is two ulps off", {}},
      {n, 0.45068350936338214, "ln p as log10(p) * LN10 and as log1p(-(1 - p)) are two ulps off", {}},
      {n, 0.49207295486323471, "ln p as log1p(-(1 - p)) is two ulps off", {}},
      {n, 0.42533663469085553, "ln p as log1p(-(1 - p)) is two ulps off", {}},
  };
  f.group("OptimalMTest");
  for (const auto& c : m_cases)
    f.add(c.comment, sizing_flags({"LogFormula"}, c.n, c.p), {{"n", c.n}, {"p", real(c.p)}});
}

VectorFile sizing_file() {
  FileBuilder f("tlbf_sizing_v1.json",
                {"optimal_m, optimal_k, predicted_fp_rate and with_rate (docs/format.md, sections 7 and 8).",
                 "Reals are strings in the shortest decimal that reads back as the double: parse them with a "
                 "correctly rounded parser ('nan', 'inf', '-inf' included)."});
  optimal_m_tests(f);
  optimal_k_tests(f);
  predicted_fp_rate_tests(f);
  with_rate_tests(f);
  log_formula_tests(f);  // last, so that the tcIds before it stay (docs/vectors.md, "Versions")
  return f.finish();
}

// ---- positions --------------------------------------------------------------

// True when some probe's 64-bit sum wraps and the unwrapped sum would land
// elsewhere modulo m.
__extension__ using u128 = unsigned __int128;  // GCC and clang both have it

bool wrap_matters(std::uint64_t m, std::uint32_t k, const Bytes& item) {
  const u128 h1 = fnv1a64(item);
  const u128 h2 = mix64(fnv1a64(item)) | 1U;
  for (std::uint32_t i = 0; i < k; ++i) {
    const u128 sum = h1 + i * h2;
    const auto wrapped = static_cast<std::uint64_t>(sum);
    if (sum >> 64 != 0 && wrapped % m != static_cast<std::uint64_t>(sum % m)) return true;
  }
  return false;
}

bool mix_is_even(const Bytes& item) { return (mix64(fnv1a64(item)) & 1U) == 0; }

VectorFile positions_file() {
  FileBuilder f("tlbf_positions_v1.json",
                {"positions_for(m, k, item): the k probe positions without a filter, so that m up to 2^40 is "
                 "checked without allocating it (docs/format.md, section 3)."});
  f.group("PositionsForTest");
  for (const char* word : {"cat", "dog", "bird"}) {
    f.add(std::string("\"") + word + "\" in the worked example's filter", {"WorkedExample"},
          {{"m", 20}, {"k", 3}, {"item", hex(text(word))}});
  }
  struct Shape {
    std::uint64_t m;
    std::uint32_t k;
    const char* comment;
    Flags flags;
  };
  const Shape shapes[] = {
      {MAX_BITS, 8, "m = 2^40", {"MaxBits", "LargeM", "PowerOfTwoM"}},
      {MAX_BITS - 1, 8, "m = 2^40 - 1", {"LargeM"}},
      {MAX_BITS - 3, 8, "m = 2^40 - 3", {"LargeM"}},
      {(1ULL << 32) + 15, 6, "m = 2^32 + 15", {"LargeM"}},
      {1ULL << 32, 6, "m = 2^32", {"LargeM", "PowerOfTwoM"}},
      {1000003, 5, "a prime m", {"Typical"}},
      {64, 4, "m = 64", {"PowerOfTwoM"}},
      {1, 5, "one bit", {"OneBit"}},
      {1000, 70, "k = 70", {"LargeK"}},
  };
  const std::vector<Bytes> items = {text("cat"),         text(""),         text("a"), Bytes{0xff},
                                    text("item-123456"), Bytes(1024, 0xab)};
  for (const auto& s : shapes) {
    for (const auto& item : items) {
      Flags flags = s.flags;
      flags = with(flags, item.empty(), "EmptyItem");
      flags = with(flags, item.size() >= 1024, "LongItem");
      flags = with(flags, wrap_matters(s.m, s.k, item), "WrapAround");
      flags = with(flags, mix_is_even(item), "EvenMix");
      f.add(std::string(s.comment) + ", item of " + std::to_string(item.size()) + " bytes", flags,
            {{"m", s.m}, {"k", s.k}, {"item", hex(item)}});
    }
  }
  f.add("m = 0", {"BadM"}, {{"m", 0}, {"k", 3}, {"item", hex(text("cat"))}});
  f.add("m = 2^40 + 1", {"BadM"}, {{"m", MAX_BITS + 1}, {"k", 3}, {"item", hex(text("cat"))}});
  f.add("k = 0", {"BadK"}, {{"m", 20}, {"k", 0}, {"item", hex(text("cat"))}});
  f.add("k = 65537", {"StrictKBound"}, {{"m", 20}, {"k", MAX_K + 1}, {"item", hex(text("cat"))}});
  return f.finish();
}

// ---- filters ----------------------------------------------------------------

json with_rate_construct(std::uint64_t n, double p) { return {{"withRate", {{"n", n}, {"p", real(p)}}}}; }
json new_construct(std::uint64_t m, std::uint32_t k) { return {{"new", {{"m", m}, {"k", k}}}}; }

VectorFile filter_file() {
  FileBuilder f("tlbf_filter_v1.json",
                {"Filters built by with_rate or new, items inserted in order, then probed.",
                 "For each inserted item its positions before insertion; then count_ones, n_inserted, "
                 "to_bytes, and the answer of contains for each probe."});
  f.group("FilterTest");
  auto add = [&](const std::string& comment, Flags flags, json construct, const std::vector<Bytes>& inserts,
                 const std::vector<Bytes>& probes) {
    const json done =
        f.add(comment, flags,
              {{"construct", construct}, {"inserts", hex_list(inserts)}, {"probes", hex_list(probes)}});
    if (done.contains("errorKind")) return;
    bool false_positive = false;
    for (std::size_t i = 0; i < probes.size(); ++i) {
      const bool inserted = std::find(inserts.begin(), inserts.end(), probes[i]) != inserts.end();
      false_positive = false_positive || (!inserted && done["present"][i].get<bool>());
    }
    bool even = false;
    for (const auto& item : inserts) even = even || mix_is_even(item);
    flags = with(flags, false_positive, "FalsePositive");
    flags = with(flags, even && (done["m"].get<std::uint64_t>() & (done["m"].get<std::uint64_t>() - 1)) == 0,
                 "EvenMix");
    if (construct.contains("withRate")) {
      flags = sizing_flags(flags, construct["withRate"]["n"].get<std::uint64_t>(),
                           real_of(construct["withRate"]["p"]).value());
    }
    f.reflag(flags);
  };
  const auto fresh = words("probe", 0, 20);
  auto plus = [](std::vector<Bytes> a, const std::vector<Bytes>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  add("the worked example", {"WorkedExample"}, with_rate_construct(4, 0.1), {text("cat"), text("dog")},
      plus({text("bird"), text("cat"), text("dog")}, fresh));
  add("the empty item and zero bytes", {"EmptyItem"}, with_rate_construct(3, 0.01),
      {Bytes{}, Bytes{0}, Bytes{0, 0}}, plus({Bytes{}, Bytes{0, 0, 0}}, fresh));
  add("m = 13", {"OddM"}, new_construct(13, 2), words("odd", 0, 5), plus(words("odd", 0, 8), fresh));
  add("m = 64", {"PowerOfTwoM"}, new_construct(64, 4), words("pow", 0, 6), plus(words("pow", 0, 10), fresh));
  add("m = 1024, many items", {"PowerOfTwoM"}, new_construct(1024, 7), words("pow", 0, 60),
      plus(words("pow", 50, 70), fresh));
  add("one bit, one hash", {"OneBit", "OneHash"}, new_construct(1, 1), {text("x")}, {text("x"), text("y")});
  add("k = 1", {"OneHash"}, new_construct(100, 1), words("one", 0, 10), plus(words("one", 0, 12), fresh));
  add("k = 100", {"LargeK", "OddM"}, new_construct(1001, 100), words("wide", 0, 3),
      plus(words("wide", 0, 5), fresh));
  add("k = 1000", {"LargeK"}, new_construct(4096, 1000), words("wider", 0, 2),
      plus(words("wider", 0, 3), fresh));
  std::vector<Bytes> singles;
  for (int b = 0; b < 256; ++b) singles.push_back(Bytes{static_cast<std::uint8_t>(b)});
  std::vector<Bytes> doubles;
  for (int b = 0; b < 256; b += 15)
    doubles.push_back(Bytes{static_cast<std::uint8_t>(b), static_cast<std::uint8_t>(b)});
  add("every byte value as an item", {"AllByteValues", "SingleByte", "NotUtf8"},
      with_rate_construct(256, 0.01), singles, plus(doubles, singles));
  Bytes kib(1024);
  for (std::size_t i = 0; i < kib.size(); ++i) kib[i] = static_cast<std::uint8_t>(i);
  Bytes kib_plus = kib;
  kib_plus.push_back(0);
  add("items of 1 KiB and 2000 bytes", {"LongItem", "NotUtf8"}, with_rate_construct(2, 0.05),
      {kib, Bytes(2000, 0xff)}, {kib_plus, Bytes(1999, 0xff), kib, Bytes(2000, 0xff)});
  add("p = 1e-6", {"LowP"}, with_rate_construct(10, 1e-6), words("item", 0, 10),
      plus(words("item", 0, 12), fresh));
  add("p = 1e-12", {"LowP"}, with_rate_construct(5, 1e-12), words("low", 0, 5),
      plus(words("low", 0, 7), fresh));
  add("n = 1 at 30%: rounding m up to 3 makes k = 2", {"TinyN"}, with_rate_construct(1, 0.3), {text("tiny")},
      plus({text("tiny")}, fresh));
  add("the ideal m is exactly 20.0", {"IdealMIsInteger"}, with_rate_construct(4, 0.09051270335250715),
      {text("cat"), text("dog")}, plus({text("cat"), text("dog"), text("bird")}, fresh));
  add("100 items in 50 bits", {"Dense", "OddM"}, new_construct(50, 3), words("dense", 0, 100),
      plus(words("dense", 95, 105), fresh));
  add("1000 items at 1%", {"Typical"}, with_rate_construct(1000, 0.01), words("k", 0, 1000),
      plus(words("k", 990, 1010), fresh));
  add("with_rate(0, 0.1) makes no filter", {"BadN"}, with_rate_construct(0, 0.1), {}, {});
  add("new(0, 3) makes no filter", {"BadM"}, new_construct(0, 3), {}, {});
  add("new(20, 0) makes no filter", {"BadK"}, new_construct(20, 0), {}, {});
  add("new(20, 65537) makes no filter here", {"StrictKBound"}, new_construct(20, MAX_K + 1), {}, {});
  return f.finish();
}

// ---- union ------------------------------------------------------------------

std::string file_of(std::uint64_t m, std::uint32_t k, const std::vector<Bytes>& items) {
  Bloom b = Bloom::create(m, k).value();
  for (const auto& item : items) b.insert(item);
  return hex(b.to_bytes());
}

std::string file_with_count(std::uint64_t m, std::uint32_t k, std::uint64_t n, std::uint8_t fill) {
  Bloom b = Bloom::create(m, k).value();
  auto bytes = b.to_bytes();
  for (int i = 0; i < 8; ++i)
    bytes[24 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (8 * i));
  for (std::size_t i = HEADER_LEN; i < bytes.size(); ++i) bytes[i] = fill;
  return hex(bytes);
}

VectorFile union_file() {
  FileBuilder f("tlbf_union_v1.json",
                {"union(left, right): both operands are filter files (to_bytes); load both with from_bytes, "
                 "merge right into left, and compare to_bytes of left with `bytes`."});
  f.group("UnionTest");
  f.add("cat and dog merged: the worked example's bytes", {"WorkedExample", "CountsAdd", "OrNotAnd"},
        {{"left", file_of(20, 3, {text("cat")})}, {"right", file_of(20, 3, {text("dog")})}});
  f.add("a filter merged with a copy of itself", {"CountsAdd"},
        {{"left", file_of(20, 3, {text("cat")})}, {"right", file_of(20, 3, {text("cat")})}});
  f.add("an empty filter merged into a full one", {"CountsAdd"},
        {{"left", file_of(64, 4, words("pow", 0, 6))}, {"right", file_of(64, 4, {})}});
  f.add("300 and 200 items", {"CountsAdd", "OrNotAnd"},
        {{"left", file_of(4000, 5, words("left", 0, 300))},
         {"right", file_of(4000, 5, words("right", 0, 200))}});
  f.add("m = 13", {"OddM", "OrNotAnd", "CountsAdd"},
        {{"left", file_of(13, 2, words("odd", 0, 2))}, {"right", file_of(13, 2, words("odd", 2, 4))}});
  f.add("m differs", {"MismatchM"},
        {{"left", file_of(20, 3, {text("cat")})}, {"right", file_of(21, 3, {text("dog")})}});
  f.add("k differs", {"MismatchK"},
        {{"left", file_of(20, 3, {text("cat")})}, {"right", file_of(20, 4, {text("dog")})}});
  f.add("m and k differ", {"MismatchM", "MismatchK"},
        {{"left", file_of(20, 3, {})}, {"right", file_of(24, 4, {})}});
  f.add("counts that add past 2^64 - 1", {"CountSaturates"},
        {{"left", file_with_count(8, 1, kU64Max - 1, 0x00)}, {"right", file_with_count(8, 1, 5, 0x0f)}});
  return f.finish();
}

// ---- from_bytes -------------------------------------------------------------

// The worked example's file: the valid one every malformed one is cut from.
Bytes worked_example_file() {
  Bloom worked = Bloom::with_rate(4, 0.1).value();
  worked.insert("cat");
  worked.insert("dog");
  return worked.to_bytes();
}

Bytes edited(Bytes bytes, std::size_t at, std::initializer_list<std::uint8_t> values) {
  for (auto v : values) bytes[at++] = v;
  return bytes;
}

// The header of `ex` claiming m bits, and `body` zero bytes after it.
Bytes with_m(const Bytes& ex, std::uint64_t m, std::size_t body) {
  Bytes copy(32 + body, 0);
  std::copy(ex.begin(), ex.begin() + 32, copy.begin());
  for (std::size_t i = 0; i < 8; ++i) copy[8 + i] = static_cast<std::uint8_t>(m >> (8 * i));
  return copy;
}

void add_file(FileBuilder& f, const std::string& comment, Flags flags, const Bytes& bytes) {
  f.add(comment, std::move(flags), {{"bytes", hex(bytes)}});
}

void valid_files(FileBuilder& f, const Bytes& ex) {
  add_file(f, "the worked example", {"WorkedExample"}, ex);
  add_file(f, "an empty 13-bit filter", {"EmptyFilter", "OddM"}, Bloom::create(13, 2).value().to_bytes());
  add_file(f, "a count of 2^64 - 1 with no bit set", {"AnyCount", "EmptyFilter"},
           unhex(file_with_count(8, 1, kU64Max, 0)).value());
  add_file(f, "one bit, set", {"OneBit"}, unhex(file_of(1, 1, {text("x")})).value());
  add_file(f, "1000 items at 1%", {"Typical"}, [] {
    Bloom b = Bloom::with_rate(1000, 0.01).value();
    for (int i = 0; i < 1000; ++i) b.insert("k" + std::to_string(i));
    return b.to_bytes();
  }());
}

void short_truncated_and_extended_files(FileBuilder& f, const Bytes& ex) {
  for (std::size_t len : {0U, 1U, 4U, 24U, 31U}) {
    add_file(f, "the first " + std::to_string(len) + " bytes", {"Short"},
             Bytes(ex.begin(), ex.begin() + static_cast<long>(len)));
  }
  for (std::size_t len : {32U, 33U, 34U}) {
    add_file(f, "the first " + std::to_string(len) + " bytes: bits cut", {"Truncated"},
             Bytes(ex.begin(), ex.begin() + static_cast<long>(len)));
  }
  Bytes one_more = ex;
  one_more.push_back(0);
  Bytes eight_more = ex;
  eight_more.resize(ex.size() + 8, 0);
  add_file(f, "one byte after the bits", {"Extended"}, one_more);
  add_file(f, "eight bytes after the bits", {"Extended"}, eight_more);
}

void bad_header_field_files(FileBuilder& f, const Bytes& ex) {
  for (std::size_t i = 0; i < 4; ++i) {
    add_file(f, "magic byte " + std::to_string(i) + " changed", {"BadMagic"},
             edited(ex, i, {static_cast<std::uint8_t>(ex[i] ^ 0x20)}));
  }
  add_file(f, "magic reversed", {"BadMagic"}, edited(ex, 0, {'F', 'B', 'L', 'T'}));
  add_file(f, "version 0", {"BadVersion"}, edited(ex, 4, {0}));
  add_file(f, "version 2", {"BadVersion"}, edited(ex, 4, {2}));
  add_file(f, "version 257", {"BadVersion"}, edited(ex, 5, {1}));
  add_file(f, "version 2^32 - 1", {"BadVersion"}, edited(ex, 4, {0xff, 0xff, 0xff, 0xff}));
  add_file(f, "m = 0", {"ZeroM"}, with_m(ex, 0, 3));
  add_file(f, "m = 2^40 + 1", {"MTooLarge"}, with_m(ex, MAX_BITS + 1, 3));
  add_file(f, "m = 2^63", {"MTooLarge"}, with_m(ex, 1ULL << 63, 3));
  add_file(f, "m = 2^64 - 1", {"MTooLarge"}, with_m(ex, kU64Max, 3));
  add_file(f, "k = 0", {"ZeroK"}, edited(ex, 16, {0}));
  add_file(f, "k = 65537", {"StrictKBound"}, edited(ex, 16, {1, 0, 1, 0}));
  add_file(f, "k = 2^32 - 1", {"StrictKBound"}, edited(ex, 16, {0xff, 0xff, 0xff, 0xff}));
  for (std::size_t i = 0; i < 4; ++i) {
    add_file(f, "reserved byte " + std::to_string(i) + " set", {"BadReserved"}, edited(ex, 20 + i, {1}));
  }
}

// Files whose bits do not fit the header's m: too few or too many bytes, or padding set.
void bits_unlike_m_files(FileBuilder& f, const Bytes& ex) {
  add_file(f, "m = 16 needs 2 bytes of bits, 3 follow", {"InconsistentLength"}, edited(ex, 8, {16}));
  add_file(f, "m = 30 needs 4 bytes of bits, 3 follow", {"InconsistentLength"}, edited(ex, 8, {30}));
  add_file(f, "m = 2^40 claimed by a 35-byte file", {"ClaimsMaxBits", "InconsistentLength"},
           with_m(ex, MAX_BITS, 3));
  add_file(f, "m = 2^40 claimed by a bare header", {"ClaimsMaxBits", "InconsistentLength"},
           with_m(ex, MAX_BITS, 0));
  for (int bit = 20; bit < 24; ++bit) {
    add_file(f, "padding bit " + std::to_string(bit) + " set", {"PaddingBitsSet"},
             edited(ex, 34, {static_cast<std::uint8_t>(ex[34] | (1U << (bit - 16)))}));
  }
}

VectorFile from_bytes_file() {
  FileBuilder f("tlbf_from_bytes_v1.json",
                {"from_bytes of whole files: valid ones load (and to_bytes gives the same bytes back); every "
                 "malformed class is refused with Format (docs/format.md, section 10)."});
  f.group("FromBytesTest");
  const Bytes ex = worked_example_file();
  valid_files(f, ex);
  short_truncated_and_extended_files(f, ex);
  bad_header_field_files(f, ex);
  bits_unlike_m_files(f, ex);
  return f.finish();
}

}  // namespace

std::vector<VectorFile> generate() {
  return {hash_file(), sizing_file(), positions_file(), filter_file(), union_file(), from_bytes_file()};
}

std::string serialize(const json& doc) { return doc.dump(1) + "\n"; }

}  // namespace tlbf::vectors
