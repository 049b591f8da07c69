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

// The verdicts on a session's answers, each request paired with the answer
// the implementation gave; "=" stands for the oracle's own answer.
std::vector<Verdict> verdicts(const std::vector<std::pair<std::string, std::string>>& exchanges) {
  Judge judge;
  std::vector<Verdict> out;
  for (const auto& [request, got] : exchanges) {
    judge.expect(request);
    out.push_back(judge.judge(got == "=" ? judge.oracle_answer() : got).verdict);
  }
  return out;
}

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
  // with_rate there: ok either way, and the filter's m is open afterwards (its k follows:
  // round(21 / 4 * ln 2) = 4).
  EXPECT_EQ(verdict_after({"with_rate f 4 0.09051270335250715", "info f"}, "ok 21 4 0"), Acceptable);
  EXPECT_EQ(verdict_after({"with_rate f 4 0.1", "info f"}, "ok 21 4 0"), Mismatch);
}

TEST(Judge, LogLastBitIsOneUlpOffTheCorrectlyRoundedLogNotTwo) {
  // Issue 38's example (sizing tcId 58): the correctly rounded ln p gives
  // ...720 (so does one ulp below it), one ulp above gives ...592; log2(p) *
  // LN2 is two ulps off and gives ...464 (vectors/tests/check_correctly_rounded_log.py
  // confirms all three with a 60-digit log).
  const std::string request = "optimal_m 3000000000000000000 0.88250758042393684";
  EXPECT_EQ(verdict(request, "ok 780437817280590720"), Match);
  EXPECT_EQ(verdict(request, "ok 780437817280590592"), Acceptable);
  EXPECT_EQ(verdict(request, "ok 780437817280590464"), Mismatch);
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
  // A refusal changes nothing (docs/protocol.md, section 4): F is as it was, exactly.
  EXPECT_EQ(judge_union("err BadParams count", "ok " + left), (std::pair{Acceptable, Match}));
  EXPECT_EQ(judge_union("err Mismatch count", "ok " + saturated), (std::pair{Acceptable, Mismatch}));
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

TEST(Judge, AUnionThatSaturatesItsCountStillOrsTheBits) {
  // Union tcId 9 again: a holds count 2^64 - 2 and no bit, b count 5 and bits 0 to 3 (0x0f).
  // docs/format.md, section 9: the bits of a successful union are a OR b; only the count is
  // open. dog's one position in m = 8, k = 1 is its h1 mod 8 = 0x...e9 mod 8 = 1 (the worked
  // example's table), a bit of b; cat's is 0x...27 mod 8 = 7, in neither.
  const std::string left = "544c42460100000008000000000000000100000000000000feffffffffffffff00";
  const std::string right = "544c4246010000000800000000000000010000000000000005000000000000000f";
  const std::string kept_bits = "544c42460100000008000000000000000100000000000000ffffffffffffffff00";
  const std::vector<std::pair<std::string, std::string>> setup = {
      {"from_bytes a " + left, "ok"}, {"from_bytes b " + right, "ok"}, {"union a b", "ok"}};
  auto after_union = [&](std::vector<std::pair<std::string, std::string>> reads) {
    auto all = setup;
    all.insert(all.end(), reads.begin(), reads.end());
    auto v = verdicts(all);
    return std::vector<Verdict>(v.begin() + 3, v.end());
  };
  // The bug of issue 38: the count saturated, the bits left as they were.
  EXPECT_EQ(after_union({{"contains a 646f67", "ok false"}}), (std::vector{Mismatch}));
  EXPECT_EQ(after_union({{"count_ones a", "ok 0"}}), (std::vector{Mismatch}));
  EXPECT_EQ(after_union({{"to_bytes a", "ok " + kept_bits}}), (std::vector{Mismatch}));
  EXPECT_EQ(after_union({{"info a", "ok 8 2 3"}}), (std::vector{Mismatch}));  // k is decided
  // The right reads, and a wrapped count (2^64 - 2 + 5 = 3 mod 2^64), which the count's latitude allows.
  EXPECT_EQ(after_union({{"contains a 646f67", "ok true"},
                         {"contains a 636174", "ok false"},
                         {"count_ones a", "ok 4"},
                         {"info a", "ok 8 1 3"},
                         {"to_bytes a",
                          "ok 544c424601000000080000000000000001000000000000000300000000000000"
                          "0f"},
                         {"insert a 636174", "ok"},
                         {"contains a 636174", "ok true"},
                         {"to_bytes a",
                          "ok 544c424601000000080000000000000001000000000000000400000000000000"
                          "8f"}}),
            (std::vector{Match, Match, Match, Acceptable, Acceptable, Match, Match, Acceptable}));
  // The count stays open through a later union, and the bits still OR: b into a again changes no bit.
  EXPECT_EQ(after_union({{"union a b", "ok"}, {"info a", "ok 8 1 8"}, {"count_ones a", "ok 4"}}),
            (std::vector{Match, Acceptable, Match}));
  // b into which a went: b's count is open now, its bits are 0x0f still, not 0x00.
  EXPECT_EQ(after_union({{"union b a", "ok"},
                         {"info b", "ok 8 1 7"},
                         {"to_bytes b", "ok " + right},
                         {"to_bytes b",
                          "ok 544c424601000000080000000000000001000000000000000500000000000000"
                          "00"}}),
            (std::vector{Match, Acceptable, Acceptable, Mismatch}));
  // Replacing the filter closes it: its count is decided again.
  EXPECT_EQ(after_union({{"new a 8 1", "ok"}, {"info a", "ok 8 1 3"}}), (std::vector{Match, Mismatch}));
}

TEST(Judge, WithRateOfAnotherMHasTheKAndBitsOfThatM) {
  // docs/vectors.md, sizing tcId 12: n = 4 at this p gives m = 20, and a log one ulp off 21.
  // k follows from m: round(20 / 4 * ln 2) = round(3.466) = 3, round(21 / 4 * ln 2) = round(3.639)
  // = 4. cat's positions in m = 21, k = 4 are (h1 + i h2) mod 2^64 mod 21 with the worked
  // example's h1 and h2: 16, 9, 2, 11 (by hand: Python integers), so its bytes are 04 0a 01.
  const std::string rate = "with_rate f 4 0.09051270335250715";
  const std::string m21 = "ok 544c424601000000150000000000000004000000000000000100000000000000040a01";
  // A correct implementation whose log gives 21: everything it says follows from m = 21.
  EXPECT_EQ(verdicts({{rate, "ok"},
                      {"count_ones f", "ok 0"},
                      {"info f", "ok 21 4 0"},
                      {"insert f 636174", "ok"},
                      {"contains f 636174", "ok true"},
                      {"positions f 636174", "ok 16 9 2 11"},
                      {"to_bytes f", m21}}),
            (std::vector{Match, Match, Acceptable, Match, Match, Match, Match}));
  // Before m is known, reads are judged against both; the first that tells decides.
  EXPECT_EQ(verdicts({{rate, "ok"}, {"insert f 636174", "ok"}, {"to_bytes f", m21}, {"info f", "ok 21 4 1"}}),
            (std::vector{Match, Match, Acceptable, Match}));
  EXPECT_EQ(verdicts({{rate, "ok"}, {"insert f 636174", "ok"}, {"to_bytes f", m21}, {"info f", "ok 20 3 1"}}),
            (std::vector{Match, Match, Acceptable, Mismatch}));
  // k does not follow m = 21; an m that is neither; a count that is not the inserts'.
  EXPECT_EQ(verdicts({{rate, "ok"}, {"info f", "ok 21 3 0"}}), (std::vector{Match, Mismatch}));
  EXPECT_EQ(verdicts({{rate, "ok"}, {"info f", "ok 22 4 0"}}), (std::vector{Match, Mismatch}));
  EXPECT_EQ(verdicts({{rate, "ok"}, {"info f", "ok 21 4 1"}}), (std::vector{Match, Mismatch}));
  // m = 21 in the header, but cat's bits set where m = 20, k = 3 puts them (11, 14, 17: 00 48 02).
  EXPECT_EQ(
      verdicts({{rate, "ok"},
                {"insert f 636174", "ok"},
                {"info f", "ok 21 4 1"},
                {"to_bytes f", "ok 544c424601000000150000000000000004000000000000000100000000000000004802"}}),
      (std::vector{Match, Match, Acceptable, Mismatch}));
  EXPECT_EQ(verdicts({{rate, "ok"},
                      {"insert f 636174", "ok"},
                      {"info f", "ok 21 4 1"},
                      {"positions f 636174", "ok 11 14 17"}}),
            (std::vector{Match, Match, Acceptable, Mismatch}));
  // The oracle's m: the alternative is ruled out, and the filter is the oracle's again.
  EXPECT_EQ(verdicts({{rate, "ok"}, {"info f", "ok 20 3 0"}, {"info f", "ok 21 4 0"}}),
            (std::vector{Match, Match, Mismatch}));
}

TEST(Judge, AnAcceptedKAboveMaxKIsTheKGiven) {
  // docs/check.md: after StrictKBound's ok nothing is open. cat's 65,537 positions in m = 20
  // cover all 20 bits (by hand: Python integers, as above), so its bytes are ff ff 0f.
  const std::string file = "544c424601000000140000000000000001000100000000000100000000000000ffff0f";
  EXPECT_EQ(verdicts({{"new f 20 65537", "ok"},
                      {"info f", "ok 20 65537 0"},
                      {"contains f 636174", "ok false"},
                      {"insert f 636174", "ok"},
                      {"contains f 636174", "ok true"},
                      {"count_ones f", "ok 20"},
                      {"to_bytes f", "ok " + file},
                      {"union f f", "ok"},
                      {"drop f", "ok"},
                      {"info f", "="}}),
            (std::vector{Acceptable, Acceptable, Acceptable, Acceptable, Acceptable, Acceptable, Acceptable,
                         Acceptable, Acceptable, Match}));
  // Stored clamped to 65536, or not stored at all.
  EXPECT_EQ(verdicts({{"new f 20 65537", "ok"}, {"info f", "ok 20 65536 0"}}),
            (std::vector{Acceptable, Mismatch}));
  EXPECT_EQ(
      verdicts({{"new f 20 65537", "ok"},
                {"insert f 636174", "ok"},
                {"to_bytes f", "ok 544c424601000000140000000000000000000100000000000100000000000000ffff0f"}}),
      (std::vector{Acceptable, Acceptable, Mismatch}));
  EXPECT_EQ(verdicts({{"new f 20 65537", "ok"}, {"info f", "err NoSuchFilter f"}}),
            (std::vector{Acceptable, Mismatch}));
  EXPECT_EQ(verdicts({{"new f 20 65537", "ok"}, {"drop f", "err NoSuchFilter f"}}),
            (std::vector{Acceptable, Mismatch}));
  // It replaced the f before it: that f's state is gone.
  EXPECT_EQ(verdicts({{"new f 20 3", "ok"},
                      {"insert f 636174", "ok"},
                      {"new f 20 65537", "ok"},
                      {"count_ones f", "ok 3"}}),
            (std::vector{Match, Match, Acceptable, Mismatch}));
  // Its k is no other filter's: a union with a filter of k = 3 is Mismatch, both ways.
  EXPECT_EQ(verdicts({{"new g 20 3", "ok"}, {"new f 20 65537", "ok"}, {"union g f", "ok"}}),
            (std::vector{Match, Acceptable, Mismatch}));
  EXPECT_EQ(verdicts({{"new g 20 3", "ok"},
                      {"new f 20 65537", "ok"},
                      {"union f g", "err Mismatch m k"},
                      {"info f", "ok 20 65537 0"}}),
            (std::vector{Match, Acceptable, Acceptable, Acceptable}));
  // A file of k = 65537 loads as it is (from_bytes tcId 30's header, two items' bits).
  const std::string k65537 = "544c424601000000140000000000000001000100000000000200000000000000096802";
  EXPECT_EQ(
      verdicts(
          {{"from_bytes f " + k65537, "ok"}, {"to_bytes f", "ok " + k65537}, {"info f", "ok 20 65537 2"}}),
      (std::vector{Acceptable, Acceptable, Acceptable}));
  EXPECT_EQ(verdicts({{"from_bytes f " + k65537, "ok"}, {"count_ones f", "ok 5"}}),
            (std::vector{Acceptable, Mismatch}));
}

TEST(Judge, AFilterTheMachineMayNotAllocateIsOkOrBadParams) {
  // docs/check.md, CannotAllocate: new and with_rate of more than 2^35 bits.
  // The judge expects ok, whatever this machine's oracle would answer (its
  // mmap of 128 GiB fails here), and asks the oracle nothing.
  const std::string big = "1099511627776";  // 2^40
  Judge judge;
  EXPECT_EQ(judge.expect("new f " + big + " 1"), "ok");
  EXPECT_EQ(judge.zone(), "CannotAllocate");
  // cat's one position at k = 1 is h1 mod 2^40: f5e307190ce4a327's low 40
  // bits, 0x190ce4a327 = 107590492967.
  EXPECT_EQ(verdicts({{"new f " + big + " 1", "ok"},
                      {"info f", "ok " + big + " 1 0"},
                      {"contains f 636174", "ok false"},
                      {"insert f 636174", "ok"},
                      {"contains f 636174", "ok true"},
                      {"positions f 636174", "ok 107590492967"},
                      {"count_ones f", "ok 1"},
                      {"info f", "ok " + big + " 1 1"},
                      {"drop f", "ok"},
                      {"info f", "="}}),
            (std::vector{Match, Match, Match, Match, Match, Match, Match, Match, Match, Match}));
  // optimal_m(576524084580, 0.4) = 2^40, and its k is 1.
  EXPECT_EQ(verdicts({{"with_rate g 576524084580 0.4", "ok"}, {"info g", "ok " + big + " 1 0"}}),
            (std::vector{Match, Match}));
  // Refused: no filter was made, and one of that name is as it was.
  EXPECT_EQ(verdicts({{"new f " + big + " 1", "err BadParams could not allocate"}, {"info f", "="}}),
            (std::vector{Acceptable, Match}));
  EXPECT_EQ(
      verdicts(
          {{"new f 20 3", "ok"}, {"with_rate f 576524084580 0.4", "err BadParams"}, {"info f", "ok 20 3 0"}}),
      (std::vector{Match, Acceptable, Match}));
  // Made, then read wrong; refused with another kind; made and then forgotten.
  EXPECT_EQ(verdicts({{"new f " + big + " 1", "ok"}, {"info f", "ok 1099511627775 1 0"}}),
            (std::vector{Match, Mismatch}));
  EXPECT_EQ(verdicts({{"new f " + big + " 1", "ok"}, {"contains f 636174", "ok true"}}),
            (std::vector{Match, Mismatch}));
  EXPECT_EQ(verdict("new f " + big + " 1", "err Format"), Mismatch);
  EXPECT_EQ(verdicts({{"new f " + big + " 1", "ok"}, {"info f", "err NoSuchFilter"}}),
            (std::vector{Match, Mismatch}));
  // Small filters are every machine's: BadParams there is wrong. Above the
  // bound, BadParams is the only answer.
  EXPECT_EQ(verdict("new f 64 3", "err BadParams"), Mismatch);
  EXPECT_EQ(verdict("new f 1099511627777 1", "ok"), Mismatch);
  EXPECT_EQ(verdict("new f 1099511627777 1", "err BadParams"), Match);
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
  EXPECT_EQ(acceptable, 31);  // docs/vectors.md, the table of files: 25 + 1 + 2 + 1 + 2
}

TEST(Judge, AgreesWithTheRuleCases) {
  auto cases = deterministic_cases().value();  // a file that does not parse fails the test here
  for (const auto& c : cases) {
    const auto zones = zones_of(c);
    EXPECT_EQ(c.acceptable, !zones.empty()) << c.name;
  }
}

}  // namespace
}  // namespace tlbf::conformance
