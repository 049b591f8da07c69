// Every planted bug of the specification's pitfall table (s01 to s10) must
// change the expected answer of at least one vector. This test evaluates the
// vectors with a small test-only model of TLBF that can carry each bug on its
// own; with no bug it must agree with every vector (the control).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "tlbf/hex.hpp"
#include "tlbf/protocol/values.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {
namespace {

enum class Bug { None, s01, s02, s03, s04, s05, s06, s07, s08, s09, s10 };

const std::map<Bug, const char*> kBugNames = {{Bug::s01, "s01 flooring m"},
                                              {Bug::s02, "s02 h2 not forced odd"},
                                              {Bug::s03, "s03 bits from the MSB"},
                                              {Bug::s04, "s04 truncating k"},
                                              {Bug::s05, "s05 union not adding counts"},
                                              {Bug::s06, "s06 fewer than k bits set"},
                                              {Bug::s07, "s07 no i*h2 term"},
                                              {Bug::s08, "s08 AND in union"},
                                              {Bug::s09, "s09 from_bytes trusting the length"},
                                              {Bug::s10, "s10 FNV-1"}};

using Bytes = std::vector<std::uint8_t>;
constexpr double kLn2 = 0.6931471805599453;

// A deliberately plain TLBF, with a switch for each planted bug.
struct Model {
  Bug bug;

  std::uint64_t fnv(const Bytes& data) const {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (auto b : data) {
      if (bug == Bug::s10) {
        h = (h * 0x100000001b3ULL) ^ b;
      } else {
        h = (h ^ b) * 0x100000001b3ULL;
      }
    }
    return h;
  }
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static std::uint64_t to_u64(double x) {
    if (std::isnan(x) || x <= 0) return 0;
    return x >= 18446744073709551616.0 ? ~0ULL : static_cast<std::uint64_t>(x);
  }
  std::uint64_t opt_m(std::uint64_t n, double p) const {
    const double ideal = (-static_cast<double>(n) * std::log(p)) / (kLn2 * kLn2);
    return to_u64(bug == Bug::s01 ? std::floor(ideal) : std::ceil(ideal));
  }
  std::uint32_t opt_k(std::uint64_t m, std::uint64_t n) const {
    const double ideal = (static_cast<double>(m) / static_cast<double>(n)) * kLn2;
    const double r = bug == Bug::s04 ? std::trunc(ideal) : std::round(ideal);
    const std::uint64_t k = std::min<std::uint64_t>(to_u64(r), 0xffffffffULL);
    return static_cast<std::uint32_t>(std::max<std::uint64_t>(k, 1));
  }
  std::vector<std::uint64_t> positions(std::uint64_t m, std::uint32_t k, const Bytes& item) const {
    const std::uint64_t h1 = fnv(item);
    const std::uint64_t h2 = bug == Bug::s02 ? mix(h1) : mix(h1) | 1U;
    std::vector<std::uint64_t> out;
    for (std::uint64_t i = 0; i < k; ++i) out.push_back((bug == Bug::s07 ? h1 : h1 + i * h2) % m);
    return out;
  }

  struct Filter {
    std::uint64_t m = 0;
    std::uint32_t k = 0;
    std::uint64_t n = 0;
    Bytes bits;
  };
  void set(Filter& f, std::uint64_t g) const {
    f.bits[g / 8] = static_cast<std::uint8_t>(f.bits[g / 8] | (1U << (bug == Bug::s03 ? 7 - g % 8 : g % 8)));
  }
  bool get(const Filter& f, std::uint64_t g) const {
    return ((static_cast<unsigned>(f.bits[g / 8]) >> (bug == Bug::s03 ? 7 - g % 8 : g % 8)) & 1U) != 0;
  }
  static bool params_ok(std::uint64_t m, std::uint64_t k) {
    return m >= 1 && m <= (1ULL << 40) && k >= 1 && k <= 65536;
  }
  std::optional<Filter> make(std::uint64_t m, std::uint32_t k) const {
    if (!params_ok(m, k)) return std::nullopt;
    return Filter{m, k, 0, Bytes((m + 7) / 8)};
  }
  // m and k of with_rate(n, p), without allocating the bits.
  std::optional<std::pair<std::uint64_t, std::uint32_t>> with_rate(std::uint64_t n, double p) const {
    if (n < 1 || !(p > 0 && p < 1)) return std::nullopt;
    const std::uint64_t m = opt_m(n, p);
    if (!params_ok(m, opt_k(m, n))) return std::nullopt;
    return std::pair(m, opt_k(m, n));
  }
  void insert(Filter& f, const Bytes& item) const {
    auto g = positions(f.m, f.k, item);
    if (bug == Bug::s06) g.pop_back();
    for (auto x : g) set(f, x);
    f.n = f.n + 1 < f.n ? f.n : f.n + 1;
  }
  bool contains(const Filter& f, const Bytes& item) const {
    for (auto g : positions(f.m, f.k, item)) {
      if (g / 8 >= f.bits.size() || !get(f, g)) return false;
    }
    return true;
  }
  static std::uint64_t le(const Bytes& b, std::size_t at, int len) {
    std::uint64_t v = 0;
    for (int i = len - 1; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
    return v;
  }
  std::optional<Filter> from_bytes(const Bytes& b) const {
    if (b.size() < 32 || b[0] != 'T' || b[1] != 'L' || b[2] != 'B' || b[3] != 'F' || le(b, 4, 4) != 1)
      return std::nullopt;
    const std::uint64_t m = le(b, 8, 8), k = le(b, 16, 4);
    if (!params_ok(m, k) || le(b, 20, 4) != 0) return std::nullopt;
    if (bug != Bug::s09 && b.size() - 32 != (m + 7) / 8) return std::nullopt;
    if (b.size() > 32 && m % 8 != 0 && b.size() - 32 == (m + 7) / 8 && (b.back() >> (m % 8)) != 0)
      return std::nullopt;
    return Filter{m, static_cast<std::uint32_t>(k), le(b, 24, 8), Bytes(b.begin() + 32, b.end())};
  }
  static Bytes to_bytes(const Filter& f) {
    Bytes out = {'T', 'L', 'B', 'F', 1, 0, 0, 0};
    auto put = [&](std::uint64_t v, int len) {
      for (int i = 0; i < len; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    put(f.m, 8);
    put(f.k, 4);
    put(0, 4);
    put(f.n, 8);
    out.insert(out.end(), f.bits.begin(), f.bits.end());
    return out;
  }
  bool merge(Filter& a, const Filter& b) const {
    if (a.m != b.m || a.k != b.k) return false;
    for (std::size_t i = 0; i < a.bits.size() && i < b.bits.size(); ++i) {
      a.bits[i] = static_cast<std::uint8_t>(bug == Bug::s08 ? a.bits[i] & b.bits[i] : a.bits[i] | b.bits[i]);
    }
    if (bug != Bug::s05) a.n = a.n + b.n < a.n ? ~0ULL : a.n + b.n;
    return true;
  }
  static std::uint64_t ones(const Filter& f) {
    std::uint64_t n = 0;
    for (auto b : f.bits) n += static_cast<std::uint64_t>(std::popcount(b));
    return n;
  }
};

Bytes unhex(const json& v) { return *from_hex(v.get<std::string>()); }
double real(const json& v) { return *protocol::read_real(v.get<std::string>()); }
std::string hex(const Bytes& b) { return to_hex(b); }
json error(const char* kind) { return {{"errorKind", kind}}; }

json positions_json(const std::vector<std::uint64_t>& g) { return json(g); }

// The model's outputs for one test, in the vector file's terms.
json evaluate(const Model& model, const std::string& type, const json& t) {
  if (type == "Fnv1a64Test") return {{"hash", protocol::write_hash(model.fnv(unhex(t["item"])))}};
  if (type == "Mix64Test")
    return {
        {"output", protocol::write_hash(Model::mix(*protocol::read_hash(t["input"].get<std::string>())))}};
  if (type == "OptimalMTest") return {{"m", model.opt_m(t["n"], real(t["p"]))}};
  if (type == "OptimalKTest") return {{"k", model.opt_k(t["m"], t["n"])}};
  if (type == "PredictedFpRateTest") return {{"rate", t["rate"]}};  // no planted bug touches it
  if (type == "WithRateTest") {
    const auto f = model.with_rate(t["n"], real(t["p"]));
    return f ? json{{"m", f->first}, {"k", f->second}} : error("BadParams");
  }
  if (type == "PositionsForTest") {
    if (!Model::params_ok(t["m"], t["k"])) return error("BadParams");
    return {{"positions", positions_json(model.positions(t["m"], t["k"], unhex(t["item"])))}};
  }
  if (type == "FilterTest") {
    const json& how = t["construct"];
    const auto sized = how.contains("withRate")
                           ? model.with_rate(how["withRate"]["n"], real(how["withRate"]["p"]))
                           : std::pair<std::uint64_t, std::uint32_t>(how["new"]["m"], how["new"]["k"]);
    auto f = sized ? model.make(sized->first, sized->second) : std::nullopt;
    if (!f) return error("BadParams");
    json seen = json::array();
    for (const auto& item : t["inserts"]) {
      seen.push_back(positions_json(model.positions(f->m, f->k, unhex(item))));
      model.insert(*f, unhex(item));
    }
    json present = json::array();
    for (const auto& probe : t["probes"]) present.push_back(model.contains(*f, unhex(probe)));
    return {{"m", f->m},         {"k", f->k},
            {"positions", seen}, {"countOnes", Model::ones(*f)},
            {"nInserted", f->n}, {"bytes", hex(Model::to_bytes(*f))},
            {"present", present}};
  }
  if (type == "UnionTest") {
    auto left = model.from_bytes(unhex(t["left"]));
    const auto right = model.from_bytes(unhex(t["right"]));
    if (!left || !right) return error("Format");
    if (!model.merge(*left, *right)) return error("Mismatch");
    return {{"bytes", hex(Model::to_bytes(*left))}};
  }
  if (type == "FromBytesTest") {
    const auto f = model.from_bytes(unhex(t["bytes"]));
    if (!f) return error("Format");
    return {{"m", f->m}, {"k", f->k}, {"nInserted", f->n}, {"countOnes", Model::ones(*f)}};
  }
  throw std::invalid_argument("unknown type " + type);
}

// The tcIds (file:tcId) of the vectors whose expected outputs the model
// contradicts. "acceptable" vectors are left out: they cannot fail anyone.
std::vector<std::string> contradicted(Bug bug) {
  const Model model{bug};
  std::vector<std::string> out;
  for (const auto& file : generate()) {
    for (const auto& group : file.doc["testGroups"]) {
      for (const auto& t : group["tests"]) {
        if (t["result"] == "acceptable") continue;
        const json got = evaluate(model, group["type"], t);
        bool differs = false;
        for (const auto& [key, value] : got.items()) differs = differs || !t.contains(key) || t[key] != value;
        if (t.contains("errorKind") != got.contains("errorKind")) differs = true;
        if (differs) out.push_back(file.name + ":" + t["tcId"].dump());
      }
    }
  }
  return out;
}

TEST(PlantedBugs, TheControlModelAgreesWithEveryVector) {
  const auto differing = contradicted(Bug::None);
  EXPECT_TRUE(differing.empty()) << differing.size() << " differ, the first " << differing.front();
}

class EveryPlantedBug : public ::testing::TestWithParam<Bug> {};

// The count docs/vectors.md gives for a bug, from its row "| sNN ... | COUNT |".
int documented_count(Bug bug) {
  std::ifstream in(TLBF_VECTORS_DOC);
  const std::string id = std::string(kBugNames.at(bug)).substr(0, 3);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| " + id + " ", 0) == 0)
      return std::stoi(line.substr(line.rfind('|', line.size() - 2) + 1));
  }
  return -1;
}

TEST_P(EveryPlantedBug, FailsAtLeastOneVector) {
  const auto failing = contradicted(GetParam());
  EXPECT_FALSE(failing.empty()) << kBugNames.at(GetParam()) << " passes every vector";
  EXPECT_EQ(documented_count(GetParam()), static_cast<int>(failing.size()))
      << "docs/vectors.md is out of date";
  std::string list;
  for (std::size_t i = 0; i < failing.size() && i < 5; ++i) list += " " + failing[i];
  RecordProperty("vectors_failed", static_cast<int>(failing.size()));
  std::cout << kBugNames.at(GetParam()) << ": fails " << failing.size() << " vectors, e.g." << list << "\n";
}

INSTANTIATE_TEST_SUITE_P(Vectors, EveryPlantedBug,
                         ::testing::Values(Bug::s01, Bug::s02, Bug::s03, Bug::s04, Bug::s05, Bug::s06,
                                           Bug::s07, Bug::s08, Bug::s09, Bug::s10),
                         [](const auto& param_info) {
                           return std::string(kBugNames.at(param_info.param)).substr(0, 3);
                         });

}  // namespace
}  // namespace tlbf::vectors
