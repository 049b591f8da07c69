// Counting the processes a test left behind, by reading /proc.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace tlbf::conformance::test_support {

// The whole of a /proc file, or "" when it cannot be read. Uses read(2), not
// ifstream: a process may exit between the directory listing and the read, and
// libstdc++'s filebuf throws on the ESRCH that follows.
inline std::string read_proc_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) break;
    out.append(buffer, static_cast<size_t>(got));
  }
  ::close(fd);
  return out;
}

// A process other than this one, as /proc shows it: its pid, its state
// ("?" when it vanished while being read) and its command line, NULs read as spaces.
struct SeenProcess {
  std::string pid, state, cmdline;
};

// Every process other than this one whose command line contains `needle`.
inline std::vector<SeenProcess> processes_matching(const std::string& needle) {
  std::vector<SeenProcess> out;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(::getpid()))
      continue;
    std::string cmdline = read_proc_file(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(needle) == std::string::npos) continue;
    // stat is "pid (comm) state ...", and comm may hold spaces: the state follows the last ')'.
    const std::string stat = read_proc_file(entry.path() / "stat");
    const size_t close = stat.rfind(')');
    std::string state = "?";
    if (close != std::string::npos) std::istringstream(stat.substr(close + 1)) >> state;
    out.push_back({pid, state, cmdline});
  }
  return out;
}

// Processes other than this one, zombies and vanished ones aside, whose command
// line contains `needle` and not `unless`.
inline int processes_with(const std::string& needle, const std::string& unless = "") {
  int count = 0;
  for (const SeenProcess& p : processes_matching(needle)) {
    if (!unless.empty() && p.cmdline.find(unless) != std::string::npos) continue;
    if (p.state != "?" && p.state != "Z" && p.state != "X") ++count;
  }
  return count;
}

// For a failure message: "pid state command line" of each process whose
// command line contains `needle`, one a line.
inline std::string describe_processes_with(const std::string& needle) {
  std::string out;
  for (const SeenProcess& p : processes_matching(needle))
    out += p.pid + " " + p.state + " " + p.cmdline + "\n";
  return out;
}

}  // namespace tlbf::conformance::test_support
