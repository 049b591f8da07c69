// tlbf-mutant: the oracle's protocol endpoint built against the mutant build.
// `tlbf serve --mutant sNN` runs it; it serves the mutant named by its argument,
// or else by TLBF_MUTANT (docs/mutants.md).
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "tlbf/mutant_switch.hpp"
#include "tlbf/protocol/serve.hpp"
#include "tlbf/protocol/session.hpp"

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && std::strcmp(argv[1], "--help") == 0)) {
    std::cerr << "usage: tlbf-mutant [sNN]   (serves line protocol v1 with mutant sNN of the oracle)\n";
    return 2;
  }
  if (argc == 2) ::setenv("TLBF_MUTANT", argv[1], 1);
  (void)tlbf::mutants::active();  // a bad name stops here, before any request, with status 2
  std::signal(SIGPIPE, SIG_IGN);
  tlbf::protocol::OracleSession session;
  return tlbf::protocol::serve_lines(STDIN_FILENO, STDOUT_FILENO,
                                     [&](std::string_view line) { return session.handle(line); });
}
