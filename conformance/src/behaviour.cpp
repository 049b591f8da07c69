#include "tlbf/conformance/behaviour.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "tlbf/conformance/readable.hpp"
#include "tlbf/hex.hpp"

namespace tlbf::conformance {
namespace {

constexpr int kItems = 5000;     // the spec's no_false_negatives size
constexpr int kDesignN = 10000;  // fp_rate_within_three_sigma: items inserted
constexpr int kFresh = 100000;   // and fresh items probed,
constexpr int kSlice = 10000;    // so many at a time
static_assert(kFresh % kSlice == 0);

// Distinct items, as hex: a tag, a serial number, and random bytes. The
// false-positive check makes 110,000 of them, so they are written straight
// into their hex, and `prefix` (a request's words before the item) with them.
std::vector<std::string> items(std::mt19937_64& rng, int count, const std::string& tag,
                               const std::string& prefix = "") {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const std::string serial = std::to_string(i);
    // 0 to 16 random bytes, from two draws.
    const std::uint64_t extra = rng() % 17, random[2] = {rng(), rng()};
    std::string& request = out.emplace_back();
    request.resize(prefix.size() + 2 * (tag.size() + serial.size() + 2 + extra));
    char* at = request.data();
    at = std::copy(prefix.begin(), prefix.end(), at);
    const auto put = [&at](unsigned char byte) {
      *at++ = kDigits[byte >> 4];
      *at++ = kDigits[byte & 0xF];
    };
    for (const char c : tag) put(static_cast<unsigned char>(c));
    put(':');
    for (const char c : serial) put(static_cast<unsigned char>(c));
    put(':');
    for (std::uint64_t j = 0; j < extra; ++j) put(static_cast<unsigned char>(random[j / 8] >> (8 * (j % 8))));
  }
  return out;
}

std::vector<std::string> each(const std::string& prefix, const std::vector<std::string>& items) {
  std::vector<std::string> out;
  out.reserve(items.size());
  for (const auto& item : items) {
    std::string& request = out.emplace_back();
    request.reserve(prefix.size() + item.size());
    request = prefix;
    request += item;
  }
  return out;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// What a behavioural check returns: nothing, or the Difference it found, a
// fact about the implementation that the case reports as its finding
// (difference.hpp), never tlbf unable to go on.
using Check = std::optional<Difference>;

// Sends requests that must all be answered `want`; names the first that is not.
Check expect_all(Conversation& send, const std::vector<std::string>& requests, const std::string& want) {
  const auto got = send(requests);
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want)
      return Difference{readable(requests[i], 80) + " was answered " + readable(got[i], 80) + ", want '" +
                        want + "'"};
  }
  return std::nullopt;
}

// "ok A B C" -> {A, B, C} as integers; nullopt if it is not that shape.
std::optional<std::vector<std::uint64_t>> numbers(const std::string& response, std::size_t count) {
  std::istringstream in(response);
  std::string ok;
  in >> ok;
  if (ok != "ok") return std::nullopt;
  std::vector<std::uint64_t> out;
  for (std::uint64_t v; in >> v;) out.push_back(v);
  if (out.size() != count || !in.eof()) return std::nullopt;
  return out;
}

// A filter sized for n items at 1%, filled: done, or what failed.
Check fill(Conversation& send, const std::string& name, int n, const std::vector<std::string>& contents) {
  if (auto made = expect_all(send, {"with_rate " + name + " " + std::to_string(n) + " 0.01"}, "ok"))
    return made;
  return expect_all(send, each("insert " + name + " ", contents), "ok");
}

// Fills `from` with `contents`, loads its to_bytes into `to`, and checks
// that `to` tells the same and still holds every item.
Check round_trip(Conversation& send, const std::string& from, const std::string& to, int n,
                 const std::string& rate, const std::vector<std::string>& contents) {
  if (auto made = expect_all(send, {"with_rate " + from + " " + std::to_string(n) + " " + rate}, "ok"))
    return made;
  if (auto filled = expect_all(send, each("insert " + from + " ", contents), "ok")) return filled;
  const auto bytes = send({"to_bytes " + from, "info " + from});
  if (bytes[0].rfind("ok ", 0) != 0)
    return Difference{"to_bytes " + from + " was answered " + readable(bytes[0], 80)};
  if (auto loaded = expect_all(send, {"from_bytes " + to + " " + bytes[0].substr(3)}, "ok"))
    return Difference{"its own to_bytes of " + from + " did not load: " + loaded->what};
  if (auto same = expect_all(send, {"info " + to}, bytes[1]))
    return Difference{"after the round trip: " + same->what};
  if (expect_all(send, {"to_bytes " + to}, bytes[0]))
    return Difference{"a second round trip changed the bytes of " + from};
  return expect_all(send, each("contains " + to + " ", contents), "ok true");
}

}  // namespace

std::vector<std::string> Conversation::operator()(const std::vector<std::string>& requests) {
  if (!fault_) {
    std::vector<Request> batch;
    batch.reserve(requests.size());
    for (const auto& line : requests) batch.push_back({line, Request::kDefaultAnswerLimit + line.size()});
    Answers answers = session_.exchange(batch, Pace::Pipelined);
    fault_ = std::move(answers.fault);
    if (!fault_) return std::move(answers.lines);
  }
  return std::vector<std::string>(requests.size());
}

std::function<std::optional<Finding>(Session&, const std::set<Capability>&)> by_conversation(
    std::function<std::optional<Difference>(Conversation&)> body) {
  return [body = std::move(body)](Session& session, const std::set<Capability>&) -> std::optional<Finding> {
    Conversation talk(session);
    const auto found = body(talk);
    if (talk.fault()) return Finding{talk.fault()->detail, talk.fault(), {}};
    if (found) return Finding{found->what, std::nullopt, {}};
    return std::nullopt;
  };
}

namespace {

Check no_false_negatives_direct(Conversation& send, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto members = items(rng, kItems, "member");
  if (auto filled = fill(send, "f", kItems, members)) return filled;
  return expect_all(send, each("contains f ", members), "ok true");
}

Check no_false_negatives_after_round_trip(Conversation& send, std::uint64_t seed) {
  std::mt19937_64 rng(seed + 1);
  const auto members = items(rng, kItems, "member");
  if (auto kept = round_trip(send, "f", "g", kItems, "0.01", members)) return kept;
  // A small filter with every bit set: a bit order that sets the
  // padding bits of the last byte (bit 7 numbered as bit 0) then
  // fails to load for certain, not only when an item happens to
  // land on such a bit.
  const auto saturating = items(rng, 400, "saturating");
  return round_trip(send, "s", "t", 10, "0.5", saturating);
}

Check no_false_negatives_in_a_union(Conversation& send, std::uint64_t seed) {
  std::mt19937_64 rng(seed + 2);
  const auto left = items(rng, kItems, "left");
  const auto right = items(rng, kItems, "right");
  if (auto filled = fill(send, "a", kItems, left)) return filled;
  if (auto filled = fill(send, "b", kItems, right)) return filled;
  if (auto merged = expect_all(send, {"union a b"}, "ok")) return merged;
  return expect_all(send, each("contains a ", concat(left, right)), "ok true");
}

Check union_is_the_filter_of_both_sets(Conversation& send, std::uint64_t seed) {
  std::mt19937_64 rng(seed + 3);
  const auto left = items(rng, 700, "left");
  const auto right = items(rng, 300, "right");
  if (auto filled = fill(send, "a", 1000, left)) return filled;
  if (auto filled = fill(send, "b", 1000, right)) return filled;
  if (auto filled = fill(send, "both", 1000, concat(left, right))) return filled;
  if (auto merged = expect_all(send, {"union a b"}, "ok")) return merged;
  const auto got = send({"info a", "count_ones a", "count_ones both", "to_bytes a", "to_bytes both"});
  const auto a = numbers(got[0], 3);
  if (!a) return Difference{"info a was answered " + readable(got[0], 80)};
  if ((*a)[2] != 1000)
    return Difference{"the counts did not add: n_inserted is " + std::to_string((*a)[2]) + ", want 1000"};
  if (got[1] != got[2])
    return Difference{"count_ones of the union is " + readable(got[1], 80) + ", of one filter of both sets " +
                      readable(got[2], 80)};
  // Where the filter offers its bytes, they must be equal too (the
  // counts are, so the headers are): the same bits, not just as many.
  if (got[3].rfind("ok ", 0) == 0 && got[3] != got[4])
    return Difference{"the union's bytes differ from those of one filter of both sets"};
  return std::nullopt;
}

Check union_refuses_different_m_or_k(Conversation& send) {
  const auto made = send({"new a 1000 3", "new b 1064 3", "new c 1000 4"});
  if (made[0] != "ok" || made[1] != "ok")
    return Difference{"new was answered " + readable(made[0], 80) + ", " + readable(made[1], 80)};
  const auto merged = send({"union a b"});
  if (merged[0].rfind("err Mismatch", 0) != 0) {
    return Difference{"a union of m = 1000 and m = 1064 was answered " + readable(merged[0], 80)};
  }
  if (made[2] == "ok") {  // a design with a fixed k may refuse k = 4; then there is nothing to merge
    const auto got = send({"union a c"});
    if (got[0].rfind("err Mismatch", 0) != 0)
      return Difference{"a union of k = 3 and k = 4 was answered " + readable(got[0], 80)};
  }
  return std::nullopt;
}

Check fp_rate_within_three_sigma(Conversation& send, std::uint64_t seed) {
  std::mt19937_64 rng(seed + 4);
  if (auto filled = fill(send, "f", kDesignN, items(rng, kDesignN, "in"))) return filled;
  const auto shape = send({"info f", "count_ones f"});
  const auto info = numbers(shape[0], 3), ones = numbers(shape[1], 1);
  if (!info || !ones || (*info)[0] == 0)
    return Difference{"info and count_ones were answered " + readable(shape[0], 80) + ", " +
                      readable(shape[1], 80)};
  const double m = static_cast<double>((*info)[0]), k = static_cast<double>((*info)[1]);
  // Sent in slices, so that the memory of one serves the next:
  // made all at once, 100,000 requests and their answers cost
  // more in fresh pages than the talk itself.
  int positives = 0;
  for (int slice = 0; slice < kFresh / kSlice; ++slice) {
    const auto answers = send(items(rng, kSlice, "fresh" + std::to_string(slice), "contains f "));
    for (const auto& a : answers) {
      if (a == "ok true")
        ++positives;
      else if (a != "ok false")
        return Difference{"contains was answered " + readable(a, 80)};
    }
  }
  // Each probe of a fresh item hits a set bit with probability f,
  // so the count is Binomial(N, f^k) (spec section 2.4).
  const double f = static_cast<double>((*ones)[0]) / m;
  const double q = std::pow(f, k);
  const double mean = kFresh * q, sd = std::sqrt(kFresh * q * (1 - q));
  std::ostringstream why;
  if (std::abs(positives - mean) > 3 * sd) {
    why << positives << " false positives in " << kFresh << " fresh items; with m = " << m << ", k = " << k
        << " and " << (*ones)[0] << " bits set, f^k predicts " << mean << " of them, +- " << 3 * sd
        << " (3 sd)";
    return Difference{why.str()};
  }
  if (positives >= 0.02 * kFresh) {
    why << positives << " false positives in " << kFresh << " fresh items: 2% or more at a 1% design";
    return Difference{why.str()};
  }
  return std::nullopt;
}

}  // namespace

std::vector<InteractiveCase> behavioural_cases(std::uint64_t seed) {
  using C = Capability;
  std::vector<InteractiveCase> out;
  out.push_back(
      {"behaviour/no_false_negatives/direct", {C::Filter}, by_conversation([seed](Conversation& send) {
         return no_false_negatives_direct(send, seed);
       })});
  out.push_back({"behaviour/no_false_negatives/after_bytes_round_trip",
                 {C::Filter, C::Bytes},
                 by_conversation([seed](Conversation& send) {
                   return no_false_negatives_after_round_trip(send, seed);
                 })});
  out.push_back(
      {"behaviour/no_false_negatives/in_a_union",
       {C::Filter, C::Union},
       by_conversation([seed](Conversation& send) { return no_false_negatives_in_a_union(send, seed); })});
  out.push_back(
      {"behaviour/union_is_the_filter_of_both_sets",
       {C::Filter, C::Union},
       by_conversation([seed](Conversation& send) { return union_is_the_filter_of_both_sets(send, seed); })});
  out.push_back({"behaviour/union_refuses_different_m_or_k",
                 {C::Filter, C::Union},
                 by_conversation([](Conversation& send) { return union_refuses_different_m_or_k(send); })});
  out.push_back(
      {"behaviour/fp_rate_within_three_sigma", {C::Filter}, by_conversation([seed](Conversation& send) {
         return fp_rate_within_three_sigma(send, seed);
       })});
  return out;
}

}  // namespace tlbf::conformance
