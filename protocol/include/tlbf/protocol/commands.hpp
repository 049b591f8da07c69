// The commands of line protocol v1 (docs/protocol.md, section 4), one row
// each: what everything that speaks, judges or generates the protocol derives
// from. The oracle's session dispatches by it, the conformance cases take
// their capabilities from it, the judge its answer forms and its rules for
// filters whose state is open, the random sequences their bookkeeping and the
// word and capability of each request, and the capability probes their
// requests.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tlbf::protocol {

// The kinds of argument a command takes (docs/protocol.md, section 2).
enum class Arg {
  Bytes,
  Hash,
  U64,
  U32,
  Real,
  NewName,  // names a filter the command creates or replaces: syntax only
  Filter,   // names a filter that must exist
};

// The groups of commands an implementation may offer (docs/check.md,
// "Capabilities"). hello belongs to none: every implementation answers it.
enum class Capability { Hashing, Sizing, Filter, Bytes, Union };
inline constexpr Capability kAllCapabilities[] = {Capability::Hashing, Capability::Sizing, Capability::Filter,
                                                  Capability::Bytes, Capability::Union};
std::string_view to_string(Capability c);
std::optional<Capability> capability_named(std::string_view name);

// The words after `ok` in a success (docs/protocol.md, section 4).
enum class Answer {
  Nothing,    // ok
  Hello,      // ok 1 NAME VERSION...
  Hash,       // ok H
  Positions,  // ok G1 G2 ... (one or more u64)
  U64,        // ok N
  U32,        // ok K
  Info,       // ok M K N (u64, u32, u64)
  Real,       // ok R
  Boolean,    // ok true|false
  Bytes,      // ok HEX
};

// What a command does to the filter its first argument names.
enum class Effect {
  None,     // names no filter
  Creates,  // creates or replaces it (NewName)
  Reads,    // reads it, and changes nothing
  Writes,   // changes it from the request alone (insert)
  Merges,   // changes it from another filter's state, its second argument's (union)
  Drops,    // forgets it
};

struct Command {
  // Every field, none defaulted: a row added without one does not compile.
  Command(std::string_view word_, std::vector<Arg> args_, std::optional<Capability> capability_,
          Answer answer_, Effect effect_, std::vector<std::string_view> probes_)
      : word(word_),
        args(std::move(args_)),
        capability(capability_),
        answer(answer_),
        effect(effect_),
        probes(std::move(probes_)) {}

  std::string_view word;
  std::vector<Arg> args;
  std::optional<Capability> capability;
  Answer answer;
  Effect effect;
  // The requests tlbf check sends to learn whether its group is offered
  // (docs/check.md, "Capabilities"), in the order of the table: none for a
  // command that not every design of its group has (a filter of another
  // design has no `positions`). Filters are named tlbf_probe, tlbf_probe_b, ...
  std::vector<std::string_view> probes;
};

// The table, in the order the probes are sent: a filter is made before it is
// read, and dropped last.
const std::vector<Command>& commands();

// The row of a command word; nullptr for a word the protocol does not have.
const Command* command_named(std::string_view word);

// The filter names of a request that reads a filter's state: its Filter
// arguments, but not the one a Drops command forgets. Empty when `words` is
// not a request of the table with its number of arguments.
std::vector<std::string_view> filters_read(const std::vector<std::string_view>& words);

// True when `words`, the words after `ok`, have the form of `answer`
// (whatever their values).
bool has_answer_form(Answer answer, const std::vector<std::string_view>& words);

}  // namespace tlbf::protocol
