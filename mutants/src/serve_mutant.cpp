// tlbf-mutant: the oracle's protocol endpoint built against the mutant build.
//   tlbf-mutant [sNN]           serves mutant sNN (else the one TLBF_MUTANT names); `tlbf serve --mutant`
//   runs this tlbf-mutant --choice-from SOCK  serves what tlbf mutate's socket SOCK tells the child this
//   forks:
//                               nothing (the clean oracle), refuse-all, or sNN
//   tlbf-mutant --connect SOCK  carries stdin and stdout to and from a socket of tlbf mutate, which
//                               chooses what is served there (docs/mutants.md, "What a suite can see")
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

#include "tlbf/mutant_switch.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/protocol/serve.hpp"
#include "tlbf/protocol/oracle_session.hpp"

namespace {

int usage() {
  std::cerr << "usage: tlbf-mutant [sNN] | --choice-from SOCKET | --connect SOCKET   (line protocol v1 with "
               "a mutant of the oracle)\n";
  return 2;
}

// What tlbf mutate chose, asked of its socket and read to the end:
// always tlbf::mutants::kChoiceWidth bytes, padded with spaces, so that the
// reads (which /proc/PID/io counts) are the same whatever was chosen. None
// when the socket cannot be reached or read, or says something else.
std::optional<std::string> ask_choice(const char* socket_path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (std::strlen(socket_path) >= sizeof(address.sun_path)) return std::nullopt;
  std::strcpy(address.sun_path, socket_path);
  const int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0 || ::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0)
    return std::nullopt;
  std::string choice;
  char buffer[64];
  for (ssize_t n; (n = ::read(sock, buffer, sizeof buffer)) != 0;) {
    if (n < 0) return std::nullopt;
    choice.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(sock);
  if (choice.size() != tlbf::mutants::kChoiceWidth) return std::nullopt;
  choice.erase(choice.find_last_not_of(' ') + 1);
  return choice;
}

// Waits for the child that serves and ends as it did.
int wait_for(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return 2;
  }
  if (WIFSIGNALED(status)) {
    std::signal(WTERMSIG(status), SIG_DFL);
    ::raise(WTERMSIG(status));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

// Answers standard input on standard output until the input ends: 0, or 3
// (tlbf serve's io) having said why the requests could not be read or answered.
// Each line is handed over as it arrives, as tlbf serve does: a 64 MiB line
// is never held whole (docs/protocol.md, section 1).
int serve_stdio(tlbf::protocol::LineHandler& handler) {
  std::signal(SIGPIPE, SIG_IGN);
  const auto served = tlbf::protocol::serve_lines(STDIN_FILENO, STDOUT_FILENO, handler);
  if (served) return 0;
  std::cerr << "tlbf serve: " << served.why() << "\n";
  return 3;
}

// The refuse-all subject: every line is refused, and none of it kept.
class RefuseAll final : public tlbf::protocol::LineHandler {
 public:
  void add(std::string_view) override {}
  std::string finish() override { return "err Protocol this implementation refuses every request"; }
  void abandon() override {}
};

int serve_oracle() {
  tlbf::protocol::OracleSession session;
  return serve_stdio(session);
}

}  // namespace

int main(int argc, char** argv) {
  // Not dumpable: another process of the same user (the suite under grading)
  // cannot read this one's memory, environment, file descriptors or I/O
  // counts in /proc, where what it serves could be read instead of tested.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  if (argc > 3 || (argc == 2 && std::strcmp(argv[1], "--help") == 0)) return usage();
  if (argc == 3 && std::strcmp(argv[1], "--connect") == 0) return tlbf::mutants::relay(argv[2]);
  if (argc == 3 && std::strcmp(argv[1], "--choice-from") == 0) {
    // This process was dumpable from its exec until the prctl above: a
    // process of the same user could have opened its memory or taken its file
    // descriptors then, and kept them. So the choice is never read here. The
    // child below has memory of its own, non-dumpable from its first instant,
    // and is the only process tlbf mutate tells (hidden.cpp).
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) return 2;
    if (child > 0) {
      // Its standard input and output are the child's now.
      ::close(STDIN_FILENO);
      ::close(STDOUT_FILENO);
      return wait_for(child);
    }
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);  // ended with the served process when tlbf mutate ends it
    if (::getppid() != parent) return 2;
    const std::optional<std::string> choice = ask_choice(argv[2]);
    if (!choice) return 2;
    if (*choice == "refuse-all") {
      RefuseAll refuse;
      return serve_stdio(refuse);
    }
    // Set in this process only, after it started: its environment as the
    // system shows it (/proc/PID/environ) never names the mutant.
    ::setenv("TLBF_MUTANT", choice->c_str(), 1);
  } else if (argc == 3) {
    return usage();
  } else if (argc == 2) {
    ::setenv("TLBF_MUTANT", argv[1], 1);
  }
  // A bad name stops here, before any request.
  const auto chosen = tlbf::mutants::mutant_from_environment();
  if (!chosen.ok()) {
    std::cerr << chosen.why() << "\n";
    return 2;
  }
  tlbf::mutants::set_active(chosen.value());
  return serve_oracle();
}
