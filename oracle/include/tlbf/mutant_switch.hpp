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

namespace tlbf::mutants {

enum class Id { none, s01, s02, s03, s04, s05, s06, s07, s08, s09, s10 };

// The active mutant: set_active's, or else the environment variable
// TLBF_MUTANT ("s01" .. "s10"; unset or empty for none), read once. A value
// that names no mutant stops the process with status 2 and a message.
Id active() noexcept;
void set_active(Id id) noexcept;

}  // namespace tlbf::mutants

#define TLBF_MUTANT(id) (::tlbf::mutants::active() == ::tlbf::mutants::Id::id)

#else

#define TLBF_MUTANT(id) false

#endif
