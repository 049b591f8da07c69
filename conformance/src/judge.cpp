#include "tlbf/conformance/judge.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "tlbf/bloom.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/protocol/commands.hpp"
#include "tlbf/protocol/log_last_bit.hpp"
#include "tlbf/protocol/values.hpp"
#include "tlbf/sizing.hpp"

namespace tlbf::conformance {
namespace {

using Words = std::vector<std::string_view>;
using protocol::Effect;

std::optional<Words> words_of(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return protocol::split_words(line);
}

Words split(std::string_view text) { return split_on_spaces(text); }

// True when `got` is `ok` followed by the words a success of `command` has
// (docs/protocol.md, section 4, and the command table), whatever their values.
bool has_ok_form(std::string_view command, std::string_view got) {
  const Words w = split(got);
  const protocol::Command* c = protocol::command_named(command);
  if (w[0] != "ok" || c == nullptr) return false;
  return protocol::has_answer_form(c->answer, Words(w.begin() + 1, w.end()));
}

std::string_view err_kind(std::string_view got) {
  const Words w = split(got);
  return w.size() >= 2 && w[0] == "err" ? w[1] : std::string_view{};
}

std::size_t digits(std::uint64_t x) { return std::to_string(x).size(); }

// The filters a request reads (those it only replaces or drops are not read).
Words filters_read(const Words& w) { return protocol::filters_read(w); }

Effect effect_of(std::string_view command) {
  const protocol::Command* c = protocol::command_named(command);
  return c ? c->effect : Effect::None;
}

// info's three numbers for a filter the oracle holds.
std::optional<std::array<std::uint64_t, 3>> info_of(protocol::OracleSession& oracle, std::string_view name) {
  const std::string answer = oracle.handle("info " + std::string(name));
  const Words w = split(answer);
  if (w.size() != 4 || w[0] != "ok") return std::nullopt;
  return std::array<std::uint64_t, 3>{*protocol::read_u64(w[1]), *protocol::read_u64(w[2]),
                                      *protocol::read_u64(w[3])};
}

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint32_t kU32Max = std::numeric_limits<std::uint32_t>::max();

// positions_for M K with 1 <= M <= 2^40 and K above MAX_K: the answer that
// accepting K gives, and its length. Computed only up to this K.
constexpr std::uint32_t kLongestComputedPositions = 1u << 20;

std::size_t positions_length(std::uint64_t m, std::uint64_t k) {
  const std::size_t length = 2 + static_cast<std::size_t>(k) * (digits(m - 1) + 1);
  return std::min(length, protocol::MAX_LINE);
}

using Shadow = Judge::Shadow;
using OpenFilter = Judge::OpenFilter;

// The longest file a shadow writes for to_bytes, or hands to the oracle: its
// hex must fit in a line.
constexpr std::size_t kLongestShadowFile = (protocol::MAX_LINE - 8) / 2;

std::size_t file_length(const Shadow& s) { return HEADER_LEN + static_cast<std::size_t>((s.m + 7) / 8); }

// docs/format.md, sections 4 and 5.
std::vector<std::uint8_t> file_of(const Shadow& s) {
  std::vector<std::uint8_t> out(file_length(s), 0);
  std::copy(std::begin(MAGIC), std::end(MAGIC), out.begin());
  const auto put = [&out](std::size_t at, std::uint64_t value, std::size_t bytes) {
    for (std::size_t i = 0; i < bytes; ++i) out[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
  };
  put(4, 1, 4);
  put(8, s.m, 8);
  put(16, s.k, 4);
  put(24, s.count, 8);
  for (const auto g : s.ones) out[HEADER_LEN + g / 8] |= static_cast<std::uint8_t>(1u << (g % 8));
  return out;
}

// A file the oracle checked with its k set to 1: its fields as they are.
Shadow shadow_of_file(const std::vector<std::uint8_t>& file) {
  const auto get = [&file](std::size_t at, std::size_t bytes) {
    std::uint64_t value = 0;
    for (std::size_t i = bytes; i-- > 0;) value = value << 8 | file[at + i];
    return value;
  };
  Shadow s{get(8, 8), static_cast<std::uint32_t>(get(16, 4)), get(24, 8), {}};
  for (std::size_t i = HEADER_LEN; i < file.size(); ++i) {
    for (unsigned bit = 0; bit < 8; ++bit) {
      if ((file[i] >> bit) & 1) s.ones.insert((i - HEADER_LEN) * 8 + bit);
    }
  }
  return s;
}

void insert_into(Shadow& s, ByteView item) {
  for (const auto g : positions_for(s.m, s.k, item)) s.ones.insert(g);
  if (s.count != kU64Max) ++s.count;  // the count saturates (docs/format.md, section 9)
}

// The answer of a filter in state `s` to a request that reads or writes it;
// nullopt when its answer is too long to be a line.
std::optional<std::string> answer_of(const Shadow& s, const Words& w) {
  const std::string_view c = w[0];
  if (c == "info")
    return "ok " + std::to_string(s.m) + " " + std::to_string(s.k) + " " + std::to_string(s.count);
  if (c == "count_ones") return "ok " + std::to_string(s.ones.size());
  if (c == "insert" || c == "drop") return "ok";
  if (c == "to_bytes") {
    if (file_length(s) > kLongestShadowFile) return std::nullopt;
    return "ok " + protocol::write_bytes(file_of(s));
  }
  if (w.size() != 3) return std::nullopt;
  const auto item = protocol::read_bytes(w[2]);
  if (!item) return std::nullopt;
  const auto positions = positions_for(s.m, s.k, *item);
  if (c == "contains") {
    const bool all =
        std::all_of(positions.begin(), positions.end(), [&s](auto g) { return s.ones.count(g) != 0; });
    return all ? "ok true" : "ok false";
  }
  std::string line = "ok";
  for (const auto g : positions) line += " " + std::to_string(g);
  return line;
}

// Whether `got` is the answer `expected` (a pattern), but for the count
// where the count is open: info's third number, bytes 24 to 31 of a file.
bool fits(std::string_view expected, std::string_view got, bool count_open, std::string_view command) {
  if (!mismatch(expected, got)) return true;
  if (!count_open) return false;
  if (command == "info") {
    const Words e = split(expected), g = split(got);
    return e.size() == 4 && g.size() == 4 && std::equal(e.begin(), e.begin() + 3, g.begin()) &&
           protocol::read_u64(g[3]).has_value();
  }
  constexpr std::size_t kFrom = 3 + 2 * 24, kTo = 3 + 2 * 32;  // after "ok "
  if (command != "to_bytes" || got.size() != expected.size() || got.size() < kTo) return false;
  const std::string_view count = got.substr(kFrom, kTo - kFrom);
  return got.substr(0, kFrom) == expected.substr(0, kFrom) && got.substr(kTo) == expected.substr(kTo) &&
         std::all_of(count.begin(), count.end(),
                     [](char x) { return std::isdigit(x) || (x >= 'a' && x <= 'f'); });
}

// The filters new or with_rate of `w` makes, the documents' first (with
// with_rate's m of a log one ulp off after it), when that filter may be too
// large for the machine to allocate (kAllocationMayFailAbove); else none.
std::vector<Shadow> unallocated_filters(const Words& w) {
  if (w.size() != 4 || (w[0] != "new" && w[0] != "with_rate") || !protocol::is_name(w[1])) return {};
  std::vector<Shadow> made;
  if (w[0] == "new") {
    const auto m = protocol::read_u64(w[2]);
    const auto k = protocol::read_u32(w[3]);
    if (!m || !k || *k < 1 || *k > MAX_K) return {};
    made.push_back(Shadow{*m, *k, 0, {}});
  } else {
    const auto n = protocol::read_u64(w[2]);
    const auto p = protocol::read_real(w[3]);
    if (!n || !p || *n < 1 || !(*p > 0.0 && *p < 1.0)) return {};
    const std::uint64_t m = optimal_m(*n, *p);
    made.push_back(Shadow{m, optimal_k(m, *n), 0, {}});
    for (const auto other : protocol::m_alternatives(*n, *p)) {
      if (other >= 1 && other <= MAX_BITS) made.push_back(Shadow{other, optimal_k(other, *n), 0, {}});
    }
  }
  const std::uint64_t m = made.front().m;
  if (m <= kAllocationMayFailAbove || m > MAX_BITS) return {};
  return made;
}

// For reasons: what an open filter leaves undecided, and what it does not.
std::string what_is_open(const OpenFilter& f) {
  if (f.flag == "CannotAllocate")
    return "it was made with more than 2^35 bits, which the judge keeps without allocating them "
           "(CannotAllocate); every field is decided";
  if (f.flag == "CountSaturates")
    return "its count is open since a union whose counts pass 2^64 - 1 (CountSaturates); its m, k and bits "
           "(F OR G) are decided";
  if (f.flag == "StrictKBound") return "it holds the k above 65536 it was given (StrictKBound)";
  std::string ms;
  for (const auto& s : f.others) ms += ", " + std::to_string(s.m);
  return "its m is open since with_rate (LogLastBit)" +
         (ms.empty() ? "" : ", among the oracle's and" + ms.substr(1)) +
         "; its k and bits follow from its m, its count is decided";
}

}  // namespace

std::optional<std::string> shadow_answer(const Judge::Shadow& s, const std::vector<std::string_view>& words) {
  return answer_of(s, words);
}

void shadow_insert(Judge::Shadow& s, ByteView item) { insert_into(s, item); }

Judge::Shadow shadow_from_file(const std::vector<std::uint8_t>& file) { return shadow_of_file(file); }

std::optional<Difference> unprintable_in(std::string_view answer) {
  for (std::size_t i = 0; i < answer.size(); ++i) {
    const auto byte = static_cast<unsigned char>(answer[i]);
    if (byte >= 0x20 && byte <= 0x7e) continue;
    static constexpr char kHex[] = "0123456789abcdef";
    const std::string shown = {'0', 'x', kHex[byte >> 4], kHex[byte & 15]};
    return Difference{"byte " + std::to_string(i + 1) + " of the answer, " + shown +
                      ", is not printable ASCII (every byte of a response, an error's message included, is "
                      "0x20 to 0x7e, and no \\r is written: docs/protocol.md, sections 1 and 3): got " +
                      readable(answer, 200)};
  }
  return std::nullopt;
}

std::string pattern_for(std::string_view request, std::string_view answer) {
  if (answer.rfind("err ", 0) == 0) return std::string(answer.substr(0, answer.find(' ', 4)));
  const protocol::Command* c = protocol::command_named(request.substr(0, request.find(' ')));
  if (c != nullptr && c->answer == protocol::Answer::Hello)
    return "ok 1 *";  // any words name an implementation
  if (c != nullptr && c->answer == protocol::Answer::Real && answer.rfind("ok ", 0) == 0) {
    return "ok ~" + std::string(answer.substr(3));
  }
  return std::string(answer);
}

std::size_t longest_acceptable_answer(std::string_view request) {
  const auto w = words_of(request);
  if (!w || w->size() != 4 || (*w)[0] != "positions_for") return w && !w->empty() ? 64 : 0;
  const auto m = protocol::read_u64((*w)[1]);
  const auto k = protocol::read_u32((*w)[2]);
  if (!m || !k || *m < 1 || *m > MAX_BITS || *k <= MAX_K) return 64;
  return positions_length(*m, *k);
}

// An answer that is err BadParams, or any ok of the command's form: where the
// vectors leave a request outside the domain open.
void Judge::allow_error_or_any_ok(std::string flag, const std::string& what) {
  Latitude& l = latitude_;
  l.flag = std::move(flag);
  l.err_kinds = {"BadParams"};
  l.any_ok_form = true;
  l.allows = "err BadParams, or ok and " + what;
  l.longest = 64;
}

// Zones that depend on the state before the request: called before the oracle
// handles it.
void Judge::allow_by_state_before(const std::vector<std::string_view>& w) {
  Latitude& l = latitude_;
  before_union_.clear();
  if (w[0] == "union" && w.size() == 3) {
    const auto left = info_of(oracle_, w[1]), right = info_of(oracle_, w[2]);
    if (left && right && (*left)[0] == (*right)[0] && (*left)[1] == (*right)[1] &&
        (*left)[2] > kU64Max - (*right)[2]) {
      l.flag = "CountSaturates";
      l.exact = {"ok"};
      l.err_kinds = {"BadParams", "Mismatch"};
      l.allows = "ok (the count saturated or wrapped), err BadParams or err Mismatch";
      l.opens = std::string(w[1]);
      l.opens_when_matching = true;
    }
    // A refusal changes nothing (docs/protocol.md, section 4): the target as
    // it was, for when the implementation refuses what the oracle does not.
    if (!l.flag.empty() || open_.count(w[1]) || open_.count(w[2])) {
      const std::string file = oracle_.handle("to_bytes " + std::string(w[1]));
      if (file.rfind("ok ", 0) == 0) before_union_ = file.substr(3);
    }
  }
}

// The sizing functions outside their domain, and m one ulp of a log off.
void Judge::allow_by_sizing(const std::vector<std::string_view>& w) {
  Latitude& l = latitude_;
  const std::string_view c = w[0];
  if (c == "optimal_m" && w.size() == 3) {
    const std::uint64_t n = *protocol::read_u64(w[1]);
    const double p = *protocol::read_real(w[2]);
    if (n == 0 || !(p > 0.0 && p < 1.0) || oracle_answer_ == "ok " + std::to_string(kU64Max)) {
      allow_error_or_any_ok("OutOfDomain", "a u64");
    } else if (const auto alternatives = protocol::m_alternatives(n, p); !alternatives.empty()) {
      l.flag = "LogLastBit";
      for (auto m : alternatives) l.exact.insert("ok " + std::to_string(m));
      l.allows = "m of a log one ulp off: " + *l.exact.begin();
      l.longest = 64;
    }
  } else if (c == "optimal_k" && w.size() == 3) {
    if (*protocol::read_u64(w[2]) == 0 || oracle_answer_ == "ok " + std::to_string(kU32Max)) {
      allow_error_or_any_ok("OutOfDomain", "a u32");
    }
  } else if (c == "predicted_fp_rate" && w.size() == 4) {
    if (*protocol::read_u64(w[1]) == 0) allow_error_or_any_ok("OutOfDomain", "a real");
  } else if (c == "with_rate" && w.size() == 4 && oracle_answer_ == "ok") {
    if (!protocol::m_alternatives(*protocol::read_u64(w[2]), *protocol::read_real(w[3])).empty()) {
      // The answer is ok either way; the filter's m is what may differ.
      l.flag = "LogLastBit";
      l.allows = "ok, with an m of a log one ulp off";
      l.opens = std::string(w[1]);
      l.opens_when_matching = true;
    }
  }
}

// A k above MAX_K that the oracle refuses and StrictKBound leaves open, in new
// and positions_for.
void Judge::allow_k_above_the_bound(const std::vector<std::string_view>& w) {
  Latitude& l = latitude_;
  const bool is_new = w[0] == "new";
  const std::uint64_t m = *protocol::read_u64(w[is_new ? 2 : 1]);
  const std::uint32_t k = *protocol::read_u32(w[is_new ? 3 : 2]);
  if (m >= 1 && m <= MAX_BITS && k > MAX_K) {
    l.flag = "StrictKBound";
    if (is_new) {
      l.exact = {"ok"};
      l.allows = "ok: a filter with k above 65536";
      l.opens = std::string(w[1]);
    } else if (k <= kLongestComputedPositions) {
      std::string line = "ok";
      for (auto g : positions_for(m, k, *protocol::read_bytes(w[3]))) line += " " + std::to_string(g);
      l.exact = {std::move(line)};
      l.allows = "the " + std::to_string(k) + " positions";
    } else {
      l.any_ok_form = true;
      l.allows = "ok and positions";
    }
    l.longest = is_new ? 2 : positions_length(m, k);
  }
}

// A file whose only fault is a k above MAX_K: StrictKBound leaves it open.
void Judge::allow_file_with_k_above_the_bound(const std::vector<std::string_view>& w) {
  Latitude& l = latitude_;
  auto bytes = *protocol::read_bytes(w[2]);
  if (bytes.size() >= 32) {
    std::uint32_t k = 0;
    for (int i = 3; i >= 0; --i) k = k << 8 | bytes[16 + static_cast<std::size_t>(i)];
    bytes[16] = 1;
    bytes[17] = bytes[18] = bytes[19] = 0;
    protocol::OracleSession fresh;
    if (k > MAX_K && fresh.handle("from_bytes k1 " + protocol::write_bytes(bytes)) == "ok") {
      l.flag = "StrictKBound";
      l.exact = {"ok"};
      l.allows = "ok: a filter with k above 65536";
      l.opens = std::string(w[1]);
      l.longest = 2;
    }
  }
}

// A filter of more bits than kAllocationMayFailAbove: ok, or err BadParams
// from a machine that cannot allocate them (docs/format.md, section 8). The
// oracle is not asked: its answer would be the machine's (its mmap of 128
// GiB fails where memory is not overcommitted), and the judge takes no such
// memory, not even unwritten.
bool Judge::allow_failed_allocation(const std::vector<std::string_view>& w) {
  const std::vector<Shadow> made = unallocated_filters(w);
  if (made.empty()) return false;
  oracle_answer_ = pattern_ = "ok";
  Latitude& l = latitude_;
  l.flag = "CannotAllocate";
  l.err_kinds = {"BadParams"};
  l.allows = "err BadParams: the machine may not allocate " + std::to_string(made.front().m) + " bits";
  l.opens = std::string(w[1]);
  l.opens_when_matching = true;
  l.longest = 64;
  return true;
}

const std::string& Judge::expect(std::string_view request) {
  request_ = std::string(request);
  latitude_ = Latitude{};
  const auto parsed = words_of(request);
  if (parsed) allow_by_state_before(*parsed);
  if (parsed && allow_failed_allocation(*parsed)) return pattern_;
  oracle_answer_ = oracle_.handle(request);
  pattern_ = pattern_for(request, oracle_answer_);
  if (!parsed || oracle_answer_.rfind("err Protocol", 0) == 0 ||
      oracle_answer_.rfind("err Unknown", 0) == 0) {
    return pattern_;
  }
  const Words& w = *parsed;
  const std::string_view c = w[0];
  if ((c == "new" || c == "positions_for") && oracle_answer_.rfind("err BadParams", 0) == 0) {
    allow_k_above_the_bound(w);
  } else if (c == "from_bytes" && w.size() == 3 && oracle_answer_.rfind("err Format", 0) == 0) {
    allow_file_with_k_above_the_bound(w);
  } else {
    allow_by_sizing(w);
  }
  return pattern_;
}

std::size_t Judge::longest_answer() const {
  std::size_t longest = std::max(oracle_answer_.size(), latitude_.longest);
  if (reads_open_filter(request_)) longest = std::max(longest, Request::kDefaultAnswerLimit);
  return longest;
}

bool Judge::reads_open_filter(std::string_view request) const {
  const auto w = words_of(request);
  if (!w) return false;
  for (auto name : filters_read(*w)) {
    if (open_.count(name)) return true;
  }
  return false;
}

bool Judge::allowed(const Latitude& l, std::string_view got) const {
  if (l.exact.count(got)) return true;
  const std::string_view kind = err_kind(got);
  if (!kind.empty() && l.err_kinds.count(kind)) return true;
  return l.any_ok_form && has_ok_form(split(request_)[0], got);
}

bool Judge::touches_open(const Words& w) const {
  if (open_.empty() || oracle_answer_.rfind("err Protocol", 0) == 0 ||
      oracle_answer_.rfind("err Unknown", 0) == 0)
    return false;
  for (auto name : filters_read(w)) {
    if (open_.count(name)) return true;
  }
  return effect_of(w[0]) == Effect::Drops && w.size() == 2 && open_.count(w[1]) != 0;
}

Judgement Judge::judge(std::string_view got) {
  // Not a response line at all: no latitude makes it acceptable.
  if (auto why = unprintable_in(got)) return {Verdict::Mismatch, {}, std::move(why->what)};
  const auto w = words_of(request_);
  if (w && !w->empty() && touches_open(*w)) return judge_open(*w, got);
  return judge_closed(w ? *w : Words{}, got);
}

Judgement Judge::judge_closed(const Words& w, std::string_view got) {
  Judgement out;
  if (const auto why = mismatch(pattern_, got)) {
    out = {Verdict::Mismatch, {}, why->what};
    if (!latitude_.flag.empty() && allowed(latitude_, got))
      out = {Verdict::Acceptable, latitude_.flag, latitude_.flag + " allows " + latitude_.allows};
  }
  if (out.verdict != Verdict::Mismatch && w.size() >= 2) open_after(w, got);
  return out;
}

// What an answer to a request on filters that were not open leaves open: only
// the fields the acceptable answer leaves undecided (docs/check.md, "What is
// acceptable").
void Judge::open_after(const Words& w, std::string_view got) {
  const Effect effect = effect_of(w[0]);
  const std::string name(w[1]);
  const std::string& flag = latitude_.flag;
  if (effect == Effect::Merges && flag == "CountSaturates") {
    if (got == "ok") {
      open_[name] = OpenFilter{flag, true, true, {}, false};
    } else if (!before_union_.empty()) {
      oracle_.handle("from_bytes " + name + " " + before_union_);  // refused: F as it was
    }
    return;
  }
  if (effect != Effect::Creates || got != "ok") return;  // a create that failed changes nothing
  if (flag == "CannotAllocate") {
    oracle_.handle("drop " + name);  // the filter it replaced, if any
    open_[name] = OpenFilter{flag, false, false, unallocated_filters(w), false};
    return;
  }
  if (latitude_.opens.empty()) {
    open_.erase(name);  // made as the oracle made it
  } else if (flag == "LogLastBit") {
    OpenFilter open{flag, true, false, {}, false};
    const std::uint64_t n = *protocol::read_u64(w[2]);
    for (const auto m : protocol::m_alternatives(n, *protocol::read_real(w[3]))) {
      if (m >= 1 && m <= MAX_BITS) open.others.push_back(Shadow{m, optimal_k(m, n), 0, {}});
    }
    open_[name] = std::move(open);
  } else {
    // StrictKBound: the filter has the k it was given. The oracle refused it,
    // and may still hold the filter it replaced.
    const Shadow made = w[0] == "new" ? Shadow{*protocol::read_u64(w[2]), *protocol::read_u32(w[3]), 0, {}}
                                      : shadow_of_file(*protocol::read_bytes(w[2]));
    oracle_.handle("drop " + name);
    OpenFilter open{flag, false, false, {}, made.k > kLongestComputedPositions};
    if (!open.whole) open.others.push_back(made);
    open_[name] = std::move(open);
  }
}

// A read or an insert of an open filter, or its drop: right when some state
// it may be in answers so; the states that answer otherwise are ruled out.
Judgement Judge::judge_open(const Words& w, std::string_view got) {
  const bool drops = effect_of(w[0]) == Effect::Drops;
  for (auto name : drops ? Words{w[1]} : filters_read(w)) {
    if (const auto f = open_.find(name); f != open_.end() && f->second.whole) return judge_whole(w, got);
  }
  if (effect_of(w[0]) == Effect::Merges) return judge_open_union(w, got);
  const std::string name(w[1]);
  OpenFilter& f = open_.find(name)->second;
  const bool oracle_fits = f.oracle_holds && fits(pattern_, got, f.count_open, w[0]);
  std::vector<Shadow> kept;
  std::string shown = f.oracle_holds ? pattern_ : "";
  for (const Shadow& s : f.others) {
    const auto answer = answer_of(s, w);
    if (shown.empty() && answer) shown = *answer;
    // Too long to make (to_bytes of a vast m): its form is all that is judged.
    if (answer ? fits(*answer, got, f.count_open, w[0]) : has_ok_form(w[0], got)) kept.push_back(s);
  }
  if (!oracle_fits && kept.empty()) {
    return {Verdict::Mismatch,
            {},
            "expected " + readable(shown, 200) + ", got " + readable(got, 200) + ": " + what_is_open(f)};
  }
  const std::string flag = f.flag, why = what_is_open(f);
  // The one filter the documents make, held by the judge instead of the oracle.
  const bool as_made = flag == "CannotAllocate" && f.others.size() == 1 && kept.size() == 1;
  f.oracle_holds = oracle_fits;
  f.others = std::move(kept);
  if (effect_of(w[0]) == Effect::Writes) {
    for (Shadow& s : f.others) insert_into(s, *protocol::read_bytes(w[2]));
  }
  if (drops && got == "ok") {
    open_.erase(name);
  } else {
    settle(name);
  }
  if ((oracle_fits && !mismatch(pattern_, got)) || as_made) return {};
  return {Verdict::Acceptable, flag, why + ", and this answer agrees with a state it may be in"};
}

// An open filter that may now be in one state only is closed: the oracle
// holds that state, or is given it.
void Judge::settle(const std::string& name) {
  const auto found = open_.find(name);
  const OpenFilter& f = found->second;
  if (f.whole || f.count_open) return;
  if (f.oracle_holds && f.others.empty()) {
    open_.erase(found);
    return;
  }
  if (f.oracle_holds || f.others.size() != 1) return;
  const Shadow& s = f.others.front();
  if (s.k > MAX_K || file_length(s) > kLongestShadowFile) return;
  if (oracle_.handle("from_bytes " + name + " " + protocol::write_bytes(file_of(s))) == "ok")
    open_.erase(found);
}

// union T S where T or S is open.
Judgement Judge::judge_open_union(const Words& w, std::string_view got) {
  const std::string target(w[1]);
  const auto find = [this](std::string_view name) -> const OpenFilter* {
    const auto f = open_.find(name);
    return f == open_.end() ? nullptr : &f->second;
  };
  const OpenFilter *t = find(w[1]), *s = find(w[2]);
  const std::string flag = (t ? t : s)->flag;
  const auto held = [](const OpenFilter* f) { return !f || (f->oracle_holds && f->others.empty()); };
  const std::string_view kind = err_kind(got);
  if (held(t) && held(s)) {
    // Only counts are open: the oracle's answer decides m and k, and so the bits.
    if (oracle_answer_ != "ok" || got == "ok") {
      if (const auto why = mismatch(pattern_, got)) return {Verdict::Mismatch, {}, why->what};
      if (got == "ok") {
        OpenFilter& now = open_[target];  // T's count is T's and S's, one of them open
        now.flag = flag;
        now.count_open = true;
      }
      return {};
    }
    if (kind != "BadParams" && kind != "Mismatch")
      return {Verdict::Mismatch,
              {},
              "expected ok (or, since a count is open, err BadParams or err Mismatch), got " +
                  readable(got, 200)};
    if (!before_union_.empty()) oracle_.handle("from_bytes " + target + " " + before_union_);
    return {Verdict::Acceptable, "CountSaturates",
            "a count is open, so the counts may pass 2^64 - 1, where CountSaturates allows a refusal"};
  }
  // Another m, or a k above 65536: Mismatch, unless some state of one may have the m and k of the other.
  const auto shapes = [this](std::string_view name, const OpenFilter* f) {
    std::set<std::pair<std::uint64_t, std::uint64_t>> out;
    if (!f || f->oracle_holds) {
      if (const auto i = info_of(oracle_, name)) out.insert({(*i)[0], (*i)[1]});
    }
    if (f)
      for (const auto& x : f->others) out.insert({x.m, x.k});
    return out;
  };
  const auto a = shapes(w[1], t), b = shapes(w[2], s);
  if (std::any_of(a.begin(), a.end(), [&b](const auto& x) { return b.count(x) != 0; }))
    return judge_whole(w, got);
  if (oracle_answer_ == "ok" && !before_union_.empty())
    oracle_.handle("from_bytes " + target + " " + before_union_);
  if (kind != "Mismatch")
    return {Verdict::Mismatch,
            {},
            "expected err Mismatch, got " + readable(got, 200) +
                ": the two filters' m and k differ in every state they may be in (" + flag + ")"};
  if (!mismatch(pattern_, got)) return {};
  return {Verdict::Acceptable, flag,
          "the two filters' m and k differ in every state they may be in (" + flag + ")"};
}

// A filter beyond what the judge keeps: a request that reads it is judged by its form.
Judgement Judge::judge_whole(const Words& w, std::string_view got) {
  const std::string_view command = w[0];
  const bool drops = effect_of(command) == Effect::Drops;
  std::string flag;
  for (auto name : drops ? Words{w[1]} : filters_read(w)) {
    if (const auto f = open_.find(name); f != open_.end()) flag = f->second.flag;
  }
  const std::string_view kind = err_kind(got);
  const bool form = drops ? (got == "ok" || kind == "NoSuchFilter")
                          : has_ok_form(command, got) || kind == "NoSuchFilter" || kind == "Mismatch" ||
                                kind == "BadParams";
  Judgement out;
  if (const auto why = mismatch(pattern_, got)) {
    if (!form) return {Verdict::Mismatch, {}, why->what};
    out = {Verdict::Acceptable, flag,
           "the filter's state is open whole since an acceptable difference (" + flag +
               "), and this answer has the form of one"};
  }
  if (drops) {
    if (const auto f = open_.find(w[1]); f != open_.end()) open_.erase(f);
  } else if (effect_of(command) == Effect::Merges) {
    open_[std::string(w[1])] = OpenFilter{flag, false, false, {}, true};
  }
  return out;
}

}  // namespace tlbf::conformance
