#include "tlbf/conformance/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <vector>

extern char** environ;

namespace tlbf::conformance {
namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int read = -1;
  int write = -1;
};

bool make_pipe(Pipe& p) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  p = {fds[0], fds[1]};
  return true;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Reads what is available; returns false at end of file or on error.
bool drain(int fd, std::string& into) {
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      into.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    return false;
  }
}

}  // namespace

std::string RunResult::how_it_ended() const {
  if (!started) return "could not be started";
  if (timed_out) return "timed out and was killed";
  if (signal != 0) return "killed by signal " + std::to_string(signal);
  return "exit " + std::to_string(exit_code);
}

RunResult run_with_input(const std::string& command, const std::string& input,
                         std::chrono::milliseconds limit) {
  RunResult result;
  Pipe in, out, err;
  if (!make_pipe(in) || !make_pipe(out) || !make_pipe(err)) return result;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out.write, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.write, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A group of its own, so that grandchildren can be ended with it; default
  // signal handling, whatever the harness ignores.
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
  close_fd(in.read);
  close_fd(out.write);
  close_fd(err.write);
  if (spawned != 0) {
    close_fd(in.write);
    close_fd(out.read);
    close_fd(err.read);
    return result;
  }
  result.started = true;

  // Our own writes to a child that quit must fail with EPIPE, not kill us.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);

  set_nonblocking(in.write);
  set_nonblocking(out.read);
  set_nonblocking(err.read);
  std::size_t written = 0;
  if (input.empty()) close_fd(in.write);
  const auto deadline = Clock::now() + limit;

  // The child is never reaped before its group is killed: while it is a
  // zombie its pid, and so the group id, cannot be taken by another process.
  auto has_exited = [pid] {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pid;
  };
  bool exited = false;
  while (!exited) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    std::array<pollfd, 3> fds{{{out.read, POLLIN, 0}, {err.read, POLLIN, 0}, {in.write, POLLOUT, 0}}};
    // With both outputs closed there is nothing to wait on but the exit.
    const long long wait_ms = (out.read < 0 && err.read < 0) ? 1 : std::min<long long>(left.count(), 50);
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(wait_ms));
    if (ready < 0 && errno != EINTR) break;
    if (fds[0].revents && !drain(out.read, result.out)) close_fd(out.read);
    if (fds[1].revents && !drain(err.read, result.err)) close_fd(err.read);
    if (in.write >= 0 && fds[2].revents) {
      const ssize_t n = ::write(in.write, input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) close_fd(in.write);
    }
    exited = has_exited();
  }
  // What the child wrote before it exited is in the pipes now; a grandchild
  // that kept them open gets no more time.
  if (out.read >= 0) drain(out.read, result.out);
  if (err.read >= 0) drain(err.read, result.err);
  close_fd(in.write);
  close_fd(out.read);
  close_fd(err.read);

  ::kill(-pid, SIGKILL);  // the whole group: the child if it timed out, and any grandchildren
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGPIPE, &previous, nullptr);

  if (!result.timed_out) {
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace tlbf::conformance
