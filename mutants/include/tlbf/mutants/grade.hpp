// Grading a class: every learner's tests against the course's reference,
// with the planted bugs, correct variants (wheats) and more bugs (chaffs)
// (docs/mutants.md, "For course authors").
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tlbf/mutants/report.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// What one kind of suite is graded against: a kit. A learner hands in one
// tests file; it goes into a copy of the reference, where the suite command
// runs it. The patches, the sanity patch, the chaffs and the wheats all apply
// to the reference, never to the learner's own code.
struct Kit {
  std::string kind;                 // "python", "rust"
  std::filesystem::path reference;  // the course's implementation
  std::string tests_file;           // the file a learner hands in, by name
  std::string tests_into;           // the folder of the reference it goes into ("" the top)
  std::vector<std::string> suite;   // the command that runs it there
  // Files of the reference a learner's copy does not have: the course's own
  // tests, which a learner's file could otherwise import and hand in as theirs.
  std::vector<std::string> left_out;
  PatchSet set;  // workdir unused: each learner gets a copy of the reference
  // "oracle" for a kit of protocol suites: the reference is then the course's
  // folder the tests file goes into, the mutants are the oracle's, served
  // hidden, and the wheats and chaffs are variants of `served` (its
  // variants_from, with set.wheats and set.chaffs); set.patches is unused.
  std::string serves;
  ServedSet served;  // directory and sandbox set per learner
};

// The kit described by `path` (a kit.json, docs/mutants.md, "Kits"); paths in
// it are relative to its folder. A failure names the first thing wrong with it:
// a file that is not a regular one or is longer than kMaxKitBytes, JSON nested
// deeper than kKitMaxDepth (a kit's `variants` is 2 levels down) or with a key
// twice, then its fields.
inline constexpr int kKitMaxDepth = 3;
inline constexpr std::size_t kMaxKitBytes = std::size_t{1} << 20;
Outcome<Kit> read_kit(const std::filesystem::path& path);

// One learner: a folder of the class, and in it the tests file.
struct Learner {
  std::string name;  // the folder's name
  std::filesystem::path folder;
  std::filesystem::path tests;  // empty when the folder holds none
  std::string problem;          // why the learner cannot be graded ("" when they can)
};

// The learner `name` whose folder is `folder`: their tests file is the file
// named `tests_file` nearest the folder's top (build products and version
// control skipped); none, or two at the same depth, is a problem.
Learner learner_in(const std::filesystem::path& folder, const std::string& name,
                   const std::string& tests_file);

// Every sub-folder of `class_dir`, in name order. A learner's tests file is
// the file named `tests_file` nearest the folder's top (build products and
// version control skipped); none, or two at the same depth, is a problem.
std::vector<Learner> find_learners(const std::filesystem::path& class_dir, const std::string& tests_file);

// The reference, copied once for the class and warmed: the suite run once on
// it, ungraded, so that what every learner's runs share (cargo's build of the
// dependencies and of the reference) is built once. It is warmed at the path
// where each learner's copy is then made, one learner at a time, so that
// what a build tool keeps by absolute path stays valid for every learner.
// Removed when destroyed. A failure when the reference cannot be copied.
class ClassSeed {
 public:
  static Outcome<std::unique_ptr<ClassSeed>> make(const Kit& kit, std::chrono::milliseconds limit);
  ~ClassSeed();
  ClassSeed(const ClassSeed&) = delete;
  ClassSeed& operator=(const ClassSeed&) = delete;

  // A copy of the warmed reference with the learner's tests file in it, for
  // the learner's grading, or why it cannot be made. Always at the same path:
  // the last learner's copy is gone once this is called again.
  Outcome<std::string> workdir_for(const Learner& learner);
  void done_with(const std::string& workdir);
  double warm_seconds() const { return warm_seconds_; }

 private:
  ClassSeed(const Kit& kit, std::filesystem::path scratch) : kit_(kit), scratch_(std::move(scratch)) {}
  std::filesystem::path learner_folder() const { return scratch_ / "learner"; }
  Outcome<Done> warm(const std::filesystem::path& at, std::chrono::milliseconds limit);
  Kit kit_;
  std::filesystem::path scratch_;
  double warm_seconds_ = 0;
};

// One learner's verdict, as the class summary shows it.
enum class LearnerVerdict {
  Meets,
  Short,
  FailsClean,
  PassesBroken,
  Flaky,
  RejectsCorrect,
  Ungradable,
  Harness,
  NoTests
};
std::string_view to_string(LearnerVerdict v);  // "meets", "short", "fails-clean", ...
LearnerVerdict verdict_of(const Score& score, bool meets);

// A key of what a learner's grade depends on (their tests file, the kit's
// files, the options): a class run that finds a learner's report with the
// same key reuses it.
std::string learner_key(const Kit& kit, const Learner& learner, const std::string& options);

// A digest of the kit alone: its kind, suite command, tests file and where it
// goes, the files left out, and every file of its folders (names relative to
// each folder, so that two checkouts of one kit in different places agree).
// Shards of one class graded with different kits have different digests.
std::string kit_digest(const Kit& kit);

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

// The bugs of `rows` in ClassSummary::bugs's order, each once.
std::vector<Bug> bugs_of(const std::vector<ClassRow>& rows);

// class.json (docs/mutants.md, "A class in one command").
std::string class_summary_json(const ClassSummary& summary);
std::string class_summary_json(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required);

// class.html: one offline page (nothing loaded from anywhere; its script and
// style inline), with the bugs no graded learner caught, the learners who
// catch the least, and the matrix of learners by bugs, each cell caught,
// survived or not run, which a script sorts by learner or by bug
// (docs/mutants.md, "The class page").
std::string class_summary_html(const ClassSummary& summary);
std::string class_summary_html(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required);

// The class for a terminal, at most 80 columns: a row per learner, each name
// whole (one that does not fit the column is a line of its own, the row's
// cells under it), a line per learner whose grading stopped, where the class
// page is (`class_page`), and a closing line that counts the verdicts.
std::string class_summary_text(const std::vector<ClassRow>& rows, const std::string& class_page);

// JUnit XML for a CI: one testsuite, "tlbf grade", with a testcase per
// learner that passes when they meet the bar; otherwise a <failure> whose
// message is their verdict, score, threshold and the required mutants that
// survived, or an <error> when the harness is to blame (harness-error,
// ungradable). Text past ASCII becomes '?', as in tlbf check's.
std::string class_summary_junit(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                                const std::vector<std::string>& required);

}  // namespace tlbf::mutants
