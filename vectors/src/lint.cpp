#include <map>
#include <set>
#include <utility>

#include "flags.hpp"
#include "test_types.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {
namespace {

const std::vector<std::string> kHeaderKeys = {"algorithm", "formatVersion", "schemaVersion",
                                              "schema",    "generator",     "numberOfTests",
                                              "header",    "notes",         "testGroups"};

// The keys that differ between two test objects, for a readable complaint.
std::string differences(const json& want, const json& got) {
  std::string out;
  auto note = [&](const std::string& text) { out += (out.empty() ? "" : "; ") + text; };
  for (const auto& [key, value] : want.items()) {
    if (!got.contains(key)) {
      note("missing " + key);
    } else if (got[key] != value) {
      note(key + " is " + got[key].dump().substr(0, 60) + ", the oracle says " + value.dump().substr(0, 60));
    }
  }
  for (const auto& [key, value] : got.items()) {
    if (!want.contains(key)) note("unknown property " + key);
  }
  if (out.empty()) note("properties out of order");
  return out;
}

// Collects the problems of one file, each as "file: where: what".
class Problems {
 public:
  explicit Problems(const std::string& name) : name_(name) {}
  void operator()(const std::string& where, const std::string& what) {
    list_.push_back(name_ + ": " + where + ": " + what);
  }
  bool empty() const { return list_.empty(); }
  std::vector<std::string> take() { return std::move(list_); }

 private:
  const std::string& name_;
  std::vector<std::string> list_;
};

// False when the header is too broken for anything after it to be read.
bool header_keys_are_readable(const json& doc, Problems& problem) {
  if (!doc.is_object()) {
    problem("file", "not a JSON object");
    return false;
  }
  for (const auto& key : kHeaderKeys) {
    if (!doc.contains(key)) problem("header", "missing " + key);
  }
  if (!problem.empty()) return false;
  for (const auto& [key, value] : doc.items()) {
    if (std::find(kHeaderKeys.begin(), kHeaderKeys.end(), key) == kHeaderKeys.end()) {
      problem("header", "unknown property " + key);
    }
  }
  return true;
}

struct Tally {
  long long count = 0;
  std::set<std::string> used;  // the flags the tests carry
};

void lint_test(const TestType& type, const json& test, const json& notes, std::set<long long>& ids,
               Tally& tally, Problems& problem) {
  static const auto lenient = lenient_flags();
  const std::string where = "tcId " + (test.contains("tcId") ? test["tcId"].dump() : "?");
  try {
    const long long id = test.at("tcId").get<long long>();
    if (!ids.insert(id).second) problem(where, "duplicate tcId");
    for (const auto& flag : test.at("flags")) {
      const auto f = flag.get<std::string>();
      tally.used.insert(f);
      if (!notes.contains(f)) problem(where, "flag " + f + " is not defined in notes");
    }
    const auto want = complete_test(type, test, lenient);
    if (!want) {
      problem(where, "malformed: " + want.why());
    } else if (want.value() != test) {
      problem(where, differences(want.value(), test));
    }
  } catch (const std::exception& e) {
    problem(where, std::string("malformed: ") + e.what());
  }
}

Tally lint_tests(const json& doc, Problems& problem) {
  Tally tally;
  std::set<long long> ids;
  if (!doc["testGroups"].is_array()) problem("testGroups", "not an array");
  for (const json& group : doc["testGroups"]) {
    try {
      const auto found = test_type(group.at("type").get<std::string>());
      if (!found) {
        problem("group", "malformed: " + found.why());
        continue;
      }
      const TestType& type = *found.value();
      if (group.size() != 2 || !group.at("tests").is_array()) {
        problem("group " + group["type"].dump(), "a group has exactly type and tests");
        continue;
      }
      for (const json& test : group["tests"]) {
        ++tally.count;
        lint_test(type, test, doc["notes"], ids, tally, problem);
      }
    } catch (const std::exception& e) {
      problem("group", std::string("malformed: ") + e.what());
    }
  }
  return tally;
}

void lint_notes(const json& doc, const std::set<std::string>& used, Problems& problem) {
  for (const auto& [flag, note] : doc["notes"].items()) {
    if (!used.count(flag)) problem("notes", "flag " + flag + " is defined but no test uses it");
    const auto known = flag_notes().find(flag);
    if (known == flag_notes().end()) {
      problem("notes", "flag " + flag + " is not a flag of schema v1");
    } else if (note !=
               json{{"bugType", known->second.bug_type}, {"description", known->second.description}}) {
      problem("notes", "the note of " + flag + " differs from its definition");
    }
  }
}

}  // namespace

std::vector<std::string> lint(const std::string& name, const json& doc) {
  Problems problem(name);
  if (!header_keys_are_readable(doc, problem)) return problem.take();

  // The header as the generator writes it for this file.
  const auto files = generate();
  const auto fresh =
      std::find_if(files.begin(), files.end(), [&](const VectorFile& f) { return f.name == name; });
  if (fresh == files.end()) {
    problem("file", "not a vector file name of schema v1");
    return problem.take();
  }
  for (const char* key : {"algorithm", "formatVersion", "schemaVersion", "schema", "generator"}) {
    if (doc[key] != fresh->doc[key]) problem("header", std::string(key) + " is " + doc[key].dump());
  }

  const Tally tally = lint_tests(doc, problem);
  // A file gutted to nothing would pass every other rule, and check nothing.
  if (tally.count == 0) problem("testGroups", "no tests: a vector file without any checks nothing");
  if (doc["numberOfTests"] != tally.count) {
    problem("header", "numberOfTests is " + doc["numberOfTests"].dump() + ", the file has " +
                          std::to_string(tally.count));
  }
  lint_notes(doc, tally.used, problem);
  if (doc["header"] != fresh->doc["header"]) problem("header", "the header text differs from schema v1's");
  return problem.take();
}

}  // namespace tlbf::vectors
