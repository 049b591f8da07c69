// Child: a command in a process group of its own, its pipes, its end. Each
// child is registered with the watchdog (so that tlbf's death kills its
// group) and in the table of live children (so that it is not taken for a
// stray) for exactly as long as it is not reaped.
#include "tlbf/conformance/child.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>

#include "descendants.hpp"
#include "live_children.hpp"
#include "watchdog.hpp"

extern char** environ;

namespace tlbf::conformance {
namespace {

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

tlbf::Outcome<std::unique_ptr<Child>> Child::start(const std::string& command, Input input) {
  watchdog::start_once();
  const auto fail = [](const char* what, int error) {
    return tlbf::failure(std::string(what) + ": " + std::strerror(error));
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
  if (input == Input::None) {
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  } else {
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  }
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A session of its own, and so a group of its own (whose id is its pid)
  // and no controlling terminal: nothing it starts can open /dev/tty, read
  // or type into the terminal tlbf was started from (TIOCSTI), be stopped
  // by it, or join tlbf's process group or the watchdog's, which sit in
  // another session. Default handling of SIGPIPE and SIGXFSZ, which the
  // harness ignores.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGXFSZ);  // tlbf ignores it to report EFBIG as an error
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF);

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
  watchdog::watch_group(pid);
  note_live(pid);
  child->in_ = in[1];
  if (input == Input::None) close_fd(child->in_);
  child->out_ = out[0];
  child->err_ = err[0];
  if (child->in_ >= 0) set_nonblocking(child->in_);
  set_nonblocking(child->out_);
  set_nonblocking(child->err_);
  return tlbf::Outcome<std::unique_ptr<Child>>(std::move(child));
}

Child::~Child() { finish(true); }

void Child::close_input() { close_fd(in_); }
void Child::close_output() { close_fd(out_); }
void Child::close_errors() { close_fd(err_); }

bool Child::has_exited() const {
  if (reaped_) return true;
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid_;
}

Ending Child::finish(bool kill_first) {
  if (reaped_) return ending_;
  close_fd(in_);
  // The child is reaped only after what it started is killed: while it is a
  // zombie its pid, and so its group's and session's ids, cannot be taken by
  // another process. By pid first, the child and its whole tree, whatever
  // groups or sessions they moved to; then the group and the session, for
  // what its tree no longer holds (an orphan of an exited child).
  if (kill_first) descendants::end_tree(pid_, true, watchdog::pid());
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  descendants::end_tree(pid_, false, watchdog::pid());
  ::kill(-pid_, SIGKILL);
  descendants::end_session(pid_, watchdog::pid());
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid_, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  ending_.max_rss_kib = usage.ru_maxrss;
  close_fd(out_);
  close_fd(err_);
  watchdog::forget_group(pid_);
  note_reaped(pid_);
  reaped_ = true;
  if (WIFEXITED(status)) ending_.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) ending_.signal = WTERMSIG(status);
  return ending_;
}

}  // namespace tlbf::conformance
