// The alternatives wheat: a correct implementation of TLBF v1 that, wherever
// the documents allow several answers, gives one the oracle does not
// (docs/mutants.md, "The wheats"; docs/check.md, "What is acceptable").
//
// Which answers are allowed is not written here: each request goes through a
// Judge (judge.hpp), the definition `tlbf check` judges with, and its
// latitude() is the table this session picks from. It answers one that
// neither the oracle nor the lenient wheat (mutants/wheats/*/lenient, in
// every kit) gives, where there is one, so that the three together give
// every kind of answer the documents allow in every grading. Which one, where
// several are left, is a hash of the request and a seed: the same request
// always gets the same answer under one seed, as a correct implementation's
// would, and another seed picks others:
//
//   OutOfDomain     ok and a value of the answer's form (a u64, a u32, a
//                   real) other than the oracle's (lenient: err BadParams).
//   LogLastBit      optimal_m: an m of a log one ulp off; with_rate: a filter
//                   of that m, with k = optimal_k(m, n).
//   StrictKBound    positions_for of a k above 65536: the k positions; new
//                   and from_bytes: ok, the filter with that k, kept as the
//                   judge keeps one (Judge::Shadow). Only up to k = 2^20
//                   (the judge keeps no more) and, for a filter, m = 2^24
//                   (its to_bytes must fit a line); above, the refusal.
//   CountSaturates  err BadParams or err Mismatch (the oracle saturates,
//                   lenient wraps).
//   CannotAllocate  err BadParams: no filter made.
//
// Everything else is the oracle's answer, and every answer after one of
// these follows from it: a filter made with another m, or whose count
// wrapped, stays so.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/conformance/judge.hpp"
#include "tlbf/protocol/oracle_session.hpp"

namespace tlbf::conformance {

// A request answered otherwise than the oracle would, for the report.
struct AlternativeTaken {
  std::string request;  // the request, cut to 200 bytes
  std::string answer;   // what this session answered, cut to 200 bytes
  std::string flag;     // the judge's flag that allows it
  std::string allows;   // the answers the judge allows besides the oracle's
};

class AlternativesSession {
 public:
  // `hello`: the answer to hello ("" for the oracle's), so that a served
  // wheat answers it as every other subject served in the oracle's form.
  explicit AlternativesSession(std::uint64_t seed, std::string hello = "");
  // The response line to one request line, as OracleSession::handle.
  std::string handle(std::string_view line);
  // Each request answered otherwise than the oracle would, in order.
  const std::vector<AlternativeTaken>& taken() const { return taken_; }

 private:
  std::string other_answer(std::string_view line, const std::vector<std::string_view>& words);
  std::string out_of_domain(std::string_view command);
  std::string with_rate_of_another_m(std::string_view line, const std::vector<std::string_view>& words);
  std::string union_past_the_count() const;
  std::string accept_k_above_the_bound(const std::vector<std::string_view>& words);
  bool touches_shadow(const std::vector<std::string_view>& words) const;
  std::string shadow_request(std::string_view line, const std::vector<std::string_view>& words);
  std::string shadow_union(const std::vector<std::string_view>& words);

  Judge judge_;
  protocol::OracleSession impl_;  // this implementation's filters
  // Its filters of a k above 65536, which the oracle cannot hold, by name.
  std::map<std::string, Judge::Shadow, std::less<>> shadows_;
  std::uint64_t seed_;
  std::uint64_t hash_ = 0;  // of the request being answered, with the seed
  std::string hello_;
  std::vector<AlternativeTaken> taken_;
};

}  // namespace tlbf::conformance
