// docs/format.md is the format's one description: its examples must be what
// the oracle does. These tests read the page itself.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "tlbf/oracle.hpp"

namespace tlbf {
namespace {

std::string format_page() {
  std::ifstream in(TLBF_FORMAT_DOC);
  if (!in) throw std::runtime_error("cannot open " TLBF_FORMAT_DOC);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The hex bytes of the code block that follows `marker`, ignoring the
// annotations after each line's bytes.
std::vector<std::uint8_t> hex_block_after(const std::string& page, const std::string& marker) {
  const auto at = page.find(marker);
  if (at == std::string::npos) throw std::runtime_error("marker not found: " + marker);
  const auto open = page.find("```\n", at);
  const auto close = page.find("```", open + 4);
  std::istringstream block(page.substr(open + 4, close - open - 4));
  std::vector<std::uint8_t> out;
  std::string line;
  const std::regex byte_at_start(R"(^\s*([0-9a-f]{2})\b)");
  while (std::getline(block, line)) {
    std::smatch match;
    while (std::regex_search(line, match, byte_at_start)) {
      out.push_back(static_cast<std::uint8_t>(std::stoul(match[1], nullptr, 16)));
      line = match.suffix();
    }
  }
  return out;
}

TEST(FormatDoc, WorkedExampleBytesAreTheOraclesBytes) {
  const auto documented = hex_block_after(format_page(), "The file, 35 bytes:");
  ASSERT_EQ(documented.size(), 35U);
  Bloom filter = test::unwrap(Bloom::with_rate(4, 0.1));
  filter.insert("cat");
  filter.insert("dog");
  EXPECT_EQ(filter.to_bytes(), documented);
}

TEST(FormatDoc, SizingTableRowsHold) {
  // Rows of the form | n | p | ideal m | m | ideal k | k | bit bytes |
  const std::regex row(R"(\| (\d+) \| ([0-9.e-]+) \| [0-9.]+ \| (\d+) \| [0-9.]+ \| (\d+) \| (\d+) \|)");
  const std::string page = format_page();
  int rows = 0;
  for (std::sregex_iterator it(page.begin(), page.end(), row), end; it != end; ++it, ++rows) {
    const auto& match = *it;
    SCOPED_TRACE(match.str());
    const std::uint64_t n = std::stoull(match[1]);
    const double p = std::stod(match[2]);
    const Bloom filter = test::unwrap(Bloom::with_rate(n, p));
    EXPECT_EQ(filter.m(), std::stoull(match[3]));
    EXPECT_EQ(filter.k(), std::stoul(match[4]));
    EXPECT_EQ(filter.bits().size(), std::stoull(match[5]));
  }
  EXPECT_EQ(rows, 6);
}

TEST(FormatDoc, WorkedExamplePositionsTable) {
  // | cat | `f5e307190ce4a327` | `abc55d317f9d6793` | 11, 14, 17 |
  const std::regex row(
      R"(\| (\w+)(?: \(not inserted\))? \| `([0-9a-f]{16})` \| `([0-9a-f]{16})` \| ([0-9, ]+) \|)");
  const std::string page = format_page();
  const Bloom filter = test::unwrap(Bloom::with_rate(4, 0.1));
  int rows = 0;
  for (std::sregex_iterator it(page.begin(), page.end(), row), end; it != end; ++it, ++rows) {
    const auto& match = *it;
    const std::string item = match[1];
    SCOPED_TRACE(item);
    const std::uint64_t h1 = fnv1a64(item);
    EXPECT_EQ(h1, std::stoull(match[2], nullptr, 16));
    EXPECT_EQ(mix64(h1) | 1U, std::stoull(match[3], nullptr, 16));
    std::vector<std::uint64_t> positions;
    std::istringstream list(match[4]);
    for (std::string g; std::getline(list, g, ',');) positions.push_back(std::stoull(g));
    EXPECT_EQ(filter.bit_positions(item), positions);
  }
  EXPECT_EQ(rows, 3);
}

}  // namespace
}  // namespace tlbf
