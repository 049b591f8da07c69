// Running an implementation under test as a child process.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>

namespace tlbf::conformance {

// How a child process ended.
struct Ending {
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
  // The peak resident memory of the child or of any descendant it waited
  // for, whichever was largest (Linux's wait4).
  long max_rss_kib = 0;
};

// `/bin/sh -c command` running in a process group of its own, with pipes to
// its standard input, output and error that are non-blocking on our side.
// Destroying it kills the whole group and reaps the child, so no process of
// the group outlives it. A watchdog process, forked before the first child,
// kills the groups still alive when the harness itself dies, SIGKILL
// included (docs/check.md, "No process outlives the run").
class Child {
 public:
  // nullptr when the command cannot be started at all (no pipe or no
  // process to be had: the machine's limits, never the command's doing),
  // with `why` set when given.
  static std::unique_ptr<Child> start(const std::string& command, std::string* why = nullptr);
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  int input() const { return in_; }    // -1 once closed
  int output() const { return out_; }  // -1 once closed
  int errors() const { return err_; }  // -1 once closed
  void close_input();
  void close_output();
  void close_errors();

  // True once the child itself has exited (it is not reaped until finish()).
  bool has_exited() const;
  // Kills the group, reaps the child and says how it ended. With `kill_first`
  // false it waits for the child to exit on its own first.
  Ending finish(bool kill_first);

 private:
  Child() = default;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  bool reaped_ = false;
  Ending ending_;
};

// A word for /bin/sh, single-quoted so that nothing in it is interpreted.
std::string shell_quote(const std::string& word);

// The last `count` lines of captured output, for showing a stderr tail.
std::string last_lines(const std::string& text, std::size_t count);

struct RunResult {
  bool started = false;    // false: the command could not be started at all
  std::string start_error;  // why not, when it could not
  bool timed_out = false;  // killed after the time limit
  int exit_code = -1;      // when it exited normally
  int signal = 0;          // when a signal ended it
  std::string out;
  std::string err;
  long max_rss_kib = 0;  // as Ending's

  bool exited_cleanly() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exit 3", "killed by signal 11", "timed out and was killed", ...
  std::string how_it_ended() const;
};

// Runs the command as a Child, writes `input` to it and closes its input,
// and collects standard output and error until the child exits. Input and
// output are interleaved, so any amount of either works without deadlock.
// When `limit` passes first, the whole group is killed. Of each output stream
// at most `keep` bytes are kept, its first and last `keep / 2`, with a line
// saying how many bytes between them were not; the rest is read and dropped.
inline constexpr std::size_t kKeepOutput = std::size_t{64} << 20;
RunResult run_with_input(const std::string& command, const std::string& input,
                         std::chrono::milliseconds limit, std::size_t keep = kKeepOutput);

// Kills and reaps the strays: processes that became this one's children by
// being orphaned (from the first Child on, this process is a child
// subreaper), such as a daemon that an implementation or a suite started in
// a session of its own, out of reach of its process group's kill. Call it
// when no Child is running; returns how many it ended.
int end_strays();

// A scratch folder of this process's that must not outlive it: if the
// process dies before forget_folder(folder) (SIGKILL, a Ctrl-C, a CI job's
// timeout), the watchdog removes it (`rm -rf`) after killing the children.
// At most 16 folders at once, each path shorter than 4000 bytes; false when
// it cannot be promised (no watchdog, too many, too long).
bool remove_folder_if_tlbf_dies(const std::string& folder);
void forget_folder(const std::string& folder);

}  // namespace tlbf::conformance
