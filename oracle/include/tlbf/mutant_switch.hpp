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

namespace tlbf::mutants {

// The active mutant: set_active's, or else the environment variable
// TLBF_MUTANT (an id of the catalog, "s01" ...; unset or empty for none), read
// once. A value that names no mutant stops the process with status 2 and a
// message listing the ids.
Id active() noexcept;
void set_active(Id id) noexcept;

}  // namespace tlbf::mutants

#define TLBF_MUTANT(id) (::tlbf::mutants::active() == ::tlbf::mutants::Id::id)

#else

#define TLBF_MUTANT(id) false

#endif
