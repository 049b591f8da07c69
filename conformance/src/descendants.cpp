// Walking process trees and sessions through /proc with system calls only
// (descendants.hpp says why every function here is async-signal-safe).
#include "descendants.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace tlbf::conformance::descendants {
namespace {

// A path built in a fixed buffer: snprintf is not async-signal-safe.
class Path {
 public:
  Path& text(const char* s) {
    while (*s && size_ + 1 < sizeof buffer_) buffer_[size_++] = *s++;
    buffer_[size_] = '\0';
    return *this;
  }
  Path& number(long long n) {
    char digits[24];
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n > 0 && count < 23);
    while (count > 0 && size_ + 1 < sizeof buffer_) buffer_[size_++] = digits[--count];
    buffer_[size_] = '\0';
    return *this;
  }
  const char* c_str() const { return buffer_; }

 private:
  char buffer_[96] = {};
  std::size_t size_ = 0;
};

// Whole numbers separated by anything else, as /proc's lists are written.
// Calls `each(n)` for each; returns false when `each` asks to stop.
template <typename Each>
void each_number(int fd, Each each) {
  char buffer[2048];
  long long n = -1;
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    for (ssize_t i = 0; i < got; ++i) {
      if (buffer[i] >= '0' && buffer[i] <= '9') {
        n = (n < 0 ? 0 : n * 10) + (buffer[i] - '0');
      } else if (n >= 0) {
        each(n);
        n = -1;
      }
    }
  }
  if (n >= 0) each(n);
}

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// Calls `each(number)` for every entry of `folder` whose name is a number.
template <typename Each>
void each_numbered_entry(const char* folder, Each each) {
  const int dir = ::open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) char buffer[4096];
  for (;;) {
    const long got = ::syscall(SYS_getdents64, dir, buffer, sizeof buffer);
    if (got <= 0) break;
    for (long at = 0; at < got;) {
      const auto* entry = reinterpret_cast<const LinuxDirent64*>(buffer + at);
      long long n = 0;
      bool numeric = entry->d_name[0] != '\0';
      for (const char* c = entry->d_name; *c && numeric; ++c) {
        numeric = *c >= '0' && *c <= '9';
        n = n * 10 + (*c - '0');
      }
      if (numeric) each(static_cast<pid_t>(n));
      at += entry->d_reclen;
    }
  }
  ::close(dir);
}

// The fields of /proc/PID/stat after the command's closing parenthesis
// (the command may hold spaces and parentheses), into `out`; its length.
int stat_fields(pid_t pid, char* out, int size) {
  Path path;
  path.text("/proc/").number(pid).text("/stat");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buffer[1024];
  ssize_t got;
  do {
    got = ::read(fd, buffer, sizeof buffer - 1);
  } while (got < 0 && errno == EINTR);
  ::close(fd);
  if (got <= 0) return 0;
  int close_at = -1;
  for (int i = 0; i < got; ++i) {
    if (buffer[i] == ')') close_at = i;
  }
  if (close_at < 0) return 0;
  int n = 0;
  for (int i = close_at + 1; i < got && n < size - 1; ++i) out[n++] = buffer[i];
  out[n] = '\0';
  return n;
}

// The `index`th field (0 = the state, which follows the command) of
// stat_fields' text, as a number; -1 when absent.
long long stat_number(const char* fields, int index) {
  int field = -1;
  bool in_word = false;
  long long value = -1;
  for (const char* c = fields; *c; ++c) {
    const bool space = *c == ' ' || *c == '\n';
    if (!space && !in_word) {
      if (++field > index) break;
      if (field == index) value = 0;
    }
    in_word = !space;
    if (field == index && !space) {
      if (*c < '0' || *c > '9') return -1;
      value = value * 10 + (*c - '0');
    }
  }
  return field >= index ? value : -1;
}

bool listed(const pid_t* list, int count, pid_t pid) {
  for (int i = 0; i < count; ++i) {
    if (list[i] == pid) return true;
  }
  return false;
}

}  // namespace

int children_of(pid_t pid, pid_t* out, int max) {
  int count = 0;
  Path tasks;
  tasks.text("/proc/").number(pid).text("/task");
  each_numbered_entry(tasks.c_str(), [&](pid_t tid) {
    Path children;
    children.text("/proc/").number(pid).text("/task/").number(tid).text("/children");
    const int fd = ::open(children.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    each_number(fd, [&](long long child) {
      if (count < max && !listed(out, count, static_cast<pid_t>(child)))
        out[count++] = static_cast<pid_t>(child);
    });
    ::close(fd);
  });
  return count;
}

int tree_under(pid_t root, pid_t* out, int max, bool stop, pid_t skip) {
  int count = children_of(root, out, max);
  // Breadth first: out[read] is expanded in turn; the list is its own queue.
  for (int read = 0; read < count; ++read) {
    if (out[read] == skip) continue;
    if (stop) ::kill(out[read], SIGSTOP);
    pid_t found[256];
    const int n = children_of(out[read], found, 256);
    for (int i = 0; i < n && count < max; ++i) {
      if (!listed(out, count, found[i])) out[count++] = found[i];
    }
  }
  // The skipped process stays out (its tree was never read).
  int kept = 0;
  for (int i = 0; i < count; ++i) {
    if (out[i] != skip) out[kept++] = out[i];
  }
  return kept;
}

int end_tree(pid_t root, bool with_root, pid_t skip) {
  if (with_root) ::kill(root, SIGSTOP);
  pid_t tree[kMaxTree];
  // Killed processes stay listed as zombies until their parent reaps them: a
  // round that finds only those is the last.
  pid_t killed[kMaxTree];
  int signalled = 0;
  for (int round = 0; round < 8; ++round) {
    // Stopped processes cannot fork; a child forked before its parent
    // stopped shows in the next walk. Two walks that find as many are the
    // whole tree (or a tree larger than the table: the next round ends the rest).
    int count = tree_under(root, tree, kMaxTree, true, skip);
    for (int again = 0; again < 4; ++again) {
      const int recount = tree_under(root, tree, kMaxTree, true, skip);
      if (recount == count) break;
      count = recount;
    }
    int fresh = 0;
    for (int i = 0; i < count; ++i) {
      ::kill(tree[i], SIGKILL);
      if (listed(killed, signalled, tree[i])) continue;
      if (signalled < kMaxTree) killed[signalled++] = tree[i];
      ++fresh;
    }
    if (fresh == 0) break;
  }
  if (with_root && ::kill(root, SIGKILL) == 0) ++signalled;
  return signalled;
}

int end_session(pid_t sid, pid_t skip) {
  const pid_t self = ::getpid();
  int signalled = 0;
  each_numbered_entry("/proc", [&](pid_t pid) {
    if (pid == self || pid == skip) return;
    char fields[512];
    if (stat_fields(pid, fields, sizeof fields) == 0) return;
    // After the command: state, ppid, pgrp, session.
    if (stat_number(fields, 3) == sid && ::kill(pid, SIGKILL) == 0) ++signalled;
  });
  return signalled;
}

unsigned long long start_time(pid_t pid) {
  char fields[512];
  if (stat_fields(pid, fields, sizeof fields) == 0) return 0;
  // Field 22 of the whole line, the 20th after the command (state is field 3).
  const long long ticks = stat_number(fields, 19);
  return ticks < 0 ? 0 : static_cast<unsigned long long>(ticks);
}

}  // namespace tlbf::conformance::descendants
