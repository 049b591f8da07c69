#include "tlbf/protocol/oracle_session.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <new>
#include <optional>
#include <variant>
#include <vector>

#include "tlbf/bit_array.hpp"
#include "tlbf/hex.hpp"
#include "tlbf/oracle.hpp"
#include "tlbf/protocol/commands.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::protocol {
namespace {

// A bytes argument, decoded (a BitArray, so that from_bytes can keep it as
// the filter's bits without a copy).
using Value = std::variant<BitArray, std::uint64_t, std::uint32_t, double, std::string>;

struct Call {
  std::vector<Value> values;
  std::vector<Bloom*> filters;  // one for each Filter argument, in order

  ByteView bytes(std::size_t i) const { return std::get<0>(values[i]); }
  BitArray&& take_bytes(std::size_t i) { return std::move(std::get<0>(values[i])); }
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
      {"from_bytes",
       [](Call& c, Filters& f) { return store(f, c.name(0), Bloom::from_bytes(c.take_bytes(1))); }},
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
    case Arg::Bytes:  // decoded as they arrive, by HexWord
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

// One bytes argument, checked and decoded digit by digit as its pieces arrive
// (docs/protocol.md, section 2: hex of either case and even length, or "-").
class HexWord {
 public:
  // With keep false the digits are only checked: the request cannot use them.
  explicit HexWord(bool keep) : keep_(keep) {}

  void add(std::string_view part) {
    if (length_ == 0 && !part.empty()) dash_ = part[0] == '-';
    length_ += part.size();
    if (!hex_) return;
    if (keep_ && !grow((part.size() + 1) / 2)) keep_ = false;
    for (const char c : part) {
      const int v = hex_digit(c);
      if (v < 0) {
        hex_ = false;  // a "-", or a byte that is no digit: the word is wrong, its bytes useless
        bytes_ = BitArray();
        return;
      }
      if (high_ < 0) {
        high_ = v;
        continue;
      }
      if (keep_) bytes_.push_back(static_cast<std::uint8_t>((high_ << 4) | v));
      high_ = -1;
    }
  }
  bool valid() const { return (dash_ && length_ == 1) || (hex_ && length_ % 2 == 0); }
  // True when the bytes were to be kept but memory for them ran out.
  bool out_of_memory() const { return out_of_memory_; }
  BitArray take() { return std::move(bytes_); }

 private:
  // Room for `more` bytes. From 1 MiB on, room for the longest argument a
  // line can carry: BitArray maps it untouched, so only the bytes written
  // become resident, and no doubling ever copies them.
  bool grow(std::size_t more) {
    const std::size_t wanted = bytes_.size() + more;
    if (wanted <= bytes_.capacity()) return true;
    try {
      bytes_.reserve(wanted >= (std::size_t{1} << 20) ? std::max(wanted, MAX_LINE / 2)
                                                      : std::max(wanted, 2 * bytes_.capacity()));
    } catch (const std::bad_alloc&) {
      bytes_ = BitArray();
      out_of_memory_ = true;
      return false;
    }
    return true;
  }

  bool keep_;
  bool hex_ = true;    // every byte so far is a hex digit
  bool dash_ = false;  // the word begins with "-"
  std::size_t length_ = 0;
  int high_ = -1;  // the first digit of a byte whose second has not come
  bool out_of_memory_ = false;
  BitArray bytes_;
};

// The words of one request line as its pieces arrive: the framing of section
// 1 checked on the way, the command word and the other arguments kept, each
// bytes argument decoded (HexWord), and the words past the command's
// arguments only counted. finish() answers as the order of checks of
// docs/protocol.md says: framing, command, count, syntax, filters.
class PendingRequest {
 public:
  // `filters` are the session's, for whether a bytes argument can be used.
  void add(std::string_view piece, const Filters& filters) {
    if (broken_ || piece.empty()) return;
    if (pending_cr_) broken_ = true;  // that "\r" did not end the line
    if (piece.back() == '\r') {
      pending_cr_ = true;
      piece.remove_suffix(1);
    }
    if (!all_printable(piece)) broken_ = true;
    while (!broken_ && !piece.empty()) {
      const std::size_t space = piece.find(' ');
      const std::string_view part = piece.substr(0, space);
      if (!part.empty()) add_to_word(part, filters);
      if (space == std::string_view::npos) break;
      if (!in_word_) broken_ = true;  // a leading or a second space
      end_word();
      piece.remove_prefix(space + 1);
    }
  }

  std::string finish(Filters& filters);

 private:
  struct Word {
    std::string text;
    std::optional<HexWord> hex;  // for a bytes argument
  };

  void add_to_word(std::string_view part, const Filters& filters) {
    if (!in_word_) start_word(filters);
    in_word_ = true;
    if (word_ == 0) {
      command_ += part;
    } else if (row_ && word_ <= row_->args.size()) {
      Word& w = args_[word_ - 1];
      if (w.hex) {
        w.hex->add(part);
      } else {
        w.text += part;
      }
    }
  }
  void start_word(const Filters& filters) {
    if (row_ && word_ >= 1 && word_ <= row_->args.size() && row_->args[word_ - 1] == Arg::Bytes) {
      args_[word_ - 1].hex.emplace(usable_so_far(filters));
    }
  }
  void end_word() {
    in_word_ = false;
    if (word_++ != 0) return;
    const Command* row = command_named(command_);
    if (row && handlers().count(row->word)) {
      row_ = row;
      args_.resize(row->args.size());
    }
  }
  // Whether the arguments before the current word pass steps 4 and 5 of the
  // order of checks: only then can the request use its bytes.
  bool usable_so_far(const Filters& filters) const {
    for (std::size_t i = 0; i + 1 < word_; ++i) {
      const Arg kind = row_->args[i];
      if (args_[i].hex ? !args_[i].hex->valid() : !read_arg(kind, args_[i].text)) return false;
      if (kind == Arg::Filter && filters.find(args_[i].text) == filters.end()) return false;
    }
    return true;
  }
  std::string call(Filters& filters);

  bool broken_ = false;      // a byte or a space breaks the framing rules
  bool pending_cr_ = false;  // the last byte so far is a "\r", which is dropped if it ends the line
  bool in_word_ = false;
  std::size_t word_ = 0;  // the current word's index; 0 is the command
  std::string command_;
  const Command* row_ = nullptr;  // the command, once its word has ended, if it has a handler
  std::vector<Word> args_;        // one for each argument of row_
};

std::string PendingRequest::finish(Filters& filters) {
  if (broken_ || !in_word_) {  // !in_word_: an empty line, or one ending in a space
    return err("Protocol", "a request is printable ASCII words separated by single spaces");
  }
  end_word();
  if (row_ == nullptr) return err("Unknown", "no command '" + command_ + "'");
  const std::string word(row_->word);
  const std::size_t given = word_ - 1;
  if (given != row_->args.size()) {
    return err("Protocol", word + " takes " + std::to_string(row_->args.size()) + " arguments, not " +
                               std::to_string(given));
  }
  return call(filters);
}

std::string PendingRequest::call(Filters& filters) {
  const std::string word(row_->word);
  Call call;
  for (std::size_t i = 0; i < args_.size(); ++i) {
    Word& w = args_[i];
    auto value = w.hex ? (w.hex->valid() ? std::optional<Value>(w.hex->take()) : std::nullopt)
                       : read_arg(row_->args[i], w.text);
    if (!value) {
      return err("Protocol", "argument " + std::to_string(i + 1) + " of " + word + " must be " +
                                 std::string(arg_description(row_->args[i])));
    }
    call.values.push_back(std::move(*value));
  }
  for (std::size_t i = 0; i < args_.size(); ++i) {
    if (row_->args[i] != Arg::Filter) continue;
    const auto found = filters.find(call.name(i));
    if (found == filters.end()) return err("NoSuchFilter", "no filter '" + call.name(i) + "'");
    call.filters.push_back(&found->second);
  }
  for (const Word& w : args_) {
    if (w.hex && w.hex->out_of_memory()) return err("Protocol", "no memory for the bytes of this request");
  }
  return handlers().at(row_->word)(call, filters);
}

OracleSession::OracleSession() = default;
OracleSession::~OracleSession() = default;
OracleSession::OracleSession(const OracleSession& other) : filters_(other.filters_) {}
OracleSession& OracleSession::operator=(const OracleSession& other) {
  filters_ = other.filters_;
  pending_.reset();
  return *this;
}
OracleSession::OracleSession(OracleSession&&) noexcept = default;
OracleSession& OracleSession::operator=(OracleSession&&) noexcept = default;

void OracleSession::add(std::string_view piece) {
  if (!pending_) pending_ = std::make_unique<PendingRequest>();
  pending_->add(piece, filters_);
}

std::string OracleSession::finish() {
  if (!pending_) pending_ = std::make_unique<PendingRequest>();
  const auto request = std::move(pending_);
  return request->finish(filters_);
}

void OracleSession::abandon() { pending_.reset(); }

std::string OracleSession::handle(std::string_view line) {
  abandon();
  add(line);
  return finish();
}

}  // namespace tlbf::protocol
