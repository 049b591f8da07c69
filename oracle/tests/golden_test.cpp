// The oracle against ten cases computed by a second implementation, written
// in Python from docs/format.md (golden/make_golden.py). Agreement of two
// implementations that share no code is the evidence; neither side's output
// was pasted into the other.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.hpp"
#include "tlbf/hex.hpp"
#include "tlbf/oracle.hpp"

namespace tlbf {
namespace {

using nlohmann::json;

std::vector<std::uint8_t> hex(const json& text) {
  auto decoded = from_hex(text.get<std::string>());
  if (!decoded) throw std::runtime_error("bad hex in golden file: " + text.get<std::string>());
  return *decoded;
}

json load_cases() {
  std::ifstream in(TLBF_GOLDEN_CASES);
  if (!in) throw std::runtime_error("cannot open " TLBF_GOLDEN_CASES);
  return json::parse(in)["cases"];
}

Bloom make_filter(const json& c) {
  if (c.contains("with_rate")) {
    const double p = std::stod(c["with_rate"]["p"].get<std::string>());
    return test::unwrap(Bloom::with_rate(c["with_rate"]["n"].get<std::uint64_t>(), p));
  }
  return test::unwrap(
      Bloom::create(c["create"]["m"].get<std::uint64_t>(), c["create"]["k"].get<std::uint32_t>()));
}

TEST(Golden, TenCasesAgreeWithTheIndependentImplementation) {
  const json cases = load_cases();
  ASSERT_EQ(cases.size(), 10U);
  for (const json& c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Bloom filter = make_filter(c);
    EXPECT_EQ(filter.m(), c["m"].get<std::uint64_t>());
    EXPECT_EQ(filter.k(), c["k"].get<std::uint32_t>());

    const json& items = c["items"];
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto item = hex(items[i]);
      EXPECT_EQ(filter.bit_positions(item), c["positions"][i].get<std::vector<std::uint64_t>>());
      filter.insert(item);
    }
    const auto want = hex(c["bytes"]);
    EXPECT_EQ(filter.to_bytes(), want);

    const Bloom reloaded = test::unwrap(Bloom::from_bytes(want));
    for (const json& probe : c["probes"]) {
      const auto item = hex(probe["item"]);
      EXPECT_EQ(filter.contains(item), probe["present"].get<bool>()) << probe["item"];
      EXPECT_EQ(reloaded.contains(item), probe["present"].get<bool>()) << probe["item"];
    }
  }
}

}  // namespace
}  // namespace tlbf
