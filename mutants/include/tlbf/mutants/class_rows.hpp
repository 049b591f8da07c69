// A learner's row of the class: what the class's views show of them, read
// back from their report (docs/mutants.md, "A class in one command").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// A planted bug or a chaff, as the class page's matrix names its columns.
struct Bug {
  std::string id;
  std::string kind;  // "mutant" or "chaff"
  std::string description;
};

// The class summary: one row per learner, read back from their reports'
// config.learner (so that a resumed run summarises every learner alike).
struct ClassRow {
  std::string name;
  std::string verdict;
  int killed = 0, ran = 0;
  double score = 0;
  std::vector<std::string> survivors;  // graded mutants that survived
  int chaffs_killed = 0, chaffs_ran = 0;
  std::vector<std::string> chaffs_missed;
  std::string reason;  // why it stopped, when it did
  std::string report;  // the learner's page, relative to the summary
  // Each bug that ran, mutants then chaffs, each in id order: (id, "caught"
  // or "survived"). A bug not here was not run (the grading stopped, chaffs
  // none, a run that could not happen).
  std::vector<std::pair<std::string, std::string>> outcomes;
  std::vector<Bug> bugs;  // what each of those bugs is, for the class's list of them
};
// A failure when `report_json` is no report of tlbf grade.
Outcome<ClassRow> class_row(const std::string& report_json);

// The bugs of `rows` in ClassSummary::bugs's order, each once.
std::vector<Bug> bugs_of(const std::vector<ClassRow>& rows);

}  // namespace tlbf::mutants
