// What answer is right, and what answer is acceptable, to each request of a
// session: the one definition that the vectors' cases, the rule cases, the
// model-based sequences, transcript replay and fuzz_diff all judge with.
//
// The oracle's answer is always right. Where docs/format.md decides something
// the course specification leaves open, other answers are acceptable too
// (docs/vectors.md, the flags of type DECISION and PLATFORM; docs/check.md,
// "What is acceptable"):
//
//   OutOfDomain    optimal_m with n = 0, p outside (0, 1) or an m that
//                  saturates at 2^64 - 1; optimal_k with n = 0 or a k that
//                  saturates at 2^32 - 1; predicted_fp_rate with m = 0: any
//                  answer of the command's form, or err BadParams.
//   LogLastBit     optimal_m where log(p) one ulp off changes m: those m.
//                  with_rate with such n and p: ok, and the filter's m is open
//                  among those m; its k and bits follow from its m.
//   StrictKBound   k above 65536 and nothing else wrong: new and from_bytes
//                  may answer ok (the filter then has the k given);
//                  positions_for may answer the k positions.
//   CountSaturates union whose counts add past 2^64 - 1: ok (saturated or
//                  wrapped), err BadParams or err Mismatch. After ok the
//                  filter's count is open and its bits are F OR G; after an
//                  error it is as it was.
//   CannotAllocate new and with_rate of a valid filter of more than
//                  kAllocationMayFailAbove bits: ok, or err BadParams when
//                  the machine cannot allocate the bits (docs/format.md,
//                  section 8). The judge does not hand such a request to the
//                  oracle, whose answer would depend on the machine: it
//                  expects ok, and after ok keeps the filter itself, its
//                  bits sparse. Never an answer missing or a session ended.
//
// A filter is "open" after an acceptable answer that leaves a field of its
// state undecided, and only that field is: the judge keeps each state the
// filter may be in (the oracle's filter, the filters of the other m, a
// filter of k above 65536, each with its count open or not), judges every
// read of it against those states, and drops a state an answer rules out.
// A request that replaces or drops the filter, answered as the oracle
// answers, closes it. Where the judge cannot hold the states (k above 2^20,
// a union of a filter of another m or of k above 65536 with one of its own
// m and k), the filter is open whole, as before: a read of it may get any
// answer of the command's form or an err NoSuchFilter, Mismatch or
// BadParams. Callers that choose their requests (the model, fuzz_diff) do
// not send requests that read an open filter: its k may be in the billions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/conformance/difference.hpp"
#include "tlbf/protocol/oracle_session.hpp"

namespace tlbf::conformance {

enum class Verdict { Match, Acceptable, Mismatch };

// new and with_rate of more bits than this (a bit array above 4 GiB) may be
// refused with err BadParams by a machine that cannot allocate them
// (CannotAllocate). Below it the check expects every machine it runs on to
// hold the filter: the large filters (docs/check.md) go up to 2^33 + 3.
constexpr std::uint64_t kAllocationMayFailAbove = std::uint64_t{1} << 35;

struct Judgement {
  Verdict verdict = Verdict::Match;
  std::string flag;    // Acceptable: the vectors' flag that allows the difference
  std::string reason;  // Acceptable: what was allowed; Mismatch: what differs
};

// One session's requests in order, each judged against the oracle's answer in
// the state the requests before it left. Each request goes through expect()
// and then judge() with the implementation's answer.
class Judge {
 public:
  // Advances the oracle by `request` and returns the pattern (docs/protocol.md,
  // section 7) its answer gives: `err KIND`, `ok ~X` for a rate, else exact.
  const std::string& expect(std::string_view request);
  // The oracle's answer to the request last passed to expect(), whole.
  const std::string& oracle_answer() const { return oracle_answer_; }
  // What answers other than the oracle's the request last passed to expect()
  // allows: docs/check.md's table of acceptable answers, as data. The
  // alternatives wheat (alternatives.hpp) answers from it.
  struct Latitude {
    std::string flag;                          // empty: only the oracle's answer is right
    std::string allows;                        // for reasons: "err BadParams, or ok and a u64"
    std::set<std::string, std::less<>> exact;  // whole answers allowed
    std::set<std::string, std::less<>> err_kinds;
    bool any_ok_form = false;          // any `ok` answer of the command's form
    std::string opens;                 // a filter an answer in the zone leaves open
    bool opens_when_matching = false;  // ... even the oracle's own answer
    std::size_t longest = 0;           // bytes of the longest allowed answer
  };

  const Latitude& latitude() const { return latitude_; }
  // The flag under which answers other than the oracle's are acceptable to
  // that request; empty when only the oracle's is.
  const std::string& zone() const { return latitude_.flag; }
  // What answers other than the oracle's that request allows, for people
  // ("err BadParams, or ok and a u64"); empty when only the oracle's is.
  const std::string& allows() const { return latitude_.allows; }
  // The most bytes an answer to that request may have and still be right or
  // acceptable (without the slack of kAnswerSlack).
  std::size_t longest_answer() const;
  // Judges the implementation's answer to the request last passed to expect(),
  // and records which filters that answer leaves open.
  Judgement judge(std::string_view got);

  // True when the pattern alone decides the answer to the request last passed
  // to expect(): no latitude and no open filter, so an answer is right exactly
  // when mismatch() (transcript.hpp) finds nothing, and judging the oracle's
  // answer leaves the state any right answer would. Callers may then judge
  // with the oracle's answer at once and check the real one later against
  // the pattern (the model pipelines its requests so).
  bool pattern_decides() const { return latitude_.flag.empty() && open_.empty(); }
  // True when `request` reads a filter left open by an acceptable answer.
  bool reads_open_filter(std::string_view request) const;

  // A filter the oracle does not hold: a k above MAX_K, or an m of a log one
  // ulp off. Its set bits are kept sparse, so its m costs nothing.
  struct Shadow {
    std::uint64_t m = 0;
    std::uint32_t k = 0;
    std::uint64_t count = 0;
    std::set<std::uint64_t> ones;
  };
  // The states an open filter may be in.
  struct OpenFilter {
    std::string flag;            // of the acceptable answer that opened it
    bool oracle_holds = true;    // the oracle's filter of that name is one
    bool count_open = false;     // any count, in each state (CountSaturates)
    std::vector<Shadow> others;  // the others, decided but for count_open
                                 // (CannotAllocate: the documents' first)
    bool whole = false;          // beyond the judge: judged by form only
  };

 private:
  bool allowed(const Latitude& latitude, std::string_view got) const;
  // The parts of expect(): each sets latitude_ for the requests of its kind.
  void allow_error_or_any_ok(std::string flag, const std::string& what);
  void allow_by_state_before(const std::vector<std::string_view>& words);
  void allow_by_sizing(const std::vector<std::string_view>& words);
  void allow_k_above_the_bound(const std::vector<std::string_view>& words);
  void allow_file_with_k_above_the_bound(const std::vector<std::string_view>& words);
  // new or with_rate of a filter that may not be allocated: answered here,
  // without the oracle. False for any other request.
  bool allow_failed_allocation(const std::vector<std::string_view>& words);
  // The parts of judge(): a request on a filter that is not open, one on an
  // open filter, and what an acceptable answer leaves open.
  Judgement judge_closed(const std::vector<std::string_view>& words, std::string_view got);
  Judgement judge_open(const std::vector<std::string_view>& words, std::string_view got);
  Judgement judge_open_union(const std::vector<std::string_view>& words, std::string_view got);
  Judgement judge_whole(const std::vector<std::string_view>& words, std::string_view got);
  void open_after(const std::vector<std::string_view>& words, std::string_view got);
  void settle(const std::string& name);
  bool touches_open(const std::vector<std::string_view>& words) const;

  protocol::OracleSession oracle_;
  std::map<std::string, OpenFilter, std::less<>> open_;
  std::string request_, oracle_answer_, pattern_;
  std::string before_union_;  // the union target's file before it, to restore after a refusal
  Latitude latitude_;
};

// A filter the oracle does not hold, as the judge keeps it (Judge::Shadow),
// for the alternatives wheat (alternatives.hpp), which answers from the same
// definition. shadow_answer: its answer to a request that reads or writes it
// (info, count_ones, insert, drop, to_bytes, contains, positions; for an
// insert its answer only: shadow_insert sets the bits), nullopt when that
// answer is too long for a line.
// shadow_insert: the item's bits set and the count raised, saturating.
// shadow_from_file: the filter a valid file but for its k describes.
std::optional<std::string> shadow_answer(const Judge::Shadow& s, const std::vector<std::string_view>& words);
void shadow_insert(Judge::Shadow& s, std::span<const std::uint8_t> item);
Judge::Shadow shadow_from_file(const std::vector<std::uint8_t>& file);

// Why `answer` cannot be a response line for its bytes alone, or nullopt. A
// finding about the implementation, so a Difference and not a Failure
// (difference.hpp).
// Every byte of a response is printable ASCII, 0x20 to 0x7e: its values are,
// an error's MESSAGE is (docs/protocol.md, section 3), and no "\r" is
// written (section 1). No answer with another byte is right or acceptable,
// whatever its words: mismatch() (transcript.hpp) and Judge::judge refuse it.
std::optional<Difference> unprintable_in(std::string_view answer);

// The pattern a response must match to be the oracle's `answer` to `request`.
std::string pattern_for(std::string_view request, std::string_view answer);

// The most bytes an acceptable answer to `request` can have, in any state; 0
// when no answer other than the oracle's is acceptable. For answer limits.
std::size_t longest_acceptable_answer(std::string_view request);

}  // namespace tlbf::conformance
