// Tests of the built `tlbf` binary, run as a user would run it.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tlbf/oracle.hpp"
#include "tlbf/shell_quote.hpp"

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int rc;
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

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("tlbf_cli_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path path(const std::string& name) const { return dir_ / name; }

  // Runs `tlbf ARGS...` with `input` on standard input.
  Outcome tlbf(const std::vector<std::string>& args, const std::string& input = "") {
    std::string command = quoted(TLBF_BINARY);
    for (const auto& arg : args) command += " " + quoted(arg);
    return shell(command, input);
  }

  // Runs a /bin/sh command line (one that runs tlbf) with `input` on standard input.
  Outcome shell(std::string command, const std::string& input = "") {
    spit(path("stdin"), input);
    command = "{ " + command + "; } <" + quoted(path("stdin")) + " >" + quoted(path("stdout")) + " 2>" +
              quoted(path("stderr"));
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status)) << "tlbf did not exit normally: " << command;
    Outcome out{WEXITSTATUS(status), slurp(path("stdout")), slurp(path("stderr"))};
    // tlbf check's report is for a terminal: every line of it fits 80 columns (docs/check.md, "Output").
    if (command.find(" check ") != std::string::npos && command.find(" --list") == std::string::npos) {
      std::istringstream lines(out.out);
      for (std::string line; std::getline(lines, line);)
        EXPECT_LE(line.size(), 80U) << line << "\n  from: " << command;
    }
    return out;
  }

  fs::path dir_;
};

// The spec's section 3: to_bytes of with_rate(4, 0.1) after cat and dog.
const std::string kWorkedExample(
    "\x54\x4c\x42\x46\x01\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00"
    "\x03\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00"
    "\x09\x68\x02",
    35);

TEST_F(Cli, BuildWritesTheWorkedExample) {
  const auto r = tlbf({"build", "--n", "4", "--p", "0.1", "-o", path("f.tlbf")}, "cat\ndog\n");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(slurp(path("f.tlbf")), kWorkedExample);
}

TEST_F(Cli, BuildReadsAFileAndHex) {
  spit(path("items.hex"), "636174\n646f67\n");  // "cat", "dog"
  const auto r = tlbf({"build", "--hex", "--n", "4", "--p", "0.1", "-o", path("f.tlbf"), path("items.hex")});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(slurp(path("f.tlbf")), kWorkedExample);
}

TEST_F(Cli, BuildToleratesCrlfAndAMissingLastNewline) {
  const auto r = tlbf({"build", "--n", "4", "--p", "0.1", "-o", path("f.tlbf")}, "cat\r\ndog");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(slurp(path("f.tlbf")), kWorkedExample);
}

TEST_F(Cli, BuildRefusesBadParametersWithExit1) {
  for (const char* p : {"0", "1", "nan", "-0.5"}) {
    const auto r = tlbf({"build", "--n", "4", "--p", p, "-o", path("f.tlbf")}, "cat\n");
    EXPECT_EQ(r.rc, 1) << p;
    EXPECT_NE(r.err.find("BadParams: p = "), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("f.tlbf")));
  }
  const auto zero = tlbf({"build", "--n", "0", "--p", "0.1", "-o", path("f.tlbf")}, "cat\n");
  EXPECT_EQ(zero.rc, 1);
  EXPECT_NE(zero.err.find("n = 0"), std::string::npos) << zero.err;
}

TEST_F(Cli, BuildRefusesBadHexAndWritesNothing) {
  const auto r = tlbf({"build", "--hex", "--n", "4", "--p", "0.1", "-o", path("f.tlbf")}, "636174\nzz\n");
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("line 2: not hex"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("f.tlbf")));
}

// A file name that is not UTF-8 is still inspected: JSON gets U+FFFD for its bad byte.
TEST_F(Cli, InspectJsonOfAFileNameThatIsNotUtf8) {
  const std::string name = path("x\xff.tlbf").string();
  spit(name, kWorkedExample);
  const auto r = tlbf({"inspect", "--json", name});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("x\xef\xbf\xbd.tlbf\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"valid\": true"), std::string::npos) << r.out;
}

// The lines before a bad one are answered; then the bad line is named, and the exit is 1.
TEST_F(Cli, QueryAnswersUpToABadHexLineThenNamesIt) {
  spit(path("f.tlbf"), kWorkedExample);
  const auto r = tlbf({"query", "--hex", path("f.tlbf")}, "636174\n646f67\n6x\n636174\n");
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "present\npresent\n");
  EXPECT_EQ(r.err, "tlbf: - line 3: not hex (2 characters; want an even number of 0-9, a-f, A-F)\n");
}

TEST_F(Cli, BuildWarnsWhenOverfilled) {
  const auto r = tlbf({"build", "--n", "1", "--p", "0.1", "-o", path("f.tlbf")}, "a\nb\nc\n");
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.err.find("3 items in a filter designed for n = 1"), std::string::npos) << r.err;
}

TEST_F(Cli, UsageErrorsExitWith2) {
  EXPECT_EQ(tlbf({}).rc, 2);
  EXPECT_EQ(tlbf({"frobnicate"}).rc, 2);
  EXPECT_EQ(tlbf({"build", "--n", "4", "--p", "0.1"}).rc, 2);  // no -o
  EXPECT_EQ(tlbf({"build", "--n", "-4", "--p", "0.1", "-o", path("f")}).rc, 2);
  EXPECT_EQ(tlbf({"build", "--n", "four", "--p", "0.1", "-o", path("f")}).rc, 2);
  EXPECT_EQ(tlbf({"build", "--n", "18446744073709551616", "--p", "0.1", "-o", path("f")}).rc, 2);
  EXPECT_EQ(tlbf({"build", "--n", "4", "--p", "0.1x", "-o", path("f")}).rc, 2);
  EXPECT_EQ(tlbf({"inspect"}).rc, 2);
}

TEST_F(Cli, HelpAndVersionEverywhere) {
  for (const std::vector<std::string>& prefix :
       {std::vector<std::string>{}, {"build"}, {"query"}, {"inspect"}}) {
    auto help = prefix;
    help.push_back("--help");
    const auto h = tlbf(help);
    EXPECT_EQ(h.rc, 0);
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << h.out;
    auto version = prefix;
    version.push_back("--version");
    const auto v = tlbf(version);
    EXPECT_EQ(v.rc, 0);
    EXPECT_NE(v.out.find("tlbf " TLBF_VERSION_STRING_FOR_TEST), std::string::npos) << v.out;
  }
}

TEST_F(Cli, QueryAnswersEachLine) {
  spit(path("f.tlbf"), kWorkedExample);
  const auto r = tlbf({"query", path("f.tlbf")}, "cat\nbird\ndog\n\n");
  EXPECT_EQ(r.rc, 0) << r.err;
  // The empty item probes bits 17, 4, 11 (fnv1a64("") is the offset basis):
  // bit 4 is clear in 09 68 02, so it is absent.
  EXPECT_EQ(r.out, "present\nabsent\npresent\nabsent\n");
}

TEST_F(Cli, QueryHex) {
  spit(path("f.tlbf"), kWorkedExample);
  const auto r = tlbf({"query", "--hex", path("f.tlbf")}, "636174\n62697264\n");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "present\nabsent\n");
}

TEST_F(Cli, QueryRefusesAMalformedFilter) {
  spit(path("f.tlbf"), kWorkedExample.substr(0, 34));
  const auto r = tlbf({"query", path("f.tlbf")}, "cat\n");
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("Format: length"), std::string::npos) << r.err;
}

TEST_F(Cli, MissingFilesExitWith3) {
  EXPECT_EQ(tlbf({"inspect", path("nope")}).rc, 3);
  EXPECT_EQ(tlbf({"inspect", dir_.string()}).rc, 3);
  EXPECT_EQ(tlbf({"query", path("nope")}, "cat\n").rc, 3);
  EXPECT_EQ(tlbf({"build", "--n", "4", "--p", "0.1", "-o", path("f"), path("nope")}).rc, 3);
  EXPECT_EQ(tlbf({"build", "--n", "4", "--p", "0.1", "-o", path("no/such/dir/f")}, "cat\n").rc, 3);
}

TEST_F(Cli, InspectShowsTheWorkedExample) {
  spit(path("f.tlbf"), kWorkedExample);
  const auto r = tlbf({"inspect", path("f.tlbf")});
  EXPECT_EQ(r.rc, 0) << r.err;
  for (const char* line : {"(35 bytes)", "TLBF v1", "20 bits (3 bytes)", "k               3",
                           "n_inserted      2", "6 (fill 0.3)", "fp rate now     0.027"}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << "missing '" << line << "' in\n" << r.out;
  }
}

TEST_F(Cli, InspectJson) {
  spit(path("f.tlbf"), kWorkedExample);
  const auto r = tlbf({"inspect", "--json", path("f.tlbf")});
  EXPECT_EQ(r.rc, 0) << r.err;
  for (const char* field :
       {"\"valid\": true", "\"m\": 20", "\"k\": 3", "\"n_inserted\": 2", "\"ones\": 6", "\"fill\": 0.3"}) {
    EXPECT_NE(r.out.find(field), std::string::npos) << field << " in\n" << r.out;
  }
}

// Each malformed class gets its own message, and exit code 1.
TEST_F(Cli, InspectRefusesEachMalformedClass) {
  auto with = [](std::size_t at, char value) {
    std::string copy = kWorkedExample;
    copy[at] = value;
    return copy;
  };
  struct Case {
    const char* name;
    std::string bytes;
    const char* message;
  };
  const Case cases[] = {
      {"magic", with(0, 'X'), "Format: magic = 58 4c 42 46"},
      {"version", with(4, 2), "Format: version = 2"},
      {"m = 0", with(8, 0), "Format: m = 0 in header"},
      {"k = 0", with(16, 0), "Format: k = 0 in header"},
      {"reserved", with(21, 1), "Format: reserved = 256"},
      {"short", kWorkedExample.substr(0, 20), "Format: short: the input is 20 bytes"},
      {"truncated", kWorkedExample.substr(0, 34), "has 2 (truncated)"},
      {"long", kWorkedExample + "x", "has 4 (1 bytes too many)"},
      {"inconsistent", with(8, 40), "m = 40 needs 5 bytes"},
      {"padding", with(34, '\x12'), "Format: padding: bits 20 .. 23"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    spit(path("bad.tlbf"), c.bytes);
    const auto r = tlbf({"inspect", path("bad.tlbf")});
    EXPECT_EQ(r.rc, 1);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    const auto j = tlbf({"inspect", "--json", path("bad.tlbf")});
    EXPECT_EQ(j.rc, 1);
    EXPECT_NE(j.out.find("\"kind\": \"Format\""), std::string::npos) << j.out;
  }
}

TEST_F(Cli, CheckExitCodes) {
  const auto ok = tlbf({"check"});
  EXPECT_EQ(ok.rc, 0) << ok.out;
  EXPECT_NE(ok.out.find("verdict: conforms"), std::string::npos) << ok.out;

  const std::string broken = TLBF_PYTHON3 " " TLBF_SOURCE_DIR "/conformance/tests/misbehaving_impl.py s10";
  const auto bad = tlbf({"check", "--impl", broken});
  EXPECT_EQ(bad.rc, 1);
  EXPECT_NE(bad.out.find("FAIL vectors/hash/Fnv1a64Test/"), std::string::npos);
  EXPECT_NE(bad.out.find("reproduce:\n    printf"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("does NOT conform"), std::string::npos);

  EXPECT_EQ(tlbf({"check", "--impl", "/no/such/implementation"}).rc, 7);  // cannot run
  EXPECT_EQ(tlbf({"check", "--filter", "nothing/matches/*"}).rc, 2);
  EXPECT_EQ(tlbf({"check", "--timeout", "0"}).rc, 2);

  const auto list = tlbf({"check", "--list", "--filter", "vectors/union/*"});
  EXPECT_EQ(list.rc, 0);
  EXPECT_EQ(list.out.substr(0, 26), "vectors/union/UnionTest/1\n");
}

TEST_F(Cli, CheckSkipLeavesOutWhatItMatchesAfterFilter) {
  const auto all = tlbf({"check", "--list", "--filter", "vectors/union/*"});
  const auto fewer = tlbf({"check", "--list", "--filter", "vectors/union/*", "--skip",
                           "vectors/union/UnionTest/1", "--skip", "vectors/union/UnionTest/2"});
  ASSERT_EQ(all.rc, 0);
  ASSERT_EQ(fewer.rc, 0);
  EXPECT_EQ(fewer.out.find("vectors/union/UnionTest/1\n"), std::string::npos);
  EXPECT_EQ(fewer.out.find("vectors/union/UnionTest/2\n"), std::string::npos);
  EXPECT_NE(fewer.out.find("vectors/union/UnionTest/3\n"), std::string::npos);
  const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_EQ(lines(all.out) - 2, lines(fewer.out));
  EXPECT_EQ(tlbf({"check", "--filter", "vectors/union/*", "--skip", "vectors/*"}).rc, 2);  // nothing left
  const auto run = tlbf({"check", "--runs", "0", "--skip", "behaviour/*", "--skip", "vectors/*"});
  EXPECT_EQ(run.rc, 0) << run.out;
  EXPECT_NE(run.out.find("--skip 'behaviour/*' --skip 'vectors/*' selects"), std::string::npos) << run.out;
}

TEST_F(Cli, CheckMaxFailuresStopsTheRunOnceThatManyCasesFailed) {
  // s03 fails dozens of cases of the default check; with a limit, the run
  // stops after the batch in which the limit is reached.
  const std::string mutant = std::string(TLBF_BINARY) + " serve --mutant s03";
  const auto whole =
      tlbf({"check", "--runs", "0", "--impl", mutant, "--json", (dir_ / "whole.json").string()});
  const auto stopped = tlbf({"check", "--runs", "0", "--impl", mutant, "--max-failures", "1", "--json",
                             (dir_ / "stopped.json").string()});
  EXPECT_EQ(whole.rc, 1);
  EXPECT_EQ(stopped.rc, 1);
  EXPECT_NE(stopped.out.find("stopped after "), std::string::npos) << stopped.out;
  EXPECT_NE(stopped.out.find("(--max-failures 1)"), std::string::npos) << stopped.out;
  const auto count = [](const std::string& out, const std::string& what) {
    const auto at = out.find("cases: ");
    const auto line = out.substr(at, out.find('\n', at) - at);
    const auto end = line.find(" " + what);
    const auto start = line.rfind(' ', end - 1) + 1;
    return std::stoi(line.substr(start, end - start));
  };
  EXPECT_GE(count(stopped.out, "failed"), 1);
  EXPECT_LT(count(stopped.out, "failed"), count(whole.out, "failed"));
  EXPECT_GT(count(stopped.out, "not run"), 0);
  EXPECT_EQ(count(whole.out, "not run"), 0);
  // A correct implementation runs every case whatever the limit.
  const auto clean = tlbf({"check", "--runs", "0", "--max-failures", "1"});
  EXPECT_EQ(clean.rc, 0) << clean.out;
}

TEST_F(Cli, CheckRequiresEveryCapabilityUnlessToldWhichToLeaveOut) {
  const std::string screen =
      TLBF_PYTHON3 " " TLBF_SOURCE_DIR "/conformance/tests/misbehaving_impl.py filter_only";
  // The vector cases of filters are enough: the capabilities are probed whatever --filter keeps.
  const auto all = tlbf({"check", "--filter", "vectors/filter/*", "--impl", screen});
  EXPECT_EQ(all.rc, 1) << all.out;
  EXPECT_NE(all.out.find("FAIL capabilities/hashing"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("NOT offered, though required (not checked, not passed): hashing sizing union"),
            std::string::npos)
      << all.out;

  auto fewer =
      tlbf({"check", "--filter", "vectors/filter/*", "--impl", screen, "--capabilities", "filter,bytes"});
  EXPECT_EQ(fewer.rc, 0) << fewer.out;
  // The verdict wraps at 80 columns, its lines after the first indented under its words.
  for (std::size_t at; (at = fewer.out.find("\n         ")) != std::string::npos;)
    fewer.out.replace(at, 10, " ");
  EXPECT_NE(
      fewer.out.find("verdict: conforms to TLBF v1 on filter bytes, with hashing sizing union left out"),
      std::string::npos)
      << fewer.out;
  // A part of the check that passes says it is a part.
  EXPECT_NE(
      fewer.out.find(", but only on the cases --filter 'vectors/filter/*' selects, not the whole check"),
      std::string::npos)
      << fewer.out;
  // Every case the filter keeps needs a capability left out: nothing ran, so no verdict of yes.
  // (An adversary's implementation: the oracle, answering hashing requests only.)
  spit(path("hashing_only.py"),
       "import subprocess, sys\n"
       "oracle = subprocess.Popen(['" TLBF_BINARY
       "', 'serve'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,"
       " text=True)\n"
       "for line in sys.stdin:\n"
       "    words = line.split()\n"
       "    if words and words[0] in ('hello', 'fnv1a64', 'mix64', 'positions_for'):\n"
       "        oracle.stdin.write(line); oracle.stdin.flush(); print(oracle.stdout.readline(), end='', "
       "flush=True)\n"
       "    else:\n"
       "        print('err Unknown not offered', flush=True)\n");
  const auto nothing =
      tlbf({"check", "--filter", "vectors/sizing/*", "--impl",
            TLBF_PYTHON3 " " + path("hashing_only.py").string(), "--capabilities", "hashing"});
  EXPECT_EQ(nothing.rc, 1) << nothing.out;
  EXPECT_NE(nothing.out.find("verdict: does NOT conform to TLBF v1: no case ran"), std::string::npos)
      << nothing.out;
  const auto every = tlbf({"check", "--runs", "0"});
  // The last line is the verdict; the counts are the line before.
  const std::string last = "\nverdict: conforms to TLBF v1, every capability checked\n";
  ASSERT_GE(every.out.size(), last.size());
  EXPECT_EQ(every.out.substr(every.out.size() - last.size()), last) << every.out;
  // Two acceptable differences where this machine cannot map 2^40 bits:
  // the reference answers new and with_rate of them err BadParams
  // (CannotAllocate, docs/check.md), where the judge expects ok.
  const bool counted =
      every.out.find(" failed, 0 acceptable differences, 0 skipped, 0 not run" + last) != std::string::npos ||
      every.out.find(" failed, 2 acceptable differences, 0 skipped, 0 not run" + last) != std::string::npos;
  EXPECT_TRUE(counted) << every.out;

  EXPECT_EQ(tlbf({"check", "--capabilities", "filter,hashes"}).rc, 2);
  // An empty list (a shell variable that was not set) is not "the default".
  const auto empty = tlbf({"check", "--capabilities", ""});
  EXPECT_EQ(empty.rc, 2);
  EXPECT_NE(empty.err.find("no capability named ''"), std::string::npos) << empty.err;
  EXPECT_EQ(tlbf({"check", "--capabilities", "filter,"}).rc, 2);
}

TEST_F(Cli, CheckRefusesAnEmptyImplementationCommand) {
  // /bin/sh -c '' runs nothing: an unset shell variable, not an implementation.
  for (const std::string command : {"", "  "}) {
    const auto run = tlbf({"check", "--impl", command});
    EXPECT_EQ(run.rc, 2) << "'" << command << "'";
    EXPECT_NE(run.err.find("--impl '" + command + "': an empty command runs no implementation"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.out, "");
  }
}

// An empty value is what `--json "$UNSET"` passes: refused, never read as "no --json".
TEST_F(Cli, EmptyValuesAreUsageErrors) {
  const std::string suite = "false";  // fails on the reference: exit 3 if a grading ever started
  const std::vector<std::vector<std::string>> commands = {
      {"check", "--json", ""},
      {"check", "--junit", ""},
      {"check", "--html", ""},
      {"check", "--vectors", ""},
      {"check", "--expected", ""},
      {"check", "--filter", ""},
      {"mutate", "--json", "", "--", suite},
      {"mutate", "--html", "", "--", suite},
      {"mutate", "--require", "", "--", suite},
      {"mutate", "--mutants", "", "--", suite},
      {"mutate", "--shard", "", "--", suite},
      {"mutate", "--patches", "", "--workdir", "", "--", suite},
      {"mutate", "--sanity-patch", "", "--", suite},
      {"mutate", "--merge", ""},
      {"build", "--n", "4", "--p", "0.1", "-o", ""},
      {"build", "--n", "4", "--p", "0.1", "-o", "-", ""},
      {"query", ""},
      {"inspect", ""},
      {"vectors", "generate", "--out", ""},
      {"vectors", "lint", ""},
      {"serve", "--mutant", ""},
      {"grade", "--kind", "python", "--junit", "", "."},
  };
  for (const auto& args : commands) {
    const auto run = tlbf(args, "cat\n");
    std::string shown;
    for (const auto& a : args) shown += " '" + a + "'";
    EXPECT_EQ(run.rc, 2) << shown << "\n" << run.out << run.err;
    EXPECT_NE(run.err.find(": the value is empty (an unset shell variable?)"), std::string::npos)
        << shown << "\n"
        << run.err;
    EXPECT_EQ(run.out, "") << shown;
  }
  // The option is named.
  EXPECT_NE(tlbf({"check", "--json", ""}).err.find("--json: the value is empty"), std::string::npos);
}

// A CI variable that was never filled in must not make the harness check its own reference and pass.
TEST_F(Cli, CheckRefusesASetButEmptyTlbfImpl) {
  for (const std::string value : {"", "   ", "\t"}) {
    const auto run = shell("TLBF_IMPL=" + quoted(value) + " " + quoted(TLBF_BINARY) + " check --runs 0");
    EXPECT_EQ(run.rc, 2) << "'" << value << "'\n" << run.out;
    EXPECT_NE(run.err.find("tlbf check: TLBF_IMPL is set but empty ('" + value + "')"), std::string::npos)
        << run.err;
    EXPECT_EQ(run.out, "");
  }
  // Unset, it is the built-in reference; given, --impl wins over it.
  const auto unset =
      shell("unset TLBF_IMPL; " + quoted(TLBF_BINARY) + " check --runs 0 --filter 'vectors/hash/*'");
  EXPECT_EQ(unset.rc, 0) << unset.out << unset.err;
  const auto given =
      shell("TLBF_IMPL= " + quoted(TLBF_BINARY) + " check --runs 0 --filter 'vectors/hash/*' --impl " +
            quoted(quoted(TLBF_BINARY) + " serve"));
  EXPECT_EQ(given.rc, 0) << given.out << given.err;
}

// Every number on the command line: a plain decimal in range, nothing a
// looser parser would turn into another value (docs/cli.md, "Exit codes").
TEST_F(Cli, NumbersAreReadStrictly) {
  const std::vector<std::string> not_whole = {"-1",
                                              "+1",
                                              "0x10",
                                              "1x",
                                              " 1",
                                              "1 ",
                                              "",
                                              "1.0",
                                              "1e2",
                                              "18446744073709551616",
                                              "99999999999999999999999"};
  const std::vector<std::string> not_decimal = {"nan", "NaN", "inf",  "-inf", "+0.5", "-0.5", "0x1p-1",
                                                ".5",  "5.",  "1e-1", "0.5x", " 0.5", "",     "1..5"};
  // --list: a check that would exit 0 at once if the number were taken.
  for (const char* option : {"--seed", "--runs", "--timeout", "--time-budget", "--faults"}) {
    for (const auto& value : not_whole) {
      const auto run = tlbf({"check", "--list", option, value});
      EXPECT_EQ(run.rc, 2) << option << " '" << value << "'";
      EXPECT_NE(run.err.find(std::string(option) + ": '" + value + "' is not a decimal integer in "),
                std::string::npos)
          << option << " '" << value << "'\n"
          << run.err;
    }
  }
  // `-- false` fails on the reference (exit 3) if a grading ever started.
  const auto mutate = [&](const std::string& option, const std::string& value) {
    return tlbf({"mutate", "--mutants", "s01", option, value, "--", "false"});
  };
  for (const char* option : {"-j", "--baseline-runs", "--control-runs"}) {
    for (const auto& value : not_whole) {
      const auto run = mutate(option, value);
      EXPECT_EQ(run.rc, 2) << option << " '" << value << "'";
      EXPECT_NE(run.err.find("' is not a decimal integer in "), std::string::npos)
          << option << " '" << value << "'\n"
          << run.err;
    }
  }
  for (const char* option : {"--threshold", "--timeout-factor", "--timeout-floor", "--setup-timeout"}) {
    for (const auto& value : not_decimal) {
      const auto run = mutate(option, value);
      EXPECT_EQ(run.rc, 2) << option << " '" << value << "'";
      EXPECT_NE(run.err.find(std::string(option) + ": '" + value + "' is not a decimal number in "),
                std::string::npos)
          << option << " '" << value << "'\n"
          << run.err;
    }
  }
  for (const char* shard : {"+1/2", "1/+2", " 1/2", "1/2 ", "1/2x", "0x1/2", "1/2/3", "0/2", "3/2", "1/0",
                            "1", "-1/2", "1/4294967297"}) {
    const auto run = mutate("--shard", shard);
    EXPECT_EQ(run.rc, 2) << shard;
    EXPECT_NE(run.err.find("--shard wants k/n with 1 <= k <= n, not '" + std::string(shard) + "'"),
              std::string::npos)
        << shard << "\n"
        << run.err;
  }
  // The largest and smallest values in range are taken.
  const auto edges = tlbf({"check", "--list", "--seed", "18446744073709551615", "--runs", "0", "--timeout",
                           "3600000", "--time-budget", "1", "--faults", "1000000"});
  EXPECT_EQ(edges.rc, 0) << edges.err;
}

// A hand-edited or damaged report to merge: the file and the field are named,
// not the JSON library's words.
TEST_F(Cli, MutateMergeNamesTheBadFieldOfAReport) {
  spit(
      path("bad.json"),
      R"({"config": {"tool": "tlbf mutate", "suite": ["true"], "threshold": null, "require": [], "mode": "served",)"
      R"( "selected": ["s01"], "shard": null, "stopped": null}, "files": {}})");
  const auto run = tlbf({"mutate", "--merge", path("bad.json")});
  EXPECT_EQ(run.rc, 2);
  EXPECT_NE(run.err.find(path("bad.json").string() + ": config.threshold is null, not a number in 0 ..= 1"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find("json.exception"), std::string::npos) << run.err;
}

// A mutant named twice would be counted twice in the score; an empty name is a typo.
TEST_F(Cli, MutantListsNameEachMutantOnce) {
  const std::string suite = "false";  // fails on the reference: exit 8 if a grading ever started
  for (const auto& [args, why] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"mutate", "--mutants", "s01,s01,s02", "--require", "s01", "--", suite},
            "--mutants 's01,s01,s02' names s01 twice"},
           {{"mutate", "--mutants", "s01,", "--require", "s01", "--", suite},
            "--mutants 's01,' has an empty name"},
           {{"mutate", "--require", "s02,,s03", "--", suite}, "--require 's02,,s03' has an empty name"},
           {{"grade", "--kind", "python", "--require", "s01,s01", path("class").string()},
            "--require 's01,s01' names s01 twice"}}) {
    fs::create_directories(path("class/alice"));
    const auto r = tlbf(args);
    EXPECT_EQ(r.rc, 2) << why << "\n" << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  }
}

// A tlbf with no kits beside it nor in its install tree says where it looked:
// share/tlbf/grade-kits, where the install puts them (docs/cli.md, "Installing").
TEST_F(Cli, GradeWithoutItsKitsNamesWhereTheyAreInstalled) {
  fs::create_directories(path("bin"));
  fs::copy_file(TLBF_BINARY, path("bin/tlbf"));
  fs::create_directories(path("class/alice"));
  const auto r = shell(quoted(path("bin/tlbf").string()) + " grade --kind python " + quoted(path("class")));
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("no bundled kit for --kind python (looked beside tlbf and in share/tlbf/grade-kits)"),
            std::string::npos)
      << r.err;
}

// A replay has no report files, and a transcript of nothing replays nothing: both refused.
TEST_F(Cli, TranscriptReplaysRefuseReportsAndEmptyTranscripts) {
  spit(path("t.txt"), "> fnv1a64 636174\n< ok f5e307190ce4a327\n");
  for (const char* option : {"--json", "--junit", "--tap", "--expected"}) {
    const auto r = tlbf({"check", "--transcript", path("t.txt"), option, path("out")});
    EXPECT_EQ(r.rc, 2) << option << r.err;
    EXPECT_NE(r.err.find(std::string(option) + " reports a check; --transcript only replays"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(path("out")));
  }
  spit(path("empty.txt"), "# nothing but a comment\n");
  const auto empty = tlbf({"check", "--transcript", path("empty.txt")});
  EXPECT_EQ(empty.rc, 2) << empty.out;
  EXPECT_NE(empty.err.find("no request in the whole transcript: nothing to replay"), std::string::npos)
      << empty.err;
  EXPECT_EQ(empty.out.find("PASS"), std::string::npos) << empty.out;
  const auto two = tlbf({"check", "--impl", TLBF_BINARY " serve", "--impl", TLBF_BINARY " serve", "--junit",
                         path("j.xml"), "--filter", "vectors/hash/*"});
  EXPECT_EQ(two.rc, 2) << two.err;
  EXPECT_NE(two.err.find("--junit describes one implementation's cases; give one --impl"), std::string::npos)
      << two.err;
}

// A report that cannot be read is a file error (3), said once, by the merge.
TEST_F(Cli, MutateMergeOfAMissingReportIsExit3) {
  const auto run = tlbf({"mutate", "--merge", path("absent.json")});
  EXPECT_EQ(run.rc, 3);
  EXPECT_EQ(run.err, "tlbf mutate --merge: cannot open " + path("absent.json").string() +
                         ": No such file or directory\n");
}

// The built-in reference is this binary, wherever it is: its path goes to
// /bin/sh quoted, whatever characters it holds.
TEST_F(Cli, CheckRunsTheBuiltInReferenceFromAnyPath) {
  const fs::path odd = path("it's $HOME and \"more\"\nline two");
  fs::create_directories(odd);
  fs::copy_file(TLBF_BINARY, odd / "tlbf");
  fs::permissions(odd / "tlbf", fs::perms::owner_all);
  const auto run = shell("unset TLBF_IMPL; " + quoted((odd / "tlbf").string()) +
                         " check --runs 0 --filter 'vectors/hash/*'");
  EXPECT_EQ(run.rc, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("verdict: conforms"), std::string::npos) << run.out;
}

// One that cannot start is named once, as the command it is (the built-in one holds quotes of its own).
// Too few file descriptors: with the fewest, tlbf cannot start the
// implementation at all; with a few more it can, but not the case that runs a
// process of its own, which used to declare the reference not conforming
// (exit 1, seen at ulimit -n 10 to 13). Where the limits fall depends on the
// build and the machine, so every limit up to plenty is tried: each run
// conforms or is a harness error, never a verdict against the implementation.
// Only that case is selected: the whole check, 17 times over in a sanitizer
// build on a loaded machine, could time out on its 16 MiB request instead.
TEST_F(Cli, CheckCallsAProcessItCannotMakeAHarnessError) {
  int harness_errors = 0, conforming = 0;
  for (int limit = 8; limit <= 24; ++limit) {
    const auto run =
        shell("unset TLBF_IMPL; ulimit -n " + std::to_string(limit) + "; " + quoted(TLBF_BINARY) +
              " check --runs 0 --filter 'protocol/framing/last_line_without_newline_answered'");
    if (run.rc == 0) {
      ++conforming;
      continue;
    }
    ++harness_errors;
    EXPECT_EQ(run.rc, 7) << "ulimit -n " << limit << "\n" << run.out << run.err;  // cannot run
    EXPECT_NE(run.err.find(
                  "tlbf check: harness error: tlbf could not make a process for the implementation: it could "
                  "not be started (cannot make a pipe: Too many open files)"),
              std::string::npos)
        << limit << run.err;
    EXPECT_NE(run.err.find("\n  its command: " + quoted(TLBF_BINARY) + " serve\n"), std::string::npos)
        << run.err;
    EXPECT_EQ(run.out.find("conform"), std::string::npos) << "a verdict on the implementation: " << run.out;
  }
  EXPECT_GT(harness_errors, 0) << "no limit was low enough to matter";
  EXPECT_GT(conforming, 0) << "even 24 file descriptors were too few";
}

// A command the shell cannot find is the implementation's, named once.
TEST_F(Cli, CheckNamesACommandThatCannotStart) {
  const auto run = shell(quoted(TLBF_BINARY) + " check --runs 0 --impl '/nonexistent/impl --serve'");
  EXPECT_EQ(run.rc, 7) << run.out << run.err;  // cannot run
  EXPECT_NE(run.err.find("tlbf check: cannot start the implementation: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("\n  its command: /nonexistent/impl --serve\n"), std::string::npos) << run.err;
}

// An interpreter that exits at once (its script is missing) never ran as an implementation: exit 7, not a
// verdict.
TEST_F(Cli, CheckCallsAnImplementationThatEndsBeforeItsFirstAnswerAHarnessError) {
  const auto run = shell(quoted(TLBF_BINARY) + " check --runs 0 --impl 'python3 /nonexistent/impl.py'");
  EXPECT_EQ(run.rc, 7) << run.out << run.err;
  EXPECT_NE(run.err.find("tlbf check: cannot start the implementation (it ended before its first answer): "),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("exited with status 2"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("can't open file"), std::string::npos) << "its stderr is shown\n" << run.err;
  EXPECT_EQ(run.out.find("does NOT conform"), std::string::npos) << run.out;
}

// A mistyped command or option gets the name it most likely meant.
TEST_F(Cli, MistypedCommandsAndOptionsGetASuggestion) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> typos = {
      {{"chek"}, "tlbf: no command 'chek'; did you mean 'tlbf check'?"},
      {{"grde", "class"}, "tlbf: no command 'grde'; did you mean 'tlbf grade'?"},
      {{"check", "--imp", "x"}, "tlbf check: no option '--imp'; did you mean '--impl'?"},
      {{"check", "--rust-crat", "."}, "tlbf check: no option '--rust-crat'; did you mean '--rust-crate'?"},
      {{"mutate", "--mutant", "s01", "--", "true"},
       "tlbf mutate: no option '--mutant'; did you mean '--mutants'?"},
  };
  for (const auto& [args, message] : typos) {
    const auto run = tlbf(args);
    EXPECT_EQ(run.rc, 2) << args[0];
    EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
  }
  // Nothing near: CLI11's own message.
  const auto far = tlbf({"frobnicate"});
  EXPECT_EQ(far.rc, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

// The implementation's command goes in --impl; words after `check` alone are pointed there.
TEST_F(Cli, CheckPointsStrayWordsAtImpl) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"check", "--", TLBF_BINARY, "serve"},
                                               std::vector<std::string>{"check", TLBF_BINARY, "serve"}}) {
    const auto run = tlbf(args);
    EXPECT_EQ(run.rc, 2) << run.out;
    EXPECT_NE(run.err.find("tlbf check: unexpected arguments '" + std::string(TLBF_BINARY) +
                           " serve': give the implementation's command as one word, --impl 'COMMAND'"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.out, "");
  }
}

TEST_F(Cli, CheckRefusesVectorFilesThatFailTheLint) {
  ASSERT_EQ(tlbf({"vectors", "generate", "--out", path("v")}).rc, 0);
  EXPECT_EQ(tlbf({"check", "--vectors", path("v")}).rc, 0);
  std::string text = slurp(path("v") / "tlbf_hash_v1.json");
  const auto at = text.find("cbf29ce484222325");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 16, "cbf29ce484222324");
  spit(path("v") / "tlbf_hash_v1.json", text);
  const auto r = tlbf({"check", "--vectors", path("v")});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("fail the lint"), std::string::npos) << r.err;
  EXPECT_EQ(tlbf({"vectors", "lint", path("v")}).rc, 1);
}

// A folder whose files are not those tlbf was built with: gutted, thinned
// with its counts edited to match, or reworded. Each passed both commands
// before; each now fails them, unless --own-vectors says the folder is the
// user's own (then only the lint's rules apply, and an empty file fails them).
TEST_F(Cli, VectorsLintAndCheckRefuseAFolderThatIsNotTheBuiltOne) {
  const auto edit = [&](const std::string& name, const std::function<void(nlohmann::ordered_json&)>& change) {
    auto doc = nlohmann::ordered_json::parse(slurp(path("v") / name));
    change(doc);
    spit(path("v") / name, doc.dump(1) + "\n");
  };
  const auto fresh = [&] {
    fs::remove_all(path("v"));
    ASSERT_EQ(tlbf({"vectors", "generate", "--out", path("v")}).rc, 0);
  };
  const std::string hint = "these are not the vector files this tlbf was built with; --own-vectors checks";
  struct Case {
    std::string what, said;
    std::function<void()> make;
    int own_lint;
  };
  const std::vector<Case> cases = {
      {"gutted", "tlbf_hash_v1.json: 0 tests where the built tlbf has 274",
       [&] {
         for (const auto& entry : fs::directory_iterator(path("v"))) {
           edit(entry.path().filename(), [](auto& d) {
             for (auto& group : d["testGroups"]) group["tests"] = nlohmann::ordered_json::array();
             d["numberOfTests"] = 0;
             d["notes"] = nlohmann::ordered_json::object();
           });
         }
       },
       1},
      {"two tests removed, counts edited", "tlbf_hash_v1.json: 272 tests where the built tlbf has 274",
       [&] {
         edit("tlbf_hash_v1.json", [](auto& d) {
           auto& tests = d["testGroups"][0]["tests"];
           tests.erase(tests.begin() + 5, tests.begin() + 7);
           d["numberOfTests"] = 272;
         });
       },
       0},
      {"a comment reworded",
       "tlbf_sizing_v1.json: contents differ from the vectors this tlbf was built with (SHA-256 ",
       [&] { edit("tlbf_sizing_v1.json", [](auto& d) { d["testGroups"][0]["tests"][0]["comment"] = "x"; }); },
       0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    fresh();
    c.make();
    const auto lint = tlbf({"vectors", "lint", path("v")});
    EXPECT_EQ(lint.rc, 1) << lint.out;
    EXPECT_NE(lint.out.find(c.said), std::string::npos) << lint.out;
    EXPECT_NE(lint.out.find(hint), std::string::npos) << lint.out;
    const auto check = tlbf({"check", "--vectors", path("v")});
    EXPECT_EQ(check.rc, 2) << check.err;
    EXPECT_NE(check.err.find("tlbf check: " + c.said), std::string::npos) << check.err;
    EXPECT_EQ(check.out, "");
    const auto own = tlbf({"vectors", "lint", "--own-vectors", path("v")});
    EXPECT_EQ(own.rc, c.own_lint) << own.out;
    if (c.own_lint == 0) {
      const auto checked =
          tlbf({"check", "--vectors", path("v"), "--own-vectors", "--filter", "vectors/hash/*"});
      EXPECT_EQ(checked.rc, 0) << checked.out << checked.err;
    } else {
      EXPECT_NE(own.out.find("tlbf_hash_v1.json: testGroups: no tests"), std::string::npos) << own.out;
    }
  }
  fresh();
  EXPECT_EQ(tlbf({"vectors", "lint", path("v")}).out,
            "vectors in " + path("v").string() + ": 474 tests, no problems\n");
  const auto needs = tlbf({"check", "--own-vectors"});
  EXPECT_EQ(needs.rc, 2);
  EXPECT_NE(needs.err.find("--own-vectors requires --vectors"), std::string::npos) << needs.err;
}

// A million arrays deep, and a key twice, in a vector file and in a report
// to merge: these crashed with SIGSEGV or were read as the last key said.
TEST_F(Cli, DeepAndDuplicateKeyJsonIsRefusedWithoutACrash) {
  ASSERT_EQ(tlbf({"vectors", "generate", "--out", path("v")}).rc, 0);
  const fs::path hash = path("v") / "tlbf_hash_v1.json";
  const std::string original = slurp(hash);
  std::string deep = original;
  deep.insert(deep.find("\"header\": [") + 11, std::string(1000000, '[') + std::string(1000000, ']') + ",");
  spit(hash, deep);
  const std::string too_deep = "tlbf_hash_v1.json: nested deeper than 8 levels at /header/0/0/0/0/0/0/0";
  const auto lint = tlbf({"vectors", "lint", path("v")});
  EXPECT_EQ(lint.rc, 1);
  EXPECT_NE(lint.out.find(too_deep), std::string::npos) << lint.out;
  const auto check = tlbf({"check", "--vectors", path("v")});
  EXPECT_EQ(check.rc, 2);
  EXPECT_NE(check.err.find(too_deep), std::string::npos) << check.err;

  std::string twice = original;
  twice.insert(twice.find("\"numberOfTests\""), "\"numberOfTests\": 1,\n ");
  spit(hash, twice);
  const auto dup = tlbf({"vectors", "lint", "--own-vectors", path("v")});
  EXPECT_EQ(dup.rc, 1);
  EXPECT_NE(dup.out.find("tlbf_hash_v1.json: the key \"numberOfTests\" appears twice in the object at /"),
            std::string::npos)
      << dup.out;
  EXPECT_EQ(tlbf({"check", "--vectors", path("v"), "--own-vectors"}).rc, 2);

  spit(path("deep.json"), std::string(1000000, '[') + std::string(1000000, ']'));
  const auto merge = tlbf({"mutate", "--merge", path("deep.json")});
  EXPECT_EQ(merge.rc, 2);
  EXPECT_NE(merge.err.find("deep.json: nested deeper than 8 levels at /0/0/0/0/0/0/0/0"), std::string::npos)
      << merge.err;
  spit(path("twice.json"), R"({"config": {}, "config": {}})");
  const auto merge_twice = tlbf({"mutate", "--merge", path("twice.json")});
  EXPECT_EQ(merge_twice.rc, 2);
  EXPECT_NE(merge_twice.err.find("the key \"config\" appears twice in the object at /"), std::string::npos)
      << merge_twice.err;
}

// A report is merged only with its durations and counts in range: a
// negative one went into the whole's times before.
TEST_F(Cli, MutateMergeRefusesANegativeDuration) {
  auto report = nlohmann::ordered_json::parse(R"({
    "schemaVersion": "2", "thresholds": {"high": 80, "low": 80},
    "files": {"f.py": {"language": "python", "source": "x = 1\n", "mutants": [
      {"id": "s01", "mutatorName": "PlantedBug",
       "location": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 6}},
       "status": "Killed", "statusReason": "failed", "duration": 120}]}},
    "framework": {"name": "tlbf mutate", "version": "test"},
    "performance": {"setup": 0, "initialRun": 100, "mutation": 240},
    "config": {"tool": "tlbf mutate", "mode": "served", "suite": ["true"], "threshold": 0.8,
      "require": ["s01"], "selected": ["s01"], "shard": null, "baselineRuns": 3, "baselinePasses": 3,
      "controlRuns": 2, "controlPasses": 2, "killed": 1, "ran": 1, "score": 1.0, "meets": true,
      "exitCode": 0, "stopped": null, "confirmRuns": 2}})");
  spit(path("r.json"), report.dump());
  const auto good = tlbf({"mutate", "--merge", path("r.json")});
  EXPECT_EQ(good.rc, 0) << good.out << good.err;
  report["files"]["f.py"]["mutants"][0]["duration"] = -1;
  spit(path("r.json"), report.dump());
  const auto bad = tlbf({"mutate", "--merge", path("r.json")});
  EXPECT_EQ(bad.rc, 2);
  EXPECT_EQ(bad.err,
            "tlbf mutate --merge: " + path("r.json").string() +
                ": files[\"f.py\"].mutants[0].duration is -1, not a duration in milliseconds in 0 ..= "
                "604800000 (a week)\n");
}

TEST_F(Cli, CheckExpectedFailuresCannotGoStale) {
  const std::string broken = TLBF_PYTHON3 " " TLBF_SOURCE_DIR "/conformance/tests/misbehaving_impl.py s05";
  // Record the failures, and the same run now passes.
  const auto update =
      tlbf({"check", "--impl", broken, "--expected", path("expected.txt"), "--update-expected"});
  EXPECT_EQ(update.rc, 0) << update.out;
  const std::string listed = slurp(path("expected.txt"));
  // Each failure with its reason, as far as tlbf's own numbers (docs/check.md, "Expected failures").
  EXPECT_NE(listed.find("vectors/union/UnionTest/1  # expected 'ok 544c4246"), std::string::npos) << listed;
  const auto again = tlbf({"check", "--impl", broken, "--expected", path("expected.txt")});
  EXPECT_EQ(again.rc, 0) << again.out;
  EXPECT_NE(again.out.find("as expected"), std::string::npos);

  // A listed case that passes, and a listed case that does not exist, fail the run.
  spit(path("expected.txt"), listed + "vectors/hash/Fnv1a64Test/1\nvectors/no/such/case  # gone\n");
  const auto stale = tlbf({"check", "--impl", broken, "--expected", path("expected.txt")});
  EXPECT_EQ(stale.rc, 1);
  EXPECT_NE(stale.out.find("UNEXPECTED PASS: vectors/hash/Fnv1a64Test/1"), std::string::npos) << stale.out;
  EXPECT_NE(stale.out.find("STALE ENTRY: vectors/no/such/case"), std::string::npos) << stale.out;

  // A listed case that fails for another reason than the listed one fails the run.
  std::string other = listed;
  const auto line = other.find("vectors/union/UnionTest/1 ");
  other.replace(line, other.find('\n', line) - line, "vectors/union/UnionTest/1  # expected 'ok 00'");
  spit(path("expected.txt"), other);
  const auto moved = tlbf({"check", "--impl", broken, "--expected", path("expected.txt")});
  EXPECT_EQ(moved.rc, 1) << moved.out;
  EXPECT_NE(
      moved.out.find("FAILED FOR ANOTHER REASON: vectors/union/UnionTest/1\n  listed: expected 'ok 00'\n"),
      std::string::npos)
      << moved.out;

  // An unlisted failure fails the run too.
  spit(path("expected.txt"), "# nothing expected\n");
  EXPECT_EQ(tlbf({"check", "--impl", broken, "--expected", path("expected.txt")}).rc, 1);
  EXPECT_EQ(tlbf({"check", "--update-expected"}).rc, 2);
}

TEST_F(Cli, CheckExpectedFailuresNeverCoverCasesNotRun) {
  // Issue 37: an implementation that stops itself mid-run (it exits at its
  // 60th request), with --faults 1, leaves most cases not run.
  const std::string stops = TLBF_PYTHON3 " " TLBF_SOURCE_DIR "/conformance/tests/misbehaving_impl.py crash";
  const auto update = tlbf(
      {"check", "--impl", stops, "--faults", "1", "--expected", path("expected.txt"), "--update-expected"});
  EXPECT_EQ(update.rc, 1) << update.out;
  EXPECT_NE(update.out.find(" not run\n"), std::string::npos) << update.out;
  EXPECT_NE(update.out.find("not recorded: "), std::string::npos) << update.out;
  const std::string listed = slurp(path("expected.txt"));
  EXPECT_NE(listed.find("cases did not run and are not listed"), std::string::npos) << listed;
  // Only the failure seen is listed: the case in flight when it exited.
  EXPECT_EQ(std::count(listed.begin(), listed.end(), '\n'), 4) << listed;

  const auto again = tlbf({"check", "--impl", stops, "--faults", "1", "--expected", path("expected.txt")});
  EXPECT_EQ(again.rc, 1) << again.out;
  EXPECT_NE(again.out.find("expected failures: 1 of 1 listed"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find(" cases (0 of them listed): a case that did not run"), std::string::npos)
      << again.out;
  EXPECT_NE(again.out.find("verdict with the expected failures: NOT as expected"), std::string::npos)
      << again.out;
}

TEST_F(Cli, CheckWritesJUnit) {
  const std::string broken = TLBF_PYTHON3 " " TLBF_SOURCE_DIR "/conformance/tests/misbehaving_impl.py s05";
  const auto r =
      tlbf({"check", "--impl", broken, "--filter", "vectors/union/*", "--junit", path("junit.xml")});
  EXPECT_EQ(r.rc, 1);
  const std::string xml = slurp(path("junit.xml"));
  EXPECT_NE(xml.find("<testcase classname=\"vectors.union.UnionTest\" name=\"1\"><failure message="),
            std::string::npos)
      << xml.substr(0, 600);
  EXPECT_NE(xml.find("<testcase classname=\"vectors.union.UnionTest\" name=\"6\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"session\" name=\"end_of_input\"/>"), std::string::npos);
}

// TAP as a TAP consumer reads it: Perl's TAP::Parser (the parser of prove), not tlbf's own words.
TEST_F(Cli, CheckWritesTapThatProveReads) {
  const std::string broken = TLBF_PYTHON3 " " TLBF_SOURCE_DIR "/conformance/tests/misbehaving_impl.py s05";
  const auto r = tlbf({"check", "--impl", broken, "--filter", "vectors/union/*", "--tap", path("check.tap")});
  EXPECT_EQ(r.rc, 1) << r.out;
  const auto parsed = shell(
      "perl -MTAP::Parser -e '$p = TAP::Parser->new({source => $ARGV[0]}); while ($r = $p->next) {} "
      "print join(\" \", $p->version, $p->tests_run, $p->is_good_plan ? \"good\" : \"bad\", "
      "$p->failed), \"\\n\"' " +
      quoted(path("check.tap")));
  // Nine union vectors and the session; s05 gets UnionTest/1, 2, 4 and 5 wrong (test points 1, 2, 4, 5).
  EXPECT_EQ(parsed.out, "13 10 good 1 2 4 5\n") << parsed.err << slurp(path("check.tap"));
  // One implementation's cases: with two --impl, a usage error, and no file.
  const auto two = tlbf({"check", "--impl", TLBF_BINARY " serve", "--impl", TLBF_BINARY " serve", "--tap",
                         path("two.tap"), "--filter", "vectors/hash/*"});
  EXPECT_EQ(two.rc, 2) << two.err;
  EXPECT_NE(two.err.find("--tap describes one implementation's cases; give one --impl"), std::string::npos)
      << two.err;
  EXPECT_FALSE(fs::exists(path("two.tap")));
}

TEST_F(Cli, CheckWritesAnHtmlPage) {
  const std::string broken = TLBF_PYTHON3 " " TLBF_SOURCE_DIR "/conformance/tests/misbehaving_impl.py s05";
  const auto r =
      tlbf({"check", "--impl", broken, "--filter", "vectors/union/*", "--html", path("check.html")});
  EXPECT_EQ(r.rc, 1) << r.out;
  const std::string html = slurp(path("check.html"));
  EXPECT_NE(html.find("<title>tlbf check: does NOT conform to TLBF v1</title>"), std::string::npos)
      << html.substr(0, 600);
  EXPECT_NE(html.find("<code>vectors/union/UnionTest/1</code>"), std::string::npos);
  // A page that cannot be written is the usual exit 3 of a file that cannot be written.
  EXPECT_EQ(tlbf({"check", "--filter", "vectors/union/*", "--html", path("no/such/folder/check.html")}).rc,
            3);
  // A replay has no page: asking for one is a usage error, not a page silently missing.
  spit(path("t.txt"), "> fnv1a64 636174\n< ok f5e307190ce4a327\n");
  EXPECT_EQ(tlbf({"check", "--transcript", path("t.txt"), "--html", path("replay.html")}).rc, 2);
  EXPECT_FALSE(fs::exists(path("replay.html")));
}

// Built with the viewer (npm found), `mutate --html` inlines it; else it says it is missing.
TEST_F(Cli, MutateWritesAnHtmlPageOrSaysWhyNot) {
  const std::vector<std::string> suite = {"--", TLBF_BINARY, "check", "--filter", "vectors/hash/*"};
  std::vector<std::string> args = {"mutate", "--mutants",        "s10", "--html", path("mutate.html"),
                                   "--json", path("mutate.json")};
  args.insert(args.end(), suite.begin(), suite.end());
  const auto r = tlbf(args);
  if (!TLBF_HAS_REPORT_VIEWER) {
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("cannot find mutation-test-elements.js"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("mutate.json"))) << "it stops before grading";
    return;
  }
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  const std::string html = slurp(path("mutate.html"));
  const std::string viewer = slurp(fs::path(TLBF_BINARY).parent_path() / "mutation-test-elements.js");
  EXPECT_NE(html.find("<script>\n" + viewer + "\n</script>"), std::string::npos)
      << "the viewer is inlined whole";
  EXPECT_NE(html.find("<mutation-test-report-app"), std::string::npos);
  EXPECT_NE(html.find("\"id\": \"s10\""), std::string::npos) << "the --json report is inlined";
  // Unwritable: exit 3, as for --json.
  args[4] = path("no/such/folder/mutate.html");
  EXPECT_EQ(tlbf(args).rc, 3);
  // A merge writes the page of the whole.
  const auto merged = tlbf({"mutate", "--merge", path("mutate.json"), "--html", path("merged.html")});
  EXPECT_EQ(merged.rc, 0) << merged.out << merged.err;
  EXPECT_NE(slurp(path("merged.html")).find("<mutation-test-report-app"), std::string::npos);
}

// The line (1-based) of a text.
std::string line_of(const std::string& text, int line) {
  std::istringstream in(text);
  std::string out;
  for (int i = 0; i < line && std::getline(in, out); ++i) {
  }
  return out;
}

// The fields the mutation-testing-elements schema (version 2) requires, with
// their types, checked on every mutant; returns the mutants by id.
std::map<std::string, nlohmann::json> mutants_of_report(const nlohmann::json& report) {
  EXPECT_EQ(report.at("schemaVersion"), "2");
  EXPECT_TRUE(report.at("thresholds").at("high").is_number_integer());
  EXPECT_TRUE(report.at("thresholds").at("low").is_number_integer());
  std::map<std::string, nlohmann::json> out;
  for (const auto& [file, entry] : report.at("files").items()) {
    EXPECT_TRUE(entry.at("language").is_string()) << file;
    EXPECT_TRUE(entry.at("source").is_string()) << file;
    for (const auto& m : entry.at("mutants")) {
      for (const char* key : {"id", "mutatorName", "status"}) EXPECT_TRUE(m.at(key).is_string()) << key;
      const std::set<std::string> statuses = {"Killed",       "Survived", "NoCoverage", "CompileError",
                                              "RuntimeError", "Timeout",  "Ignored",    "Pending"};
      EXPECT_TRUE(statuses.count(m.at("status").get<std::string>())) << m.at("status");
      for (const char* end : {"start", "end"}) {
        EXPECT_GE(m.at("location").at(end).at("line").get<int>(), 1);
        EXPECT_GE(m.at("location").at(end).at("column").get<int>(), 1);
      }
      nlohmann::json with_file = m;
      with_file["file"] = file;
      with_file["source"] = entry.at("source");
      out[m.at("id").get<std::string>()] = with_file;
    }
  }
  return out;
}

TEST_F(Cli, MutateGradesTlbfCheckTenOfTen) {
  // The default check's cases, to the first that fails: a kill is the same kill, for a third of
  // the CPU (each mutant's kill is confirmed six times, by a whole check each until then).
  const auto r =
      tlbf({"mutate", "--json", path("mutants.json"), "--", TLBF_BINARY, "check", "--max-failures", "1"});
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("score: 10/10 = 1.00"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("SURVIVED"), std::string::npos) << r.out;
  // The report points each mutant at its switch in the oracle's source.
  const auto report = nlohmann::json::parse(slurp(path("mutants.json")));
  EXPECT_EQ(report.at("thresholds").at("high"), 80);
  EXPECT_EQ(report.at("config").at("killed"), 10);
  const auto mutants = mutants_of_report(report);
  ASSERT_EQ(mutants.size(), 10U);
  for (const auto& [id, m] : mutants) {
    EXPECT_EQ(m.at("status"), "Killed") << id;
    const std::string line = line_of(m.at("source"), m.at("location").at("start").at("line"));
    EXPECT_NE(line.find("TLBF_MUTANT(" + id + ")"), std::string::npos) << id << ": " << line;
    EXPECT_EQ(m.at("source"), slurp(std::string(TLBF_SOURCE_DIR) + "/" + m.at("file").get<std::string>()))
        << id;
  }
}

// Patch mode on the bundled Python implementation and its unittest suite.
struct PatchMode : Cli {
  const std::string python = std::string(TLBF_SOURCE_DIR) + "/conformance/impls/python";
  const std::string patches = std::string(TLBF_SOURCE_DIR) + "/mutants/patches/python";
  const std::string sanity = std::string(TLBF_SOURCE_DIR) + "/mutants/patches/python-sanity.patch";
  void SetUp() override {
    Cli::SetUp();
    fs::create_directories(path("tmp"));
    ::setenv("TMPDIR", path("tmp").c_str(),
             1);  // the scratch copies go here, so the test can see them removed
  }
  void TearDown() override {
    ::unsetenv("TMPDIR");
    Cli::TearDown();
  }
  bool scratch_is_gone() const { return fs::is_empty(path("tmp")); }
};

TEST_F(PatchMode, GradesThePythonSuiteTenOfTen) {
  const auto r =
      tlbf({"mutate", "--patches", patches, "--workdir", python, "--sanity-patch", sanity, "--json",
            path("report.json"), "--", "python3", "-m", "unittest", "-q", "test_tlbf_impl"});
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("score: 10/10 = 1.00"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("it fails with the sanity patch"), std::string::npos) << r.out;
  EXPECT_TRUE(scratch_is_gone());
  // Each mutant's location is the line its patch removes or replaces.
  const auto mutants = mutants_of_report(nlohmann::json::parse(slurp(path("report.json"))));
  ASSERT_EQ(mutants.size(), 10U);
  const auto& s01 = mutants.at("s01");
  EXPECT_EQ(s01.at("file"), "tlbf_impl.py");
  EXPECT_EQ(s01.at("status"), "Killed");
  // The bundled patches have no preamble: the catalog describes them.
  EXPECT_EQ(s01.at("description"), "s01: Flooring m instead of taking the ceiling (in tlbf_impl.py)");
  EXPECT_NE(line_of(s01.at("source"), s01.at("location").at("start").at("line")).find("math.ceil(ideal)"),
            std::string::npos);
  EXPECT_NE(s01.at("replacement").get<std::string>().find("math.floor(ideal)"), std::string::npos);
}

TEST_F(PatchMode, FailsAWeakSuiteAndAUselessOne) {
  // The hash tests alone catch FNV-1 (s10) and nothing else.
  const auto weak = tlbf({"mutate", "--patches", patches, "--workdir", python, "--", "python3", "-m",
                          "unittest", "-q", "test_tlbf_impl.HashTest"});
  EXPECT_EQ(weak.rc, 1) << weak.out << weak.err;
  EXPECT_NE(weak.out.find("score: 1/10 = 0.10"), std::string::npos) << weak.out;
  EXPECT_NE(weak.out.find("s10    killed"), std::string::npos) << weak.out;
  EXPECT_NE(weak.out.find("required mutants not killed: s01 s02 s03 s04 s05 s06 s07 s08 s09"),
            std::string::npos)
      << weak.out;
  // A suite that tests nothing passes with the module broken on purpose.
  const auto useless =
      tlbf({"mutate", "--patches", patches, "--workdir", python, "--sanity-patch", sanity, "--", "true"});
  EXPECT_EQ(useless.rc, 4) << useless.out;
  EXPECT_NE(
      useless.out.find("the suite passes even against the work directory with python-sanity.patch applied"),
      std::string::npos)
      << useless.out;
  EXPECT_TRUE(scratch_is_gone());
}

TEST_F(PatchMode, ReportsATestOnlyMutantThatNeverEndsAsATimeout) {
  // hang.patch makes fnv1a64 loop forever; the suite must be stopped at its bound.
  const std::string hang_dir = std::string(TLBF_SOURCE_DIR) + "/mutants/tests/patches";
  // No control runs: at a bound of one baseline time a clean run may time out on a loaded machine.
  const auto r = tlbf({"mutate", "--patches", hang_dir, "--workdir", python, "--require", "hang",
                       "--timeout-floor", "1", "--timeout-factor", "1", "--control-runs", "0", "--",
                       "python3", "-c", "import tlbf_impl; tlbf_impl.fnv1a64(b'x')"});
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("hang   timeout"), std::string::npos) << r.out;
  // At its bound (the warm-up's time plus the baseline's, at least 1 s), twice: a timeout is confirmed.
  EXPECT_NE(r.out.find(" ms, twice"), std::string::npos) << r.out;
  EXPECT_EQ(std::system("pgrep -f '^python3 -c import tlbf_impl; tlbf_impl.fnv1a64' > /dev/null"), 256)
      << "the looping mutant outlived its run";
  EXPECT_TRUE(scratch_is_gone());
}

TEST_F(PatchMode, APatchThatDoesNotApplyMakesTheGradingUngradableNotWeak) {
  // The Python patches against the Rust implementation's folder: there is no tlbf_impl.py to patch.
  const auto r = tlbf({"mutate", "--patches", patches, "--workdir",
                       std::string(TLBF_SOURCE_DIR) + "/conformance/impls/fxbloom", "--mutants", "s01",
                       "--require", "s01", "--", "true"});
  EXPECT_EQ(r.rc, 7) << r.out << r.err;  // not 1, "falls short": a stale patch says nothing of the suite
  EXPECT_NE(r.out.find("the run of s01 could not happen"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s01.patch does not apply"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("score:"), std::string::npos) << r.out;
}

TEST_F(PatchMode, RefusesABadCommandLine) {
  EXPECT_EQ(tlbf({"mutate", "--patches", patches, "--", "true"}).rc, 2);  // no --workdir
  EXPECT_EQ(tlbf({"mutate", "--patches", path("nowhere"), "--workdir", python, "--", "true"}).rc, 2);
  EXPECT_EQ(tlbf({"mutate", "--sanity-patch", sanity, "--", "true"}).rc, 2);  // not in patch mode
  const auto missing =
      tlbf({"mutate", "--patches", std::string(TLBF_SOURCE_DIR) + "/mutants/tests/patches", "--workdir",
            python, "--", "true"});  // s01..s10 required, and only hang.patch there
  EXPECT_EQ(missing.rc, 2);
  EXPECT_NE(missing.err.find("no mutant 's01' (no s01.patch in"), std::string::npos) << missing.err;
}

TEST_F(Cli, MutateFailsAWeakSuiteAndNamesTheSurvivors) {
  // Only the hash vectors: FNV-1 (s10) is caught, nothing else is.
  const auto r = tlbf({"mutate", "--", TLBF_BINARY, "check", "--filter", "vectors/hash/*"});
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("score: 1/10 = 0.10"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s01    SURVIVED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s10    killed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("required mutants not killed: s01 s02 s03 s04 s05 s06 s07 s08 s09"), std::string::npos)
      << r.out;
  // The same suite meets a bar that asks only for what it catches.
  EXPECT_EQ(tlbf({"mutate", "--threshold", "0.1", "--require", "s10", "--", TLBF_BINARY, "check", "--filter",
                  "vectors/hash/*"})
                .rc,
            0);
}

TEST_F(Cli, MutateStopsOnABrokenOrUselessSuite) {
  const auto failing = tlbf({"mutate", "--", "sh", "-c", "echo the suite is broken; exit 5"});
  EXPECT_EQ(failing.rc, 8) << failing.out;
  EXPECT_NE(failing.out.find("the suite is broken"), std::string::npos) << failing.out;
  const auto useless = tlbf({"mutate", "--", "true"});
  EXPECT_EQ(useless.rc, 4) << useless.out;
  EXPECT_NE(useless.out.find("not testing the implementation"), std::string::npos) << useless.out;
  EXPECT_EQ(tlbf({"mutate", "--mutants", "s42", "--", "true"}).rc, 2);
  EXPECT_EQ(tlbf({"mutate", "--shard", "3/2", "--", "true"}).rc, 2);
}

TEST_F(Cli, MutateReportsASuiteThatHangsOnAMutantAsATimeout) {
  // A suite that never ends when it meets s03, and must be stopped, sleep and all.
  const std::string suite =
      std::string("if [ \"$TLBF_MUTANT\" = s03 ]; then exec sleep 3597; fi; exec ") + TLBF_BINARY + " check";
  // No control runs: a clean run (a whole tlbf check) at a bound of one baseline time would time out on a
  // loaded machine, and a control that times out twice makes the grading flaky.
  const auto r = tlbf({"mutate", "--reveal-mutant", "--mutants", "s02,s03", "--timeout-floor", "1",
                       "--timeout-factor", "1", "--control-runs", "0", "--", "sh", "-c", suite});
  EXPECT_EQ(r.rc, 0) << r.out << r.err;  // required mutants that were not run are not held against it
  EXPECT_NE(r.out.find("s03    timeout"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("score: 2/2 = 1.00"), std::string::npos) << r.out;  // a timeout counts as killed
  // pgrep's pattern must not match the shell that runs it, hence the anchors.
  EXPECT_EQ(std::system("pgrep -f '^sleep 3597$' > /dev/null"), 256) << "the hanging suite outlived its run";
}

// The planted bugs' ids, as mutants/catalog.json lists them (through CMake).
std::vector<std::string> planted_bugs() {
  std::vector<std::string> ids;
  std::istringstream in(TLBF_MUTANT_IDS);
  for (std::string id; std::getline(in, id, ',');) ids.push_back(id);
  return ids;
}

TEST_F(Cli, MutateShards) {
  std::string all;
  // One baseline, control and run a mutant: the shards are under test, not the confirming
  // runs (the Scorer.* tests'), which with the defaults made it 75 checks instead of 16.
  for (const char* k : {"1/3", "2/3", "3/3"}) {
    const auto r = tlbf({"mutate", "--shard", k, "--baseline-runs", "1", "--control-runs", "1",
                         "--confirm-runs", "1", "--", TLBF_BINARY, "check", "--runs", "0"});
    EXPECT_EQ(r.rc, 0) << r.out;
    all += r.out;
  }
  // Together the shards run every mutant exactly once.
  for (const auto& id : planted_bugs()) {
    std::size_t count = 0;
    for (std::size_t at = 0; (at = all.find(std::string("\n") + id + "    killed", at)) != std::string::npos;
         ++at)
      ++count;
    EXPECT_EQ(count, 1U) << id << "\n" << all;
  }
}

TEST_F(Cli, BuildAndQueryAcrossManyBatchesAgreeWithTheScalarOracle) {
  // More lines than one batch holds (4096), and a last batch that is not full.
  std::string inserted, asked;
  for (int i = 0; i < 9000; ++i) {
    (i % 2 ? asked : inserted) += "paragraph " + std::to_string(i) + "\n";
  }
  asked += inserted;  // every inserted item is asked for too
  spit(path("inserted"), inserted);
  spit(path("asked"), asked);
  const auto built =
      tlbf({"build", "--n", "4500", "--p", "0.01", "-o", path("f.tlbf"), "--stats", path("inserted")});
  ASSERT_EQ(built.rc, 0) << built.err;
  EXPECT_NE(built.err.find("tlbf build: 4500 items in "), std::string::npos) << built.err;
  EXPECT_NE(built.err.find(" items/s"), std::string::npos) << built.err;
  const auto queried = tlbf({"query", path("f.tlbf"), path("asked"), "--stats"});
  ASSERT_EQ(queried.rc, 0) << queried.err;
  EXPECT_NE(queried.err.find("tlbf query: 9000 items in "), std::string::npos) << queried.err;

  // Built one insert at a time by the library, the filter is the same file.
  tlbf::Bloom expected = tlbf::Bloom::with_rate(4500, 0.01).value();
  std::istringstream lines(inserted);
  for (std::string line; std::getline(lines, line);) expected.insert(line);
  const auto file = expected.to_bytes();
  EXPECT_EQ(slurp(path("f.tlbf")), std::string(file.begin(), file.end()));
  // And the answers are contains', line by line.
  std::istringstream items(asked), answers(queried.out);
  std::size_t n = 0;
  for (std::string item, answer; std::getline(items, item); ++n) {
    ASSERT_TRUE(std::getline(answers, answer)) << n;
    EXPECT_EQ(answer, expected.contains(item) ? "present" : "absent") << item;
  }
  EXPECT_EQ(n, 9000U);
  std::string extra;
  EXPECT_FALSE(std::getline(answers, extra)) << extra;
}

TEST_F(Cli, QuerySplitsLinesAsReadLineDoesAcrossChunks) {
  // Lines longer than the 1 MiB chunk, a CRLF line, an empty line, and a last line with no newline.
  ASSERT_EQ(tlbf({"build", "--n", "4", "--p", "0.1", "-o", path("f.tlbf")}, "cat\ndog\n").rc, 0);
  const std::string input = std::string(3'000'000, 'x') + "\ncat\r\n\n" + std::string(1 << 20, 'y') + "\ndog";
  const auto r = tlbf({"query", path("f.tlbf")}, input);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "absent\npresent\nabsent\nabsent\npresent\n");
}

TEST_F(Cli, QueryReadsAFilterFromAPipe) {
  // Not a regular file: read as it comes instead of by its size.
  ASSERT_EQ(tlbf({"build", "--n", "4", "--p", "0.1", "-o", path("f.tlbf")}, "cat\ndog\n").rc, 0);
  spit(path("items"), "cat\nbird\n");
  const std::string command = "cat " + quoted(path("f.tlbf")) + " | " + quoted(TLBF_BINARY) +
                              " query /dev/stdin " + quoted(path("items")) + " > " + quoted(path("answers"));
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_EQ(slurp(path("answers")), "present\nabsent\n");
}

TEST_F(Cli, CheckReplaysTranscripts) {
  // The fuzzer's reproducer for s09: a truncated file that must be refused.
  spit(path("s09.transcript"),
       "# a truncated worked example\n"
       "> from_bytes f 544c4246010000001400000000000000030000000000000002000000000000000968\n"
       "< err Format\n");
  const auto oracle = tlbf({"check", "--transcript", path("s09.transcript")});
  EXPECT_EQ(oracle.rc, 0) << oracle.out << oracle.err;
  EXPECT_NE(oracle.out.find("PASS " + path("s09.transcript").string() + " (1 requests)"), std::string::npos)
      << oracle.out;
  const auto mutant = tlbf({"check", "--impl", std::string(TLBF_BINARY) + " serve --mutant s09",
                            "--transcript", path("s09.transcript")});
  EXPECT_EQ(mutant.rc, 1) << mutant.out;
  EXPECT_NE(mutant.out.find(".transcript:2: 'from_bytes f 544c"), std::string::npos) << mutant.out;
  EXPECT_NE(mutant.out.find("expected err Format, got 'ok'"), std::string::npos) << mutant.out;
  spit(path("broken.transcript"), "> hello\n> hello\n");
  EXPECT_EQ(tlbf({"check", "--transcript", path("broken.transcript")}).rc, 2);
  EXPECT_EQ(tlbf({"check", "--transcript", path("missing.transcript")}).rc, 2);
}

TEST_F(Cli, CheckWritesJson) {
  const auto r = tlbf({"check", "--filter", "vectors/union/*", "--json", path("report.json")});
  EXPECT_EQ(r.rc, 0);
  const std::string json = slurp(path("report.json"));
  EXPECT_NE(json.find("\"conforms\": true"), std::string::npos) << json.substr(0, 300);
  EXPECT_NE(json.find("\"name\": \"vectors/union/UnionTest/9\""), std::string::npos);
}

}  // namespace
