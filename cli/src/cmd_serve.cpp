// tlbf serve: the oracle as a line protocol v1 endpoint on stdin/stdout.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <functional>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "mutant_binary.hpp"
#include "tlbf/conformance/alternatives.hpp"
#include "tlbf/mutants/catalog.hpp"
#include "tlbf/protocol/serve.hpp"
#include "tlbf/protocol/oracle_session.hpp"

namespace tlbf::cli {
namespace {

// The mutant build is a separate binary (the production oracle carries no
// mutant), so serving a mutant means becoming it.
int run_mutant(const std::string& id) {
  if (mutants::find(id) == nullptr) {
    std::cerr << "tlbf serve: no mutant '" << id << "'; `tlbf mutants list` names them\n";
    return kUsage;
  }
  const auto candidates = mutant_binary_candidates();
  const auto found = std::find_if(candidates.begin(), candidates.end(),
                                  [](const auto& p) { return std::filesystem::exists(p); });
  if (found == candidates.end()) {
    std::cerr << "tlbf serve: cannot find tlbf-mutant, the mutant build of the oracle";
    if (candidates.empty()) std::cerr << ": this program's own path (/proc/self/exe) cannot be read";
    for (std::size_t i = 0; i < candidates.size(); ++i)
      std::cerr << (i == 0 ? "; looked at " : " and ") << candidates[i];
    std::cerr << "\n";
    return kCannotRun;
  }
  const std::string path = found->string();
  char* argv[] = {const_cast<char*>(path.c_str()), const_cast<char*>(id.c_str()), nullptr};
  ::execv(path.c_str(), argv);
  std::cerr << "tlbf serve: cannot run " << path << ": " << std::strerror(errno) << "\n";
  return kCannotRun;
}

// Answers standard input on standard output until the input ends: kOk, or
// kIo having said why the requests could not be read or answered.
int serve_stdio(protocol::LineHandler& handler) {
  // A peer that stops reading must make write() fail, not kill us unreported.
  std::signal(SIGPIPE, SIG_IGN);
  const auto served = protocol::serve_lines(STDIN_FILENO, STDOUT_FILENO, handler);
  return served ? kOk : fail_with(kIo, "tlbf serve", served.failure());
}

// The same for a handler that takes each line whole.
int serve_stdio(const std::function<std::string(std::string_view)>& handle) {
  std::signal(SIGPIPE, SIG_IGN);
  const auto served = protocol::serve_lines(STDIN_FILENO, STDOUT_FILENO, handle);
  return served ? kOk : fail_with(kIo, "tlbf serve", served.failure());
}

// The session reads each line as it arrives: a 64 MiB line is never held whole.
int run_serve() {
  protocol::OracleSession session;
  return serve_stdio(session);
}

// The alternatives wheat (docs/mutants.md): `seed`, 1 to 16 hex digits,
// chooses its answers. It answers hello as tlbf-mutant does, so that it
// looks like every other subject served in the oracle's form.
// With `notes`, each request it answers otherwise than the oracle is
// appended there as a line, REQUEST TAB ANSWER TAB FLAG TAB ALLOWS, for tlbf
// grade's report (one write a line, so that runs at once do not mix lines).
int run_alternatives(const std::string& seed, const std::string& notes) {
  const bool hex = !seed.empty() && seed.size() <= 16 &&
                   seed.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
  if (!hex) {
    std::cerr << "tlbf serve: --alternatives takes a seed of 1 to 16 hex digits, not '" << seed << "'\n";
    return kUsage;
  }
  conformance::AlternativesSession session(std::stoull(seed, nullptr, 16),
                                           "ok 1 tlbf-oracle " TLBF_VERSION_STRING "-mutant");
  const int fd = notes.empty() ? -1 : ::open(notes.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  std::size_t noted = 0;
  const int rc = serve_stdio([&](std::string_view line) {
    std::string answer = session.handle(line);
    for (; fd >= 0 && noted < session.taken().size(); ++noted) {
      const auto& t = session.taken()[noted];
      const std::string note = t.request + "\t" + t.answer + "\t" + t.flag + "\t" + t.allows + "\n";
      (void)!::write(fd, note.data(), note.size());
    }
    return answer;
  });
  if (fd >= 0) ::close(fd);
  return rc;
}

}  // namespace

void add_serve(CLI::App& app, int& rc) {
  auto mutant = std::make_shared<std::string>();
  auto refuse_all = std::make_shared<bool>(false);
  auto alternatives = std::make_shared<std::string>();
  auto notes = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "serve", "Answer line protocol v1 requests on stdin/stdout with the oracle (docs/protocol.md)");
  cmd->footer(exit_footer({{kOk, "the input ended"},
                           {kUsage, "usage, or no such mutant"},
                           {kIo, "an answer cannot be written"},
                           {kCannotRun, "tlbf-mutant, the mutant build, cannot be found or run"}},
                          "docs/protocol.md"));
  cmd->add_option("--mutant", *mutant, "Serve planted bug sNN instead of the oracle (docs/mutants.md)")
      ->check(kNotEmpty);
  cmd->add_flag(
      "--refuse-all", *refuse_all,
      "Answer every request with an error: what a test suite must fail against (tlbf mutate's sanity check)");
  cmd->add_option(
         "--alternatives", *alternatives,
         "Serve the alternatives wheat: where docs/check.md allows several answers, another than the "
         "oracle's, chosen by a hash of the request and this seed (hex digits; docs/mutants.md)")
      ->check(kNotEmpty);
  cmd->add_option("--notes", *notes,
                  "With --alternatives: append each request answered otherwise than the oracle to this file")
      ->check(kNotEmpty);
  add_version(*cmd);
  cmd->callback([mutant, refuse_all, alternatives, notes, &rc] {
    if (!notes->empty() && alternatives->empty()) {
      std::cerr << "tlbf serve: --notes goes with --alternatives\n";
      rc = kUsage;
      return;
    }
    if (!alternatives->empty()) {
      rc = run_alternatives(*alternatives, *notes);
      return;
    }
    if (*refuse_all) {
      rc = serve_stdio([](std::string_view) {
        return std::string("err Protocol this implementation refuses every request");
      });
      return;
    }
    rc = mutant->empty() ? run_serve() : run_mutant(*mutant);
  });
}

void add_mutants(CLI::App& app, int& rc) {
  CLI::App* cmd =
      app.add_subcommand("mutants", "The planted bugs " + mutants::id_range() + " (docs/mutants.md)");
  cmd->require_subcommand(1);
  add_version(*cmd);
  CLI::App* list = cmd->add_subcommand("list", "Print each mutant's id, place and description");
  add_version(*list);
  list->callback([&rc] {
    for (const auto& m : mutants::catalog()) {
      std::cout << m.id << "  " << m.file << " (" << m.function << ")  " << m.description << "\n";
    }
    rc = kOk;
  });
  auto id = std::make_shared<std::string>();
  CLI::App* diff =
      cmd->add_subcommand("diff", "Print a mutant's change as a unified diff of the oracle source");
  diff->footer(
      exit_footer({{kOk, "the diff is printed"}, {kUsage, "usage, or no such mutant"}}, "docs/mutants.md"));
  diff->add_option("id", *id, "A mutant, " + mutants::id_range())->required();
  add_version(*diff);
  diff->callback([id, &rc] {
    const auto* m = mutants::find(*id);
    if (m == nullptr) {
      std::cerr << "tlbf mutants diff: no mutant '" << *id << "'; `tlbf mutants list` names them\n";
      rc = kUsage;
      return;
    }
    std::cout << mutants::unified_diff(*m);
    rc = kOk;
  });
}

}  // namespace tlbf::cli
