#include "report_facts.hpp"

#include "tlbf/conformance/reports.hpp"

namespace tlbf::conformance::report_facts {

// The reproduce line of a failed case, or why there is none ("" when neither).
std::string reproduce_of(const CaseResult& r) {
  if (!r.reproduce.empty()) return r.reproduce;
  // No shell line: its requests are too long for one, or the case talks to a
  // fresh process of its own (the random sequences, a start with no hello).
  if (!r.transcript.empty())
    return "the transcript is whole in --json; save it to a file and replay it with tlbf check --transcript "
           "FILE";
  return "";
}

// The facts both the text and the HTML report show, worked out once.

// The columns of the group table, in order.
const std::vector<std::pair<CaseOutcome, std::string>>& group_columns() {
  static const std::vector<std::pair<CaseOutcome, std::string>> columns = {
      {CaseOutcome::Passed, "passed"},
      {CaseOutcome::Failed, "failed"},
      {CaseOutcome::Acceptable, "acceptable"},
      {CaseOutcome::Skipped, "skipped"},
      {CaseOutcome::NotRun, "not run"}};
  return columns;
}

GroupCounts group_counts(const CheckReport& report) {
  GroupCounts groups;
  for (const auto& r : report.results) ++groups[group_of(r.name)][r.outcome];
  return groups;
}

// "12 cases (vectors/hash 4, behaviour/x 8) because ...", or "" when every case ran.
std::string not_run_text(const CheckReport& report, const GroupCounts& groups) {
  if (report.stopped_because.empty()) return "";
  std::string where;
  for (const auto& [group, counts] : groups) {
    const auto n = counts.find(CaseOutcome::NotRun);
    if (n != counts.end() && n->second > 0)
      where += (where.empty() ? "" : ", ") + group + " " + std::to_string(n->second);
  }
  return std::to_string(report.count(CaseOutcome::NotRun)) + " cases (" + where + ") because " +
         report.stopped_because;
}

CapabilityLists capability_lists(const CheckReport& report) {
  CapabilityLists lists;
  if (!report.speaks_protocol) return lists;  // nothing was probed: none offered, missing or left out
  for (auto c : kAllCapabilities) {
    const bool left = report.left_out().count(c) > 0;
    (report.offered.count(c) ? lists.offered
     : left                  ? lists.left_out
                             : lists.missing) += " " + std::string(to_string(c));
  }
  return lists;
}

// What follows "capabilities checked:".
std::string checked_text(const CheckReport& report, const CapabilityLists& lists) {
  // One that never answered the probes offered, declined and left out nothing.
  if (!report.speaks_protocol) return " none (not probed: it did not answer hello as protocol v1)";
  return lists.offered.empty() ? std::string(" none") : lists.offered;
}

// The verdict without its counts: "conforms to TLBF v1, every capability checked".
std::string verdict_words(const CheckReport& report, bool tlbf, const CapabilityLists& lists) {
  if (!report.conforms()) {
    const std::string no = tlbf ? "does NOT conform to TLBF v1" : "does NOT behave as a Bloom filter";
    return report.speaks_protocol && !report.ran_a_case() ? no + ": no case ran" : no;
  }
  // A part of the check that passes is no verdict on the whole.
  const std::string part = report.selected_by.empty() ? ""
                                                      : ", but only on the cases " + report.selected_by +
                                                            " selects, not the whole check";
  if (!tlbf) return "behaves as a Bloom filter (the behavioural profile; no TLBF verdict)" + part;
  return (lists.left_out.empty()
              ? "conforms to TLBF v1, every capability checked"
              : "conforms to TLBF v1 on" + lists.offered + ", with" + lists.left_out + " left out") +
         part;
}

std::string counts_words(const CheckReport& report) {
  return "(" + std::to_string(report.count(CaseOutcome::Passed)) + " passed, " +
         std::to_string(report.count(CaseOutcome::Failed)) + " failed, " +
         std::to_string(report.count(CaseOutcome::Acceptable)) + " acceptable differences, " +
         std::to_string(report.count(CaseOutcome::Skipped)) + " skipped, " +
         std::to_string(report.count(CaseOutcome::NotRun)) + " not run)";
}

ParityCells parity_cells(const std::vector<CheckReport>& reports) {
  ParityCells matrix;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    for (const auto& r : reports[i].results) {
      auto& cells = matrix[group_of(r.name)];
      cells.resize(reports.size());
      cells[i].first += r.outcome == CaseOutcome::Passed || r.outcome == CaseOutcome::Acceptable;
      cells[i].second += r.outcome != CaseOutcome::Skipped;
    }
  }
  return matrix;
}

}  // namespace tlbf::conformance::report_facts
