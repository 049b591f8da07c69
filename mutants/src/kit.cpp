// Reading a kit from its kit.json (docs/mutants.md, "Kits").
#include "tlbf/mutants/kit.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "json_strings.hpp"
#include "tlbf/mutants/test_names.hpp"
#include "tlbf/strict_json.hpp"
#include "tlbf/whole_file.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

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
  const Json build = variants.is_object() ? variants.value("build", Json::array()) : Json();
  if (variants.is_null() && kit.set.wheats.empty() && kit.set.chaffs.empty())
    return;  // the oracle's mutants alone
  if (!from.is_string() || from.get<std::string>().empty() || !command.is_array() || command.empty() ||
      !strings_only(command) || !as_is.is_string() || !mutants.is_string()) {
    reader.wrong(
        "\"variants\" must be {\"from\": FOLDER, \"command\": [WORDS], \"as_is\": NAME} when a served kit "
        "has wheats or chaffs");
    return;
  }
  if (!build.is_array() || !strings_only(build)) {
    reader.wrong("\"variants\".\"build\" must be a list of strings (the words that build each variant)");
    return;
  }
  kit.served.variant_build = strings_of(build);
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

// "test_runner": what runs a served kit's suite, by which tlbf names the
// tests a run failed and runs them alone (test_names.hpp); absent, the suite
// is always run whole.
void read_test_runner(KitReader& reader, Kit& kit, bool served) {
  const std::string word = reader.field("test_runner", false);
  if (word.empty()) {
    if (!reader.kit().value("test_runner", Json()).is_null())
      reader.wrong("\"test_runner\" must be \"libtest\"");
    return;
  }
  const auto runner = test_runner_named(word);
  if (!served) {
    reader.wrong("\"test_runner\" is for a kit that serves its subjects (\"serves\")");
  } else if (!runner) {
    reader.wrong("\"test_runner\" must be \"libtest\", not \"" + word + "\"");
  } else {
    kit.served.test_runner = *runner;
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
  read_test_runner(reader, kit, served);
  if (!reader.error().empty()) return failure(reader.error());
  if (const auto found = kit_paths_exist(path, kit); !found.ok()) return found.failure();
  return kit;
}

}  // namespace tlbf::mutants
