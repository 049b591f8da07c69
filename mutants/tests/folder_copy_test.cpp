// A served run's folder, copied in process (folder_copy.hpp, copy_at_epoch):
// what `cp -a FROM TO && find TO -exec touch -h -d @EPOCH {} +` made.
#include "folder_copy.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "scratch_folder.hpp"
#include "tlbf/mutants/suite_user.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::ScratchFolder;
using testing::write_text;

struct stat lstat_of(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st;
}

TEST(FolderCopy, ARunsFolderIsACopyWithItsModesAndLinksAndOneTimeEverywhere) {
  constexpr long long kEpoch = 946684800;  // 2000-01-01, the runs' (built_suite.hpp)
  ScratchFolder scratch("tlbf-folder-copy");
  const fs::path from = scratch.path() / "from", to = scratch.path() / "to";
  write_text(from / "target" / "suite", "an executable");
  write_text(from / "target" / "deep" / "notes", "read only");
  write_text(from / "Cargo.toml", "[package]\n");
  fs::permissions(from / "target" / "suite", fs::perms(0755));
  fs::permissions(from / "target" / "deep" / "notes", fs::perms(0400));
  fs::create_symlink("target/suite", from / "run");
  fs::create_symlink("/nowhere/at/all", from / "dangling");

  const auto copied = copy_at_epoch(from, to, kEpoch);
  ASSERT_TRUE(copied.ok()) << copied.why();

  // The times first: reading a file or listing a folder would change its access time.
  const auto user = suite_user();
  const uid_t owner = user ? user->uid : ::geteuid();
  for (const char* name :
       {"", "target", "target/deep", "target/suite", "target/deep/notes", "Cargo.toml", "run", "dangling"}) {
    const struct stat st = lstat_of(to / name);
    EXPECT_EQ(st.st_mtim.tv_sec, kEpoch) << name;
    EXPECT_EQ(st.st_atim.tv_sec, kEpoch) << name;
    EXPECT_EQ(st.st_uid, owner) << name;
  }
  std::size_t entries = 0;
  for (const auto& entry : fs::recursive_directory_iterator(to)) entries += !entry.path().empty();
  EXPECT_EQ(entries, 7U);
  for (const char* name : {"target/suite", "target/deep/notes", "Cargo.toml"}) {
    EXPECT_EQ(read_text(from / name), read_text(to / name)) << name;
    EXPECT_EQ(lstat_of(from / name).st_mode, lstat_of(to / name).st_mode) << name;
  }
  EXPECT_EQ(fs::read_symlink(to / "run"), "target/suite");
  EXPECT_EQ(fs::read_symlink(to / "dangling"), "/nowhere/at/all");
  // The source keeps its own times.
  EXPECT_NE(lstat_of(from / "target" / "suite").st_mtim.tv_sec, kEpoch);
}

TEST(FolderCopy, AFolderThatCannotBeCopiedIsNamed) {
  ScratchFolder scratch("tlbf-folder-copy");
  const auto copied = copy_at_epoch(scratch.path() / "missing", scratch.path() / "to", 0);
  ASSERT_FALSE(copied.ok());
  EXPECT_NE(copied.why().find("missing"), std::string::npos) << copied.why();
}

}  // namespace
}  // namespace tlbf::mutants
