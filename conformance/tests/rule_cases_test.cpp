// The deterministic cases of `tlbf check` (src/rule_cases.cpp): each one is
// passed by the oracle, their names are unique, and the corpus is all there.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "tlbf/conformance/judge.hpp"
#include "tlbf/conformance/rule_cases.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {
namespace {

// The oracle's answer to a step's line, its fill handed over `piece` bytes at a time.
std::string answer_in_pieces(protocol::OracleSession& oracle, const Step& step, std::size_t piece) {
  oracle.add(step.request);
  const std::string fill(piece, step.fill.byte);
  for (std::size_t left = step.fill.count; left > 0; left -= std::min(left, piece))
    oracle.add(std::string_view(fill).substr(0, std::min(left, piece)));
  return oracle.finish();
}

// The first step of `c` that a fresh oracle session answers against its pattern, or "".
// Where the machine decides (a filter of 2^40 bits that it cannot allocate,
// CannotAllocate), the oracle's err BadParams, and what follows from it, is
// held to the judge instead.
// A step with a fill is handed to the oracle in pieces of an odd size and
// judged by its pattern alone, as the runner judges it (Step::fill).
std::string first_miss(const Case& c) {
  protocol::OracleSession oracle;
  Judge judge;
  bool refused_allocation = false;
  for (const auto& step : c.steps) {
    if (step.fill.count > 0) {
      const std::string got = answer_in_pieces(oracle, step, 99'991);
      if (auto why = mismatch(step.pattern, got)) return shown_request(step) + ": " + why->what;
      continue;
    }
    const std::string got = oracle.handle(step.request);
    judge.expect(step.request);
    const Judgement j = judge.judge(got);
    refused_allocation =
        refused_allocation || (j.verdict == Verdict::Acceptable && j.flag == "CannotAllocate");
    if (auto why = mismatch(step.pattern, got)) {
      if (refused_allocation && j.verdict != Verdict::Mismatch) continue;
      return step.request.substr(0, 80) + ": " + why->what;
    }
  }
  return "";
}

TEST(RuleCases, TheOraclePassesEveryCase) {
  // The stated patterns come from the documents: this is where the oracle is held to them.
  auto cases = deterministic_cases().value();  // a file that does not parse fails the test here
  for (const auto& c : cases) EXPECT_EQ(first_miss(c), "") << c.name;
}

TEST(RuleCases, NamesAreUniqueAndInTheirFamilies) {
  std::set<std::string> seen;
  auto cases = deterministic_cases().value();  // a file that does not parse fails the test here
  for (auto& c : cases) {
    const bool late = static_cast<bool>(c.make_steps);
    const auto stated = c.needs;  // by hand, for a case that makes its steps late
    make_steps_now(c);
    if (late) {
      std::set<Capability> derived;
      for (const auto& step : c.steps) {
        if (auto cap = capability_of(std::string_view(step.request).substr(0, step.request.find(' '))))
          derived.insert(*cap);
      }
      EXPECT_EQ(stated, derived) << c.name << ": the capabilities it needs, set by hand, are not its steps'";
    }
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
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(TLBF_FROM_BYTES_CORPUS))
    ++files;
  const auto cases = corpus_cases();
  EXPECT_EQ(cases.size(), files);
  std::size_t loading = 0;
  for (const auto& c : cases) loading += c.steps.size() > 1;
  EXPECT_GT(loading, 10u);  // valid files are read back with info, count_ones and to_bytes
  EXPECT_LT(loading, cases.size());
}

TEST(RuleCases, TheLongestRequestIsAbove16MiBAndWithinTheLimit) {
  auto cases = rule_cases().value();
  for (auto& c : cases) {
    if (c.name != "protocol/framing/line_above_16mib") continue;
    ASSERT_EQ(c.steps.size(), 1u);
    const Step& step = c.steps[0];
    EXPECT_GT(step.fill.count, std::size_t{16} << 20) << "a fill, so that tlbf check never holds the line";
    EXPECT_EQ(step.request.size() + step.fill.count + 1, (std::size_t{16} << 20) + (std::size_t{64} << 10));
    EXPECT_EQ(shown_request(step), "contains absent_long aaaaaaaa...[16842751 bytes in all]");
    return;
  }
  FAIL() << "no case protocol/framing/line_above_16mib";
}

TEST(RuleCases, TheLargeGroupsLineIsJustUnder64MiBAndTheOracleAnswersItAsItsPattern) {
  for (auto& c : large_cases()) {
    if (c.name != "large/line_just_under_64mib") continue;
    ASSERT_EQ(c.steps.size(), 1u);
    const Step& step = c.steps[0];
    EXPECT_EQ(step.request.size() + step.fill.count + 1, (std::size_t{64} << 20) - 4096);
    EXPECT_LE(step.request.size() + step.fill.count + 1, protocol::MAX_LINE);
    EXPECT_EQ(step.pattern, "err NoSuchFilter");
    EXPECT_EQ(first_miss(c), "");
    return;
  }
  FAIL() << "no case large/line_just_under_64mib";
}

TEST(RuleCases, AStepWithAFillIsTheOnlyStepOfItsCase) {
  // The runner judges such a step by its pattern alone, with no judge walking
  // the steps before or after it (Step::fill).
  auto cases = deterministic_cases().value();
  for (auto& c : large_cases()) cases.push_back(std::move(c));
  std::size_t filled = 0;
  // A case that makes its steps late makes them from DraftSteps, which have
  // no fill, and making them costs seconds (a birthday search): not made here.
  for (const auto& c : cases) {
    for (const auto& step : c.steps) {
      if (step.fill.count == 0) continue;
      ++filled;
      EXPECT_EQ(c.steps.size(), 1u) << c.name;
    }
  }
  EXPECT_EQ(filled, 2u) << "protocol/framing/line_above_16mib and large/line_just_under_64mib";
}

// end_of_input_case() on shell one-liners that stand in for implementations.
std::optional<Finding> last_line_finding(const std::string& command) {
  Budget budget;
  budget.first_answer = Millis(5'000);
  return end_of_input_case().run_alone(command, budget);
}

TEST(RuleCases, ALastLineWithoutItsNewlineMustBeAnswered) {
  // `read` sets the line at end of input even without its "\n".
  EXPECT_FALSE(last_line_finding("read line; [ \"$line\" = hello ] && echo 'ok 1 sh'").has_value());
  // A loop on `read` drops the unterminated last line.
  const auto dropped = last_line_finding("while read line; do echo 'ok 1 sh'; done");
  ASSERT_TRUE(dropped.has_value());
  EXPECT_NE(dropped->reason.find("it wrote nothing"), std::string::npos) << dropped->reason;
  const auto bad_exit = last_line_finding("cat >/dev/null; echo 'ok 1 sh'; exit 3");
  ASSERT_TRUE(bad_exit.has_value());
  EXPECT_NE(bad_exit->reason.find("it answered, but then ended with exit 3"), std::string::npos)
      << bad_exit->reason;
  const auto wrong = last_line_finding("cat >/dev/null; echo 'err Protocol'");
  ASSERT_TRUE(wrong.has_value());
  EXPECT_NE(wrong->reason.find("its answer is wrong"), std::string::npos) << wrong->reason;
  const auto two = last_line_finding("cat >/dev/null; echo 'ok 1 sh'; echo 'ok 1 sh'");
  ASSERT_TRUE(two.has_value());
  EXPECT_NE(two->reason.find("more than one line"), std::string::npos) << two->reason;
  const auto unterminated = last_line_finding("cat >/dev/null; printf 'ok 1 sh'");
  ASSERT_TRUE(unterminated.has_value());
  EXPECT_NE(unterminated->reason.find("has no \\n at its end"), std::string::npos) << unterminated->reason;
  EXPECT_FALSE(unterminated->fault.has_value());
  EXPECT_FALSE(end_of_input_case().run);  // a case of its own process, not of the Session
}

}  // namespace
}  // namespace tlbf::conformance
