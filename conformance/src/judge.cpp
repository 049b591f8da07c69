#include "tlbf/conformance/judge.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "tlbf/bloom.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/protocol/commands.hpp"
#include "tlbf/protocol/log_last_bit.hpp"
#include "tlbf/protocol/values.hpp"

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

}  // namespace

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

const std::string& Judge::expect(std::string_view request) {
  request_ = std::string(request);
  latitude_ = Latitude{};
  const auto parsed = words_of(request);
  if (parsed) allow_by_state_before(*parsed);
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

Judgement Judge::judge(std::string_view got) {
  // Not a response line at all: no latitude makes it acceptable.
  if (auto why = unprintable_in(got)) return {Verdict::Mismatch, {}, std::move(why->what)};
  const auto w = words_of(request_);
  const bool matches = !mismatch(pattern_, got).has_value();
  Judgement out;
  if (!matches) {
    out.verdict = Verdict::Mismatch;
    out.reason = mismatch(pattern_, got)->what;
  }
  std::string opened_by;  // the flag that leaves a filter of this request open
  const std::string_view command = w ? (*w)[0] : std::string_view{};
  // A request on a filter whose state is open: its form is all that can be judged.
  std::string read_open;
  if (w) {
    for (auto name : filters_read(*w)) {
      if (const auto found = open_.find(name); found != open_.end()) read_open = found->second;
    }
  }
  const bool drops_open = w && effect_of(command) == Effect::Drops && w->size() == 2 && open_.count((*w)[1]);
  if (!read_open.empty() || drops_open) {
    const std::string flag = drops_open ? open_.find((*w)[1])->second : read_open;
    const std::string_view kind = err_kind(got);
    const bool form = drops_open ? (got == "ok" || kind == "NoSuchFilter")
                                 : has_ok_form(command, got) || kind == "NoSuchFilter" ||
                                       kind == "Mismatch" || kind == "BadParams";
    if (!matches && form) {
      out = {Verdict::Acceptable, flag,
             "the filter's state is open since an acceptable difference (" + flag +
                 "), and this answer has the form of one"};
    }
    if (drops_open) {
      open_.erase(open_.find((*w)[1]));
    } else if (effect_of(command) == Effect::Merges) {
      opened_by = read_open;
    }
  } else if (!latitude_.flag.empty()) {
    if (!matches && allowed(latitude_, got)) {
      out = {Verdict::Acceptable, latitude_.flag, latitude_.flag + " allows " + latitude_.allows};
    }
    if (out.verdict == Verdict::Acceptable || (matches && latitude_.opens_when_matching))
      opened_by = latitude_.flag;
  }
  if (w && w->size() >= 2 && out.verdict != Verdict::Mismatch) {
    const std::string name((*w)[1]);
    if (!opened_by.empty() && (effect_of(command) == Effect::Merges || !latitude_.opens.empty())) {
      open_.emplace(name, opened_by);
    } else if (effect_of(command) == Effect::Creates && oracle_answer_ == "ok" && got == "ok") {
      open_.erase(name);
    }
  }
  return out;
}

}  // namespace tlbf::conformance
