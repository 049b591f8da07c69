// Cases made from descriptions rather than chosen one by one: the grammar of
// each value (docs/protocol.md, section 2, the `grammar` block), every width
// boundary of each integer field, and every identity rule of filters (names,
// unions). Each family names what it covers, so that a test can hold the
// cases to it and a new value type or field changes the cases.
#pragma once

#include <string>
#include <vector>

#include "tlbf/conformance/cases.hpp"

namespace tlbf::conformance {

// One word of a value type, as a grammar case sends it.
struct GrammarWord {
  std::string type;       // a line of the docs' grammar block: integer, hash, bytes, real, name
  std::string word;       // what is sent in the value's place
  std::string case_name;  // the case whose steps send it
  bool accepted = false;  // the case expects an answer other than err Protocol
};

// The printable characters a word may hold (0x21 to 0x7e): every grammar case
// tries each of them at each position.
std::string printable_characters();

// protocol/grammar/TYPE/POSITION: for each value type, a base word with every
// printable character put first, in the middle and last, in place of a
// character and inserted, and alone; protocol/grammar/TYPE/forms: the
// productions of the type (signs, dots, exponents, case, prefixes) combined.
std::vector<Case> grammar_cases();
// Every word those cases send, with whether the oracle accepts it.
std::vector<GrammarWord> grammar_words();

// The width boundaries every integer field is checked at: both sides of 2^b
// for each b below (the ones a field cannot reach are left out, by field).
inline constexpr int kWidthBoundaries[] = {7, 8, 15, 16, 31, 32, 53, 63, 64};

// protocol/integers/widths/FIELD: m, k, n, n_inserted, positions and the
// answers of optimal_k and optimal_m at 2^b - 1, 2^b and 2^b + 1 for every b
// of kWidthBoundaries the field's requests can reach.
std::vector<Case> width_cases();

// Two filter names with equal hashes under a common string hash (`hash`
// names it: java_hashcode, djb2, fnv1a_32, ...): a map keyed by the hash
// instead of the name makes them one filter.
struct NameCollision {
  const char* hash;
  const char* a;
  const char* b;
};
const std::vector<NameCollision>& name_collisions();

// state/identity/*: names that collide under common string hashes, unions
// of different filters with equal contents, large k through every command
// that takes k, and every shape of `union F G`.
std::vector<Case> identity_cases();

// format/header/refused_alone/FIELD: each refused value of each header field
// (magic, version, m, k, reserved, padding, length) in a file every other
// check accepts.
std::vector<Case> header_edge_cases();

// protocol/errors/pairs/COMMAND: every pair of a command's arguments, each
// wrong in every way its kind can be, and each fault with one argument too many.
std::vector<Case> error_order_cases();

// Marks `c` acceptable when the judge allows some answer other than the
// oracle's to one of its steps, with the flags that allow it as `why`.
void mark_by_judge(Case& c);

}  // namespace tlbf::conformance
