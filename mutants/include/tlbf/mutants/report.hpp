// The mutation-testing-elements report (the JSON Stryker's dashboard and
// HTML report read) of a `tlbf mutate` run, and the merge of shards' reports
// into one verdict (docs/mutants.md).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tlbf/mutants/scorer.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

struct ReportContext {
  std::vector<std::string> suite;
  double threshold = 0.80;
  std::vector<std::string> required;
  std::string mode;                   // "served" or "patches"
  std::vector<std::string> selected;  // the mutants chosen before --shard split them
  std::string shard;                  // "k/n", or empty when the run is not a shard
  bool meets = false;
  int exit_code = 0;            // tlbf mutate's
  std::string version;          // tlbf's
  int confirm_runs = 1;         // runs of each mutant whose outcomes had to agree (--confirm-runs)
  int confirm_kills = 1;        // the most runs that confirm a required mutant's kill (kill_confirmations)
  std::string sandbox = "off";  // "bubblewrap", "off", or "unavailable: WHY"
  // tlbf grade's: the learner the report is of, the key their grade depends
  // on (grade.hpp), and their verdict; empty for tlbf mutate.
  std::string learner, learner_key, learner_verdict;
};

// Schema version 2: one entry per mutated file with its full source and each
// mutant's place, status, reason and duration; tlbf's own verdict, and for a
// run that stopped before the mutants why it stopped, in `config`.
std::string mutation_report_json(const Subjects& subjects, const Score& score, const ReportContext& context);

// The page of `tlbf mutate --html`: the report `report_json` (as
// mutation_report_json or a merge writes it) shown by mutation-testing-elements'
// <mutation-test-report-app>, whose single-file bundle `viewer_js`
// (dist/mutation-test-elements.js of the npm package) is inlined with it, so
// the page needs no network; it also forbids itself to load anything. Every
// "<" of the JSON is written "\u003c", so no text in it (a suite's output
// holding "</script>") can end its script early. A failure when `viewer_js`
// itself holds "<script" or "</script" (in any case), which no inline script
// can carry safely.
Outcome<std::string> mutation_report_html(const std::string& report_json, const std::string& viewer_js);

// A surviving mutant as a learner reads it: what the bug is and where, in
// the code the suite tested, with its diff.
struct Survivor {
  std::string id, description, file;
  int line = 0;
  std::string diff;
};
std::vector<Survivor> survivors(const Subjects& subjects, const std::vector<MutantRun>& runs);

// What the baseline's transcripts said and what replay spared, in a line
// for the text report: whether every clean run sent the same requests (and
// where two parted when not), and how many subjects survived by replay,
// not run. "" when replay was off or the Subjects record nothing (patch mode).
std::string replay_summary(const Score& score);

// The whole verdict of shards' reports.
struct Merged {
  Score score;            // the mutants of every shard, in the order of `selected`
  ReportContext context;  // threshold, required, suite, mode: the shards'; meets and exit: the whole's
  std::vector<std::string> missed;  // required mutants that ran and were not killed
  std::string json;                 // the merged report
};

// How deep a report nests at most (a mutant's location.start is 7 levels
// down), for the strict parse of a report read back (merge, tlbf grade's
// earlier reports): a deeper file is no report of tlbf's.
inline constexpr int kReportMaxDepth = 8;
// The longest duration a report may hold, a week in milliseconds: more is no
// run of a suite tlbf timed, and a merge would add it into the whole's time.
inline constexpr double kMaxDurationMs = 7 * 24 * 3600 * 1000.0;

// `reports` are (name for messages, JSON text) pairs, each written by
// `tlbf mutate --shard k/n --json`. A shard that stopped (exit 3, 4, 5 or a
// harness error) stops the merge with its exit code and reason (score.stopped).
// A failure when the reports cannot be merged: not JSON (nested deeper than
// a report, or with a key twice, included), not tlbf's, out of the report
// schema's shape, with a duration or count out of range (a negative or
// endless duration, more kills than mutants), disagreeing, overlapping or
// incomplete. The failure names the report and the field.
Outcome<Merged> merge_reports(const std::vector<std::pair<std::string, std::string>>& reports);

// Whether a graded run meets the bar: its score reaches `threshold` and every
// required mutant that ran was killed (a timeout counts); `missed` gets those
// that were not, in the order of `required`.
bool meets_bar(const Score& score, double threshold, const std::vector<std::string>& required,
               std::vector<std::string>& missed);

}  // namespace tlbf::mutants
