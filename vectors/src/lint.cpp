#include <map>
#include <set>

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

}  // namespace

std::vector<std::string> lint(const std::string& name, const json& doc) {
  std::vector<std::string> problems;
  auto problem = [&](const std::string& where, const std::string& what) {
    problems.push_back(name + ": " + where + ": " + what);
  };

  if (!doc.is_object()) {
    problem("file", "not a JSON object");
    return problems;
  }
  for (const auto& key : kHeaderKeys) {
    if (!doc.contains(key)) problem("header", "missing " + key);
  }
  if (!problems.empty()) return problems;  // nothing below can be read
  for (const auto& [key, value] : doc.items()) {
    if (std::find(kHeaderKeys.begin(), kHeaderKeys.end(), key) == kHeaderKeys.end()) {
      problem("header", "unknown property " + key);
    }
  }

  // The header as the generator writes it for this file.
  const auto files = generate();
  const auto fresh =
      std::find_if(files.begin(), files.end(), [&](const VectorFile& f) { return f.name == name; });
  if (fresh == files.end()) {
    problem("file", "not a vector file name of schema v1");
    return problems;
  }
  for (const char* key : {"algorithm", "formatVersion", "schemaVersion", "schema", "generator"}) {
    if (doc[key] != fresh->doc[key]) problem("header", std::string(key) + " is " + doc[key].dump());
  }

  std::set<long long> ids;
  std::set<std::string> used;
  long long count = 0;
  const auto lenient = lenient_flags();
  if (!doc["testGroups"].is_array()) problem("testGroups", "not an array");
  for (const json& group : doc["testGroups"]) {
    try {
      const TestType& type = test_type(group.at("type").get<std::string>());
      if (group.size() != 2 || !group.at("tests").is_array()) {
        problem("group " + group["type"].dump(), "a group has exactly type and tests");
        continue;
      }
      for (const json& test : group["tests"]) {
        ++count;
        const std::string where = "tcId " + (test.contains("tcId") ? test["tcId"].dump() : "?");
        try {
          const long long id = test.at("tcId").get<long long>();
          if (!ids.insert(id).second) problem(where, "duplicate tcId");
          for (const auto& flag : test.at("flags")) {
            const auto f = flag.get<std::string>();
            used.insert(f);
            if (!doc["notes"].contains(f)) problem(where, "flag " + f + " is not defined in notes");
          }
          const json want = complete_test(type, test, lenient);
          if (want != test) problem(where, differences(want, test));
        } catch (const std::exception& e) {
          problem(where, std::string("malformed: ") + e.what());
        }
      }
    } catch (const std::exception& e) {
      problem("group", std::string("malformed: ") + e.what());
    }
  }
  // A file gutted to nothing would pass every other rule, and check nothing.
  if (count == 0) problem("testGroups", "no tests: a vector file without any checks nothing");
  if (doc["numberOfTests"] != count) {
    problem("header",
            "numberOfTests is " + doc["numberOfTests"].dump() + ", the file has " + std::to_string(count));
  }
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
  if (doc["header"] != fresh->doc["header"]) problem("header", "the header text differs from schema v1's");
  return problems;
}

}  // namespace tlbf::vectors
