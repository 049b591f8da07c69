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

// The largest k and m of a filter of a k above 65536 this session makes: the
// judge keeps k positions up to 2^20 (judge.cpp), and to_bytes of m bits must
// fit a line with room to spare.
constexpr std::uint32_t kLargestShadowK = std::uint32_t{1} << 20;
constexpr std::uint64_t kLargestShadowM = std::uint64_t{1} << 24;

bool creates(std::string_view command) {
  return command == "new" || command == "with_rate" || command == "from_bytes";
}

}  // namespace

AlternativesSession::AlternativesSession(std::uint64_t seed, std::string hello)
    : seed_(seed), hello_(std::move(hello)) {}

std::string AlternativesSession::handle(std::string_view line) {
  judge_.expect(line);
  const Judge::Latitude& latitude = judge_.latitude();
  std::string answer;
  const auto words = protocol::split_words(line);
  const bool made_before = words && words->size() >= 2 && shadows_.count((*words)[1]) != 0;
  if (words && touches_shadow(*words)) {
    answer = shadow_request(line, *words);
  } else if (latitude.flag.empty() || !words || words->empty()) {
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
  // A filter made by the oracle's rules replaces one of a k above 65536.
  if (made_before && answer == "ok" && creates((*words)[0]) && latitude.flag != "StrictKBound")
    shadows_.erase(std::string((*words)[1]));
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
  if (l.flag == "StrictKBound" && (c == "new" || c == "from_bytes")) return accept_k_above_the_bound(w);
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

// new F M K or from_bytes F FILE whose only fault is a k above 65536: ok,
// and F holds that k, unless it is too large to keep.
std::string AlternativesSession::accept_k_above_the_bound(const Words& w) {
  Judge::Shadow made;
  if (w[0] == "new") {
    made = Judge::Shadow{*protocol::read_u64(w[2]), *protocol::read_u32(w[3]), 0, {}};
  } else {
    made = shadow_from_file(*protocol::read_bytes(w[2]));
  }
  if (made.k > kLargestShadowK || made.m > kLargestShadowM) return judge_.oracle_answer();
  impl_.handle("drop " + std::string(w[1]));  // the filter it replaces, if any
  shadows_[std::string(w[1])] = std::move(made);
  return "ok";
}

// Whether the request reads, writes or drops a filter of a k above 65536.
bool AlternativesSession::touches_shadow(const Words& w) const {
  if (w.size() < 2 || creates(w[0])) return false;
  return shadows_.count(w[1]) != 0 || (w[0] == "union" && w.size() == 3 && shadows_.count(w[2]) != 0);
}

// A request on a filter of a k above 65536: the oracle's checks of the
// request's form first (it answers NoSuchFilter once the form is right,
// changing nothing), then the filter as the judge keeps one.
std::string AlternativesSession::shadow_request(std::string_view line, const Words& w) {
  const std::string form = impl_.handle(line);
  if (form.rfind("err Protocol", 0) == 0 || form.rfind("err Unknown", 0) == 0) return form;
  if (w[0] == "union") return shadow_union(w);
  Judge::Shadow& s = shadows_.find(w[1])->second;
  if (w[0] == "drop") {
    shadows_.erase(std::string(w[1]));
    return "ok";
  }
  if (w[0] == "insert") shadow_insert(s, *protocol::read_bytes(w[2]));
  const auto answer = shadow_answer(s, w);
  return answer ? *answer : form;
}

// union T S with T or S of a k above 65536: T becomes T OR S where both are
// such filters of one m and k; else Mismatch (no filter the oracle holds has
// such a k), or NoSuchFilter for a name no filter has.
std::string AlternativesSession::shadow_union(const Words& w) {
  const auto exists = [this](std::string_view name) {
    return shadows_.count(name) != 0 || impl_.handle("info " + std::string(name)).rfind("ok ", 0) == 0;
  };
  if (!exists(w[1]) || !exists(w[2])) return "err NoSuchFilter no filter of that name";
  const auto t = shadows_.find(w[1]), s = shadows_.find(w[2]);
  if (t == shadows_.end() || s == shadows_.end() || t->second.m != s->second.m || t->second.k != s->second.k)
    return "err Mismatch the filters' m or k differ";
  const Judge::Shadow source = s->second;  // a copy: union F F doubles F's count
  t->second.ones.insert(source.ones.begin(), source.ones.end());
  const std::uint64_t room = ~std::uint64_t{0} - t->second.count;
  t->second.count +=
      source.count < room ? source.count : room;  // the count saturates (docs/format.md, section 9)
  return "ok";
}

}  // namespace tlbf::conformance
