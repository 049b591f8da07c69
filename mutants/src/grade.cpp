// Grading a class (docs/mutants.md, "For course authors").
#include "tlbf/mutants/grade.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "private_folder.hpp"
#include "tlbf/mutants/suite_user.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/shell_quote.hpp"
#include "tlbf/strict_json.hpp"
#include "tlbf/whole_file.hpp"
#include "file_text.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Folders that hold what a build or a tool made, not what a learner wrote.
bool skipped_folder(const fs::path& folder) {
  static const std::set<std::string> names{"target", ".git", "__pycache__", "node_modules", ".venv", "build"};
  return names.count(folder.filename().string()) > 0;
}

Outcome<Done> copy_folder(const fs::path& from, const fs::path& to) {
  const auto copied = conformance::run_with_input(
      "cp -a --reflink=auto " + shell_quote(from.string()) + " " + shell_quote(to.string()), "",
      std::chrono::minutes(10));
  if (copied.exited_cleanly()) return done();
  return failure("cannot copy " + from.string() + " (cp " + copied.how_it_ended() +
                 "): " + conformance::last_lines(copied.out + copied.err, 3));
}

std::vector<std::string> strings_of(const Json& list) {
  std::vector<std::string> out;
  for (const auto& s : list) out.push_back(s.get<std::string>());
  return out;
}

// A kit.json's fields, read one by one, and the first thing wrong with them.
class KitReader {
 public:
  KitReader(const Json& kit, const fs::path& path) : kit_(kit), path_(path.string()) {
    // The kit's own folder, links followed: the build tree reaches the source's kits through one.
    std::error_code ec;
    base_ = fs::weakly_canonical(fs::absolute(path), ec).parent_path();
  }

  // The first problem counts: the one a course author meets first in the file.
  void wrong(const std::string& why) {
    if (error_.empty()) error_ = path_ + ": " + why;
  }
  const std::string& error() const { return error_; }
  const Json& kit() const { return kit_; }

  std::string field(const char* key, bool required) {
    const Json value = kit_.value(key, Json());
    if (value.is_string() && !value.get<std::string>().empty()) return value.get<std::string>();
    if (required) wrong(std::string("\"") + key + "\" must be a non-empty string");
    return "";
  }
  // A folder or file named relative to the kit's folder.
  std::string path_in_kit(const std::string& relative) const {
    return relative.empty() ? "" : (base_ / relative).lexically_normal().string();
  }
  std::string folder(const char* key, bool required) { return path_in_kit(field(key, required)); }

 private:
  const Json& kit_;
  std::string path_;
  fs::path base_;
  std::string error_;
};

bool strings_only(const Json& list) {
  return std::all_of(list.begin(), list.end(), [](const Json& s) { return s.is_string(); });
}

void read_suite(KitReader& reader, Kit& kit) {
  const Json suite = reader.kit().value("suite", Json());
  if (!suite.is_array() || suite.empty() || !strings_only(suite)) {
    reader.wrong("\"suite\" must be a non-empty list of strings");
  } else {
    kit.suite = strings_of(suite);
  }
}

// Whether `relative` names a place inside a folder: not absolute, no ".."
// and no "." (left_out "." would leave the whole reference out).
bool stays_inside(const std::string& relative, bool may_be_empty) {
  const fs::path path(relative);
  if (path.empty()) return may_be_empty;
  return path.is_relative() && std::none_of(path.begin(), path.end(),
                                            [](const fs::path& part) { return part == ".." || part == "."; });
}

// "left_out": paths inside the reference, none reaching out of it.
void read_left_out(KitReader& reader, Kit& kit) {
  const Json left_out = reader.kit().value("left_out", Json::array());
  const auto inside = [](const Json& s) { return stays_inside(s.get<std::string>(), false); };
  if (!left_out.is_array() || !strings_only(left_out) ||
      !std::all_of(left_out.begin(), left_out.end(), inside)) {
    reader.wrong("\"left_out\" must be a list of paths inside the reference");
  } else {
    kit.left_out = strings_of(left_out);
  }
}

// A served kit's variants: what its wheats and chaffs are made from, and how each is served.
void read_variants(KitReader& reader, Kit& kit) {
  const Json variants = reader.kit().value("variants", Json());
  const Json command = variants.is_object() ? variants.value("command", Json()) : Json();
  const Json from = variants.is_object() ? variants.value("from", Json()) : Json();
  const Json as_is = variants.is_object() ? variants.value("as_is", Json("")) : Json();
  const Json mutants = variants.is_object() ? variants.value("mutants", Json("")) : Json();
  if (variants.is_null() && kit.set.wheats.empty() && kit.set.chaffs.empty())
    return;  // the oracle's mutants alone
  if (!from.is_string() || from.get<std::string>().empty() || !command.is_array() || command.empty() ||
      !strings_only(command) || !as_is.is_string() || !mutants.is_string()) {
    reader.wrong(
        "\"variants\" must be {\"from\": FOLDER, \"command\": [WORDS], \"as_is\": NAME} when a served kit "
        "has wheats or chaffs");
    return;
  }
  kit.served.variants_from = reader.path_in_kit(from.get<std::string>());
  kit.served.variant_command = strings_of(command);
  kit.served.as_is = as_is.get<std::string>();
  kit.served.mutant_patches = reader.path_in_kit(mutants.get<std::string>());
  kit.served.wheats = kit.set.wheats;
  kit.served.chaffs = kit.set.chaffs;
}

// A served kit's one build of the learner's suite: "build" (words) and
// "executable" (where in the run's folder what it builds goes), both or neither.
void read_build(KitReader& reader, Kit& kit, bool served) {
  const Json build = reader.kit().value("build", Json());
  const std::string executable = reader.field("executable", false);
  if (build.is_null() && executable.empty()) return;
  if (!served) {
    reader.wrong("\"build\" and \"executable\" are for a kit that serves its subjects (\"serves\")");
  } else if (!build.is_array() || build.empty() || !strings_only(build) || executable.empty()) {
    reader.wrong("\"build\" must be a non-empty list of strings, with \"executable\" a path beside it");
  } else if (!stays_inside(executable, /*may_be_empty=*/false)) {
    reader.wrong("\"executable\" must be a path inside the learner's folder, not \"" + executable + "\"");
  } else {
    kit.served.build = strings_of(build);
    kit.served.executable = executable;
  }
}

// Every folder and file the kit names is there.
Outcome<Done> kit_paths_exist(const fs::path& path, const Kit& kit) {
  std::error_code ec;
  for (const auto& [what, dir] : {std::pair<const char*, std::string>{"reference", kit.reference.string()},
                                  {"patches", kit.set.patches},
                                  {"chaffs", kit.set.chaffs},
                                  {"wheats", kit.set.wheats},
                                  {"variants.from", kit.served.variants_from},
                                  {"variants.mutants", kit.served.mutant_patches}}) {
    if (!dir.empty() && !fs::is_directory(dir, ec)) {
      return failure(path.string() + ": " + what + " '" + dir + "' is not a folder");
    }
  }
  if (!kit.set.sanity_patch.empty() && !fs::is_regular_file(kit.set.sanity_patch, ec)) {
    return failure(path.string() + ": sanity_patch '" + kit.set.sanity_patch + "' is not a file");
  }
  for (const auto& file : kit.left_out) {
    if (!fs::exists(fs::symlink_status(kit.reference / file, ec))) {
      return failure(path.string() + ": left_out '" + file + "' is not in the reference");
    }
  }
  return done();
}

}  // namespace

Outcome<Kit> read_kit(const fs::path& path) {
  const auto text = read_whole_file(path.string(), kMaxKitBytes, "kit");
  if (!text.ok()) return failure("the kit: " + text.why());
  const auto parsed = parse_json_strictly(text.value(), path.string(), {kKitMaxDepth, "kit"});
  if (!parsed.ok()) return failure("the kit " + parsed.why());
  const Json& json = parsed.value();
  if (!json.is_object()) return failure("the kit " + path.string() + " is not a JSON object");
  KitReader reader(json, path);
  Kit kit;
  kit.kind = reader.field("kind", true);
  kit.serves = reader.field("serves", false);
  if (!kit.serves.empty() && kit.serves != "oracle") {
    reader.wrong("\"serves\" is \"oracle\" or absent, not \"" + kit.serves + "\"");
  }
  const bool served = !kit.serves.empty();
  kit.reference = reader.folder("reference", true);
  kit.tests_file = reader.field("tests_file", true);
  kit.tests_into = reader.field("tests_into", false);
  if (!stays_inside(kit.tests_into, /*may_be_empty=*/true)) {
    reader.wrong("\"tests_into\" must be a folder inside the reference (\"\" for its top), not \"" +
                 kit.tests_into + "\"");
  }
  kit.set.patches = reader.folder("patches", !served);
  kit.set.sanity_patch = reader.folder("sanity_patch", false);
  kit.set.chaffs = reader.folder("chaffs", false);
  kit.set.wheats = reader.folder("wheats", false);
  read_suite(reader, kit);
  read_left_out(reader, kit);
  if (served) read_variants(reader, kit);
  read_build(reader, kit, served);
  if (!reader.error().empty()) return failure(reader.error());
  if (const auto found = kit_paths_exist(path, kit); !found.ok()) return found.failure();
  return kit;
}

Learner learner_in(const fs::path& folder, const std::string& name, const std::string& tests_file) {
  Learner learner{name, folder, {}, {}};
  std::error_code ec;
  int best_depth = -1;
  std::vector<fs::path> at_best;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && skipped_folder(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().filename() != tests_file) continue;
    // A link would bring whatever it names into the run (a grader's file,
    // shown back in a compile error): only a file the learner handed in counts.
    if (it->is_symlink()) {
      learner.problem = it->path().string() + " is a symbolic link; hand in the file itself";
      return learner;
    }
    if (!it->is_regular_file()) continue;
    if (best_depth < 0 || it.depth() < best_depth) {
      best_depth = it.depth();
      at_best.clear();
    }
    if (it.depth() == best_depth) at_best.push_back(it->path());
  }
  if (at_best.empty()) {
    learner.problem = "no file named " + tests_file + " in " + folder.string();
  } else if (at_best.size() > 1) {
    std::sort(at_best.begin(), at_best.end());
    learner.problem = "two files named " + tests_file + " at the same depth: " + at_best[0].string() +
                      " and " + at_best[1].string() + "; keep one";
  } else {
    learner.tests = at_best.front();
  }
  return learner;
}

std::vector<Learner> find_learners(const fs::path& class_dir, const std::string& tests_file) {
  std::vector<Learner> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(class_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.empty() || name[0] == '.') continue;
    out.push_back(learner_in(entry.path(), name, tests_file));
  }
  std::sort(out.begin(), out.end(), [](const Learner& a, const Learner& b) { return a.name < b.name; });
  return out;
}

Outcome<std::unique_ptr<ClassSeed>> ClassSeed::make(const Kit& kit, std::chrono::milliseconds limit) {
  const auto made = make_private_folder();
  if (!made.ok()) return made.failure();
  const fs::path& scratch = made.value();
  std::unique_ptr<ClassSeed> seed(new ClassSeed(kit, scratch));
  // The learners' copies are made here, and their suites run as the suite user.
  if (const auto passed = let_suite_user_pass(scratch); !passed.ok()) return passed.failure();
  const auto start = std::chrono::steady_clock::now();
  // Warmed where every learner's copy will be, then moved aside: a build
  // tool that keys its cache by absolute path (rustc's incremental cache, a
  // CMake build tree) finds it valid in each learner's copy.
  const fs::path warm_at = seed->learner_folder();
  if (const auto copied = copy_folder(kit.reference, warm_at); !copied.ok()) return copied.failure();
  for (const auto& file : kit.left_out) {
    std::error_code ec;
    fs::remove_all(warm_at / file, ec);
    if (ec) return failure("cannot leave " + file + " out of the reference's copy: " + ec.message());
  }
  if (const auto warmed = seed->warm(warm_at, limit); !warmed.ok()) return warmed.failure();
  seed->warm_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return seed;
}

// Ungraded: the learners' gradings say whether their suites pass. The
// reference's own tests file, if it has one, builds what theirs will share.
// A served suite needs TLBF_IMPL, and builds nothing the class shares unless
// its kit builds it once (the Rust kind): that build, with an empty tests
// file where a learner's will be, builds the dependencies and the binding
// each learner's copy then reuses.
Outcome<Done> ClassSeed::warm(const fs::path& at, std::chrono::milliseconds limit) {
  std::error_code ec;
  if (!kit_.serves.empty() && !kit_.served.build.empty()) {
    const fs::path tests = at / kit_.tests_into / kit_.tests_file;
    fs::create_directories(tests.parent_path(), ec);
    if (!fs::exists(tests, ec)) std::ofstream{tests};
  }
  if (kit_.serves.empty() || !kit_.served.build.empty()) {
    const auto& warm_with = kit_.serves.empty() ? kit_.suite : kit_.served.build;
    (void)conformance::run_with_input(
        "cd " + shell_quote(at.string()) + " && " + suite_command(warm_with, "", ""), "", limit);
  }
  fs::rename(at, scratch_ / "reference", ec);
  if (ec)
    return failure("cannot move the warmed reference aside in " + scratch_.string() + ": " + ec.message());
  return done();
}

ClassSeed::~ClassSeed() {
  std::error_code ec;
  fs::remove_all(scratch_, ec);
  conformance::forget_folder(scratch_.string());
}

Outcome<std::string> ClassSeed::workdir_for(const Learner& learner) {
  const fs::path copy = learner_folder();
  std::error_code ec;
  fs::remove_all(copy, ec);  // the last learner's, had it not been done with
  if (const auto copied = copy_folder(scratch_ / "reference", copy); !copied.ok()) return copied.failure();
  const fs::path into = copy / kit_.tests_into;
  fs::create_directories(into, ec);
  fs::copy_file(learner.tests, into / kit_.tests_file, fs::copy_options::overwrite_existing, ec);
  if (ec) return failure("cannot copy " + learner.tests.string() + " into the reference: " + ec.message());
  return copy.string();
}

void ClassSeed::done_with(const std::string& workdir) {
  std::error_code ec;
  fs::remove_all(workdir, ec);
}

std::string_view to_string(LearnerVerdict v) {
  switch (v) {
    case LearnerVerdict::Meets:
      return "meets";
    case LearnerVerdict::Short:
      return "short";
    case LearnerVerdict::FailsClean:
      return "fails-clean";
    case LearnerVerdict::PassesBroken:
      return "passes-broken";
    case LearnerVerdict::Flaky:
      return "flaky";
    case LearnerVerdict::RejectsCorrect:
      return "rejects-correct";
    case LearnerVerdict::Ungradable:
      return "ungradable";
    case LearnerVerdict::Harness:
      return "harness-error";
    case LearnerVerdict::NoTests:
      return "no-tests";
  }
  return "?";
}

LearnerVerdict verdict_of(const Score& score, bool meets) {
  switch (score.stopped) {
    case kNotStopped:
      return meets ? LearnerVerdict::Meets : LearnerVerdict::Short;
    case kFailsClean:
      return LearnerVerdict::FailsClean;
    case kPassesBroken:
      return LearnerVerdict::PassesBroken;
    case kFlaky:
      return LearnerVerdict::Flaky;
    case kRejectsCorrect:
      return LearnerVerdict::RejectsCorrect;
    case kUngradable:
      return LearnerVerdict::Ungradable;
    default:
      return LearnerVerdict::Harness;
  }
}

namespace {

// Appends each part framed by its length, so that no two different sets of
// inputs read alike.
class Framed {
 public:
  void add(const std::string& part) { all_ += std::to_string(part.size()) + ":" + part; }
  std::string digest() const {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(tlbf::fnv1a64(all_)));
    return hex;
  }

 private:
  std::string all_;
};

// The kit's files, and how its variants are served.
void add_kit_files(Framed& framed, const Kit& kit) {
  framed.add(kit.serves);
  for (const auto& word : kit.served.variant_command) framed.add(word);
  framed.add(kit.served.as_is);
  for (const auto& word : kit.served.build) framed.add(word);
  framed.add(kit.served.executable);
  for (const auto& dir : {kit.reference.string(), kit.set.patches, kit.set.chaffs, kit.set.wheats,
                          kit.served.variants_from, kit.served.mutant_patches}) {
    if (dir.empty()) continue;
    std::map<std::string, std::string> files;  // sorted, so the order of the walk does not matter
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (it->is_directory() && skipped_folder(it->path())) {
        it.disable_recursion_pending();
      } else if (it->is_regular_file()) {
        files[fs::relative(it->path(), dir).string()] = file_text(it->path());
      }
    }
    for (const auto& [name, text] : files) {
      framed.add(name);
      framed.add(text);
    }
  }
  if (!kit.set.sanity_patch.empty()) framed.add(file_text(kit.set.sanity_patch));
}

}  // namespace

std::string learner_key(const Kit& kit, const Learner& learner, const std::string& options) {
  // Everything the grade depends on.
  Framed framed;
  framed.add(kit.kind);
  framed.add(options);
  framed.add(file_text(learner.tests));
  add_kit_files(framed, kit);
  return framed.digest();
}

std::string kit_digest(const Kit& kit) {
  Framed framed;
  framed.add(kit.kind);
  for (const auto& word : kit.suite) framed.add(word);
  framed.add(kit.tests_file);
  framed.add(kit.tests_into);
  for (const auto& file : kit.left_out) framed.add(file);
  add_kit_files(framed, kit);
  return framed.digest();
}

namespace {

// A report's status as a cell of the class's matrix: a timeout is a kill, as
// in the score; a run that could not happen (RuntimeError) was not run.
std::string outcome_of(const std::string& status) {
  if (status == "Killed" || status == "Timeout") return "caught";
  if (status == "Survived") return "survived";
  return "";
}

// The bugs of one kind in a report, (id, status, description), in id order.
void take_bugs(ClassRow& row, const std::string& kind, std::vector<const Json*> bugs) {
  std::sort(bugs.begin(), bugs.end(), [](const Json* a, const Json* b) {
    return a->at("id").get<std::string>() < b->at("id").get<std::string>();
  });
  for (const Json* bug : bugs) {
    const std::string id = bug->at("id").get<std::string>();
    row.bugs.push_back({id, kind, bug->value("description", "")});
    const std::string outcome = outcome_of(bug->at("status").get<std::string>());
    if (!outcome.empty()) row.outcomes.emplace_back(id, outcome);
  }
}

void take_outcomes(ClassRow& row, const Json& report) {
  std::vector<const Json*> mutants, chaffs;
  for (const auto& [file, entry] : report.at("files").items()) {
    for (const auto& mutant : entry.at("mutants")) mutants.push_back(&mutant);
  }
  const Json& config = report.at("config");
  if (config.at("chaffs").is_object()) {
    for (const auto& chaff : config.at("chaffs").at("runs")) chaffs.push_back(&chaff);
  }
  take_bugs(row, "mutant", mutants);
  take_bugs(row, "chaff", chaffs);
}

}  // namespace

Outcome<ClassRow> class_row(const std::string& report_json) {
  ClassRow row;
  const auto parsed = parse_json_strictly(report_json, "the report", {kReportMaxDepth, "report"});
  if (!parsed.ok()) return failure("not a report of tlbf grade: " + parsed.why());
  const Json& report = parsed.value();
  try {
    const Json& config = report.at("config");
    const Json& learner = config.at("learner");
    row.name = learner.at("name").get<std::string>();
    row.verdict = learner.at("verdict").get<std::string>();
    row.killed = config.at("killed").get<int>();
    row.ran = config.at("ran").get<int>();
    row.score = config.at("score").get<double>();
    for (const auto& s : config.at("survivors")) row.survivors.push_back(s.at("id").get<std::string>());
    if (config.at("chaffs").is_object()) {
      row.chaffs_killed = config.at("chaffs").at("killed").get<int>();
      row.chaffs_ran = config.at("chaffs").at("ran").get<int>();
      row.chaffs_missed = strings_of(config.at("chaffs").at("missed"));
    }
    take_outcomes(row, report);
    if (!config.at("stopped").is_null()) {
      // No grade: what ran before it stopped is not one.
      row.reason = config.at("stopped").at("reason").get<std::string>();
      row.killed = row.ran = 0;
      row.score = 0;
      row.chaffs_killed = row.chaffs_ran = 0;
      row.chaffs_missed.clear();
      row.outcomes.clear();
      row.bugs.clear();
    }
  } catch (const Json::exception& e) {
    return failure(std::string("not a report of tlbf grade: ") + e.what());
  }
  return row;
}

std::vector<Bug> bugs_of(const std::vector<ClassRow>& rows) {
  std::map<std::pair<bool, std::string>, Bug> all;  // (a chaff, id): mutants first, each kind in id order
  for (const auto& r : rows) {
    for (const auto& bug : r.bugs) all.emplace(std::make_pair(bug.kind == "chaff", bug.id), bug);
  }
  std::vector<Bug> out;
  for (auto& [key, bug] : all) out.push_back(std::move(bug));
  return out;
}

namespace {

Json learner_json(const ClassRow& r) {
  Json outcomes = Json::object();
  for (const auto& [id, outcome] : r.outcomes) outcomes[id] = outcome;
  return {{"name", r.name},
          {"verdict", r.verdict},
          {"killed", r.killed},
          {"ran", r.ran},
          {"score", r.score},
          {"survivors", r.survivors},
          {"chaffs", {{"killed", r.chaffs_killed}, {"ran", r.chaffs_ran}, {"missed", r.chaffs_missed}}},
          {"outcomes", outcomes},
          {"reason", r.reason},
          {"report", r.report}};
}

}  // namespace

std::string class_summary_json(const ClassSummary& summary) {
  Json learners = Json::array();
  std::map<std::string, int> counts;
  for (const auto& r : summary.rows) {
    ++counts[r.verdict];
    learners.push_back(learner_json(r));
  }
  Json verdicts = Json::object();
  for (const auto& [verdict, n] : counts) verdicts[verdict] = n;
  Json bugs = Json::array();
  for (const auto& b : summary.bugs)
    bugs.push_back({{"id", b.id}, {"kind", b.kind}, {"description", b.description}});
  Json shard = nullptr;
  if (summary.shard) {
    shard = {
        {"k", summary.shard->k}, {"n", summary.shard->n}, {"class_learners", summary.shard->class_learners}};
  }
  return Json{{"tool", "tlbf grade"},
              {"kind", summary.kind},
              {"threshold", summary.threshold},
              {"require", summary.required},
              {"grading", {{"tlbf", summary.version}, {"kit", summary.kit}, {"options", summary.options}}},
              {"shard", shard},
              {"verdicts", verdicts},
              {"bugs", bugs},
              {"learners", learners}}
             .dump(2, ' ', false, Json::error_handler_t::replace) +
         "\n";
}

namespace {

ClassSummary summary_of(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                        const std::vector<std::string>& required) {
  ClassSummary summary;
  summary.kind = kind;
  summary.threshold = threshold;
  summary.required = required;
  summary.bugs = bugs_of(rows);
  summary.rows = rows;
  return summary;
}

}  // namespace

std::string class_summary_json(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required) {
  return class_summary_json(summary_of(rows, kind, threshold, required));
}

std::string class_summary_html(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required) {
  return class_summary_html(summary_of(rows, kind, threshold, required));
}

}  // namespace tlbf::mutants
