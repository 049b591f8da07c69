// A learner's row of the class: what the class's views show of them, read
// back from their report (docs/mutants.md, "A class in one command").
#pragma once

#include <optional>
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

// What a learner's report says of replay (its config.replay, docs/mutants.md,
// "The transcript is the lever"): whether their suite asked the same in every
// clean run, and which bugs survived by replay, not by a run.
struct RowReplay {
  bool enabled = true;                // false with --no-replay
  std::optional<bool> deterministic;  // none when the clean runs' sessions were not recorded
  std::string difference;             // where two clean runs parted, when not deterministic
  // The graded bugs that survived by replay, in ClassRow::outcomes's order;
  // none when the grading stopped.
  std::vector<std::string> replayed;
  bool operator==(const RowReplay&) const = default;
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
  // None when the learner has no report, or their report says nothing of
  // replay (one from before it, patch mode).
  std::optional<RowReplay> replay;
};
// A failure when `report_json` is no report of tlbf grade.
Outcome<ClassRow> class_row(const std::string& report_json);

// The bugs of `rows` in ClassSummary::bugs's order, each once.
std::vector<Bug> bugs_of(const std::vector<ClassRow>& rows);

// Whether the row's suite was found not deterministic: its clean runs sent
// different requests (an unseeded random test), so every subject was run.
bool not_deterministic(const ClassRow& row);

// How a row's replay reads, the same on the page and in JUnit: "" when there
// is nothing to say (no report of it, sessions not recorded, a grading that
// stopped with a deterministic suite), "off" (--no-replay), "NOT
// deterministic", or "R of N replayed" (R of the N graded mutants and chaffs
// survived by replay, not run; the others ran).
std::string replay_words(const ClassRow& row);
// replay_words in a table's cell: "R/N" for "R of N replayed", the others as they are.
std::string replay_cell(const ClassRow& row);

}  // namespace tlbf::mutants
