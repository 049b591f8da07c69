// The watchdog process and what tlbf tells it. What it promises is in
// watchdog.hpp; this file is the only one that talks to it.
#include "watchdog.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace tlbf::conformance::watchdog {
namespace {

// A watchdog outlives the harness by a moment, so that children die with it
// however it ends, SIGKILL included. It is forked once, before the first
// child, holds the read end of a pipe whose only writer is the harness, and
// keeps the table of the children's process groups that the harness sends it.
// When the pipe reads end of file, the harness is gone: the watchdog kills
// every group still in its table, then exits. It sits in a process group of
// its own, so that a kill aimed at the harness's group (a Ctrl-C, or a grader
// that runs the harness and kills what it started) cannot take it first.
// After fork it uses only async-signal-safe calls: the harness may have threads.
constexpr int kMaxChildren = 256;

struct Message {
  // '+' a group to kill at the end, '-' one that is gone; 'd' a folder to
  // remove at the end, 'f' one to forget, whose path (pgid bytes) follows.
  char op;
  pid_t pgid;
};

// The watchdog's folders, in memory it owns after fork (no allocation there).
char g_folders[kMaxFolders][kMaxFolderPath + 1];

bool same_path(const char* a, const char* b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}

// Not instrumented by the sanitizers: after a fork from a process with
// threads, their bookkeeping may hold locks that will never be released.
[[noreturn]] __attribute__((no_sanitize("address", "undefined"))) void watch(int control) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU})
    ::signal(sig, SIG_IGN);
  ::setpgid(0, 0);
  // Nothing of the harness's but the pipe, as fd 3: a watchdog holding the
  // harness's output open would make `tlbf check | cat` wait for it.
  if (control != 3) ::dup2(control, 3);
  const int null = ::open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; ++fd) {
    if (null >= 0 && null != fd) ::dup2(null, fd);
  }
  ::close_range(4, ~0U, 0);
  pid_t groups[kMaxChildren] = {};
  Message m{};
  for (;;) {
    const ssize_t n = ::read(3, &m, sizeof m);
    if (n < 0 && errno == EINTR) continue;
    if (n != static_cast<ssize_t>(sizeof m)) break;  // end of file: the harness is gone
    if (m.op == 'd' || m.op == 'f') {
      char path[kMaxFolderPath + 1];
      const std::size_t size = static_cast<std::size_t>(m.pgid);
      if (size > kMaxFolderPath || ::read(3, path, size) != static_cast<ssize_t>(size)) break;
      path[size] = '\0';
      for (auto& slot : g_folders) {
        if (m.op == 'd' && slot[0] == '\0') {
          for (std::size_t i = 0; i <= size; ++i) slot[i] = path[i];
          break;
        }
        if (m.op == 'f' && slot[0] != '\0' && same_path(slot, path)) {
          slot[0] = '\0';
          break;
        }
      }
      continue;
    }
    for (pid_t& slot : groups) {
      if (m.op == '+' && slot == 0) {
        slot = m.pgid;
        break;
      }
      if (m.op == '-' && slot == m.pgid) {
        slot = 0;
        break;
      }
    }
  }
  for (pid_t group : groups) {
    if (group > 0) ::kill(-group, SIGKILL);
  }
  // Then the folders: the processes that wrote in them are dead.
  const char* argv[kMaxFolders + 4] = {"rm", "-rf", "--"};
  int argc = 3;
  for (const auto& slot : g_folders) {
    if (slot[0] != '\0') argv[argc++] = slot;
  }
  argv[argc] = nullptr;
  if (argc > 3) ::execv("/bin/rm", const_cast<char* const*>(argv));
  ::_exit(0);
}

// The harness's end of the watchdog's pipe; -1 until the first child.
int g_watchdog = -1;
pid_t g_watchdog_pid = -1;

void tell_watchdog(char op, pid_t pgid) {
  if (g_watchdog < 0) return;
  const Message m{op, pgid};
  // Smaller than PIPE_BUF, so the write is whole or fails whole.
  while (::write(g_watchdog, &m, sizeof m) < 0 && errno == EINTR) {
  }
}

bool start_watchdog_once() {
  static const bool done = [] {
    // Writes to a child that quit must fail with EPIPE, not kill the harness
    // (ignoring SIGPIPE is what every harness of pipes does).
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, nullptr);
    // Orphans of our children's trees (a daemon, a setsid'd grandchild)
    // become our children rather than init's, so that end_strays finds them.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    int control[2];
    if (::pipe2(control, O_CLOEXEC) != 0) return false;
    const pid_t pid = ::fork();
    if (pid == 0) watch(control[0]);
    ::close(control[0]);
    if (pid < 0) {
      ::close(control[1]);
      return false;
    }
    g_watchdog = control[1];  // close-on-exec: no child may hold it, or end of file never comes
    g_watchdog_pid = pid;
    return true;
  }();
  return done;
}

bool tell_watchdog_folder(char op, const std::string& folder) {
  if (!start_watchdog_once() || folder.empty() || folder.size() > kMaxFolderPath) return false;
  std::string message(sizeof(Message), '\0');
  const Message m{op, static_cast<pid_t>(folder.size())};
  std::memcpy(message.data(), &m, sizeof m);
  message += folder;
  ssize_t n;
  while ((n = ::write(g_watchdog, message.data(), message.size())) < 0 && errno == EINTR) {
  }
  return n == static_cast<ssize_t>(message.size());
}

}  // namespace

bool start_once() { return start_watchdog_once(); }
pid_t pid() { return g_watchdog_pid; }
void watch_group(pid_t pgid) { tell_watchdog('+', pgid); }
void forget_group(pid_t pgid) { tell_watchdog('-', pgid); }
bool watch_folder(const std::string& folder) { return tell_watchdog_folder('d', folder); }
bool forget_folder(const std::string& folder) { return tell_watchdog_folder('f', folder); }

}  // namespace tlbf::conformance::watchdog
