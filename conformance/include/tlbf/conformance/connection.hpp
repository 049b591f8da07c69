// One running implementation under test, spoken to over line protocol v1:
// requests out, one response line each back, with every way a process can
// misbehave (exiting, hanging, overlong lines) turned into a Fault.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tlbf/conformance/process.hpp"

namespace tlbf::conformance {

// Why a session stopped before every request was answered.
struct Fault {
  std::string reason;
};

// "exited with status 3", "was killed by signal 9", ...
std::string describe(const Ending& e);

class Connection {
 public:
  // Starts `command`; started() is false when it cannot be. `request_timeout`
  // is how long it may go without answering while requests are outstanding.
  Connection(const std::string& command, std::chrono::milliseconds request_timeout, bool pipelined);
  bool started() const { return child_ != nullptr; }
  std::string stderr_tail() const { return last_lines(stderr_, 10); }

  // Sends the requests (all at once when pipelined) and collects one line per
  // request, stopping early at a fault: an exit, a hang, an overlong line.
  std::vector<std::string> exchange(const std::vector<std::string>& requests, std::optional<Fault>& fault);

  // Closes the input and says what went wrong at the end of the session, if anything.
  std::string finish();

 private:
  static bool readable(int fd);

  std::chrono::milliseconds request_timeout_;
  bool pipelined_;
  std::unique_ptr<Child> child_;
  std::string partial_;  // output read but not yet a whole line, or lines beyond the requests
  std::string stderr_;
};

}  // namespace tlbf::conformance
