// A command run once to its end: given its whole input, its output
// collected, killed when its time limit passes.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace tlbf::conformance {

// The last `count` lines of captured output, for showing a stderr tail.
std::string last_lines(const std::string& text, std::size_t count);

struct RunResult {
  bool started = false;     // false: the command could not be started at all
  std::string start_error;  // why not, when it could not
  bool timed_out = false;   // killed after the time limit
  int exit_code = -1;       // when it exited normally
  int signal = 0;           // when a signal ended it
  std::string out;
  std::string err;
  long max_rss_kib = 0;  // as Ending's

  bool exited_cleanly() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exit 3", "killed by signal 11", "timed out and was killed", ...
  std::string how_it_ended() const;
};

// Runs the command as a Child, writes `input` to it and closes its input
// (an empty `input`: its standard input is /dev/null, never a terminal),
// and collects standard output and error until the child exits. Input and
// output are interleaved, so any amount of either works without deadlock.
// When `limit` passes first, the whole group is killed. Of each output stream
// at most `keep` bytes are kept, its first and last `keep / 2`, with a line
// saying how many bytes between them were not; the rest is read and dropped.
inline constexpr std::size_t kKeepOutput = std::size_t{64} << 20;
RunResult run_with_input(const std::string& command, const std::string& input,
                         std::chrono::milliseconds limit, std::size_t keep = kKeepOutput);

}  // namespace tlbf::conformance
