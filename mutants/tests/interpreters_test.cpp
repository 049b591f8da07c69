// The kit's interpreters found once a class (interpreters.hpp).
#include "tlbf/mutants/interpreters.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "grade_fixtures.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

using Scratch = testing::ScratchFolder;
using testing::write_text;

TEST(Interpreters, OnlyABarePythonIsResolved) {
  for (const char* word : {"python", "python3", "python3.11"}) EXPECT_TRUE(bare_python(word)) << word;
  for (const char* word : {"/usr/bin/python3", "python2", "cargo", "python3-config", "python3."})
    EXPECT_FALSE(bare_python(word)) << word;
}

// A PATH with a folder in front for the test's length.
class PathInFront {
 public:
  explicit PathInFront(const fs::path& folder) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    ::setenv("PATH", (folder.string() + ":" + old_).c_str(), 1);
  }
  ~PathInFront() { ::setenv("PATH", old_.c_str(), 1); }

 private:
  std::string old_;
};

TEST(Interpreters, AShimFirstOnPathIsAskedOnceAndRunNoMore) {
  Scratch s;
  const fs::path python = fs::path("/usr/bin/python3");
  if (!fs::exists(python)) GTEST_SKIP() << "no /usr/bin/python3";
  // A shim as pyenv's is: a script that counts its starts and then runs the interpreter.
  const fs::path shims = s.path() / "shims";
  write_text(shims / "python3", "#!/bin/sh\necho start >> " + (s.path() / "starts").string() + "\nexec " +
                                    python.string() + " \"$@\"\n");
  fs::permissions(shims / "python3", fs::perms::owner_all);
  const PathInFront in_front(shims);
  Kit kit;
  kit.suite = {"python3", "-m", "unittest"};
  kit.served.variant_command = {"python3", "tlbf_impl.py"};
  kit.served.build = {"cargo", "build"};
  const Kit resolved = with_interpreters_resolved(kit);
  EXPECT_EQ(resolved.suite, (std::vector<std::string>{python.string(), "-m", "unittest"}));
  EXPECT_EQ(resolved.served.variant_command, (std::vector<std::string>{python.string(), "tlbf_impl.py"}));
  EXPECT_EQ(resolved.served.build, kit.served.build);
  std::ifstream starts(s.path() / "starts");
  int count = 0;
  for (std::string line; std::getline(starts, line);) ++count;
  EXPECT_EQ(count, 2);  // once for the suite's word and once for the variants'
}

TEST(Interpreters, AWordThatCannotBeResolvedStaysAsItIs) {
  Scratch s;
  const fs::path shims = s.path() / "shims";
  write_text(shims / "python3.99", "#!/bin/sh\necho relative/python\n");  // not an absolute path
  fs::permissions(shims / "python3.99", fs::perms::owner_all);
  const PathInFront in_front(shims);
  EXPECT_EQ(python_executable("python3.99", s.path()), "");
  EXPECT_EQ(python_executable("python3.98", s.path()), "");  // not on PATH at all
  Kit kit;
  kit.suite = {"python3.99", "-m", "unittest"};
  EXPECT_EQ(with_interpreters_resolved(kit).suite, kit.suite);
}

}  // namespace
}  // namespace tlbf::mutants
