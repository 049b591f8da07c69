// Checking one implementation, case by case, over line protocol v1.
#pragma once

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "tlbf/conformance/behaviour.hpp"
#include "tlbf/conformance/cases.hpp"

namespace tlbf::conformance {

struct RunnerOptions {
  // How long the implementation may go without answering while requests are
  // outstanding before it counts as hung.
  std::chrono::milliseconds request_timeout{10'000};
  // Send every case before reading (pipelined) or one request at a time.
  bool pipelined = true;
};

enum class Outcome { Passed, Failed, Tolerated, Skipped };
std::string_view to_string(Outcome o);

struct CaseResult {
  std::string name;
  Outcome outcome = Outcome::Passed;
  std::string reason;    // for Failed, Tolerated and Skipped
  std::string request;   // the first request that went wrong, if any
  std::string expected;  // its pattern
  std::string got;       // what came back
  std::string stderr_tail;
  std::string reproduce;  // a shell line that replays the case
};

struct CheckReport {
  std::string command;
  std::string hello;  // the implementation's answer to hello
  bool speaks_protocol = false;
  bool not_found = false;  // the shell could not find or run the command (status 127 or 126)
  std::set<Capability> offered;
  std::vector<CaseResult> results;  // in case order
  int restarts = 0;
  std::string session_problem;  // at end of input: a bad exit, extra output

  int count(Outcome o) const;
  // True when every case it could run passed or differed only where acceptable,
  // and the session ended cleanly.
  bool conforms() const;
};

// Starts `command` (through /bin/sh), checks each case, then each interactive
// case, restarting the implementation after any crash, hang or loss of step,
// and ends it. Results come in that order.
CheckReport check(const std::string& command, const std::vector<Case>& cases, const RunnerOptions& options,
                  const std::vector<InteractiveCase>& interactive = {});

}  // namespace tlbf::conformance
