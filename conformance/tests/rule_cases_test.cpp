// The deterministic cases of `tlbf check` (src/rule_cases.cpp): each one is
// passed by the oracle, their names are unique, and the corpus is all there.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "tlbf/conformance/rule_cases.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/protocol/session.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {
namespace {

// The first step of `c` that a fresh oracle session answers against its pattern, or "".
std::string first_miss(const Case& c) {
  protocol::OracleSession oracle;
  for (const auto& step : c.steps) {
    const std::string got = oracle.handle(step.request);
    if (auto why = mismatch(step.pattern, got)) return step.request.substr(0, 80) + ": " + *why;
  }
  return "";
}

TEST(RuleCases, TheOraclePassesEveryCase) {
  // The stated patterns come from the documents: this is where the oracle is held to them.
  for (const auto& c : deterministic_cases()) EXPECT_EQ(first_miss(c), "") << c.name;
}

TEST(RuleCases, NamesAreUniqueAndInTheirFamilies) {
  std::set<std::string> seen;
  for (const auto& c : deterministic_cases()) {
    EXPECT_TRUE(seen.insert(c.name).second) << "two cases named " << c.name;
    const auto family = c.name.substr(0, c.name.find('/'));
    EXPECT_TRUE(family == "protocol" || family == "format" || family == "items" || family == "state" ||
                family == "corpus")
        << c.name;
    EXPECT_FALSE(c.steps.empty()) << c.name;
  }
}

TEST(RuleCases, AStatedPatternTheOracleDoesNotGiveIsCaught) {
  // The check above can fail: a pattern the oracle does not answer is reported.
  const Case wrong = case_from_draft("x", {{"optimal_m 4 0.1", "ok 21"}});
  EXPECT_NE(first_miss(wrong), "");
  const Case asked = case_from_draft("x", {{"new f 20 3", ""}, {"info f", ""}, {"union f nobody", ""}});
  ASSERT_EQ(asked.steps.size(), 3u);
  EXPECT_EQ(asked.steps[1].pattern, "ok 20 3 0");
  EXPECT_EQ(asked.steps[2].pattern, "err NoSuchFilter");  // the kind only, as the runner compares
  EXPECT_EQ(asked.needs, (std::set<Capability>{Capability::Filter, Capability::Union}));
}

TEST(RuleCases, EveryCorpusEntryIsReplayed) {
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(TLBF_FROM_BYTES_CORPUS)) ++files;
  const auto cases = corpus_cases();
  EXPECT_EQ(cases.size(), files);
  std::size_t loading = 0;
  for (const auto& c : cases) loading += c.steps.size() > 1;
  EXPECT_GT(loading, 10u);  // valid files are read back with info, count_ones and to_bytes
  EXPECT_LT(loading, cases.size());
}

TEST(RuleCases, TheLongestRequestIsAbove16MiBAndWithinTheLimit) {
  for (const auto& c : rule_cases()) {
    if (c.name != "protocol/framing/line_above_16mib") continue;
    EXPECT_GT(c.steps.at(0).request.size() + 1, std::size_t{16} << 20);
    EXPECT_LE(c.steps.at(0).request.size() + 1, protocol::MAX_LINE);
    return;
  }
  FAIL() << "no case protocol/framing/line_above_16mib";
}

}  // namespace
}  // namespace tlbf::conformance
