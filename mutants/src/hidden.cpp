#include "tlbf/mutants/hidden.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <map>
#include <mutex>
#include <cstring>
#include <random>
#include <sstream>
#include <thread>

#include "session_pump.hpp"
#include "tlbf/whole_file.hpp"

namespace tlbf::mutants {
namespace {

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// The parent of process `pid`, from /proc/PID/stat (readable for every
// process, a non-dumpable one included), or -1.
pid_t parent_of(pid_t pid) {
  const auto read = read_whole_file("/proc/" + std::to_string(pid) + "/stat", 4096, "process status");
  if (!read) return -1;
  const std::string& text = read.value();
  // "PID (COMMAND) STATE PPID ...": the command may hold spaces and parentheses, so read after the last ')'.
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(text.substr(close + 1));
  std::string state;
  long parent = -1;
  fields >> state >> parent;
  return fields ? static_cast<pid_t>(parent) : -1;
}

// A copy of the program at `path` that its user may run but not read: a
// memory file, mode 0100, made once per program for the whole process. The
// kernel makes a process that runs an image it may not read non-dumpable
// inside execve itself, so no moment after the exec is left in which a
// process of the same user could open /proc/PID/mem (to read, or to write
// code into it), take a descriptor or attach with ptrace. Its descriptor, or
// why it cannot be made; the caller then runs `path` as it is.
Outcome<int> unreadable_image(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, int> images;
  std::lock_guard<std::mutex> lock(mutex);
  if (const auto found = images.find(path); found != images.end()) return found->second;
  const int source = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const int image = ::memfd_create("tlbf-mutant", MFD_CLOEXEC);
  bool copied = source >= 0 && image >= 0;
  char buffer[1 << 16];
  for (ssize_t n; copied && (n = ::read(source, buffer, sizeof buffer)) != 0;) {
    copied = n > 0 && write_all(image, buffer, static_cast<std::size_t>(n));
  }
  copied = copied && ::fchmod(image, S_IXUSR) == 0;
  const int error = errno;
  if (source >= 0) ::close(source);
  if (!copied) {
    if (image >= 0) ::close(image);
    return failure("cannot make an unreadable copy of " + path + ": " + std::strerror(error));
  }
  images[path] = image;
  return image;
}

// `word` as execve needs it: itself when it holds a slash, else the first
// executable file of that name on PATH (or `word` itself, which will fail to
// run and say so).
std::string on_path(const std::string& word) {
  if (word.find('/') != std::string::npos) return word;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + word;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return word;
}

// The relay's one message: kRelayHello, with room for two descriptors.
// Built in place (its header points into itself), so never copied.
struct StdioMessage {
  char hello[sizeof kRelayHello] = {};
  iovec data{hello, sizeof hello};
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  msghdr header{};
  StdioMessage() {
    header.msg_iov = &data;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
  }
  StdioMessage(const StdioMessage&) = delete;
  StdioMessage& operator=(const StdioMessage&) = delete;
};

// The relay's standard input and output, sent with kRelayHello on
// `connection`; false (nothing kept) when the connection does not begin so
// within a few seconds.
bool receive_stdio(int connection, int (&stdio)[2]) {
  pollfd p{connection, POLLIN, 0};
  if (::poll(&p, 1, 5000) != 1) return false;
  StdioMessage message;
  const ssize_t n = ::recvmsg(connection, &message.header, MSG_CMSG_CLOEXEC);
  const cmsghdr* fds = CMSG_FIRSTHDR(&message.header);
  const bool whole = fds != nullptr && fds->cmsg_level == SOL_SOCKET && fds->cmsg_type == SCM_RIGHTS &&
                     fds->cmsg_len == CMSG_LEN(2 * sizeof(int));
  if (whole) std::memcpy(stdio, CMSG_DATA(fds), 2 * sizeof(int));
  if (whole && n == static_cast<ssize_t>(sizeof message.hello) &&
      std::memcmp(message.hello, kRelayHello, sizeof message.hello) == 0)
    return true;
  if (whole) ::close(stdio[0]), ::close(stdio[1]);
  return false;
}

}  // namespace

std::string random_name() {
  std::random_device device;
  std::string out;
  for (int i = 0; i < 16; ++i) out += "0123456789abcdef"[device() % 16];
  return out;
}

Outcome<std::unique_ptr<HiddenServer>> HiddenServer::start(const std::string& dir,
                                                           const std::string& tlbf_mutant,
                                                           const std::string& choice) {
  std::unique_ptr<HiddenServer> server(new HiddenServer());
  server->tlbf_mutant_ = tlbf_mutant;
  const auto image = unreadable_image(tlbf_mutant);
  if (image.ok()) {
    server->image_ = image.value();
  } else {
    server->note_fault(image.why());
  }
  server->choice_ = choice;
  if (server->choice_.size() < kChoiceWidth) server->choice_.resize(kChoiceWidth, ' ');
  return listen_in(std::move(server), dir);
}

Outcome<std::unique_ptr<HiddenServer>> HiddenServer::start_program(const std::string& dir,
                                                                   const std::vector<std::string>& program,
                                                                   const std::string& folder) {
  if (program.empty()) return failure("no program to serve");
  std::unique_ptr<HiddenServer> server(new HiddenServer());
  server->program_ = program;
  // Found here: the served process's fork may only make async-signal-safe calls before its exec.
  server->program_[0] = on_path(program[0]);
  for (auto& word : server->program_) server->program_argv_.push_back(word.data());
  server->program_argv_.push_back(nullptr);
  server->program_folder_ = folder;
  server->tlbf_mutant_ = program[0];  // for messages
  return listen_in(std::move(server), dir);
}

Outcome<std::unique_ptr<HiddenServer>> HiddenServer::listen_in(std::unique_ptr<HiddenServer> server,
                                                               const std::string& dir) {
  // A folder of its own: a sandbox shows a run its socket's folder and no other run's.
  server->folder_ = dir + "/" + random_name();
  if (::mkdir(server->folder_.c_str(), 0700) != 0) {
    const std::string why = "cannot make " + server->folder_ + ": " + std::strerror(errno);
    server->folder_.clear();
    return failure(why);
  }
  server->path_ = server->folder_ + "/" + random_name();
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (server->path_.size() >= sizeof(address.sun_path)) {
    return failure("the socket path " + server->path_ +
                   " is too long for a Unix socket; set TMPDIR to a shorter folder");
  }
  std::memcpy(address.sun_path, server->path_.c_str(), server->path_.size() + 1);
  server->listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (server->listener_ < 0 ||
      ::bind(server->listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(server->listener_, 64) != 0 || ::pipe2(server->wake_, O_CLOEXEC) != 0) {
    return failure("cannot listen on " + server->path_ + ": " + std::strerror(errno));
  }
  server->loop_ = std::thread([s = server.get()] { s->accept_loop(); });
  return server;
}

HiddenServer::~HiddenServer() {
  if (loop_.joinable()) {
    const char stop = 's';
    (void)write_all(wake_[1], &stop, 1);
    loop_.join();
  }
  if (stop_carrying_[1] >= 0) {
    const char stop = 's';
    (void)write_all(stop_carrying_[1], &stop, 1);
  }
  for (auto& carrier : carriers_) carrier.join();
  reap(true);
  for (int fd : {listener_, wake_[0], wake_[1], stop_carrying_[0], stop_carrying_[1]}) {
    if (fd >= 0) ::close(fd);
  }
  if (!path_.empty()) ::unlink(path_.c_str());
  if (!folder_.empty()) ::rmdir(folder_.c_str());
}

void HiddenServer::accept_loop() {
  for (;;) {
    pollfd fds[2] = {{listener_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    const int ready = ::poll(fds, 2, 200);
    reap(false);  // served processes whose suite has hung up
    if (ready < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    if (fds[0].revents & POLLIN) {
      const int connection = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (connection >= 0) {
        if (!answer_choice(connection)) {
          ++connections_;
          serve(connection);
        }
        ::close(connection);
      } else if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED) {
        note_fault(std::string("could not accept a connection: ") + std::strerror(errno));
        // The connection stays pending and poll keeps saying so: do not spin on it.
        ::poll(nullptr, 0, 50);
      }
    }
  }
}

void HiddenServer::note_fault(const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (fault_.empty()) fault_ = what;
}

std::string HiddenServer::fault() {
  std::lock_guard<std::mutex> lock(mutex_);
  return fault_;
}

// The choice goes only to a process whose parent is a served process this
// server started: the child that served process forks once it is not
// dumpable (serve_mutant.cpp). Nothing a suite can start has that parent, and
// the served process itself never holds the choice, so neither a /proc/PID/mem
// handle opened on it in the moment after its exec (before it could make
// itself non-dumpable) nor a file descriptor taken from it then (a pipe
// reopened through /proc/PID/fd, pidfd_getfd) carries the choice.
bool HiddenServer::answer_choice(int connection) {
  if (!program_.empty()) return false;  // a program is told nothing
  ucred peer{};
  socklen_t size = sizeof peer;
  if (::getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0) return false;
  const pid_t parent = parent_of(peer.pid);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto started_here = [&](const std::vector<pid_t>& pids) {
      return std::find(pids.begin(), pids.end(), parent) != pids.end();
    };
    if (parent <= 0 || !(started_here(children_) || started_here(replayed_))) return false;
  }
  (void)write_all(connection, choice_.data(), choice_.size());
  return true;
}

void HiddenServer::serve(int connection) {
  int stdio[2];
  if (!receive_stdio(connection, stdio)) return;  // not a relay: nothing to serve
  if (recording_) {
    carry_session(connection, stdio);
    return;
  }
  // The suite's own pipes, as the relay handed them over; the connection
  // stays open in the served process (not close-on-exec) so that the relay
  // reads its end of file when the served process, and all it forked, ends.
  (void)start_served(stdio[0], stdio[1], connection, false);
  ::close(stdio[0]), ::close(stdio[1]);
}

pid_t HiddenServer::start_served(int in, int out, int keep_open, bool replayed) {
  // The child writes its exec's errno here; a successful exec closes it
  // (O_CLOEXEC) unwritten. So the parent knows before the suite can.
  int exec_report[2];
  if (::pipe2(exec_report, O_CLOEXEC) != 0) {
    note_fault(std::string("could not make a pipe for the served process: ") + std::strerror(errno));
    return -1;
  }
  const int quiet = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec: other threads may hold locks.
    // A session of its own, as every process tlbf starts (child.hpp).
    ::setsid();
    int report = exec_report[1];
    if (report <= 2) report = ::fcntl(report, F_DUPFD_CLOEXEC, 3);
    ::dup2(in, STDIN_FILENO);
    ::dup2(out, STDOUT_FILENO);
    // Nothing but its own descriptors reaches the served process: not what
    // tlbf was started with, nor what another thread of this process opened
    // without O_CLOEXEC while it forked (a copy of a suite's pipe there would
    // hold that session open).
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    if (keep_open >= 0) ::fcntl(keep_open, F_SETFD, 0);
    if (quiet >= 0) ::dup2(quiet, STDERR_FILENO);
    int error = 0;
    if (!program_.empty()) {
      if (::chdir(program_folder_.c_str()) == 0) ::execve(program_argv_[0], program_argv_.data(), environ);
      error = errno;
    } else {
      const char* argv[] = {tlbf_mutant_.c_str(), "--choice-from", path_.c_str(), nullptr};
      if (image_ >= 0) ::fexecve(image_, const_cast<char* const*>(argv), environ);
      error = errno;
    }
    (void)!::write(report, &error, sizeof error);
    ::_exit(127);
  }
  const int fork_error = errno;
  ::close(exec_report[1]);
  if (quiet >= 0) ::close(quiet);
  if (pid < 0) {
    ::close(exec_report[0]);
    note_fault(std::string("could not start the served process: ") + std::strerror(fork_error));
    return -1;
  }
  {
    // Known before it can fork the child that asks for the choice: a
    // replay starts it from another thread than the one that answers.
    std::lock_guard<std::mutex> lock(mutex_);
    (replayed ? replayed_ : children_).push_back(pid);
  }
  int exec_error = 0;
  ssize_t n;
  do {
    n = ::read(exec_report[0], &exec_error, sizeof exec_error);
  } while (n < 0 && errno == EINTR);
  ::close(exec_report[0]);
  if (n == static_cast<ssize_t>(sizeof exec_error)) {
    note_fault("could not run " + tlbf_mutant_ + ": " + std::strerror(exec_error));
  }
  return pid;
}

void HiddenServer::record() {
  if (::pipe2(stop_carrying_, O_CLOEXEC) != 0) {
    note_fault(std::string("could not make a pipe to record with: ") + std::strerror(errno));
    return;
  }
  recording_ = true;
}

// The relay's pipes on one side, the served process's on the other, and a
// thread of this server between them that keeps a copy of what passes. The
// relay's connection is held by that thread, not the served process: the
// relay ends when the answers have been handed on.
void HiddenServer::carry_session(int connection, const int (&stdio)[2]) {
  int up[2] = {-1, -1}, down[2] = {-1, -1};
  const int held = ::fcntl(connection, F_DUPFD_CLOEXEC, 3);
  if (held < 0 || ::pipe2(up, O_CLOEXEC) != 0 || ::pipe2(down, O_CLOEXEC) != 0) {
    note_fault(std::string("could not make a pipe to record with: ") + std::strerror(errno));
    for (int fd : {held, up[0], up[1], down[0], down[1], stdio[0], stdio[1]})
      if (fd >= 0) ::close(fd);
    return;
  }
  const pid_t pid = start_served(up[0], down[1], -1, false);
  ::close(up[0]), ::close(down[1]);
  ::fcntl(up[1], F_SETFL, O_NONBLOCK);
  ::fcntl(down[0], F_SETFL, O_NONBLOCK);
  std::lock_guard<std::mutex> lock(mutex_);
  if (pid < 0) cut_ = true;
  ++carrying_;
  carriers_.emplace_back([this, held, in = stdio[0], out = stdio[1], to = up[1], from = down[0]]() mutable {
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);  // a reader gone is a write's error here
    Carried carried = carry(in, out, to, from, stop_carrying_[0], budget_);
    for (int fd : {in, out, to, from, held})
      if (fd >= 0) ::close(fd);
    std::lock_guard<std::mutex> done(mutex_);
    if (carried.whole) sessions_.push_back(std::move(carried.session));
    cut_ = cut_ || !carried.whole;
    --carrying_;
    carried_.notify_all();
  });
}

Outcome<Transcript> HiddenServer::transcript() {
  if (!recording_) return failure("not recorded");
  std::vector<std::thread> carriers;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!carried_.wait_for(lock, std::chrono::seconds(10), [this] { return carrying_ == 0; })) {
      const char stop = 's';
      (void)write_all(stop_carrying_[1], &stop, 1);
      carried_.wait(lock, [this] { return carrying_ == 0; });
    }
    carriers.swap(carriers_);
  }
  for (auto& carrier : carriers) carrier.join();
  std::lock_guard<std::mutex> lock(mutex_);
  if (budget_ < 0)
    return failure("its sessions held more than " + std::to_string(kRecordBudget >> 20) + " MiB");
  if (cut_)
    return failure(
        "a session was still open ten seconds after the run ended, or its process could not start");
  return sessions_;
}

std::string HiddenServer::replay(const Transcript& reference, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (const Session& session : reference) {
    if (std::string differs = replay_session(session, deadline); !differs.empty()) return differs;
  }
  return "";
}

namespace {

// Waits for the served process `pid` until `deadline`, then ends it and
// all it started: "" when it exited by itself, else how it ended.
std::string ended(pid_t pid, std::chrono::steady_clock::time_point deadline, bool end_now) {
  int status = 0;
  for (;;) {
    const pid_t waited = end_now ? 0 : ::waitpid(pid, &status, WNOHANG);
    if (waited == pid) break;
    if (waited < 0 && errno != EINTR) return "it could not be waited for";
    if (end_now || std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);  // its session's group: the served process and the child it forked
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return end_now ? "stopped" : "it did not end within the time limit after its answers";
    }
    ::poll(nullptr, 0, 2);
  }
  if (WIFSIGNALED(status)) return "it ended by signal " + std::to_string(WTERMSIG(status));
  return "";
}

}  // namespace

std::string HiddenServer::replay_session(const Session& reference,
                                         std::chrono::steady_clock::time_point deadline) {
  int up[2] = {-1, -1}, down[2] = {-1, -1};
  if (::pipe2(up, O_CLOEXEC) != 0 || ::pipe2(down, O_CLOEXEC) != 0) {
    for (int fd : {up[0], up[1], down[0], down[1]})
      if (fd >= 0) ::close(fd);
    return std::string("the harness could not make a pipe: ") + std::strerror(errno);
  }
  const pid_t pid = start_served(up[0], down[1], -1, true);
  ::close(down[1]);
  // up[0] stays open here: its unread bytes say whether the subject read all its input.
  ::fcntl(up[1], F_SETFL, O_NONBLOCK);
  ::fcntl(down[0], F_SETFL, O_NONBLOCK);
  Pumped pumped;
  if (pid >= 0) {
    std::thread pumping([&] {
      sigset_t pipe_signal;
      sigemptyset(&pipe_signal);
      sigaddset(&pipe_signal, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
      pumped = pump(up[1], down[0], reference, deadline);
    });
    pumping.join();
  }
  int unread = 0;
  ::ioctl(up[0], FIONREAD, &unread);
  for (int fd : {up[0], up[1], down[0]})
    if (fd >= 0) ::close(fd);
  if (pid < 0) return "the harness could not start it: " + fault();
  const std::string differs = answer_difference(reference, pumped.answered);
  const std::string end = ended(pid, deadline, !pumped.ended);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    replayed_.erase(std::remove(replayed_.begin(), replayed_.end(), pid), replayed_.end());
  }
  if (pumped.timed_out)
    return "it did not answer within the time limit (" + std::to_string(reference.answered.size()) +
           " bytes of answers expected, " + std::to_string(pumped.answered.size()) + " given)";
  if (!differs.empty()) return differs;
  if (pumped.written < reference.sent.size() || unread > 0)
    return "it answered alike but did not read all its input (" +
           std::to_string(reference.sent.size() - pumped.written + static_cast<std::size_t>(unread)) +
           " bytes left)";
  return end;
}

void HiddenServer::reap(bool kill_all) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<pid_t> running;
  for (pid_t pid : children_) {
    if (kill_all) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    } else if (::waitpid(pid, nullptr, WNOHANG) == 0) {
      running.push_back(pid);
    }
  }
  children_ = running;
}

int relay(const std::string& socket_path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof(address.sun_path)) return 2;
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  const int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0 || ::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) return 2;
  // Standard input and output go to the served process whole: it reads the
  // requests and writes the answers itself, with no copy between (a relay
  // that copied made every answer two more hops: 100,000 contains took 7 s
  // where the served process alone takes 1).
  StdioMessage message;
  std::memcpy(message.hello, kRelayHello, sizeof message.hello);
  cmsghdr* fds = CMSG_FIRSTHDR(&message.header);
  fds->cmsg_level = SOL_SOCKET;
  fds->cmsg_type = SCM_RIGHTS;
  fds->cmsg_len = CMSG_LEN(2 * sizeof(int));
  const int stdio[2] = {STDIN_FILENO, STDOUT_FILENO};
  std::memcpy(CMSG_DATA(fds), stdio, sizeof stdio);
  ssize_t sent;
  while ((sent = ::sendmsg(sock, &message.header, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  if (sent != static_cast<ssize_t>(sizeof message.hello)) return 3;
  // Its copies closed (on /dev/null), so the suite sees the end of the
  // answers when the served process ends, not when this one does.
  const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null >= 0) ::dup2(null, STDIN_FILENO), ::dup2(null, STDOUT_FILENO), ::close(null);
  // The served process holds the other end: its end of file is the end.
  char byte;
  for (;;) {
    const ssize_t n = ::read(sock, &byte, 1);
    if (n > 0 || (n < 0 && errno == EINTR)) continue;
    return n < 0 ? 3 : 0;
  }
}

}  // namespace tlbf::mutants
