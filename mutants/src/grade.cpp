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
#include "tlbf/conformance/process.hpp"
#include "tlbf/hash.hpp"
#include "tlbf/markup.hpp"
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
  const auto copied =
      conformance::run_with_input("cp -a --reflink=auto " + shell_quote(from.string()) + " " +
                                      shell_quote(to.string()),
                                  "", std::chrono::minutes(10));
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
  if (!reader.error().empty()) return failure(reader.error());
  if (const auto found = kit_paths_exist(path, kit); !found.ok()) return found.failure();
  return kit;
}

std::vector<Learner> find_learners(const fs::path& class_dir, const std::string& tests_file) {
  std::vector<Learner> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(class_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.empty() || name[0] == '.') continue;
    Learner learner{name, entry.path(), {}, {}};
    int best_depth = -1;
    std::vector<fs::path> at_best;
    for (auto it = fs::recursive_directory_iterator(entry.path(), ec);
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
        break;
      }
      if (!it->is_regular_file()) continue;
      if (best_depth < 0 || it.depth() < best_depth) {
        best_depth = it.depth();
        at_best.clear();
      }
      if (it.depth() == best_depth) at_best.push_back(it->path());
    }
    if (!learner.problem.empty()) {
      // said above
    } else if (at_best.empty()) {
      learner.problem = "no file named " + tests_file + " in " + entry.path().string();
    } else if (at_best.size() > 1) {
      std::sort(at_best.begin(), at_best.end());
      learner.problem = "two files named " + tests_file + " at the same depth: " + at_best[0].string() +
                        " and " + at_best[1].string() + "; keep one";
    } else {
      learner.tests = at_best.front();
    }
    out.push_back(std::move(learner));
  }
  std::sort(out.begin(), out.end(), [](const Learner& a, const Learner& b) { return a.name < b.name; });
  return out;
}

Outcome<std::unique_ptr<ClassSeed>> ClassSeed::make(const Kit& kit, std::chrono::milliseconds limit) {
  const auto made = make_private_folder();
  if (!made.ok()) return made.failure();
  const fs::path& scratch = made.value();
  std::unique_ptr<ClassSeed> seed(new ClassSeed(kit, scratch));
  const auto start = std::chrono::steady_clock::now();
  if (const auto copied = copy_folder(kit.reference, scratch / "reference"); !copied.ok())
    return copied.failure();
  for (const auto& file : kit.left_out) {
    std::error_code ec;
    fs::remove_all(scratch / "reference" / file, ec);
    if (ec) return failure("cannot leave " + file + " out of the reference's copy: " + ec.message());
  }
  // Ungraded: the learners' gradings say whether their suites pass. The
  // reference's own tests file, if it has one, builds what theirs will share.
  // A protocol suite needs TLBF_IMPL, and builds nothing the class shares.
  if (!kit.serves.empty()) return seed;
  (void)conformance::run_with_input("cd " + shell_quote((scratch / "reference").string()) +
                                        " && " + suite_command(kit.suite, "", ""),
                                    "", limit);
  seed->warm_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return seed;
}

ClassSeed::~ClassSeed() {
  std::error_code ec;
  fs::remove_all(scratch_, ec);
  conformance::forget_folder(scratch_.string());
}

Outcome<std::string> ClassSeed::workdir_for(const Learner& learner) {
  const fs::path copy = scratch_ / ("learner-" + std::to_string(++copies_));
  if (const auto copied = copy_folder(scratch_ / "reference", copy); !copied.ok()) return copied.failure();
  const fs::path into = copy / kit_.tests_into;
  std::error_code ec;
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

std::string learner_key(const Kit& kit, const Learner& learner, const std::string& options) {
  // Everything the grade depends on, each part framed by its length so that
  // no two different sets of inputs read alike.
  std::string all;
  const auto add = [&](const std::string& part) { all += std::to_string(part.size()) + ":" + part; };
  add(kit.kind);
  add(options);
  add(file_text(learner.tests));
  add(kit.serves);
  for (const auto& word : kit.served.variant_command) add(word);
  add(kit.served.as_is);
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
      add(name);
      add(text);
    }
  }
  if (!kit.set.sanity_patch.empty()) add(file_text(kit.set.sanity_patch));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(tlbf::fnv1a64(all)));
  return hex;
}

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
    if (!config.at("stopped").is_null()) {
      // No grade: what ran before it stopped is not one.
      row.reason = config.at("stopped").at("reason").get<std::string>();
      row.killed = row.ran = 0;
      row.score = 0;
      row.chaffs_killed = row.chaffs_ran = 0;
      row.chaffs_missed.clear();
    }
  } catch (const Json::exception& e) {
    return failure(std::string("not a report of tlbf grade: ") + e.what());
  }
  return row;
}

std::string class_summary_json(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required) {
  Json learners = Json::array();
  std::map<std::string, int> counts;
  for (const auto& r : rows) {
    ++counts[r.verdict];
    learners.push_back(
        {{"name", r.name},
         {"verdict", r.verdict},
         {"killed", r.killed},
         {"ran", r.ran},
         {"score", r.score},
         {"survivors", r.survivors},
         {"chaffs", {{"killed", r.chaffs_killed}, {"ran", r.chaffs_ran}, {"missed", r.chaffs_missed}}},
         {"reason", r.reason},
         {"report", r.report}});
  }
  Json verdicts = Json::object();
  for (const auto& [verdict, n] : counts) verdicts[verdict] = n;
  return Json{{"tool", "tlbf grade"}, {"kind", kind},         {"threshold", threshold},
              {"require", required},  {"verdicts", verdicts}, {"learners", learners}}
             .dump(2, ' ', false, Json::error_handler_t::replace) +
         "\n";
}

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

std::string class_summary_html(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required) {
  int meeting = 0;
  for (const auto& r : rows) meeting += r.verdict == "meets";
  char bar[64];
  std::snprintf(bar, sizeof bar, "%.2f", threshold);
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'\">\n"
      "<title>tlbf grade: " +
      escape_html(kind) +
      " class</title>\n<style>\n"
      "body { font-family: system-ui, sans-serif; margin: 2em; }\n"
      "table { border-collapse: collapse; }\n"
      "td, th { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }\n"
      ".meets { background: #d8f5d0; } .short { background: #fbd9d3; }\n"
      ".stopped { background: #fdf0c4; }\n"
      ".banner { font-size: 1.2em; margin-bottom: 1em; }\n"
      "</style>\n</head>\n<body>\n<h1>tlbf grade: a class of " +
      std::to_string(rows.size()) + " (" + escape_html(kind) + ")</h1>\n<p class=\"banner\" id=\"summary\">" +
      std::to_string(meeting) + " of " + std::to_string(rows.size()) + " meet the bar: score at least " +
      bar + " and every required mutant (" + escape_html(joined(required)) +
      ") killed.</p>\n"
      "<table id=\"learners\">\n<tr><th>learner</th><th>verdict</th><th>score</th><th>survivors</th>"
      "<th>chaffs caught</th><th>chaffs missed</th><th>why it stopped</th></tr>\n";
  for (const auto& r : rows) {
    const std::string css = r.verdict == "meets" ? "meets" : r.verdict == "short" ? "short" : "stopped";
    char score[64];
    std::snprintf(score, sizeof score, "%d/%d", r.killed, r.ran);
    const std::string name =
        r.report.empty() ? escape_html(r.name)
                         : "<a href=\"" + escape_html(r.report) + "\">" + escape_html(r.name) + "</a>";
    page += "<tr class=\"" + css + "\"><td>" + name + "</td><td>" + escape_html(r.verdict) + "</td><td>" +
            (r.ran > 0 ? std::string(score) : "") + "</td><td>" + escape_html(joined(r.survivors)) +
            "</td><td>" +
            (r.chaffs_ran > 0 ? std::to_string(r.chaffs_killed) + "/" + std::to_string(r.chaffs_ran) : "") +
            "</td><td>" + escape_html(joined(r.chaffs_missed)) + "</td><td>" +
            escape_html(r.reason.substr(0, 400)) + "</td></tr>\n";
  }
  page += "</table>\n</body>\n</html>\n";
  return page;
}

}  // namespace tlbf::mutants
