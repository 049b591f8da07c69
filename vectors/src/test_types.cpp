#include "test_types.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <variant>

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
Outcome<Bloom> load(const json& value) {
  const auto bytes = bytes_of(value);
  if (!bytes) return bytes.failure();
  auto loaded = Bloom::from_bytes(bytes.value());
  if (!loaded) return failure("input filter refused: " + loaded.error().describe());
  return std::move(loaded).value();
}

Outcome<json> fnv(const json& t) {
  const auto item = bytes_of(t["item"]);
  if (!item) return item.failure();
  return json{{"hash", hash(fnv1a64(item.value()))}};
}

Outcome<json> mix(const json& t) {
  const auto input = hash_of(t["input"]);
  if (!input) return input.failure();
  return json{{"output", hash(mix64(input.value()))}};
}

Outcome<json> opt_m(const json& t) {
  const auto n = t["n"].get<std::uint64_t>();
  const auto p = real_of(t["p"]);
  if (!p) return p.failure();
  json out = {{"m", optimal_m(n, p.value())}};
  const auto alternatives = m_alternatives(n, p.value());
  if (!alternatives.empty()) out["alternatives"] = alternatives;
  return out;
}

Outcome<json> opt_k(const json& t) {
  return json{{"k", optimal_k(t["m"].get<std::uint64_t>(), t["n"].get<std::uint64_t>())}};
}

Outcome<json> rate(const json& t) {
  return json{{"rate", real(predicted_fp_rate(t["m"].get<std::uint64_t>(), t["k"].get<std::uint32_t>(),
                                              t["n"].get<std::uint64_t>()))}};
}

Outcome<json> with_rate(const json& t) {
  const auto p = real_of(t["p"]);
  if (!p) return p.failure();
  const auto made = Bloom::with_rate(t["n"].get<std::uint64_t>(), p.value());
  if (!made) return error_kind(made.error());
  return json{{"m", made.value().m()}, {"k", made.value().k()}};
}

Outcome<json> positions(const json& t) {
  const auto m = t["m"].get<std::uint64_t>();
  const auto k = t["k"].get<std::uint32_t>();
  // The same ranges as a filter has; checked without allocating one.
  if (m < 1 || m > MAX_BITS || k < 1 || k > MAX_K) return json{{"errorKind", "BadParams"}};
  const auto item = bytes_of(t["item"]);
  if (!item) return item.failure();
  return json{{"positions", positions_json(positions_for(m, k, item.value()))}};
}

// A filter made, or its error's kind as a test's outputs.
using Made = std::variant<Bloom, json>;
Made made_or_refused(Result<Bloom> made) {
  if (!made) return error_kind(made.error());
  return std::move(made).value();
}

// The filter a FilterTest's "construct" makes, or its error's kind.
Outcome<Made> construct(const json& how) {
  if (how.size() != 1) return failure("construct needs exactly one of withRate, new");
  if (how.contains("withRate")) {
    const auto p = real_of(how["withRate"]["p"]);
    if (!p) return p.failure();
    return made_or_refused(Bloom::with_rate(how["withRate"]["n"].get<std::uint64_t>(), p.value()));
  }
  return made_or_refused(
      Bloom::create(how.at("new")["m"].get<std::uint64_t>(), how["new"]["k"].get<std::uint32_t>()));
}

Outcome<json> filter(const json& t) {
  auto made = construct(t["construct"]);
  if (!made) return made.failure();
  if (auto* refused = std::get_if<json>(&made.value())) return *refused;
  Bloom& bloom = std::get<Bloom>(made.value());
  json positions = json::array();
  for (const json& item : t["inserts"]) {
    const auto bytes = bytes_of(item);
    if (!bytes) return bytes.failure();
    positions.push_back(positions_json(bloom.bit_positions(bytes.value())));
    bloom.insert(bytes.value());
  }
  json present = json::array();
  for (const json& probe : t["probes"]) {
    const auto bytes = bytes_of(probe);
    if (!bytes) return bytes.failure();
    present.push_back(bloom.contains(bytes.value()));
  }
  return json{{"m", bloom.m()},
              {"k", bloom.k()},
              {"positions", positions},
              {"countOnes", bloom.count_ones()},
              {"nInserted", bloom.n_inserted()},
              {"bytes", hex(bloom.to_bytes())},
              {"present", present}};
}

Outcome<json> union_of(const json& t) {
  auto left = load(t["left"]);
  if (!left) return left.failure();
  const auto right = load(t["right"]);
  if (!right) return right.failure();
  const Status merged = left.value().union_with(right.value());
  if (!merged) return error_kind(merged.error());
  return json{{"bytes", hex(left.value().to_bytes())}};
}

Outcome<json> from_bytes(const json& t) {
  const auto bytes = bytes_of(t["bytes"]);
  if (!bytes) return bytes.failure();
  const auto loaded = Bloom::from_bytes(bytes.value());
  if (!loaded) return error_kind(loaded.error());
  const Bloom& b = loaded.value();
  return json{{"m", b.m()}, {"k", b.k()}, {"nInserted", b.n_inserted()}, {"countOnes", b.count_ones()}};
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

Outcome<const TestType*> test_type(const std::string& name) {
  const auto found = registry().find(name);
  if (found == registry().end()) return failure("unknown test group type '" + name + "'");
  return &found->second;
}

bool ideal_m_depends_on_last_bit_of_log(std::uint64_t n, double p) { return !m_alternatives(n, p).empty(); }

Outcome<json> complete_test(const TestType& type, const json& test,
                            const std::vector<std::string>& lenient_flags) {
  json out;
  out["tcId"] = test.at("tcId");
  out["comment"] = test.at("comment");
  out["flags"] = test.at("flags");
  for (const auto& key : type.inputs) out[key] = test.at(key);
  const auto computed = type.compute(out);
  if (!computed) return computed.failure();
  const json& outputs = computed.value();
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
