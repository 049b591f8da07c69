// The facts of a CheckReport that more than one report shows (the text and
// the HTML page), worked out once: internal to conformance/'s reports.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tlbf/conformance/runner.hpp"

namespace tlbf::conformance::report_facts {

// The reproduce line of a failed case, or why there is none ("" when neither).
std::string reproduce_of(const CaseResult& r);

// The columns of the group table, in order.
const std::vector<std::pair<CaseOutcome, std::string>>& group_columns();

using GroupCounts = std::map<std::string, std::map<CaseOutcome, int>>;
GroupCounts group_counts(const CheckReport& report);

// "12 cases (vectors/hash 4, behaviour/x 8) because ...", or "" when every case ran.
std::string not_run_text(const CheckReport& report, const GroupCounts& groups);

// Capability names, each after a space: " hashing sizing".
struct CapabilityLists {
  std::string offered, missing, left_out;
};
CapabilityLists capability_lists(const CheckReport& report);

// What follows "capabilities checked:".
std::string checked_text(const CheckReport& report, const CapabilityLists& lists);

// The verdict without its counts: "conforms to TLBF v1, every capability checked".
std::string verdict_words(const CheckReport& report, bool tlbf, const CapabilityLists& lists);

// "(738 passed, 0 failed, ...)".
std::string counts_words(const CheckReport& report);

// Per group, per implementation: (passed or acceptable, run); run 0 where
// the group was not offered (every case skipped) or the report has no such group.
using ParityCells = std::map<std::string, std::vector<std::pair<int, int>>>;
ParityCells parity_cells(const std::vector<CheckReport>& reports);

}  // namespace tlbf::conformance::report_facts
