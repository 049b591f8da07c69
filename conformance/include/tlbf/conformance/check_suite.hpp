// The cases of `tlbf check`, chosen as its options choose them (docs/check.md):
// the one definition of the default check, which the command line, the tests
// and the benchmarks share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlbf/conformance/behaviour.hpp"
#include "tlbf/conformance/cases.hpp"
#include "tlbf/conformance/session.hpp"
#include "tlbf/outcome.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::conformance {

// What chooses the cases; a default-constructed one is the default check.
struct CheckSelection {
  // "tlbf": the vectors, the deterministic cases and the behavioural checks;
  // "behavioural": only the properties every Bloom filter has (another
  // design's hashes and bytes are its own), so no vector or rule case.
  std::string profile = "tlbf";
  std::uint64_t seed = 20261129;  // the behavioural checks' items, the random sequences
  int runs = 100;                 // random request sequences (model_based_case); 0: none
  // A glob (fnmatch) every case kept must match; "" keeps every case of the
  // default check. Any filter also offers the large/ cases, which nothing
  // else selects (docs/check.md, "The large filters").
  std::string filter;
  std::vector<std::string> skip;  // globs of cases left out, after the filter
  // The vector files the vector cases come from; nullopt: the built-in ones.
  std::optional<std::vector<vectors::VectorFile>> vectors;
};

struct CheckSuite {
  std::vector<Case> cases;                 // in check()'s order: the vectors', then the deterministic ones
  std::vector<InteractiveCase> behaviour;  // run after them
};

// The cases `selection` chooses, in the order tlbf check runs them; a Failure
// when it chooses none ("--filter 'X' with --skip matches no case of profile P").
tlbf::Outcome<CheckSuite> select_check_cases(const CheckSelection& selection);

// The options that narrowed the selection, as CheckReport::selected_by words
// them ("--filter 'X' --skip 'Y'"); "" for the whole profile.
std::string selected_by(const CheckSelection& selection);

// `budget`, widened when `cases` hold a large/ case: a request on a filter of
// 512 MiB may take seconds where memory is zeroed eagerly, so the first
// answer and the floor get at least 30 s and the whole run 900 s.
Budget budget_for(const std::vector<Case>& cases, Budget budget);

}  // namespace tlbf::conformance
