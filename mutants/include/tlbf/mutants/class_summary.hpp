// The class's views: class.json, the class page, the terminal's table and
// JUnit XML (docs/mutants.md, "A class in one command", "The class page",
// "In CI and in a log").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tlbf/mutants/class_rows.hpp"

namespace tlbf::mutants {

// One shard of a class: learners sorted by folder name (byte order), the
// i-th from 0 is in shard i mod n + 1 (class_merge.hpp).
struct ClassShard {
  int k = 1, n = 1;
  int class_learners = 0;  // in the whole class, every shard's
};

// What class.json holds: the class's rows, the bar, what the grades depend
// on besides the tests files, and the bugs its matrix shows.
struct ClassSummary {
  std::string kind;
  double threshold = 0.80;
  std::vector<std::string> required;
  std::string version;  // tlbf's
  std::string kit;      // kit_digest's
  std::string options;  // the options that change a grade, in words
  std::optional<ClassShard> shard;
  std::vector<Bug> bugs;  // every bug a row holds, mutants then chaffs, each kind in id order
  std::vector<ClassRow> rows;
};

// class.json (docs/mutants.md, "A class in one command").
std::string class_summary_json(const ClassSummary& summary);
std::string class_summary_json(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required);

// class.html: one offline page (nothing loaded from anywhere; its script and
// style inline), with the bugs no graded learner caught, the learners who
// catch the least, the suites that are not deterministic, and the matrix of
// learners by bugs, each cell caught, survived (by a run, or by replay) or
// not run, which a script sorts by learner or by bug (docs/mutants.md, "The
// class page").
std::string class_summary_html(const ClassSummary& summary);
std::string class_summary_html(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required);

// The class for a terminal, at most 80 columns: a row per learner, each name
// whole (one that does not fit the column is a line of its own, the row's
// cells under it), a line per learner whose grading stopped and per learner
// whose suite is not deterministic, where the class page is (`class_page`),
// and a closing line that counts the verdicts.
std::string class_summary_text(const std::vector<ClassRow>& rows, const std::string& class_page);

// JUnit XML for a CI: one testsuite, "tlbf grade", with a testcase per
// learner that passes when they meet the bar; otherwise a <failure> whose
// message is their verdict, score, threshold and the required mutants that
// survived, or an <error> when the harness is to blame (harness-error,
// ungradable). Text past ASCII becomes '?', as in tlbf check's.
std::string class_summary_junit(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                                const std::vector<std::string>& required);

}  // namespace tlbf::mutants
