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
#include <vector>

#include "tlbf/address_sanitizer.hpp"
#include "tlbf/shell_quote.hpp"

namespace {

namespace fs = std::filesystem;

// AddressSanitizer reserves terabytes of address space at start, so under it
// `ulimit -v` stops tlbf before main (ReserveShadowMemoryRange, exit 134):
// the sanitizer build runs these cases without the limit, or not at all
// where the limit is the point.
constexpr bool kAddressSpaceLimitsWork = !tlbf::kAddressSanitized;

// "ulimit -v KIB; ", or nothing where such a limit cannot work.
std::string address_space_limit(const std::string& kib) {
  return kAddressSpaceLimitsWork ? "ulimit -v " + kib + "; " : "";
}

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

std::string quoted(const std::string& word) { return tlbf::shell_quote(word); }

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
    const std::string command =
        "sh -c " + quoted(script) + " </dev/null >" + quoted(path("stdout")) + " 2>" + quoted(path("stderr"));
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

// TMPDIR missing or a file: a clear error naming it, exit 7, cannot run (as
// for a read-only one), in served and in patch mode; never an uncaught exception.
TEST_F(Io, MutateNamesATmpdirItCannotUse) {
  spit(path("a-file"), "");
  for (const std::string& tmpdir : {std::string("/no/such/folder"), path("a-file").string()}) {
    SCOPED_TRACE(tmpdir);
    const auto served = sh("TMPDIR=" + quoted(tmpdir) + " $T mutate -- true");
    EXPECT_EQ(served.rc, 7) << served.err;
    EXPECT_NE((served.out + served.err).find("cannot make a private folder under TMPDIR=" + tmpdir + ": "),
              std::string::npos)
        << served.err;
    const auto patched =
        sh("TMPDIR=" + quoted(tmpdir) +
           " $T mutate --patches " TLBF_SOURCE_DIR "/mutants/patches/python --workdir " TLBF_SOURCE_DIR
           "/conformance/impls/python -- true");
    EXPECT_EQ(patched.rc, 7) << patched.err;
    EXPECT_NE((patched.out + patched.err).find("cannot make a private folder under TMPDIR=" + tmpdir + ": "),
              std::string::npos)
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

namespace {

// A 3 GB file of zeros, /dev/zero and an endless pipe are refused from their
// first bytes, under a memory limit that reading them whole would break.
TEST_F(Io, JunkIsRefusedFromItsHeaderNotReadWhole) {
  ASSERT_EQ(sh("truncate -s 3G big").rc, 0);
  for (const std::string command : {"inspect", "query"}) {
    SCOPED_TRACE(command);
    for (const std::string file : {"big", "/dev/zero"}) {
      const auto r = sh(address_space_limit("1000000") + "$T " + command + " " + file);
      EXPECT_EQ(r.rc, 1) << file << ": " << r.err;
      EXPECT_NE(r.err.find(file + " is refused: Format: magic = 00 00 00 00"), std::string::npos) << r.err;
    }
  }
  const auto json = sh("$T inspect --json big");
  EXPECT_EQ(json.rc, 1);
  EXPECT_NE(json.out.find("\"size\": 3221225472"), std::string::npos) << json.out;
}

// A pipe is read no further than its header says, plus one byte: an endless
// stream after a good header is refused as too long.
TEST_F(Io, AFilterFromAPipeIsReadNoFurtherThanItsHeaderSays) {
  spit(path("f.tlbf"), kWorkedExample);
  const auto r =
      sh("{ cat f.tlbf; cat /dev/zero; } | (" + address_space_limit("1000000") + "$T inspect /dev/stdin)");
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find(
                "Format: length: m = 20 needs 3 bytes of bits after the header, the input has 4 (1 bytes too "
                "many)"),
            std::string::npos)
      << r.err;
  const auto whole = sh("cat f.tlbf | $T inspect /dev/stdin");
  EXPECT_EQ(whole.rc, 0) << whole.err;
  EXPECT_NE(whole.out.find("(35 bytes)"), std::string::npos) << whole.out;
  // A regular file is measured, not read, so its message counts every byte.
  spit(path("long.tlbf"), kWorkedExample + "xyz");
  EXPECT_NE(sh("$T inspect long.tlbf").err.find("the input has 6 (3 bytes too many)"), std::string::npos);
}

}  // namespace

namespace {

// Out of memory is said, with exit 70: not an abort (134), and for check not
// 1, which would blame the implementation.
TEST_F(Io, OutOfMemoryIsSaidAndExits70) {
  if (!kAddressSpaceLimitsWork) GTEST_SKIP() << "ulimit -v stops a sanitizer build before main";
  // A header that passes every check, for m = 2^35 bits: a 4 GiB bit array
  // that a 1 GB address-space limit cannot hold (the file itself is sparse).
  std::string header = kWorkedExample.substr(0, 32);
  header[8] = 0, header[12] = 8;  // m = 2^35, little-endian
  spit(path("huge.tlbf"), header);
  ASSERT_EQ(sh("truncate -s 4294967328 huge.tlbf").rc, 0);
  for (const std::string command : {"inspect", "query"}) {
    const auto r = sh("ulimit -v 1000000; $T " + command + " huge.tlbf");
    EXPECT_EQ(r.rc, 70) << command << ": " << r.err;
    EXPECT_NE(r.err.find("tlbf: out of memory"), std::string::npos) << r.err;
  }
  const auto check = sh("ulimit -v 40000; $T check");
  EXPECT_EQ(check.rc, 70) << check.out << check.err;
  EXPECT_NE(check.err.find("tlbf: out of memory"), std::string::npos) << check.err;
}

}  // namespace

namespace {

// A directory where a file should be cannot be read: exit 3, not 1 ("refused").
TEST_F(Io, ADirectoryForInputIsExit3) {
  spit(path("f.tlbf"), kWorkedExample);
  for (const std::string line : {"echo a | $T query f.tlbf /tmp", "$T build --n 4 --p 0.1 -o g.tlbf /tmp",
                                 "$T inspect /tmp", "$T query /tmp"}) {
    const auto r = sh(line);
    EXPECT_EQ(r.rc, 3) << line << "\n" << r.err;
    EXPECT_NE(r.err.find("/tmp: it is a directory"), std::string::npos) << line << "\n" << r.err;
  }
  // Standard input that cannot be read is not an empty input.
  for (const std::string line : {"$T query f.tlbf </tmp", "$T build --n 4 --p 0.1 -o g.tlbf </tmp",
                                 "$T build --hex --n 4 --p 0.1 -o g.tlbf </tmp"}) {
    const auto r = sh(line);
    EXPECT_EQ(r.rc, 3) << line << "\n" << r.err;
    EXPECT_NE(r.err.find("tlbf: -: read error"), std::string::npos) << line << "\n" << r.err;
    EXPECT_FALSE(fs::exists(path("g.tlbf")));
  }
}

}  // namespace

namespace {

// Standard output that cannot be written is exit 3, whatever the subcommand:
// never a silent exit 0.
TEST_F(Io, AnUnwritableStandardOutputIsNotExit0) {
  spit(path("f.tlbf"), kWorkedExample);
  struct Case {
    std::string line;
    int rc;
  };
  const Case cases[] = {
      {"$T check --filter 'vectors/hash/*' >/dev/full", 3},
      {"$T inspect --json f.tlbf >/dev/full", 3},
      {"$T inspect f.tlbf >/dev/full", 3},
      {"$T vectors stats >/dev/full", 3},
      {"$T mutants list >&-", 3},
      {"$T mutants diff s01 >/dev/full", 3},
      {"$T --help >/dev/full", 3},
      {"$T check --help >/dev/full", 3},
      {"$T --version >/dev/full", 3},
      // One mutant and one clean run of a small check: the whole grading, 14
      // whole checks, outlasts the test's bound in a sanitizer build.
      {"$T mutate --control-runs 0 --baseline-runs 1 --mutants s10 --require s10 -- $T check --filter "
       "'vectors/hash/*' "
       ">/dev/full",
       3},
  };
  for (const Case& c : cases) {
    const auto r = sh(c.line);
    EXPECT_EQ(r.rc, c.rc) << c.line << "\n" << r.err;
    EXPECT_NE(r.err.find("tlbf: cannot write standard output: "), std::string::npos) << c.line << "\n"
                                                                                     << r.err;
  }
}

// The protocol endpoints, the oracle's and a mutant's (tlbf-mutant), say why
// they cannot answer or read, and exit 3 as every subcommand does for I/O.
TEST_F(Io, ServeSaysWhyItCannotReadOrAnswer) {
  for (const std::string serve : {"$T serve", "$T serve --mutant s01", "$T serve --refuse-all"}) {
    const auto full = sh("echo 'fnv1a64 636174' | " + serve + " >/dev/full");
    EXPECT_EQ(full.rc, 3) << serve << "\n" << full.err;
    EXPECT_EQ(full.err, "tlbf serve: cannot write responses: No space left on device\n") << serve;
    const auto directory = sh(serve + " </tmp");
    EXPECT_EQ(directory.rc, 3) << serve << "\n" << directory.err;
    EXPECT_EQ(directory.err, "tlbf serve: cannot read requests: Is a directory\n") << serve;
  }
}

// A file read whole (a transcript, an --expected list, a report to merge) is
// bounded: /dev/zero is refused at 256 MiB, and a read error is exit 3, not
// an exception's exit 70.
TEST_F(Io, WholeFileReadsAreBoundedAndTheirErrorsAreExit3) {
  for (const std::string line :
       {"$T check --transcript /dev/zero", "$T check --expected /dev/zero", "$T mutate --merge /dev/zero",
        "$T check --transcript /proc/self/mem", "$T mutate --merge /proc/self/mem"}) {
    const auto r = sh(line);
    EXPECT_EQ(r.rc, 3) << line << "\n" << r.err;
    EXPECT_NE(r.err.find("cannot read /"), std::string::npos) << line << "\n" << r.err;
  }
}

// What is not a regular file is refused from fstat, before a read, by
// every reader of whole files: a FIFO with no writer (an ifstream waited for
// one, for ever), a directory, a device. `timeout` makes a hang exit 124.
TEST_F(Io, WholeFileReadersRefuseAFifoADirectoryAndADeviceAtOnce) {
  ASSERT_EQ(sh("mkfifo p && mkdir d class class/alice && $T vectors generate --out v >/dev/null && "
               "rm v/tlbf_union_v1.json && mkfifo v/tlbf_union_v1.json")
                .rc,
            0);
  struct Case {
    std::string line;
    int rc;
    std::string said;
  };
  for (const Case& c : std::vector<Case>{
           {"$T mutate --merge p", 3, "cannot read p: it is a FIFO (a named pipe), not a regular file"},
           {"$T check --transcript p", 3, "cannot read p: it is a FIFO"},
           {"$T check --expected p", 3, "cannot read p: it is a FIFO"},
           {"$T grade --kit p class", 2, "the kit: cannot read p: it is a FIFO"},
           {"$T mutate --merge d", 3, "cannot read d: it is a directory"},
           {"$T grade --kit /dev/zero class", 2, "cannot read /dev/zero: it is a character device"},
           {"$T vectors lint v", 3, "cannot read v/tlbf_union_v1.json: it is a FIFO"},
           {"$T check --vectors v", 3, "cannot read v/tlbf_union_v1.json: it is a FIFO"}}) {
    const auto r = sh("timeout 20 " + c.line);
    EXPECT_EQ(r.rc, c.rc) << c.line << "\n" << r.out << r.err;
    EXPECT_NE((r.out + r.err).find(c.said), std::string::npos) << c.line << "\n" << r.out << r.err;
  }
}

// /dev/zero and a file over the 256 MiB bound are refused before any of it
// is held: both ran within 200 MB of address space, where reading up to the
// bound (about 520 MB, as before) would end in "out of memory", exit 70.
TEST_F(Io, ALongFileIsRefusedBeforeItIsHeld) {
  ASSERT_EQ(sh("truncate -s 300M big.json").rc, 0);
  const std::string device = "cannot read /dev/zero: it is a character device, not a regular file";
  const std::string longer = "cannot read big.json: longer than 256 MiB";
  for (const auto& [line, said] :
       std::vector<std::pair<std::string, std::string>>{{"$T mutate --merge /dev/zero", device},
                                                        {"$T mutate --merge big.json", longer},
                                                        {"$T check --transcript big.json", longer},
                                                        {"$T check --expected /dev/zero", device}}) {
    // Under the limit, the old read ended in "Cannot allocate memory" instead.
    const auto r = sh(address_space_limit("200000") + line);
    EXPECT_EQ(r.rc, 3) << line << "\n" << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << line << "\n" << r.err;
  }
}

// A reader that leaves early (head) is a broken pipe: exit 3, quietly, since
// the reader chose to stop; tlbf ignores SIGPIPE (it writes to
// implementations' pipes), so the write fails instead of killing it.
TEST_F(Io, AReaderThatLeavesIsExit3Quietly) {
  // Standard output is a pipe whose reader has gone before tlbf starts (a
  // FIFO opened for writing while a reader held it, then the reader closed),
  // so the first write fails, however small the output.
  const auto r = sh("mkfifo p && exec 4<>p 3>p 4<&- && $T check -v >&3");
  EXPECT_EQ(r.rc, 3);
  EXPECT_EQ(r.err, "");
}

}  // namespace

namespace {

// A write that fails, here on a file size limit, leaves no partial file: the
// old file stays as it was, no temporary is left beside it, and the failure
// is exit 3 naming the file, not death by SIGXFSZ.
TEST_F(Io, AFailedWriteLeavesNoPartialFile) {
  spit(path("old.tlbf"), kWorkedExample);
  // 10^5 items at p = 0.01: a filter of about 117 KiB, over a 8 KiB limit.
  const auto build = sh("seq 100000 | (ulimit -f 16; $T build --n 100000 --p 0.01 -o old.tlbf)");
  EXPECT_EQ(build.rc, 3) << build.err;
  EXPECT_NE(build.err.find("tlbf: cannot write old.tlbf: File too large"), std::string::npos) << build.err;
  EXPECT_TRUE(slurp(path("old.tlbf")) == kWorkedExample) << "old.tlbf was overwritten";
  EXPECT_EQ(listing(), "old.tlbf ");

  const auto check = sh("ulimit -f 16; $T check --junit r.xml --json r.json --html r.html");
  EXPECT_EQ(check.rc, 3) << check.err;
  EXPECT_NE(check.err.find("File too large"), std::string::npos) << check.err;
  EXPECT_EQ(listing().find("r.xml"), std::string::npos) << listing();
  EXPECT_EQ(listing().find(".tlbf-"), std::string::npos) << listing();

  // Standard output over the limit is exit 3 too.
  const auto out = sh("seq 100000 | (ulimit -f 16; $T build --n 100000 --p 0.01 -o - >f.tlbf)");
  EXPECT_EQ(out.rc, 3) << out.err;
}

// Written whole, the file is as before: mode from the umask, or kept from the
// file it replaces; a link to a file is followed, not replaced; a device is
// written in place.
TEST_F(Io, AWrittenFileKeepsWhatItReplaces) {
  const auto fresh =
      sh("printf 'cat\\ndog\\n' | (umask 027; $T build --n 4 --p 0.1 -o new.tlbf) && stat -c %a new.tlbf");
  EXPECT_EQ(fresh.out, "640\n") << fresh.err;
  EXPECT_EQ(slurp(path("new.tlbf")), kWorkedExample);
  spit(path("kept.tlbf"), "old");
  const auto kept =
      sh("chmod 600 kept.tlbf && ln -s kept.tlbf link.tlbf && printf 'cat\\ndog\\n' | "
         "$T build --n 4 --p 0.1 -o link.tlbf && stat -c %a kept.tlbf && test -L link.tlbf");
  EXPECT_EQ(kept.rc, 0) << kept.err;
  EXPECT_EQ(kept.out, "600\n");
  EXPECT_EQ(slurp(path("kept.tlbf")), kWorkedExample);
  EXPECT_EQ(sh("printf 'cat\\n' | $T build --n 4 --p 0.1 -o /dev/null && test -c /dev/null").rc, 0);
}

}  // namespace
