#include "tlbf/conformance/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>

extern char** environ;

namespace tlbf::conformance {
namespace {

using Clock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// The process groups of the children alive now, so that a harness stopped by
// SIGINT, SIGTERM or SIGHUP takes them down with it. A fixed table of atomics:
// the handler may only touch async-signal-safe state.
constexpr int kMaxChildren = 64;
std::atomic<pid_t> g_live_groups[kMaxChildren];

void remember_group(pid_t pgid) {
  for (auto& slot : g_live_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid)) return;
  }
}

void forget_group(pid_t pgid) {
  for (auto& slot : g_live_groups) {
    pid_t mine = pgid;
    if (slot.compare_exchange_strong(mine, 0)) return;
  }
}

extern "C" void kill_children_and_die(int sig) {
  for (auto& slot : g_live_groups) {
    const pid_t pgid = slot.load();
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Writes to a child that quit must fail with EPIPE, not kill the harness
// (ignoring SIGPIPE is what every harness of pipes does); and a harness that
// is stopped must not leave its children running.
void install_handlers_once() {
  static const bool done = [] {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, nullptr);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction current {};
      ::sigaction(sig, nullptr, &current);
      if (current.sa_handler == SIG_IGN) continue;  // a caller that ignores it keeps ignoring it
      struct sigaction stop {};
      stop.sa_handler = kill_children_and_die;
      ::sigaction(sig, &stop, nullptr);
    }
    return true;
  }();
  (void)done;
}

}  // namespace

bool drain(int fd, std::string& into) {
  char buf[1 << 16];
  // At most 1 MiB a call, so that a writer faster than us cannot keep us
  // here (or grow the buffer) without bound before the caller checks it.
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

void drain_rest(int fd, std::string& into) {
  for (std::size_t before = into.size() + 1; into.size() != before;) {
    before = into.size();
    if (!drain(fd, into)) return;
  }
}

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

std::unique_ptr<Child> Child::start(const std::string& command) {
  install_handlers_once();
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return nullptr;
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]);
    return nullptr;
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    return nullptr;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A group of its own, so that grandchildren can be ended with it; default
  // handling of SIGPIPE, which the harness ignores.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
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
    return nullptr;
  }
  std::unique_ptr<Child> child(new Child());
  child->pid_ = pid;
  remember_group(pid);
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
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  close_fd(out_);
  close_fd(err_);
  forget_group(pid_);
  reaped_ = true;
  if (WIFEXITED(status)) ending_.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) ending_.signal = WTERMSIG(status);
  return ending_;
}

std::string RunResult::how_it_ended() const {
  if (!started) return "could not be started";
  if (timed_out) return "timed out and was killed";
  if (signal != 0) return "killed by signal " + std::to_string(signal);
  return "exit " + std::to_string(exit_code);
}

RunResult run_with_input(const std::string& command, const std::string& input,
                         std::chrono::milliseconds limit) {
  RunResult result;
  const auto child = Child::start(command);
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
    if (fds[0].revents && !drain(child->output(), result.out)) child->close_output();
    if (fds[1].revents && !drain(child->errors(), result.err)) child->close_errors();
    if (child->input() >= 0 && fds[2].revents) {
      const ssize_t n = ::write(child->input(), input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) child->close_input();
    }
  }
  // What the child wrote before it exited is in the pipes now; a grandchild
  // that kept them open gets no more time.
  if (child->output() >= 0) drain_rest(child->output(), result.out);
  if (child->errors() >= 0) drain_rest(child->errors(), result.err);
  const Ending ending = child->finish(true);
  if (!result.timed_out) {
    result.exit_code = ending.exit_code;
    result.signal = ending.signal;
  }
  return result;
}

}  // namespace tlbf::conformance
