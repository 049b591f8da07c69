// tlbf serve: the oracle as a line protocol v1 endpoint on stdin/stdout.
#include <unistd.h>

#include <csignal>

#include "commands.hpp"
#include "tlbf/protocol/serve.hpp"
#include "tlbf/protocol/session.hpp"

namespace tlbf::cli {
namespace {

int run_serve() {
  // A peer that stops reading must make write() fail, not kill us unreported.
  std::signal(SIGPIPE, SIG_IGN);
  protocol::OracleSession session;
  return protocol::serve_lines(STDIN_FILENO, STDOUT_FILENO,
                               [&](std::string_view line) { return session.handle(line); });
}

}  // namespace

void add_serve(CLI::App& app, int& rc) {
  CLI::App* cmd = app.add_subcommand(
      "serve", "Answer line protocol v1 requests on stdin/stdout with the oracle (docs/protocol.md)");
  add_version(*cmd);
  cmd->callback([&rc] { rc = run_serve(); });
}

}  // namespace tlbf::cli
