#include "tlbf/protocol/oracle_session.hpp"

#include <array>
#include <functional>
#include <optional>
#include <variant>
#include <vector>

#include "tlbf/oracle.hpp"
#include "tlbf/protocol/commands.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::protocol {
namespace {

// A bytes argument whose syntax has been checked, decoded only when a command
// uses it: a request may carry 32 MiB of bytes for a filter that does not
// exist, and those are never needed.
struct BytesWord {
  std::string_view text;  // into the request line, which outlives the Call
};

using Value = std::variant<BytesWord, std::uint64_t, std::uint32_t, double, std::string>;

struct Call {
  std::vector<Value> values;
  std::vector<Bloom*> filters;  // one for each Filter argument, in order

  std::vector<std::uint8_t> bytes(std::size_t i) const { return *read_bytes(std::get<0>(values[i]).text); }
  std::uint64_t u64(std::size_t i) const { return std::get<1>(values[i]); }
  std::uint32_t u32(std::size_t i) const { return std::get<2>(values[i]); }
  double real(std::size_t i) const { return std::get<3>(values[i]); }
  const std::string& name(std::size_t i) const { return std::get<4>(values[i]); }
};

using Filters = std::map<std::string, Bloom, std::less<>>;
using Handler = std::function<std::string(Call&, Filters&)>;

std::string ok() { return "ok"; }
template <typename... Words>
std::string ok(const Words&... words) {
  std::string out = "ok";
  ((out += ' ', out += words), ...);
  return out;
}
std::string err(std::string_view kind, std::string_view message) {
  return "err " + std::string(kind) + " " + std::string(message);
}
std::string err(const Error& e) { return err(to_string(e.kind), e.message); }

std::string positions_line(const std::vector<std::uint64_t>& positions) {
  std::string out = "ok";
  for (auto g : positions) out += ' ' + std::to_string(g);
  return out;
}

// Stores a filter under a name, replacing any filter of that name.
std::string store(Filters& filters, const std::string& name, Result<Bloom> made) {
  if (!made) return err(made.error());
  filters.insert_or_assign(name, std::move(made).value());
  return ok();
}

// What the oracle does for each command of the table (commands.hpp), which
// says the words and the arguments; a command of the table with no handler
// here is answered err Unknown, and the session's tests send every one.
const std::map<std::string_view, Handler>& handlers() {
  static const std::map<std::string_view, Handler> table = {
      {"hello", [](Call&, Filters&) { return ok("1", "tlbf-oracle", TLBF_VERSION_STRING); }},
      // hashing
      {"fnv1a64", [](Call& c, Filters&) { return ok(write_hash(fnv1a64(c.bytes(0)))); }},
      {"mix64", [](Call& c, Filters&) { return ok(write_hash(mix64(c.u64(0)))); }},
      {"positions_for",
       [](Call& c, Filters&) {
         // The same ranges as a filter of these parameters would have.
         if (c.u64(0) < 1 || c.u64(0) > MAX_BITS) {
           return err("BadParams", "m = " + std::to_string(c.u64(0)) + "; must be 1 ..= 2^40");
         }
         if (c.u32(1) < 1 || c.u32(1) > MAX_K) {
           return err("BadParams", "k = " + std::to_string(c.u32(1)) + "; must be 1 ..= 65536");
         }
         return positions_line(positions_for(c.u64(0), c.u32(1), c.bytes(2)));
       }},
      // sizing
      {"optimal_m", [](Call& c, Filters&) { return ok(std::to_string(optimal_m(c.u64(0), c.real(1)))); }},
      {"optimal_k", [](Call& c, Filters&) { return ok(std::to_string(optimal_k(c.u64(0), c.u64(1)))); }},
      {"predicted_fp_rate",
       [](Call& c, Filters&) { return ok(write_real(predicted_fp_rate(c.u64(0), c.u32(1), c.u64(2)))); }},
      // filter
      {"with_rate",
       [](Call& c, Filters& f) { return store(f, c.name(0), Bloom::with_rate(c.u64(1), c.real(2))); }},
      {"new", [](Call& c, Filters& f) { return store(f, c.name(0), Bloom::create(c.u64(1), c.u32(2))); }},
      {"info",
       [](Call& c, Filters&) {
         const Bloom& b = *c.filters[0];
         return ok(std::to_string(b.m()), std::to_string(b.k()), std::to_string(b.n_inserted()));
       }},
      {"positions",
       [](Call& c, Filters&) { return positions_line(c.filters[0]->bit_positions(c.bytes(1))); }},
      {"insert",
       [](Call& c, Filters&) {
         c.filters[0]->insert(c.bytes(1));
         return ok();
       }},
      {"contains",
       [](Call& c, Filters&) { return ok(c.filters[0]->contains(c.bytes(1)) ? "true" : "false"); }},
      {"count_ones", [](Call& c, Filters&) { return ok(std::to_string(c.filters[0]->count_ones())); }},
      {"drop",
       [](Call& c, Filters& f) {
         f.erase(c.name(0));
         return ok();
       }},
      // bytes
      {"to_bytes", [](Call& c, Filters&) { return ok(write_bytes(c.filters[0]->to_bytes())); }},
      {"from_bytes", [](Call& c, Filters& f) { return store(f, c.name(0), Bloom::from_bytes(c.bytes(1))); }},
      // union
      {"union",
       [](Call& c, Filters&) {
         const Status merged = c.filters[0]->union_with(*c.filters[1]);
         return merged ? ok() : err(merged.error());
       }},
  };
  return table;
}

// Step 4 of the order of checks: the syntax of one argument.
std::optional<Value> read_arg(Arg kind, std::string_view word) {
  switch (kind) {
    case Arg::Bytes:
      if (is_bytes(word)) return Value(BytesWord{word});
      return std::nullopt;
    case Arg::Hash:
      if (auto v = read_hash(word)) return Value(*v);
      return std::nullopt;
    case Arg::U64:
      if (auto v = read_u64(word)) return Value(*v);
      return std::nullopt;
    case Arg::U32:
      if (auto v = read_u32(word)) return Value(*v);
      return std::nullopt;
    case Arg::Real:
      if (auto v = read_real(word)) return Value(*v);
      return std::nullopt;
    case Arg::NewName:
    case Arg::Filter:
      if (is_name(word)) return Value(std::string(word));
      return std::nullopt;
  }
  return std::nullopt;
}

std::string_view arg_description(Arg kind) {
  switch (kind) {
    case Arg::Bytes:
      return "bytes (hex, or - for none)";
    case Arg::Hash:
      return "a hash (16 lowercase hex digits)";
    case Arg::U64:
      return "a decimal integer below 2^64";
    case Arg::U32:
      return "a decimal integer below 2^32";
    case Arg::Real:
      return "a real (decimal, nan, inf or -inf)";
    case Arg::NewName:
    case Arg::Filter:
      return "a filter name (1 to 32 of A-Z a-z 0-9 _)";
  }
  return "?";
}

}  // namespace

std::string OracleSession::handle(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const auto words = split_words(line);
  if (!words) {
    return err("Protocol", "a request is printable ASCII words separated by single spaces");
  }
  const std::string_view word = (*words)[0];
  const Command* command = command_named(word);
  const auto handler = command ? handlers().find(word) : handlers().end();
  if (handler == handlers().end()) return err("Unknown", "no command '" + std::string(word) + "'");

  const std::size_t given = words->size() - 1;
  if (given != command->args.size()) {
    return err("Protocol", std::string(word) + " takes " + std::to_string(command->args.size()) +
                               " arguments, not " + std::to_string(given));
  }
  Call call;
  for (std::size_t i = 0; i < given; ++i) {
    auto value = read_arg(command->args[i], (*words)[i + 1]);
    if (!value) {
      return err("Protocol", "argument " + std::to_string(i + 1) + " of " + std::string(word) + " must be " +
                                 std::string(arg_description(command->args[i])));
    }
    call.values.push_back(std::move(*value));
  }
  for (std::size_t i = 0; i < given; ++i) {
    if (command->args[i] != Arg::Filter) continue;
    const auto found = filters_.find(call.name(i));
    if (found == filters_.end()) return err("NoSuchFilter", "no filter '" + call.name(i) + "'");
    call.filters.push_back(&found->second);
  }
  return handler->second(call, filters_);
}

}  // namespace tlbf::protocol
