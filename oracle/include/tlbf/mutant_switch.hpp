// Mutant schemata (docs/mutants.md). Each planted bug of the specification's
// pitfall table is a switch at one place in the oracle's source:
//
//     TLBF_MUTANT(s01) ? std::floor(ideal) : std::ceil(ideal)
//
// In the production build TLBF_MUTANT(id) is the constant false, so the
// compiler removes every mutant and the library pays nothing. The mutant
// build (TLBF_MUTANTS defined; the target tlbf_oracle_mutants) compiles every
// mutant in and selects at most one at run time.
#pragma once

#ifdef TLBF_MUTANTS

// Id, kCount and kNames, generated from mutants/catalog.json (oracle/CMakeLists.txt).
#include "tlbf/mutant_ids.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// The mutant the environment variable TLBF_MUTANT names (an id of the
// catalog, "s01" ...; Id::none when it is unset or empty), or, when it names
// no mutant, a failure listing the ids. The process can then go on neither as
// a mutant it is not nor as the oracle: every main() of the mutant build
// checks it before serving or testing, and ends with status 2 printing the
// failure, which the kill tests do not count as a kill
// (oracle/tests/CMakeLists.txt).
Outcome<Id> mutant_from_environment();

// The active mutant: set_active's, or else mutant_from_environment()'s, read
// once (none when TLBF_MUTANT names no mutant, which main() has refused).
Id active() noexcept;
void set_active(Id id) noexcept;

}  // namespace tlbf::mutants

#define TLBF_MUTANT(id) (::tlbf::mutants::active() == ::tlbf::mutants::Id::id)

#else

#define TLBF_MUTANT(id) false

#endif
