#include "tlbf/conformance/check_suite.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <chrono>

#include "tlbf/conformance/rule_cases.hpp"

namespace tlbf::conformance {
namespace {

bool matches(const std::string& glob, const std::string& name) {
  return ::fnmatch(glob.c_str(), name.c_str(), 0) == 0;
}

// The vector cases, then the deterministic ones (docs/check.md); with a
// filter, the large filters too, which run only when a filter asks for them.
tlbf::Outcome<std::vector<Case>> deterministic_cases_of(const CheckSelection& selection) {
  if (selection.profile == "behavioural") return std::vector<Case>{};
  auto cases = cases_from_vectors(selection.vectors ? *selection.vectors : vectors::generate());
  auto deterministic = deterministic_cases();
  if (!deterministic) return deterministic.failure_in("a rule case compiled into tlbf does not parse: ");
  for (auto& c : deterministic.value()) cases.push_back(std::move(c));
  if (!selection.filter.empty()) {
    for (auto& c : large_cases()) cases.push_back(std::move(c));
  }
  return cases;
}

// The behavioural checks; for TLBF itself, after the two cases of a process's
// start and end, and before the random sequences.
std::vector<InteractiveCase> behavioural_cases_of(const CheckSelection& selection) {
  auto behaviour = behavioural_cases(selection.seed);
  if (selection.profile != "behavioural") {
    behaviour.insert(behaviour.begin(), fresh_start_case());
    behaviour.insert(behaviour.begin(), end_of_input_case());
    if (selection.runs > 0) behaviour.push_back(model_based_case(selection.seed, selection.runs));
  }
  return behaviour;
}

template <typename C>
void keep_selected(std::vector<C>& cases, const CheckSelection& selection) {
  std::erase_if(cases, [&](const C& c) {
    if (!selection.filter.empty() && !matches(selection.filter, c.name)) return true;
    return std::any_of(selection.skip.begin(), selection.skip.end(),
                       [&](const std::string& glob) { return matches(glob, c.name); });
  });
}

}  // namespace

tlbf::Outcome<CheckSuite> select_check_cases(const CheckSelection& selection) {
  auto cases = deterministic_cases_of(selection);
  if (!cases) return cases.failure();
  CheckSuite suite{std::move(cases.value()), behavioural_cases_of(selection)};
  keep_selected(suite.cases, selection);
  keep_selected(suite.behaviour, selection);
  if (suite.cases.empty() && suite.behaviour.empty()) {
    return tlbf::failure("--filter '" + selection.filter + "'" +
                         (selection.skip.empty() ? "" : " with --skip") + " matches no case of profile " +
                         selection.profile);
  }
  return suite;
}

std::string selected_by(const CheckSelection& selection) {
  std::string out = selection.filter.empty() ? "" : "--filter '" + selection.filter + "'";
  for (const auto& glob : selection.skip) out += (out.empty() ? "" : " ") + ("--skip '" + glob + "'");
  return out;
}

Budget budget_for(const std::vector<Case>& cases, Budget budget) {
  const bool large =
      std::any_of(cases.begin(), cases.end(), [](const Case& c) { return c.name.rfind("large/", 0) == 0; });
  if (!large) return budget;
  using namespace std::chrono_literals;
  budget.first_answer = std::max<Millis>(budget.first_answer, 30s);
  budget.floor = std::max<Millis>(budget.floor, 30s);
  budget.total = std::max<Millis>(budget.total, 900s);
  return budget;
}

}  // namespace tlbf::conformance
