// Processes found by pid, not by group: the tree under a process, read from
// /proc/PID/task/TID/children, and the members of a session. A process can
// leave its process group or start a session of its own; it cannot leave its
// parent's list of children while its parent lives, nor (without setsid) its
// session. Internal to conformance/: Child, the strays, the watchdog and the
// ending handlers use it.
//
// Every function here is async-signal-safe: raw system calls into buffers on
// the stack, no allocation, no lock. They run in a signal handler and in the
// watchdog, a child forked from a process that may have threads.
#pragma once

#include <sys/types.h>

namespace tlbf::conformance::descendants {

// The most processes one walk sees; a tree larger than this is ended in
// several rounds (end_tree goes on while it finds any).
inline constexpr int kMaxTree = 2048;

// The children of `pid`, from every thread's list, into `out` (at most
// `max`); returns how many. 0 for a process that is gone.
int children_of(pid_t pid, pid_t* out, int max);

// Every process under `root` (root excluded), breadth first, into `out`;
// returns how many. With `stop`, each is sent SIGSTOP as it is found, before
// its own children are read, so that a walk repeated finds a tree that no
// longer grows. `skip` (a pid, or 0) and its tree are left out.
int tree_under(pid_t root, pid_t* out, int max, bool stop, pid_t skip);

// Ends the tree under `root` by pid, whatever process groups or sessions its
// members moved to: stops it, walks it again until it no longer grows, then
// kills every member with SIGKILL; `root` too when `with_root`. Processes
// that were already orphaned when it is called are not under root any more:
// a subreaper finds them among its own children (end_tree(getpid(), ...)).
// Returns how many processes it signalled.
int end_tree(pid_t root, bool with_root, pid_t skip);

// Kills, with SIGKILL, every process other than this one whose session is
// `sid`, wherever it sits in the process tree (an orphan of a Child that
// left its group but not its session). Returns how many.
int end_session(pid_t sid, pid_t skip);

// When `pid` started, in clock ticks since boot (/proc/PID/stat field 22),
// 0 when it is gone: with the pid it names one process, a reused pid not.
unsigned long long start_time(pid_t pid);

}  // namespace tlbf::conformance::descendants
