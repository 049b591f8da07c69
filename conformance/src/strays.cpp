// end_strays, and the table of live children that tells a stray from a
// Child: a stray is a child of this process that is neither a Child nor the
// watchdog, which only orphans become, this process being a subreaper.
#include "tlbf/conformance/strays.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "descendants.hpp"
#include "live_children.hpp"
#include "watchdog.hpp"

namespace tlbf::conformance {
namespace {

// The children started by Child::start and not yet reaped: any other child
// of this process is a stray (see end_strays).
std::mutex g_live_mutex;
std::set<pid_t> g_live;

// This process's children, from every thread's list (an orphan is handed to
// one thread of its new parent).
std::set<pid_t> children_of_this_process() {
  std::set<pid_t> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    const int fd = ::open((task.path() / "children").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
      text.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    std::istringstream in(text);
    for (pid_t pid; in >> pid;) out.insert(pid);
  }
  return out;
}

}  // namespace

void note_live(pid_t pid) {
  std::lock_guard<std::mutex> lock(g_live_mutex);
  g_live.insert(pid);
}

void note_reaped(pid_t pid) {
  std::lock_guard<std::mutex> lock(g_live_mutex);
  g_live.erase(pid);
}

int end_strays() {
  int ended = 0;
  // A killed stray's own children become ours in turn: a few rounds.
  for (int round = 0; round < 16; ++round) {
    std::vector<pid_t> strays;
    {
      std::lock_guard<std::mutex> lock(g_live_mutex);
      for (pid_t pid : children_of_this_process()) {
        if (pid != watchdog::pid() && !g_live.count(pid)) strays.push_back(pid);
      }
    }
    if (strays.empty()) break;
    // By pid, each stray and all under it, whatever groups or sessions they
    // moved to; then its group, when it leads one (what setsid makes).
    for (pid_t pid : strays) {
      const bool leader = ::getpgid(pid) == pid;
      descendants::end_tree(pid, true, watchdog::pid());
      if (leader) ::kill(-pid, SIGKILL);
    }
    for (pid_t pid : strays) {
      // SIGKILL ends it at once, unless it is inside an uninterruptible
      // wait; then it is left a zombie, still ours, for a later call.
      for (int i = 0; i < 100 && ::waitpid(pid, nullptr, WNOHANG) == 0; ++i) ::usleep(2000);
      ++ended;
    }
  }
  return ended;
}

}  // namespace tlbf::conformance
