// How the built `tlbf` meets hostile surroundings: a bad TMPDIR, files too
// large for memory, endless input, standard output that cannot be written,
// a file size limit, a directory where a file should be. Each case is a
// shell line, since the surroundings (ulimit, redirections) are the shell's.
//
// TLBF_UNDER_TEST=/path/to/tlbf in the environment runs these against
// another build, which is how they were seen to fail before the fixes.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int rc;  // the shell's exit status: 128 + N when tlbf was killed by signal N
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The spec's section 3: to_bytes of with_rate(4, 0.1) after cat and dog.
const std::string kWorkedExample(
    "\x54\x4c\x42\x46\x01\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00"
    "\x03\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00"
    "\x09\x68\x02",
    35);

class Io : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path("/tmp") / ("tlbf_io_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path path(const std::string& name) const { return dir_ / name; }

  // Runs `line` with sh in the scratch folder, T naming tlbf; standard output
  // and error go to files unless the line redirects them itself.
  Outcome sh(const std::string& line) {
    const char* other = std::getenv("TLBF_UNDER_TEST");
    const std::string tlbf = other && *other ? other : TLBF_BINARY;
    const std::string script = "cd " + quoted(dir_) + " && T=" + quoted(tlbf) + " && { " + line + "\n}";
    const std::string command = "sh -c " + quoted(script) + " </dev/null >" + quoted(path("stdout")) + " 2>" +
                                quoted(path("stderr"));
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status)) << line;
    return {WEXITSTATUS(status), slurp(path("stdout")), slurp(path("stderr"))};
  }

  // The names in the scratch folder, but for the files sh() itself writes.
  std::string listing() const {
    std::string names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      const std::string name = entry.path().filename();
      if (name != "stdout" && name != "stderr") names += name + " ";
    }
    return names;
  }

  fs::path dir_;
};

}  // namespace

namespace {

// TMPDIR missing or a file: a clear error naming it, exit 2 (as for a
// read-only one), in served and in patch mode; never an uncaught exception.
TEST_F(Io, MutateNamesATmpdirItCannotUse) {
  spit(path("a-file"), "");
  for (const std::string& tmpdir : {std::string("/no/such/folder"), path("a-file").string()}) {
    SCOPED_TRACE(tmpdir);
    const auto served = sh("TMPDIR=" + quoted(tmpdir) + " $T mutate -- true");
    EXPECT_EQ(served.rc, 2) << served.err;
    EXPECT_NE((served.out + served.err).find("cannot make a private folder under TMPDIR=" + tmpdir + ": "), std::string::npos)
        << served.err;
    const auto patched = sh("TMPDIR=" + quoted(tmpdir) + " $T mutate --patches " TLBF_SOURCE_DIR
                            "/mutants/patches/python --workdir " TLBF_SOURCE_DIR "/conformance/impls/python -- true");
    EXPECT_EQ(patched.rc, 2) << patched.err;
    EXPECT_NE((patched.out + patched.err).find("cannot make a private folder under TMPDIR=" + tmpdir + ": "), std::string::npos)
        << patched.err;
  }
}

// An empty TMPDIR is unset (POSIX: /tmp), so the grading goes on: `true`
// passes against everything and is stopped by the sanity check, exit 4.
TEST_F(Io, MutateTakesAnEmptyTmpdirAsTmp) {
  const auto r = sh("TMPDIR= $T mutate -- true");
  EXPECT_EQ(r.rc, 4) << r.out << r.err;
}

}  // namespace
