// judge.hpp: the one definition of an acceptable answer. Hand-made answers
// for each flag's zone, right and wrong, and the agreement of that definition
// with the vectors' `acceptable` results and the rule cases.
#include "tlbf/conformance/judge.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tlbf/conformance/cases.hpp"
#include "tlbf/conformance/rule_cases.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::conformance {
namespace {

// The verdict on `got` as the answer to the last of `requests`; the earlier
// requests are answered as the oracle answers them.
Verdict verdict_after(const std::vector<std::string>& requests, const std::string& got) {
  Judge judge;
  for (std::size_t i = 0; i + 1 < requests.size(); ++i) {
    judge.expect(requests[i]);
    judge.judge(judge.oracle_answer());
  }
  judge.expect(requests.back());
  return judge.judge(got).verdict;
}

Verdict verdict(const std::string& request, const std::string& got) { return verdict_after({request}, got); }

constexpr auto Match = Verdict::Match;
constexpr auto Acceptable = Verdict::Acceptable;
constexpr auto Mismatch = Verdict::Mismatch;

TEST(Judge, OutOfDomainSizingMayBeRefusedOrAnyNumber) {
  // docs/format.md: optimal_m(4, NaN) = 0 (Rust's `as` turns NaN into 0).
  EXPECT_EQ(verdict("optimal_m 4 nan", "ok 0"), Match);
  EXPECT_EQ(verdict("optimal_m 4 nan", "err BadParams p is NaN"), Acceptable);
  EXPECT_EQ(verdict("optimal_m 0 0.1", "ok 1"), Acceptable);
  EXPECT_EQ(verdict("optimal_m 4 nan", "err Format no"), Mismatch);
  EXPECT_EQ(verdict("optimal_m 4 nan", "ok -1"), Mismatch);
  EXPECT_EQ(verdict("optimal_m 4 nan", "ok 1 2"), Mismatch);
  // In the domain only the documented answer is right: 19.17 bits make 20.
  EXPECT_EQ(verdict("optimal_m 4 0.1", "ok 20"), Match);
  EXPECT_EQ(verdict("optimal_m 4 0.1", "ok 19"), Mismatch);
  EXPECT_EQ(verdict("optimal_m 4 0.1", "err BadParams no"), Mismatch);
  // k beyond u32 (2^40 / 1 * ln 2 = 7.6e11) may saturate at another width; 762123384 (n = 1000) may not.
  // Whatever the width, the answer is a k, and a k is a u32 (docs/protocol.md, section 2).
  EXPECT_EQ(verdict("optimal_k 1099511627776 1", "ok 65535"), Acceptable);
  EXPECT_EQ(verdict("optimal_k 1099511627776 1", "ok 4294967295"), Match);
  EXPECT_EQ(verdict("optimal_k 1099511627776 1", "ok 762123384786"), Mismatch);
  EXPECT_EQ(verdict("optimal_k 1099511627776 1", "ok 18446744073709551615"), Mismatch);
  EXPECT_EQ(verdict("optimal_k 1099511627776 1000", "ok 65535"), Mismatch);
  EXPECT_EQ(verdict("optimal_k 5 0", "err BadParams n = 0"), Acceptable);
  EXPECT_EQ(verdict("predicted_fp_rate 0 0 0", "err BadParams m = 0"), Acceptable);
  EXPECT_EQ(verdict("predicted_fp_rate 0 0 0", "ok 0.5"), Acceptable);
  EXPECT_EQ(verdict("predicted_fp_rate 20 3 2", "err BadParams"), Mismatch);
  EXPECT_EQ(verdict("predicted_fp_rate 0 0 0", "ok banana"), Mismatch);
}

TEST(Judge, LogLastBitAllowsTheNeighbouringM) {
  // docs/vectors.md, sizing tcId 12: the ideal is exactly 20.0; a log one ulp off gives 21.
  EXPECT_EQ(verdict("optimal_m 4 0.09051270335250715", "ok 20"), Match);
  EXPECT_EQ(verdict("optimal_m 4 0.09051270335250715", "ok 21"), Acceptable);
  EXPECT_EQ(verdict("optimal_m 4 0.09051270335250715", "ok 22"), Mismatch);
  // with_rate there: ok either way, and the filter's m is open afterwards.
  EXPECT_EQ(verdict_after({"with_rate f 4 0.09051270335250715", "info f"}, "ok 21 3 0"), Acceptable);
  EXPECT_EQ(verdict_after({"with_rate f 4 0.1", "info f"}, "ok 21 3 0"), Mismatch);
}

TEST(Judge, KAboveMaxKMayBeAcceptedAndLeavesTheFilterOpen) {
  Judge judge;
  judge.expect("new f 20 65537");
  EXPECT_EQ(judge.zone(), "StrictKBound");
  EXPECT_EQ(judge.judge("ok").verdict, Acceptable);
  EXPECT_TRUE(judge.reads_open_filter("info f"));
  EXPECT_FALSE(judge.reads_open_filter("info g"));
  EXPECT_FALSE(judge.reads_open_filter("drop f"));  // dropping it is how a caller closes it
  judge.expect("info f");
  EXPECT_EQ(judge.judge("ok 20 65537 0").verdict, Acceptable);
  judge.expect("info f");
  EXPECT_EQ(judge.judge("err Format what").verdict, Mismatch);  // not an answer info can give
  judge.expect("new f 20 3");
  EXPECT_EQ(judge.judge("ok").verdict, Match);
  EXPECT_FALSE(judge.reads_open_filter("info f"));
  judge.expect("info f");
  EXPECT_EQ(judge.judge("ok 20 4 0").verdict, Mismatch);

  // k = 0 and m = 0 are wrong wherever k is.
  EXPECT_EQ(verdict("new f 20 0", "ok"), Mismatch);
  EXPECT_EQ(verdict("new f 0 65537", "ok"), Mismatch);
  // A refusal of the right kind is the oracle's own answer.
  EXPECT_EQ(verdict("new f 20 65537", "err BadParams k"), Match);

  // The header of from_bytes tcId 30 (k = 65537) and one with k = 0.
  const std::string k65537 = "544c424601000000140000000000000001000100000000000200000000000000096802";
  const std::string k0 = "544c424601000000140000000000000000000000000000000200000000000000096802";
  EXPECT_EQ(verdict("from_bytes f " + k65537, "ok"), Acceptable);
  EXPECT_EQ(verdict("from_bytes f " + k0, "ok"), Mismatch);
  // A file wrong in more than its k: a bad magic too.
  std::string two_faults = k65537;
  two_faults[0] = '0';
  EXPECT_EQ(verdict("from_bytes f " + two_faults, "ok"), Mismatch);
}

TEST(Judge, PositionsForAKAboveMaxKAreTheKPositions) {
  // Position i is (h1 + i * h2) mod m, wrapping at 2^64 (docs/format.md), with h1 = FNV-1a of
  // the item and h2 = mix64(h1) | 1; for cat in m = 20 they begin 11, 14, 17 (the worked example).
  const std::uint64_t h1 = fnv1a64(std::string_view("cat")), h2 = mix64(h1) | 1;
  std::string right = "ok";
  for (std::uint64_t i = 0; i < 65537; ++i) right += " " + std::to_string((h1 + i * h2) % 20);
  ASSERT_EQ(right.rfind("ok 11 14 17 ", 0), 0u);
  Judge judge;
  judge.expect("positions_for 20 65537 636174");
  EXPECT_EQ(judge.zone(), "StrictKBound");
  EXPECT_GE(judge.longest_answer(), right.size());
  EXPECT_GE(longest_acceptable_answer("positions_for 20 65537 636174"), right.size());
  EXPECT_EQ(judge.judge(right).verdict, Acceptable);
  const std::string one_short = right.substr(0, right.rfind(' '));
  EXPECT_EQ(verdict("positions_for 20 65537 636174", one_short), Mismatch);
  std::string last_wrong = one_short + " " + std::to_string(((h1 + 65536 * h2) % 20 + 1) % 20);
  EXPECT_EQ(verdict("positions_for 20 65537 636174", last_wrong), Mismatch);
}

TEST(Judge, CountsPastTheMaximumMayWrapOrBeRefused) {
  // Union tcId 9: counts 2^64 - 2 and 5; docs/format.md saturates, wrapping gives 3.
  const std::string left = "544c42460100000008000000000000000100000000000000feffffffffffffff00";
  const std::string right = "544c4246010000000800000000000000010000000000000005000000000000000f";
  const std::string saturated = "544c42460100000008000000000000000100000000000000ffffffffffffffff0f";
  const std::string wrapped =
      "544c42460100000008000000000000000100000000000000"
      "0300000000000000"
      "0f";
  const std::vector<std::string> setup = {"from_bytes a " + left, "from_bytes b " + right};
  auto judge_union = [&](const std::string& union_answer, const std::string& bytes_answer) {
    Judge judge;
    for (const auto& r : setup) {
      judge.expect(r);
      judge.judge("ok");
    }
    judge.expect("union a b");
    EXPECT_EQ(judge.zone(), "CountSaturates");
    const Verdict on_union = judge.judge(union_answer).verdict;
    judge.expect("to_bytes a");
    return std::pair{on_union, judge.judge(bytes_answer).verdict};
  };
  EXPECT_EQ(judge_union("ok", "ok " + saturated), (std::pair{Match, Match}));
  EXPECT_EQ(judge_union("ok", "ok " + wrapped), (std::pair{Match, Acceptable}));
  EXPECT_EQ(judge_union("err BadParams count", "ok " + left), (std::pair{Acceptable, Acceptable}));
  EXPECT_EQ(judge_union("err Format count", "ok " + left).first, Mismatch);
  EXPECT_EQ(judge_union("ok", "ok").second, Mismatch);  // to_bytes must still give bytes

  // Counts that do not overflow: the count must be the sum.
  Judge judge;
  judge.expect("from_bytes a " + right);
  judge.judge("ok");
  judge.expect("union a a");
  EXPECT_EQ(judge.zone(), "");
  judge.judge("ok");
  judge.expect("info a");
  EXPECT_EQ(judge.judge("ok 8 1 5").verdict, Mismatch);
}

TEST(Judge, AnAnswerWithAByteOutsidePrintableAsciiIsNeverRight) {
  // docs/protocol.md: an error's message is printable ASCII, and no "\r" is written.
  EXPECT_EQ(verdict("hell\xe9", "err Protocol framing"), Match);
  EXPECT_EQ(verdict("hell\xe9", "err Protocol framing in hell\xe9"), Mismatch);
  EXPECT_EQ(verdict("hello", "ok 1 tlbf\r"), Mismatch);
  EXPECT_EQ(verdict("new a 0 1", std::string("err BadParams m\0", 16)), Mismatch);
  // Not even where other answers are acceptable (OutOfDomain allows err BadParams).
  EXPECT_EQ(verdict("optimal_m 4 nan", "err BadParams p = nan"), Acceptable);
  EXPECT_EQ(verdict("optimal_m 4 nan", "err BadParams p = nan\x7f"), Mismatch);
  Judge judge;
  judge.expect("frobnicate");
  const Judgement j = judge.judge("err Unknown frobnicate\x80");
  EXPECT_NE(j.reason.find("byte 23 of the answer, 0x80, is not printable ASCII"), std::string::npos)
      << j.reason;
  // The patterns refuse it too, so a case that compares by pattern alone does.
  EXPECT_TRUE(mismatch("err Unknown", "err Unknown frobnicate\x80").has_value());
  EXPECT_TRUE(mismatch("ok", "ok\r").has_value());
  EXPECT_FALSE(mismatch("err Unknown", "err Unknown frobnicate ~!").has_value());
  EXPECT_FALSE(unprintable_in(" !~ok").has_value());
  EXPECT_TRUE(unprintable_in("\t").has_value());
  EXPECT_TRUE(unprintable_in("\xff").has_value());
}

TEST(Judge, PatternsAreTheTranscriptPatterns) {
  EXPECT_EQ(pattern_for("info x", "err NoSuchFilter no filter named x"), "err NoSuchFilter");
  EXPECT_EQ(pattern_for("predicted_fp_rate 20 3 2", "ok 0.017410586496326586"), "ok ~0.017410586496326586");
  EXPECT_EQ(pattern_for("optimal_m 4 0.1", "ok 20"), "ok 20");
}

// Every request of `c` answered as the oracle answers it: the flags of the zones it passes through.
std::set<std::string> zones_of(const Case& c) {
  std::set<std::string> flags;
  Judge judge;
  for (const auto& step : c.steps) {
    judge.expect(step.request);
    if (!judge.zone().empty()) flags.insert(judge.zone());
    judge.judge(judge.oracle_answer());
  }
  return flags;
}

TEST(Judge, AgreesWithTheVectorsAcceptableResults) {
  // A vector test is `acceptable` exactly when one of its requests lies where judge.hpp
  // allows other answers, under one of the test's own flags.
  int acceptable = 0;
  for (const auto& c : cases_from_vectors(vectors::generate())) {
    const auto zones = zones_of(c);
    EXPECT_EQ(c.acceptable, !zones.empty()) << c.name << " (flags " << c.why << ")";
    for (const auto& flag : zones) EXPECT_NE(c.why.find(flag), std::string::npos) << c.name << ": " << flag;
    acceptable += c.acceptable;
  }
  EXPECT_EQ(acceptable, 22);  // docs/vectors.md, the table of files: 16 + 1 + 2 + 1 + 2
}

TEST(Judge, AgreesWithTheRuleCases) {
  for (const auto& c : deterministic_cases()) {
    const auto zones = zones_of(c);
    EXPECT_EQ(c.acceptable, !zones.empty()) << c.name;
  }
}

}  // namespace
}  // namespace tlbf::conformance
