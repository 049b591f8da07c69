// tlbf: the TLBF v1 oracle and conformance harness. Subcommands are thin
// wrappers over the libraries; docs/cli.md documents each and the exit codes.
#include <CLI/CLI.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <iostream>
#include <new>

#include "commands.hpp"

namespace tlbf::cli {

void add_version(CLI::App& app) {
  app.set_version_flag("--version", "tlbf " TLBF_VERSION_STRING " (TLBF format v1)");
}

const CLI::Validator kUnsigned64(
    [](std::string& text) -> std::string {
      std::uint64_t value = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        return "'" + text + "' is not a decimal integer in 0 ..= 18446744073709551615";
      }
      return {};
    },
    "UINT64");

// Every subcommand writes standard output through stdio (std::cout is
// synchronised with it), so a write that failed (a full disk, a closed
// descriptor, a reader that left) shows in stdout's error flag, at the
// latest when it is flushed here. A run that had already failed keeps its
// code; one that had not gets `failed_code`.
int with_output_flushed(int rc, int failed_code) {
  errno = 0;
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || !std::cout;
  if (!failed) return rc;
  const int why = errno;
  // A reader that left a pipe chose to stop reading: no message for it.
  struct stat out {};
  const bool to_pipe = ::fstat(STDOUT_FILENO, &out) == 0 && (S_ISFIFO(out.st_mode) || S_ISSOCK(out.st_mode));
  if (why != EPIPE && !to_pipe && rc != kIo) {
    std::cerr << "tlbf: cannot write standard output: " << (why != 0 ? std::strerror(why) : "write error") << "\n";
  }
  return rc == kOk ? failed_code : rc;
}

}  // namespace tlbf::cli

int main(int argc, char** argv) {
  using namespace tlbf::cli;
  // A file size limit (ulimit -f) then fails the write with EFBIG, which is
  // reported as exit 3 naming the file, instead of killing tlbf mid-file.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"tlbf: reference implementation and test harness for the TLBF v1 Bloom filter format"};
  app.name("tlbf");
  app.require_subcommand(1);
  add_version(app);

  int rc = kOk;
  add_inspect(app, rc);
  add_build(app, rc);
  add_query(app, rc);
  add_serve(app, rc);
  add_mutants(app, rc);
  add_mutate(app, rc);
  add_vectors(app, rc);
  add_check(app, rc);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive here too, with exit code 0.
    rc = app.exit(e) == 0 ? kOk : kUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << "tlbf: out of memory\n";
    return kFailed;
  } catch (const std::exception& e) {
    std::cerr << "tlbf: stopped by an unexpected error: " << e.what() << "\n";
    return kFailed;
  }
  // mutate's 3 means its suite failed on the clean code; a report it cannot write is its 2.
  return with_output_flushed(rc, app.got_subcommand("mutate") ? kUsage : kIo);
}
