// A folder of vector files as tlbf vectors lint and tlbf check --vectors
// read it: the files must be those this tlbf was built with, byte for byte,
// unless they are the user's own; and no file, however hostile, crashes the
// reader or is taken on faith.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <utility>
#include <vector>

#include "tlbf/sha256.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {
namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// The digests compiled in are those of the committed files, and of what the
// oracle generates (which tlbf check uses when given no --vectors).
TEST(BuiltWith, HoldsTheCommittedFilesAndAFreshGeneration) {
  const auto files = generate();
  const auto built = built_with();
  ASSERT_EQ(built.size(), files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(files[i].name);
    EXPECT_EQ(built[i].name, files[i].name);
    EXPECT_EQ(built[i].sha256, sha256_hex(text_of(fs::path(TLBF_VECTORS_DIR) / files[i].name)));
    EXPECT_EQ(built[i].sha256, sha256_hex(serialize(files[i].doc)));
    EXPECT_EQ(built[i].tests, files[i].doc["numberOfTests"].get<int>());
  }
}

class Folder : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("tlbf_folder_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    for (const auto& built : built_with()) {
      const std::string name(built.name);
      fs::copy_file(fs::path(TLBF_VECTORS_DIR) / name, dir_ / name);
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path file(const std::string& name) const { return dir_ / name; }
  json doc(const std::string& name) const { return json::parse(text_of(file(name))); }
  void write(const std::string& name, const json& d) const { put(file(name), serialize(d)); }

  // Whether some problem holds `words`, for the failure message.
  static bool said(const LoadedFolder& folder, const std::string& words) {
    for (const auto& p : folder.problems) {
      if (p.find(words) != std::string::npos) return true;
    }
    return false;
  }
  static std::string all(const LoadedFolder& folder) {
    std::string out;
    for (const auto& p : folder.problems) out += p + "\n";
    return out;
  }

  fs::path dir_;
};

TEST_F(Folder, OfTheCommittedFilesPasses) {
  for (const Expect expect : {Expect::BuiltWith, Expect::OwnVectors}) {
    const auto folder = load_folder(dir_.string(), expect);
    EXPECT_TRUE(folder.problems.empty()) << all(folder);
    EXPECT_FALSE(folder.differs);
    EXPECT_EQ(folder.tests, 474);
    EXPECT_EQ(folder.files.size(), 6U);
  }
}

// Every test removed, the notes and counts edited to match: each file passed
// the lint before, and "0 tests, no problems" was a pass.
TEST_F(Folder, GuttedIsRefusedEvenAsOwnVectors) {
  for (const auto& built : built_with()) {
    json d = doc(std::string(built.name));
    for (json& group : d["testGroups"]) group["tests"] = json::array();
    d["numberOfTests"] = 0;
    d["notes"] = json::object();
    write(std::string(built.name), d);
  }
  const auto folder = load_folder(dir_.string());
  EXPECT_TRUE(said(folder, "tlbf_hash_v1.json: 0 tests where the built tlbf has 274")) << all(folder);
  EXPECT_TRUE(said(folder, "tlbf_from_bytes_v1.json: 0 tests where the built tlbf has 43")) << all(folder);
  EXPECT_TRUE(folder.differs);
  const auto own = load_folder(dir_.string(), Expect::OwnVectors);
  EXPECT_TRUE(said(own, "tlbf_hash_v1.json: testGroups: no tests: a vector file without any checks nothing"))
      << all(own);
  EXPECT_EQ(own.problems.size(), 6U) << all(own);
}

// Two tests removed and numberOfTests edited to match: the lint alone sees
// nothing wrong, so only the built-in count can tell.
TEST_F(Folder, TwoTestsRemovedWithTheCountEditedIsRefusedUnlessOwn) {
  json d = doc("tlbf_hash_v1.json");
  json& tests = d["testGroups"][0]["tests"];
  tests.erase(tests.begin() + 5, tests.begin() + 7);
  d["numberOfTests"] = d["numberOfTests"].get<int>() - 2;
  write("tlbf_hash_v1.json", d);
  const auto folder = load_folder(dir_.string());
  ASSERT_EQ(folder.problems.size(), 1U) << all(folder);
  EXPECT_EQ(folder.problems[0], "tlbf_hash_v1.json: 272 tests where the built tlbf has 274");
  EXPECT_TRUE(folder.differs);
  const auto own = load_folder(dir_.string(), Expect::OwnVectors);
  EXPECT_TRUE(own.problems.empty()) << all(own);
  EXPECT_EQ(own.tests, 472);
}

// A change the lint cannot see (a comment) or can (an expected value): both
// differ from the files tlbf was built with.
TEST_F(Folder, TamperedIsRefusedUnlessOwn) {
  json d = doc("tlbf_hash_v1.json");
  d["testGroups"][0]["tests"][0]["comment"] = "reworded";
  write("tlbf_hash_v1.json", d);
  auto folder = load_folder(dir_.string());
  ASSERT_EQ(folder.problems.size(), 1U) << all(folder);
  EXPECT_EQ(folder.problems[0].rfind(
                "tlbf_hash_v1.json: contents differ from the vectors this tlbf was built with (SHA-256 ", 0),
            0U)
      << folder.problems[0];
  EXPECT_TRUE(load_folder(dir_.string(), Expect::OwnVectors).problems.empty());

  d["testGroups"][0]["tests"][0]["hash"] = "0000000000000000";
  write("tlbf_hash_v1.json", d);
  folder = load_folder(dir_.string());
  EXPECT_TRUE(said(folder, "contents differ from the vectors this tlbf was built with")) << all(folder);
  EXPECT_TRUE(said(folder, "tcId 1: hash is")) << all(folder);
  EXPECT_TRUE(said(load_folder(dir_.string(), Expect::OwnVectors), "tcId 1: hash is"));
}

// A million arrays deep inside the header: the lint used to die of SIGSEGV.
TEST_F(Folder, DeepNestingIsRefusedWithoutCrashing) {
  std::string text = text_of(file("tlbf_hash_v1.json"));
  const std::string at = "\"header\": [";
  const auto where = text.find(at);
  ASSERT_NE(where, std::string::npos);
  text.insert(where + at.size(), std::string(1000000, '[') + std::string(1000000, ']') + ",");
  put(file("tlbf_hash_v1.json"), text);
  const auto folder = load_folder(dir_.string(), Expect::OwnVectors);
  ASSERT_EQ(folder.problems.size(), 1U) << all(folder);
  EXPECT_EQ(folder.problems[0],
            "tlbf_hash_v1.json: nested deeper than 8 levels at /header/0/0/0/0/0/0/0, deeper than any vector "
            "file can be");
  EXPECT_TRUE(folder.readable);
}

// "numberOfTests" twice: nlohmann::json kept the last, so a file could show
// one count to a reader that keeps the first and another to the lint.
TEST_F(Folder, ADuplicateKeyIsRefused) {
  std::string text = text_of(file("tlbf_hash_v1.json"));
  const std::string at = "\"numberOfTests\": 274,";
  const auto where = text.find(at);
  ASSERT_NE(where, std::string::npos);
  text.insert(where, "\"numberOfTests\": 1000,\n ");
  put(file("tlbf_hash_v1.json"), text);
  const auto folder = load_folder(dir_.string(), Expect::OwnVectors);
  ASSERT_EQ(folder.problems.size(), 1U) << all(folder);
  EXPECT_EQ(
      folder.problems[0],
      "tlbf_hash_v1.json: the key \"numberOfTests\" appears twice in the object at / (readers differ on "
      "which one counts, so the file has no one meaning)");
}

// A FIFO (with no writer: an open without O_NONBLOCK would wait for one), a
// directory and a device where a file should be: refused at once, as a file
// that cannot be read.
TEST_F(Folder, AFileThatIsNotARegularOneIsUnreadableAtOnce) {
  const std::string name = "tlbf_union_v1.json";
  for (const auto& [make, words] : std::vector<std::pair<std::function<void()>, std::string>>{
           {[&] { ::mkfifo(file(name).c_str(), 0600); }, "it is a FIFO (a named pipe), not a regular file"},
           {[&] { fs::create_directory(file(name)); }, "it is a directory"},
           {[&] { fs::create_symlink("/dev/zero", file(name)); },
            "it is a character device, not a regular file"}}) {
    fs::remove_all(file(name));
    make();
    const auto folder = load_folder(dir_.string());
    EXPECT_FALSE(folder.readable);
    EXPECT_TRUE(said(folder, "cannot read " + file(name).string() + ": " + words)) << all(folder);
  }
}

}  // namespace
}  // namespace tlbf::vectors
