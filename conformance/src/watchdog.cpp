// The watchdog process and what tlbf tells it. What it promises is in
// watchdog.hpp; this file is the only one that talks to it.
#include "watchdog.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "descendants.hpp"

namespace tlbf::conformance::watchdog {
namespace {

// A watchdog outlives the harness by a moment, so that what the harness
// started dies with it however it ends, SIGKILL included. It is forked
// before the first child, holds the read end of a pipe whose only writer is
// the harness, and keeps the table of the children's process groups that the
// harness sends it. Every kLookEveryMs it also reads the harness's whole
// process tree by pid (with each process's start time, so that a reused pid
// is never taken for it): a process that left its group and its session is
// still in that tree while the harness lives, the harness being a child
// subreaper. When the pipe reads end of file, the harness is gone: the
// watchdog kills every group in its table and, by pid, every process it last
// saw under the harness with all that is under it now, then exits. It sits
// in a session of its own, so that a kill aimed at the harness's group (a
// Ctrl-C, or a grader that runs the harness and kills what it started) or a
// terminal's hang-up cannot take it first. After fork it uses only
// async-signal-safe calls: the harness may have threads.
constexpr int kMaxChildren = 256;
constexpr long kLookEveryMs = 100;

struct Message {
  // '+' a group to kill at the end, '-' one that is gone; 'd' a folder to
  // remove at the end, 'f' one to forget, whose path (pgid bytes) follows.
  char op;
  pid_t pgid;
};

// The watchdog's tables, in memory it owns after fork (no allocation there).
char g_folders[kMaxFolders][kMaxFolderPath + 1];
pid_t g_seen[descendants::kMaxTree];
unsigned long long g_seen_started[descendants::kMaxTree];
int g_seen_count = 0;

bool same_path(const char* a, const char* b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}

long long now_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
}

// The harness's tree as it is now, in place of the last one; a process seen
// before keeps the start time read then.
__attribute__((no_sanitize("address", "undefined"))) void look_at_tree(pid_t harness) {
  pid_t tree[descendants::kMaxTree];
  unsigned long long started[descendants::kMaxTree];
  const int count = descendants::tree_under(harness, tree, descendants::kMaxTree, false, ::getpid());
  for (int i = 0; i < count; ++i) {
    started[i] = 0;
    for (int j = 0; j < g_seen_count && started[i] == 0; ++j) {
      if (g_seen[j] == tree[i]) started[i] = g_seen_started[j];
    }
    if (started[i] == 0) started[i] = descendants::start_time(tree[i]);
  }
  for (int i = 0; i < count; ++i) g_seen[i] = tree[i], g_seen_started[i] = started[i];
  g_seen_count = count;
}

__attribute__((no_sanitize("address", "undefined"))) void end_what_was_seen() {
  for (int i = 0; i < g_seen_count; ++i) {
    if (g_seen_started[i] != 0 && descendants::start_time(g_seen[i]) == g_seen_started[i])
      descendants::end_tree(g_seen[i], true, ::getpid());
  }
}

// One message from the harness into the tables; false when the pipe is done.
__attribute__((no_sanitize("address", "undefined"))) bool take_message(pid_t* groups) {
  Message m{};
  const ssize_t n = ::read(3, &m, sizeof m);
  if (n < 0 && errno == EINTR) return true;
  if (n != static_cast<ssize_t>(sizeof m)) return false;  // end of file: the harness is gone
  if (m.op == 'd' || m.op == 'f') {
    char path[kMaxFolderPath + 1];
    const std::size_t size = static_cast<std::size_t>(m.pgid);
    if (size > kMaxFolderPath || ::read(3, path, size) != static_cast<ssize_t>(size)) return false;
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
    return true;
  }
  for (int i = 0; i < kMaxChildren; ++i) {
    if (m.op == '+' && groups[i] == 0) {
      groups[i] = m.pgid;
      break;
    }
    if (m.op == '-' && groups[i] == m.pgid) {
      groups[i] = 0;
      break;
    }
  }
  return true;
}

// Not instrumented by the sanitizers: after a fork from a process with
// threads, their bookkeeping may hold locks that will never be released.
[[noreturn]] __attribute__((no_sanitize("address", "undefined"))) void watch(int control, pid_t harness) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU})
    ::signal(sig, SIG_IGN);
  ::setsid();
  // Nothing of the harness's but the pipe, as fd 3: a watchdog holding the
  // harness's output open would make `tlbf check | cat` wait for it.
  if (control != 3) ::dup2(control, 3);
  const int null = ::open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; ++fd) {
    if (null >= 0 && null != fd) ::dup2(null, fd);
  }
  ::close_range(4, ~0U, 0);
  pid_t groups[kMaxChildren] = {};
  for (long long looked = 0;;) {
    if (now_ms() - looked >= kLookEveryMs) {
      look_at_tree(harness);
      looked = now_ms();
    }
    pollfd p{3, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(kLookEveryMs));
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0 && !take_message(groups)) break;
  }
  for (pid_t group : groups) {
    if (group > 0) ::kill(-group, SIGKILL);
  }
  end_what_was_seen();
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

// What the harness has told the watchdog, kept to tell a new one when the
// first is killed (an implementation can kill it: it runs as the same user).
std::mutex g_mutex;
int g_watchdog = -1;  // the harness's end of the pipe; -1 until the first child
std::atomic<pid_t> g_watchdog_pid{-1};
std::multiset<pid_t> g_groups;
std::set<std::string> g_kept_folders;

bool write_whole(const std::string& message) {
  ssize_t n;
  while ((n = ::write(g_watchdog, message.data(), message.size())) < 0 && errno == EINTR) {
  }
  return n == static_cast<ssize_t>(message.size());
}

std::string message_of(char op, pid_t pgid, const std::string& folder = "") {
  std::string out(sizeof(Message), '\0');
  const Message m{op, pgid};
  std::memcpy(out.data(), &m, sizeof m);
  return out + folder;
}

// Forks a watchdog and tells it all that is kept; g_mutex held.
bool fork_watchdog() {
  int control[2];
  if (::pipe2(control, O_CLOEXEC) != 0) return false;
  const pid_t harness = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) watch(control[0], harness);
  ::close(control[0]);
  if (pid < 0) {
    ::close(control[1]);
    return false;
  }
  if (g_watchdog >= 0) ::close(g_watchdog);
  g_watchdog = control[1];  // close-on-exec: no child may hold it, or end of file never comes
  g_watchdog_pid = pid;
  // Smaller than PIPE_BUF each, so a write is whole or fails whole.
  for (pid_t group : g_groups) (void)write_whole(message_of('+', group));
  for (const auto& folder : g_kept_folders)
    (void)write_whole(message_of('d', static_cast<pid_t>(folder.size()), folder));
  return true;
}

// A thread that waits for the watchdog: should it be stopped (SIGSTOP, as
// an implementation of the same user can), it continues it at once; should
// it die while the harness lives, it starts another.
void keep_watchdog_alive() {
  for (;;) {
    const pid_t pid = g_watchdog_pid;
    int status = 0;
    const pid_t got = ::waitpid(pid, &status, WUNTRACED);
    if (got < 0 && errno == EINTR) continue;
    if (got == pid && WIFSTOPPED(status)) {
      ::kill(pid, SIGCONT);
      continue;
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!fork_watchdog()) return;
  }
}

// SIGINT, SIGTERM, SIGHUP and SIGQUIT end what the harness started, by pid,
// then the harness, as the signal would have (SA_RESETHAND): its children sit
// in sessions of their own, where a terminal's Ctrl-C does not reach.
void end_descendants_and_die(int sig) {
  const int saved = errno;
  descendants::end_tree(::getpid(), false, g_watchdog_pid.load());
  ::kill(g_watchdog_pid.load(), SIGCONT);  // a stopped watchdog would never read the end of its pipe
  ::raise(sig);
  errno = saved;
}

void install_ending_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction ending {};
    ending.sa_handler = end_descendants_and_die;
    ending.sa_flags = static_cast<int>(SA_RESETHAND);
    sigemptyset(&ending.sa_mask);
    ::sigaction(sig, &ending, nullptr);
  }
  // A normal end too: nothing started outlives the harness's exit.
  std::atexit([] {
    descendants::end_tree(::getpid(), false, g_watchdog_pid.load());
    ::kill(g_watchdog_pid.load(), SIGCONT);
  });
}

void tell_watchdog(char op, pid_t pgid) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_watchdog < 0) return;
  if (op == '+') g_groups.insert(pgid);
  if (op == '-' && g_groups.count(pgid)) g_groups.erase(g_groups.find(pgid));
  (void)write_whole(message_of(op, pgid));
}

bool start_watchdog_once() {
  static const bool done = [] {
    // Writes to a child that quit must fail with EPIPE, not kill the harness
    // (ignoring SIGPIPE is what every harness of pipes does).
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, nullptr);
    // Orphans of our children's trees (a daemon, a setsid'd grandchild)
    // become our children rather than init's, so that end_strays and the
    // watchdog's look at our tree find them.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      if (!fork_watchdog()) return false;
    }
    std::thread(keep_watchdog_alive).detach();
    install_ending_handlers();
    return true;
  }();
  return done;
}

bool tell_watchdog_folder(char op, const std::string& folder) {
  if (!start_watchdog_once() || folder.empty() || folder.size() > kMaxFolderPath) return false;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (op == 'd') g_kept_folders.insert(folder);
  if (op == 'f') g_kept_folders.erase(folder);
  return write_whole(message_of(op, static_cast<pid_t>(folder.size()), folder));
}

}  // namespace

bool start_once() { return start_watchdog_once(); }
pid_t pid() { return g_watchdog_pid.load(); }
void watch_group(pid_t pgid) { tell_watchdog('+', pgid); }
void forget_group(pid_t pgid) { tell_watchdog('-', pgid); }
bool watch_folder(const std::string& folder) { return tell_watchdog_folder('d', folder); }
bool forget_folder(const std::string& folder) { return tell_watchdog_folder('f', folder); }

}  // namespace tlbf::conformance::watchdog
