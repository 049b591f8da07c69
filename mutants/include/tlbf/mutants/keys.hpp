// What a learner's grade depends on, as a key, and a kit's digest
// (docs/mutants.md, "A run that stopped resumes", "A class over a CI matrix").
#pragma once

#include <string>

#include "tlbf/mutants/kit.hpp"
#include "tlbf/mutants/learners.hpp"

namespace tlbf::mutants {

// A key of what a learner's grade depends on (their tests file, the kit's
// files, the options): a class run that finds a learner's report with the
// same key reuses it.
std::string learner_key(const Kit& kit, const Learner& learner, const std::string& options);

// A digest of the kit alone: its kind, suite command, tests file and where it
// goes, the files left out, and every file of its folders (names relative to
// each folder, so that two checkouts of one kit in different places agree).
// Shards of one class graded with different kits have different digests.
std::string kit_digest(const Kit& kit);

}  // namespace tlbf::mutants
