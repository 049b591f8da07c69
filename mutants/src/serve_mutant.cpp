// tlbf-mutant: the oracle's protocol endpoint built against the mutant build.
//   tlbf-mutant [sNN]           serves mutant sNN (else the one TLBF_MUTANT names); `tlbf serve --mutant` runs this
//   tlbf-mutant --choice-fd N   serves what fd N says: nothing (the clean oracle), refuse-all, or sNN
//   tlbf-mutant --connect SOCK  carries stdin and stdout to and from a socket of tlbf mutate, which
//                               chooses what is served there (docs/mutants.md, "What a suite can see")
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "tlbf/mutant_switch.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/protocol/serve.hpp"
#include "tlbf/protocol/session.hpp"

namespace {

int usage() {
  std::cerr << "usage: tlbf-mutant [sNN] | --choice-fd N | --connect SOCKET   (line protocol v1 with a mutant of the oracle)\n";
  return 2;
}

// What tlbf mutate chose, read to the end of the pipe: always
// tlbf::mutants::kChoiceWidth bytes, padded with spaces, so that the reads
// (which /proc/PID/io counts) are the same whatever was chosen.
bool read_choice(const char* fd_text, std::string& choice) {
  char* end = nullptr;
  const long fd = std::strtol(fd_text, &end, 10);
  if (*fd_text == '\0' || *end != '\0' || fd < 0) return false;
  char buffer[64];
  for (ssize_t n; (n = ::read(static_cast<int>(fd), buffer, sizeof buffer)) != 0;) {
    if (n < 0) return false;
    choice.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(static_cast<int>(fd));
  choice.erase(choice.find_last_not_of(' ') + 1);
  return true;
}

int serve_oracle() {
  std::signal(SIGPIPE, SIG_IGN);
  tlbf::protocol::OracleSession session;
  return tlbf::protocol::serve_lines(STDIN_FILENO, STDOUT_FILENO,
                                     [&](std::string_view line) { return session.handle(line); });
}

}  // namespace

int main(int argc, char** argv) {
  // Not dumpable: another process of the same user (the suite under grading)
  // cannot read this one's memory, environment, file descriptors or I/O
  // counts in /proc, where what it serves could be read instead of tested.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  if (argc > 3 || (argc == 2 && std::strcmp(argv[1], "--help") == 0)) return usage();
  if (argc == 3 && std::strcmp(argv[1], "--connect") == 0) return tlbf::mutants::relay(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "--choice-fd") == 0) {
    std::string choice;
    if (!read_choice(argv[2], choice)) return usage();
    if (choice == "refuse-all") {
      std::signal(SIGPIPE, SIG_IGN);
      return tlbf::protocol::serve_lines(STDIN_FILENO, STDOUT_FILENO, [](std::string_view) {
        return std::string("err Protocol this implementation refuses every request");
      });
    }
    // Set in this process only, after it started: its environment as the
    // system shows it (/proc/PID/environ) never names the mutant.
    ::setenv("TLBF_MUTANT", choice.c_str(), 1);
  } else if (argc == 3) {
    return usage();
  } else if (argc == 2) {
    ::setenv("TLBF_MUTANT", argv[1], 1);
  }
  (void)tlbf::mutants::active();  // a bad name stops here, before any request, with status 2
  return serve_oracle();
}
