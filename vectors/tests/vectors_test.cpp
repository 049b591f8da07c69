// The committed vector files: reproducible byte for byte, clean under the
// lint, and the lint loud on every kind of corruption.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

json committed(const std::string& name) { return json::parse(slurp(fs::path(TLBF_VECTORS_DIR) / name)); }

TEST(Vectors, CommittedFilesEqualAFreshGeneration) {
  const auto files = generate();
  ASSERT_EQ(files.size(), 6U);
  for (const auto& file : files) {
    SCOPED_TRACE(file.name);
    // Compared as text so that a difference shows where it is.
    EXPECT_TRUE(slurp(fs::path(TLBF_VECTORS_DIR) / file.name) == serialize(file.doc))
        << "regenerate with: tlbf vectors generate --out vectors";
  }
}

TEST(Vectors, GenerationIsDeterministic) {
  const auto a = generate();
  const auto b = generate();
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(serialize(a[i].doc), serialize(b[i].doc));
}

TEST(Lint, CommittedFilesAreClean) {
  for (const auto& file : generate()) {
    const auto problems = lint(file.name, committed(file.name));
    EXPECT_TRUE(problems.empty()) << problems.front();
  }
}

// One corruption each, and a fragment the lint's complaint must contain.
struct Corruption {
  const char* name;
  const char* file;
  void (*apply)(json&);
  const char* complaint;
};

json& first_test(json& doc) { return doc["testGroups"][0]["tests"][0]; }

const Corruption kCorruptions[] = {
    {"wrong hash", "tlbf_hash_v1.json", [](json& d) { first_test(d)["hash"] = "0000000000000000"; },
     "hash is"},
    {"wrong m", "tlbf_sizing_v1.json", [](json& d) { first_test(d)["m"] = 19; },
     "m is 19, the oracle says 20"},
    {"valid marked invalid", "tlbf_sizing_v1.json", [](json& d) { first_test(d)["result"] = "invalid"; },
     "result is"},
    {"error kind changed", "tlbf_from_bytes_v1.json",
     [](json& d) { d["testGroups"][0]["tests"][10]["errorKind"] = "BadParams"; }, "errorKind is"},
    {"refused file claimed valid", "tlbf_from_bytes_v1.json",
     [](json& d) {
       json& t = d["testGroups"][0]["tests"][10];
       t.erase("errorKind");
       t["m"] = 20;
     },
     "missing errorKind"},
    {"probe answer flipped", "tlbf_filter_v1.json", [](json& d) { first_test(d)["present"][0] = true; },
     "present is"},
    {"position changed", "tlbf_positions_v1.json", [](json& d) { first_test(d)["positions"][0] = 12; },
     "positions is"},
    {"union bytes changed", "tlbf_union_v1.json", [](json& d) { first_test(d)["bytes"] = "00"; }, "bytes is"},
    {"unknown test property", "tlbf_union_v1.json", [](json& d) { first_test(d)["extra"] = 1; },
     "unknown property extra"},
    {"missing input", "tlbf_hash_v1.json", [](json& d) { first_test(d).erase("item"); }, "malformed"},
    {"duplicate tcId", "tlbf_hash_v1.json", [](json& d) { d["testGroups"][0]["tests"][1]["tcId"] = 1; },
     "duplicate tcId"},
    {"count off", "tlbf_hash_v1.json", [](json& d) { d["numberOfTests"] = 1; }, "numberOfTests is 1"},
    {"undefined flag", "tlbf_hash_v1.json", [](json& d) { first_test(d)["flags"].push_back("Bogus"); },
     "flag Bogus is not defined"},
    {"unused note", "tlbf_union_v1.json",
     [](json& d) {
       d["notes"]["EmptyItem"] = {{"bugType", "EDGE_CASE"}, {"description", "x"}};
     },
     "defined but no test uses it"},
    {"unknown header property", "tlbf_union_v1.json", [](json& d) { d["surprise"] = true; },
     "unknown property surprise"},
    {"missing header field", "tlbf_union_v1.json", [](json& d) { d.erase("notes"); }, "missing notes"},
    {"unknown group type", "tlbf_union_v1.json", [](json& d) { d["testGroups"][0]["type"] = "NoSuchTest"; },
     "unknown test group type"},
    {"acceptable made valid", "tlbf_union_v1.json",
     [](json& d) {
       for (json& t : d["testGroups"][0]["tests"]) {
         if (t["result"] == "acceptable") t["result"] = "valid";
       }
     },
     "result is"},
};

TEST(Docs, VectorsPageShowsTheCurrentStats) {
  const std::string page = slurp(TLBF_VECTORS_DOC);
  const std::string begin = "<!-- stats begin -->\n", end = "<!-- stats end -->";
  const auto from = page.find(begin), to = page.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(page.substr(from + begin.size(), to - from - begin.size()), stats_markdown(generate()))
      << "update docs/vectors.md with: tlbf vectors stats";
}

class LintCorruption : public ::testing::TestWithParam<Corruption> {};

TEST_P(LintCorruption, IsReported) {
  const Corruption& c = GetParam();
  json doc = committed(c.file);
  c.apply(doc);
  const auto problems = lint(c.file, doc);
  ASSERT_FALSE(problems.empty()) << c.name << " passed the lint";
  bool named = false;
  for (const auto& p : problems) named = named || p.find(c.complaint) != std::string::npos;
  EXPECT_TRUE(named) << "no problem mentions '" << c.complaint << "'; first: " << problems.front();
}

INSTANTIATE_TEST_SUITE_P(Vectors, LintCorruption, ::testing::ValuesIn(kCorruptions),
                         [](const auto& param_info) {
                           std::string name = param_info.param.name;
                           for (char& ch : name) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return name;
                         });

}  // namespace
}  // namespace tlbf::vectors
