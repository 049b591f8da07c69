#include "tlbf/protocol/commands.hpp"

#include <algorithm>

#include "tlbf/protocol/values.hpp"

namespace tlbf::protocol {

std::string_view to_string(Capability c) {
  switch (c) {
    case Capability::Hashing:
      return "hashing";
    case Capability::Sizing:
      return "sizing";
    case Capability::Filter:
      return "filter";
    case Capability::Bytes:
      return "bytes";
    case Capability::Union:
      return "union";
  }
  return "?";
}

std::optional<Capability> capability_named(std::string_view name) {
  for (auto c : kAllCapabilities) {
    if (to_string(c) == name) return c;
  }
  return std::nullopt;
}

const std::vector<Command>& commands() {
  using A = Arg;
  using C = Capability;
  static const std::vector<Command> table = {
      {"hello", {}, std::nullopt, Answer::Hello, Effect::None, {"hello"}},
      {"fnv1a64", {A::Bytes}, C::Hashing, Answer::Hash, Effect::None, {"fnv1a64 -"}},
      {"mix64", {A::Hash}, C::Hashing, Answer::Hash, Effect::None, {"mix64 0000000000000000"}},
      {"positions_for",
       {A::U64, A::U32, A::Bytes},
       C::Hashing,
       Answer::Positions,
       Effect::None,
       {"positions_for 8 1 -"}},
      {"optimal_m", {A::U64, A::Real}, C::Sizing, Answer::U64, Effect::None, {"optimal_m 1 0.5"}},
      // k is a u32 wherever it is written (docs/protocol.md, section 2).
      {"optimal_k", {A::U64, A::U64}, C::Sizing, Answer::U32, Effect::None, {"optimal_k 8 1"}},
      {"predicted_fp_rate",
       {A::U64, A::U32, A::U64},
       C::Sizing,
       Answer::Real,
       Effect::None,
       {"predicted_fp_rate 8 1 1"}},
      {"new",
       {A::NewName, A::U64, A::U32},
       C::Filter,
       Answer::Nothing,
       Effect::Creates,
       {"new tlbf_probe 8 1"}},
      {"insert", {A::Filter, A::Bytes}, C::Filter, Answer::Nothing, Effect::Writes, {"insert tlbf_probe -"}},
      {"contains",
       {A::Filter, A::Bytes},
       C::Filter,
       Answer::Boolean,
       Effect::Reads,
       {"contains tlbf_probe -"}},
      {"info", {A::Filter}, C::Filter, Answer::Info, Effect::Reads, {"info tlbf_probe"}},
      {"count_ones", {A::Filter}, C::Filter, Answer::U64, Effect::Reads, {"count_ones tlbf_probe"}},
      // Not every design has bit positions (fxbloom has none): never probed.
      {"positions", {A::Filter, A::Bytes}, C::Filter, Answer::Positions, Effect::Reads, {}},
      {"with_rate",
       {A::NewName, A::U64, A::Real},
       C::Filter,
       Answer::Nothing,
       Effect::Creates,
       {"with_rate tlbf_probe_b 1 0.5"}},
      {"to_bytes", {A::Filter}, C::Bytes, Answer::Bytes, Effect::Reads, {"to_bytes tlbf_probe"}},
      {"from_bytes",
       {A::NewName, A::Bytes},
       C::Bytes,
       Answer::Nothing,
       Effect::Creates,
       {"from_bytes tlbf_probe_c -"}},
      // A self-union and a union of two filters: an implementation may refuse one shape.
      {"union",
       {A::Filter, A::Filter},
       C::Union,
       Answer::Nothing,
       Effect::Merges,
       {"union tlbf_probe tlbf_probe", "union tlbf_probe tlbf_probe_b"}},
      {"drop",
       {A::Filter},
       C::Filter,
       Answer::Nothing,
       Effect::Drops,
       {"drop tlbf_probe", "drop tlbf_probe_b"}},
  };
  return table;
}

const Command* command_named(std::string_view word) {
  for (const Command& c : commands()) {
    if (c.word == word) return &c;
  }
  return nullptr;
}

std::vector<std::string_view> filters_read(const std::vector<std::string_view>& words) {
  std::vector<std::string_view> read;
  if (words.empty()) return read;
  const Command* c = command_named(words[0]);
  if (c == nullptr || c->effect == Effect::Drops || words.size() != c->args.size() + 1) return read;
  for (std::size_t i = 0; i < c->args.size(); ++i) {
    if (c->args[i] == Arg::Filter) read.push_back(words[i + 1]);
  }
  return read;
}

bool has_answer_form(Answer answer, const std::vector<std::string_view>& w) {
  const auto all_u64 = [&w] {
    return std::all_of(w.begin(), w.end(), [](std::string_view x) { return read_u64(x).has_value(); });
  };
  switch (answer) {
    case Answer::Nothing:
      return w.empty();
    case Answer::Hello:
      return !w.empty() && w[0] == "1";
    case Answer::Hash:
      return w.size() == 1 && read_hash(w[0]).has_value();
    case Answer::Positions:
      return !w.empty() && all_u64();
    case Answer::U64:
      return w.size() == 1 && all_u64();
    case Answer::U32:
      return w.size() == 1 && read_u32(w[0]).has_value();
    case Answer::Info:
      return w.size() == 3 && read_u64(w[0]) && read_u32(w[1]) && read_u64(w[2]);
    case Answer::Real:
      return w.size() == 1 && read_real(w[0]).has_value();
    case Answer::Boolean:
      return w.size() == 1 && read_bool(w[0]).has_value();
    case Answer::Bytes:
      return w.size() == 1 && read_bytes(w[0]).has_value();
  }
  return false;
}

}  // namespace tlbf::protocol
