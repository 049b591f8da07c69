#include "tlbf/conformance/alternatives.hpp"

#include <array>
#include <optional>
#include <utility>

#include "tlbf/bloom.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/protocol/log_last_bit.hpp"
#include "tlbf/protocol/values.hpp"
#include "tlbf/sizing.hpp"

namespace tlbf::conformance {
namespace {

using Words = std::vector<std::string_view>;

}  // namespace

AlternativesSession::AlternativesSession(std::uint64_t seed, std::string hello)
    : seed_(seed), hello_(std::move(hello)) {}

std::string AlternativesSession::handle(std::string_view line) {
  judge_.expect(line);
  const Judge::Latitude& latitude = judge_.latitude();
  std::string answer;
  const auto words = protocol::split_words(line);
  if (latitude.flag.empty() || !words || words->empty()) {
    answer = impl_.handle(line);
    if (!hello_.empty() && answer.rfind("ok 1 ", 0) == 0 && words && words->size() == 1 &&
        (*words)[0] == "hello") {
      answer = hello_;
    }
  } else {
    hash_ = mix64(fnv1a64(line) ^ mix64(seed_));
    answer = other_answer(line, *words);
    if (answer != judge_.oracle_answer()) {
      taken_.push_back({readable(line, 200), readable(answer, 200), latitude.flag, latitude.allows});
    }
  }
  // The judge follows every answer, so that it knows which filters an
  // answer left open (a with_rate of another m) when later requests read them.
  (void)judge_.judge(answer);
  return answer;
}

// An answer the latitude allows other than the oracle's, where this session
// has one; the oracle's answer (its own filters changed alike) where not.
std::string AlternativesSession::other_answer(std::string_view line, const Words& w) {
  const Judge::Latitude& l = judge_.latitude();
  const std::string_view c = w[0];
  if (l.flag == "OutOfDomain") return out_of_domain(c);
  if (l.flag == "LogLastBit" && c == "optimal_m" && !l.exact.empty()) {
    auto pick = l.exact.begin();
    std::advance(pick, static_cast<long>(hash_ % l.exact.size()));
    return *pick;
  }
  if (l.flag == "LogLastBit" && c == "with_rate") return with_rate_of_another_m(line, w);
  if (l.flag == "StrictKBound" && c == "positions_for" && !l.exact.empty()) return *l.exact.begin();
  if (l.flag == "CountSaturates") return union_past_the_count();
  if (l.flag == "CannotAllocate") return "err BadParams this machine cannot allocate the filter's bits";
  return impl_.handle(line);
}

// ok and a value of the command's form other than the oracle's. Not err
// BadParams, which the lenient wheat answers there: so a suite that takes
// only the oracle's value or an error fails one of the two in every grading.
std::string AlternativesSession::out_of_domain(std::string_view command) {
  const std::string& oracle = judge_.oracle_answer();
  const std::uint64_t value = mix64(hash_);
  std::array<std::string, 2> candidates;
  if (command == "optimal_m") {
    candidates = {"ok " + std::to_string(value), "ok " + std::to_string(value + 1)};
  } else if (command == "optimal_k") {
    const auto k = static_cast<std::uint32_t>(value);
    candidates = {"ok " + std::to_string(k), "ok " + std::to_string(k + 1u)};
  } else {
    const double rate = static_cast<double>(value >> 11) * 0x1p-53;  // in [0, 1)
    candidates = {"ok " + protocol::write_real(rate), "ok " + protocol::write_real(rate + 0.5)};
  }
  return candidates[0] != oracle ? candidates[0] : candidates[1];
}

// with_rate F N P where a log one ulp off changes m: F made with that m, and
// k = optimal_k(m, N), as an implementation whose log differs would.
std::string AlternativesSession::with_rate_of_another_m(std::string_view line, const Words& w) {
  std::vector<std::uint64_t> ms;
  const std::uint64_t n = *protocol::read_u64(w[2]);
  for (const auto m : protocol::m_alternatives(n, *protocol::read_real(w[3]))) {
    if (m >= 1 && m <= MAX_BITS) ms.push_back(m);
  }
  if (ms.empty()) return impl_.handle(line);
  const std::uint64_t m = ms[hash_ % ms.size()];
  const std::string made = impl_.handle("new " + std::string(w[1]) + " " + std::to_string(m) + " " +
                                        std::to_string(optimal_k(m, n)));
  return made == "ok" ? made : impl_.handle(line);
}

// union T S whose counts add past 2^64 - 1: refused, err BadParams or err
// Mismatch, which changes nothing. Not ok: the oracle saturates the count
// and the lenient wheat wraps it.
std::string AlternativesSession::union_past_the_count() const {
  return hash_ & 1 ? "err BadParams the counts add past 2^64 - 1"
                   : "err Mismatch the counts add past 2^64 - 1";
}

}  // namespace tlbf::conformance
