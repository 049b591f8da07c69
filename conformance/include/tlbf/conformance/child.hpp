// An implementation under test (or any command) as a child process of
// tlbf's: started in a process group of its own, talked to through
// non-blocking pipes, and never outliving its Child, nor tlbf.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "tlbf/outcome.hpp"
#include "tlbf/shell_quote.hpp"

namespace tlbf::conformance {

// How a child process ended.
struct Ending {
  int exit_code = -1;  // when it exited normally
  int signal = 0;      // when a signal ended it
  // The peak resident memory of the child or of any descendant it waited
  // for, whichever was largest (Linux's wait4).
  long max_rss_kib = 0;
};

// `/bin/sh -c command` running in a session of its own (so with no
// controlling terminal, and in a process group of its own), with pipes to
// its standard input, output and error that are non-blocking on our side.
// Destroying it kills the child and every process under it by pid, then its
// group and its session, and reaps the child: nothing it started outlives it
// but an orphan that left both its group and its session (a double fork
// with setsid), which end_strays ends (strays.hpp). A watchdog process, forked before the first child,
// kills the groups still alive when the harness itself dies, SIGKILL
// included (docs/check.md, "No process outlives the run").
class Child {
 public:
  // A Failure when the command cannot be started at all (no pipe or no
  // process to be had: the machine's limits, never the command's doing).
  // With Input::None its standard input is /dev/null and input() is -1.
  enum class Input { Pipe, None };
  static tlbf::Outcome<std::unique_ptr<Child>> start(const std::string& command, Input input = Input::Pipe);
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
  // Kills what the child started (as the class comment says), reaps the
  // child and says how it ended. With `kill_first`
  // false it waits for the child to exit on its own first.
  Ending finish(bool kill_first);

 private:
  Child() = default;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  bool reaped_ = false;
  Ending ending_;
};

}  // namespace tlbf::conformance
