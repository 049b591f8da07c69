// The planted bugs s01 .. s10 of the specification's pitfall table, as the
// mutant build of the oracle carries them (docs/mutants.md). Read from
// mutants/catalog.json, embedded in the build: the one place their ids and
// descriptions are written.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

struct Mutant {
  std::string id;           // "s01"
  std::string file;         // the oracle source holding its switch, from the project root
  std::string function;     // where in that file
  std::string description;  // the pitfall, in the spec's words
  std::string original;     // the line as the oracle has it, without the switch
  std::string mutated;      // the line as the mutant has it
  std::string switch_text;  // the switch in the schemata source (tests find it there)
  // Switches of this id in the oracle: s06 is in insert and insert_many; s09
  // also stops on a bit out of range and skips prefetching one.
  int places = 1;
};

// The mutants in the catalog's order, parsed once; or, when the embedded
// catalog cannot be read, a failure naming what is wrong. The build embeds
// the text CMake has read, so that is a bug of the build: a program that
// offers the catalog checks this before anything else and refuses to start
// (tlbf: status 2).
const Outcome<std::vector<Mutant>>& read_catalog();
// read_catalog()'s mutants; none when it failed.
const std::vector<Mutant>& catalog();
const Mutant* find(std::string_view id);

// The text of an oracle source file that holds switches (a catalog `file`),
// as this build was made from it, or nullptr; reports quote it.
const std::string* oracle_source(std::string_view file);

// mutants/catalog.json as this build was made from it.
const std::string& catalog_json();

// The ids in the catalog's order.
std::vector<std::string> ids();
// The catalog's ids as help texts write them: "s01 .. s10" (first .. last).
std::string id_range();

// The change as a unified diff of the oracle source.
std::string unified_diff(const Mutant& m);

}  // namespace tlbf::mutants
