#include "test_types.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "codec.hpp"
#include "tlbf/oracle.hpp"
#include "tlbf/protocol/log_last_bit.hpp"

namespace tlbf::vectors {
namespace {

using protocol::m_alternatives;

json error_kind(const Error& e) { return json{{"errorKind", std::string(to_string(e.kind))}}; }

json positions_json(const std::vector<std::uint64_t>& positions) {
  json out = json::array();
  for (auto g : positions) out.push_back(g);
  return out;
}

// Loads a filter file given as hex, for tests whose inputs are files.
Bloom load(const json& value) {
  auto loaded = Bloom::from_bytes(bytes_of(value));
  if (!loaded) throw std::invalid_argument("input filter refused: " + loaded.error().describe());
  return std::move(loaded).value();
}

json fnv(const json& t) { return {{"hash", hash(fnv1a64(bytes_of(t["item"])))}}; }

json mix(const json& t) { return {{"output", hash(mix64(hash_of(t["input"])))}}; }

json opt_m(const json& t) {
  const auto n = t["n"].get<std::uint64_t>();
  const double p = real_of(t["p"]);
  json out = {{"m", optimal_m(n, p)}};
  const auto alternatives = m_alternatives(n, p);
  if (!alternatives.empty()) out["alternatives"] = alternatives;
  return out;
}

json opt_k(const json& t) {
  return {{"k", optimal_k(t["m"].get<std::uint64_t>(), t["n"].get<std::uint64_t>())}};
}

json rate(const json& t) {
  return {{"rate", real(predicted_fp_rate(t["m"].get<std::uint64_t>(), t["k"].get<std::uint32_t>(),
                                          t["n"].get<std::uint64_t>()))}};
}

json with_rate(const json& t) {
  const auto made = Bloom::with_rate(t["n"].get<std::uint64_t>(), real_of(t["p"]));
  if (!made) return error_kind(made.error());
  return {{"m", made.value().m()}, {"k", made.value().k()}};
}

json positions(const json& t) {
  const auto m = t["m"].get<std::uint64_t>();
  const auto k = t["k"].get<std::uint32_t>();
  // The same ranges as a filter has; checked without allocating one.
  if (m < 1 || m > MAX_BITS || k < 1 || k > MAX_K) return {{"errorKind", "BadParams"}};
  return {{"positions", positions_json(positions_for(m, k, bytes_of(t["item"])))}};
}

json filter(const json& t) {
  const json& how = t["construct"];
  if (how.size() != 1) throw std::invalid_argument("construct needs exactly one of withRate, new");
  Result<Bloom> made =
      how.contains("withRate")
          ? Bloom::with_rate(how["withRate"]["n"].get<std::uint64_t>(), real_of(how["withRate"]["p"]))
          : Bloom::create(how.at("new")["m"].get<std::uint64_t>(), how["new"]["k"].get<std::uint32_t>());
  if (!made) return error_kind(made.error());
  Bloom& bloom = made.value();
  json positions = json::array();
  for (const json& item : t["inserts"]) {
    const auto bytes = bytes_of(item);
    positions.push_back(positions_json(bloom.bit_positions(bytes)));
    bloom.insert(bytes);
  }
  json present = json::array();
  for (const json& probe : t["probes"]) present.push_back(bloom.contains(bytes_of(probe)));
  return {{"m", bloom.m()},
          {"k", bloom.k()},
          {"positions", positions},
          {"countOnes", bloom.count_ones()},
          {"nInserted", bloom.n_inserted()},
          {"bytes", hex(bloom.to_bytes())},
          {"present", present}};
}

json union_of(const json& t) {
  Bloom left = load(t["left"]);
  const Status merged = left.union_with(load(t["right"]));
  if (!merged) return error_kind(merged.error());
  return {{"bytes", hex(left.to_bytes())}};
}

json from_bytes(const json& t) {
  const auto loaded = Bloom::from_bytes(bytes_of(t["bytes"]));
  if (!loaded) return error_kind(loaded.error());
  const Bloom& b = loaded.value();
  return {{"m", b.m()}, {"k", b.k()}, {"nInserted", b.n_inserted()}, {"countOnes", b.count_ones()}};
}

const std::map<std::string, TestType>& registry() {
  static const std::map<std::string, TestType> types = [] {
    std::map<std::string, TestType> m;
    for (TestType t : std::vector<TestType>{
             {"Fnv1a64Test", {"item"}, fnv},
             {"Mix64Test", {"input"}, mix},
             {"OptimalMTest", {"n", "p"}, opt_m},
             {"OptimalKTest", {"m", "n"}, opt_k},
             {"PredictedFpRateTest", {"m", "k", "n"}, rate},
             {"WithRateTest", {"n", "p"}, with_rate},
             {"PositionsForTest", {"m", "k", "item"}, positions},
             {"FilterTest", {"construct", "inserts", "probes"}, filter},
             {"UnionTest", {"left", "right"}, union_of},
             {"FromBytesTest", {"bytes"}, from_bytes},
         }) {
      m.emplace(t.name, std::move(t));
    }
    return m;
  }();
  return types;
}

}  // namespace

const TestType& test_type(const std::string& name) {
  const auto found = registry().find(name);
  if (found == registry().end()) throw std::invalid_argument("unknown test group type '" + name + "'");
  return found->second;
}

bool ideal_m_depends_on_last_bit_of_log(std::uint64_t n, double p) { return !m_alternatives(n, p).empty(); }

json complete_test(const TestType& type, const json& test, const std::vector<std::string>& lenient_flags) {
  json out;
  out["tcId"] = test.at("tcId");
  out["comment"] = test.at("comment");
  out["flags"] = test.at("flags");
  for (const auto& key : type.inputs) out[key] = test.at(key);
  const json outputs = type.compute(out);
  for (const auto& [key, value] : outputs.items()) out[key] = value;

  bool lenient = false;
  for (const auto& flag : out["flags"]) {
    lenient = lenient || std::find(lenient_flags.begin(), lenient_flags.end(), flag.get<std::string>()) !=
                             lenient_flags.end();
  }
  out["result"] = lenient ? "acceptable" : outputs.contains("errorKind") ? "invalid" : "valid";
  return out;
}

}  // namespace tlbf::vectors
