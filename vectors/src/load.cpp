#include <algorithm>
#include <filesystem>

#include "tlbf/sha256.hpp"
#include "tlbf/strict_json.hpp"
#include "tlbf/vectors/vectors.hpp"
#include "tlbf/whole_file.hpp"

namespace tlbf::vectors {
namespace {

namespace fs = std::filesystem;

// The tests a file holds, counted in its groups, not taken from its header.
int tests_in(const json& doc) {
  int count = 0;
  if (!doc.is_object() || !doc.contains("testGroups") || !doc["testGroups"].is_array()) return 0;
  for (const auto& group : doc["testGroups"]) {
    if (group.is_object() && group.contains("tests") && group["tests"].is_array())
      count += static_cast<int>(group["tests"].size());
  }
  return count;
}

// Why the file differs from the one this tlbf was built with, or "" when it
// is the same, byte for byte. Fewer or more tests say so first: a folder
// gutted with its counts edited to match still passes the lint.
std::string difference_from_built(const BuiltFile& built, const std::string& text, int tests) {
  const std::string digest = sha256_hex(text);
  if (digest == built.sha256) return "";
  const std::string name(built.name);
  if (tests != built.tests) {
    return name + ": " + std::to_string(tests) + " tests where the built tlbf has " +
           std::to_string(built.tests);
  }
  return name + ": contents differ from the vectors this tlbf was built with (SHA-256 " +
         digest.substr(0, 16) + "..., built with " + std::string(built.sha256.substr(0, 16)) + "...)";
}

// One file of the folder into `out`: read, parsed, linted, compared.
void load_file(const std::string& dir, const BuiltFile& built, Expect expect, LoadedFolder& out) {
  const std::string name(built.name);
  const auto text = read_whole_file((fs::path(dir) / name).string(), kMaxFileBytes, "vector file");
  if (!text.ok()) {
    out.problems.push_back(text.why());
    out.readable = false;
    return;
  }
  auto doc = parse_json_strictly(text.value(), name, {kMaxDepth, "vector file"});
  if (!doc.ok()) {
    out.problems.push_back(doc.why());
    return;
  }
  // First, as it says most: a file that is not the one tlbf was built with.
  const int tests = tests_in(doc.value());
  if (expect == Expect::BuiltWith) {
    if (auto differs = difference_from_built(built, text.value(), tests); !differs.empty()) {
      out.problems.push_back(std::move(differs));
      out.differs = true;
    }
  }
  for (auto& problem : lint(name, doc.value())) out.problems.push_back(std::move(problem));
  out.tests += tests;
  out.files.push_back(VectorFile{name, std::move(doc).value()});
}

}  // namespace

LoadedFolder load_folder(const std::string& dir, Expect expect) {
  LoadedFolder out;
  const auto expected = built_with();
  for (const auto& built : expected) load_file(dir, built, expect, out);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool known =
        std::any_of(expected.begin(), expected.end(), [&](const auto& f) { return f.name == name; });
    if (entry.is_regular_file() && entry.path().extension() == ".json" && !known) {
      out.problems.push_back(name + ": not a vector file of schema v1");
    }
  }
  if (ec) {
    out.problems.push_back(dir + ": cannot be listed: " + ec.message());
    out.readable = false;
  }
  return out;
}

}  // namespace tlbf::vectors
