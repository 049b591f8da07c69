// The mutation-testing-elements report (the JSON Stryker's dashboard and
// HTML report read) of a `tlbf mutate` run (docs/mutants.md).
#pragma once

#include <string>
#include <vector>

#include "tlbf/mutants/scorer.hpp"

namespace tlbf::mutants {

struct ReportContext {
  std::vector<std::string> suite;
  double threshold = 0.80;
  std::vector<std::string> required;
  std::string mode;  // "served" or "patches"
  bool meets = false;
  std::string version;  // tlbf's
};

// Schema version 2: one entry per mutated file with its full source and each
// mutant's place, status, reason and duration; tlbf's own verdict in `config`.
std::string mutation_report_json(const Subjects& subjects, const Score& score, const ReportContext& context);

}  // namespace tlbf::mutants
