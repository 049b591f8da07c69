// Running an implementation under test as a child process.
#pragma once

#include <chrono>
#include <string>

namespace tlbf::conformance {

struct RunResult {
  bool started = false;    // false: the command could not be started at all
  bool timed_out = false;  // killed after the time limit
  int exit_code = -1;      // when it exited normally
  int signal = 0;          // when a signal ended it
  std::string out;
  std::string err;

  bool exited_cleanly() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exit 3", "killed by signal 11", "timed out after the limit", ...
  std::string how_it_ended() const;
};

// Runs `/bin/sh -c command` in a process group of its own, writes `input` to
// its standard input and closes it, and collects standard output and error
// until the child exits. Input and output are interleaved, so any amount of
// either works without deadlock. When `limit` passes first, the whole group
// is killed. Either way no process of the group outlives the call.
RunResult run_with_input(const std::string& command, const std::string& input,
                         std::chrono::milliseconds limit);

}  // namespace tlbf::conformance
