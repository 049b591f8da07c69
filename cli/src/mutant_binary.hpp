// Where tlbf finds tlbf-mutant, the protocol endpoint over the mutant build of
// the oracle that `tlbf serve --mutant` becomes (docs/mutants.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tlbf/outcome.hpp"

namespace tlbf::cli {

// The places tlbf-mutant may be, in the order to try them: beside this
// program (the build tree puts both in build/cli), then where `cmake --install`
// puts it relative to this program (docs/cli.md, "Installing"). Empty when
// this program's own path cannot be read. Says nothing about which exist.
std::vector<std::filesystem::path> mutant_binary_candidates();

// The first of those that this user may run, for tlbf mutate and tlbf grade;
// a Failure that says where it was looked for when there is none.
Outcome<std::string> runnable_mutant_binary();

}  // namespace tlbf::cli
