#include "tlbf/conformance/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <csignal>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

extern char** environ;

namespace tlbf::conformance {
namespace {

using Clock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

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
constexpr int kMaxFolders = 16;
constexpr std::size_t kMaxFolderPath = 4000;  // with its header, one write under PIPE_BUF: whole or not at all

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
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU}) ::signal(sig, SIG_IGN);
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

// The children started by Child::start and not yet reaped: any other child
// of this process is a stray (see end_strays).
std::mutex g_live_mutex;
std::set<pid_t> g_live;

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

namespace {

// A stream's text, bounded: its first `half` bytes and its last `half`,
// with a line saying how much of the middle was not kept. A suite may write
// gigabytes; what a report needs is its start and its end.
class Kept {
 public:
  explicit Kept(std::size_t half) : half_(half) {}

  void append(const char* bytes, std::size_t n) {
    const std::size_t to_head = std::min(n, half_ - std::min(half_, head_.size()));
    head_.append(bytes, to_head);
    if (to_head == n) return;
    tail_.append(bytes + to_head, n - to_head);
    if (tail_.size() > 2 * half_) {
      dropped_ += tail_.size() - half_;
      tail_.erase(0, tail_.size() - half_);
    }
  }

  std::string text() const {
    if (dropped_ == 0) return head_ + tail_;
    return head_ + "\n[... " + std::to_string(dropped_) + " bytes of output not kept ...]\n" + tail_;
  }

 private:
  std::size_t half_;
  std::string head_, tail_;
  std::size_t dropped_ = 0;
};

// Appends what is available on a non-blocking fd, up to 1 MiB a call; false
// at end of file or error.
bool drain(int fd, Kept& into) {
  char buf[1 << 16];
  // At most 1 MiB a call, so that a writer faster than us cannot keep us
  // here without bound before the caller checks the time.
  for (std::size_t taken = 0; taken < (1U << 20);) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      into.append(buf, static_cast<std::size_t>(n));
      taken += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    return false;
  }
  return true;
}

// All that is left on an fd whose writer has exited. Bounded too: a
// grandchild may hold the pipe and go on writing.
void drain_rest(int fd, Kept& into) {
  for (int round = 0; round < 64; ++round) {
    if (!drain(fd, into)) return;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return;
  }
}

}  // namespace

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string last_lines(const std::string& text, std::size_t count) {
  std::size_t at = text.size();
  if (at > 0 && text[at - 1] == '\n') --at;  // the final newline ends the last line
  for (std::size_t seen = 0; at > 0; --at) {
    if (text[at - 1] == '\n' && ++seen == count) break;
  }
  return text.substr(at);
}

std::unique_ptr<Child> Child::start(const std::string& command, std::string* why) {
  start_watchdog_once();
  const auto fail = [why](const char* what, int error) {
    if (why) *why = std::string(what) + ": " + std::strerror(error);
    return nullptr;
  };
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return fail("cannot make a pipe", errno);
  if (::pipe2(out, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(in[0]), ::close(in[1]);
    return fail("cannot make a pipe", error);
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    return fail("cannot make a pipe", error);
  }
  // A larger pipe for requests, where the system allows it (Linux's default
  // cap is 1 MiB): a 16 MiB request then goes in 16 writes, not 256, each
  // waking the implementation once. Without it, all still works, slower.
  ::fcntl(in[1], F_SETPIPE_SZ, 1 << 20);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A group of its own, so that grandchildren can be ended with it; default
  // handling of SIGPIPE and SIGXFSZ, which the harness ignores.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGXFSZ);  // tlbf ignores it to report EFBIG as an error
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);

  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (spawned != 0) {
    ::close(in[1]), ::close(out[0]), ::close(err[0]);
    return fail("cannot start /bin/sh", spawned);
  }
  std::unique_ptr<Child> child(new Child());
  child->pid_ = pid;
  tell_watchdog('+', pid);
  {
    std::lock_guard<std::mutex> lock(g_live_mutex);
    g_live.insert(pid);
  }
  child->in_ = in[1];
  child->out_ = out[0];
  child->err_ = err[0];
  set_nonblocking(child->in_);
  set_nonblocking(child->out_);
  set_nonblocking(child->err_);
  return child;
}

Child::~Child() { finish(true); }

void Child::close_input() { close_fd(in_); }
void Child::close_output() { close_fd(out_); }
void Child::close_errors() { close_fd(err_); }

bool Child::has_exited() const {
  if (reaped_) return true;
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
}

Ending Child::finish(bool kill_first) {
  if (reaped_) return ending_;
  close_fd(in_);
  // The child is reaped only after its group is killed: while it is a zombie
  // its pid, and so the group id, cannot be taken by another process.
  if (kill_first) ::kill(-pid_, SIGKILL);
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  ::kill(-pid_, SIGKILL);  // grandchildren too
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid_, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  ending_.max_rss_kib = usage.ru_maxrss;
  close_fd(out_);
  close_fd(err_);
  tell_watchdog('-', pid_);
  {
    std::lock_guard<std::mutex> lock(g_live_mutex);
    g_live.erase(pid_);
  }
  reaped_ = true;
  if (WIFEXITED(status)) ending_.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) ending_.signal = WTERMSIG(status);
  return ending_;
}

std::string RunResult::how_it_ended() const {
  if (!started) return "could not be started" + (start_error.empty() ? "" : " (" + start_error + ")");
  if (timed_out) return "timed out and was killed";
  if (signal != 0) return "killed by signal " + std::to_string(signal);
  return "exit " + std::to_string(exit_code);
}

RunResult run_with_input(const std::string& command, const std::string& input,
                         std::chrono::milliseconds limit, std::size_t keep) {
  RunResult result;
  Kept out(keep / 2), err(keep / 2);
  const auto child = Child::start(command, &result.start_error);
  if (!child) return result;
  result.started = true;
  const auto deadline = Clock::now() + limit;
  std::size_t written = 0;
  if (input.empty()) child->close_input();

  while (!child->has_exited()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    std::array<pollfd, 3> fds{{{child->output(), POLLIN, 0}, {child->errors(), POLLIN, 0}, {child->input(), POLLOUT, 0}}};
    // With both outputs closed there is nothing to wait on but the exit.
    const bool outputs_open = child->output() >= 0 || child->errors() >= 0;
    const long long wait_ms = outputs_open ? std::min<long long>(left.count(), 50) : 1;
    if (::poll(fds.data(), fds.size(), static_cast<int>(wait_ms)) < 0 && errno != EINTR) break;
    if (fds[0].revents && !drain(child->output(), out)) child->close_output();
    if (fds[1].revents && !drain(child->errors(), err)) child->close_errors();
    if (child->input() >= 0 && fds[2].revents) {
      const ssize_t n = ::write(child->input(), input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) child->close_input();
    }
  }
  // What the child wrote before it exited is in the pipes now; a grandchild
  // that kept them open gets no more time.
  if (child->output() >= 0) drain_rest(child->output(), out);
  if (child->errors() >= 0) drain_rest(child->errors(), err);
  result.out = out.text();
  result.err = err.text();
  const Ending ending = child->finish(true);
  if (!result.timed_out) {
    result.exit_code = ending.exit_code;
    result.signal = ending.signal;
  }
  result.max_rss_kib = ending.max_rss_kib;
  return result;
}

namespace {

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
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    std::istringstream in(text);
    for (pid_t pid; in >> pid;) out.insert(pid);
  }
  return out;
}

// The folders promised to the watchdog and not yet forgotten, as it keeps them.
std::mutex g_folders_mutex;
std::set<std::string> g_promised;

std::string absolute_path(const std::string& folder) {
  std::error_code ec;
  const auto path = std::filesystem::absolute(folder, ec);
  return ec ? folder : path.string();
}

}  // namespace

bool remove_folder_if_tlbf_dies(const std::string& folder) {
  const std::string path = absolute_path(folder);  // the watchdog's folder is where tlbf started
  std::lock_guard<std::mutex> lock(g_folders_mutex);
  if (g_promised.size() >= kMaxFolders || g_promised.count(path) || !tell_watchdog_folder('d', path)) return false;
  g_promised.insert(path);
  return true;
}

void forget_folder(const std::string& folder) {
  const std::string path = absolute_path(folder);
  std::lock_guard<std::mutex> lock(g_folders_mutex);
  if (g_promised.erase(path)) (void)tell_watchdog_folder('f', path);
}

int end_strays() {
  int ended = 0;
  // A killed stray's own children become ours in turn: a few rounds.
  for (int round = 0; round < 16; ++round) {
    std::vector<pid_t> strays;
    {
      std::lock_guard<std::mutex> lock(g_live_mutex);
      for (pid_t pid : children_of_this_process()) {
        if (pid != g_watchdog_pid && !g_live.count(pid)) strays.push_back(pid);
      }
    }
    if (strays.empty()) break;
    for (pid_t pid : strays) {
      if (::getpgid(pid) == pid) ::kill(-pid, SIGKILL);  // a group leader (setsid): its group too
      ::kill(pid, SIGKILL);
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
