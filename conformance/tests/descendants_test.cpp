// descendants.hpp: processes found by pid and by session, whatever group
// they moved to. Each test forks its own small tree; what is left is read
// from /proc by code written apart from the code under test.
#include "descendants.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace tlbf::conformance {
namespace {

// /proc/PID/stat's fields after the command, split on spaces.
std::vector<std::string> stat_after_command(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(in, line);
  std::istringstream rest(line.substr(line.rfind(')') + 1));
  std::vector<std::string> out;
  for (std::string word; rest >> word;) out.push_back(word);
  return out;
}

// Gone, or a zombie: no longer running.
bool ended(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    const auto fields = stat_after_command(pid);
    if (fields.empty() || fields[0] == "Z" || fields[0] == "X") return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// Forks a process that runs `body` and never returns from it; the pid it
// writes to the pipe (a grandchild's, say) is read back.
template <typename Body>
std::pair<pid_t, pid_t> fork_reporting(Body body) {
  int report[2];
  EXPECT_EQ(::pipe(report), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(report[0]);
    body(report[1]);
    for (;;) ::pause();
  }
  ::close(report[1]);
  pid_t reported = -1;
  EXPECT_EQ(::read(report[0], &reported, sizeof reported), static_cast<ssize_t>(sizeof reported));
  ::close(report[0]);
  return {child, reported};
}

TEST(Descendants, StartTimeIsField22OfStat) {
  const auto fields = stat_after_command(::getpid());
  ASSERT_GT(fields.size(), 19U);
  EXPECT_EQ(descendants::start_time(::getpid()), std::stoull(fields[19]));
  EXPECT_EQ(descendants::start_time(0), 0U);  // no /proc/0
}

TEST(Descendants, EndTreeKillsAGrandchildInASessionOfItsOwn) {
  const auto [child, grandchild] = fork_reporting([](int report) {
    const pid_t g = ::fork();
    if (g == 0) {
      ::setsid();  // out of reach of the child's group and session
      for (;;) ::pause();
    }
    (void)!::write(report, &g, sizeof g);
  });
  ASSERT_GT(grandchild, 0);
  pid_t tree[descendants::kMaxTree];
  EXPECT_EQ(descendants::tree_under(child, tree, descendants::kMaxTree, false, 0), 1);
  EXPECT_EQ(tree[0], grandchild);
  EXPECT_GE(descendants::end_tree(child, true, 0), 2);
  EXPECT_TRUE(ended(grandchild));
  int status = 0;
  EXPECT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

TEST(Descendants, EndSessionKillsAnOrphanThatLeftItsGroup) {
  const auto [child, grandchild] = fork_reporting([](int report) {
    ::setsid();
    const pid_t g = ::fork();
    if (g == 0) {
      ::setpgid(0, 0);  // a group of its own, in the child's session
      for (;;) ::pause();
    }
    (void)!::write(report, &g, sizeof g);
    ::_exit(0);  // the grandchild is orphaned: no longer under the child
  });
  ASSERT_GT(grandchild, 0);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(stat_after_command(grandchild).at(3), std::to_string(child));  // its session
  EXPECT_EQ(descendants::end_session(child, 0), 1);
  EXPECT_TRUE(ended(grandchild));
  ::waitpid(grandchild, nullptr, WNOHANG);  // ours, if this process is a subreaper
}

}  // namespace
}  // namespace tlbf::conformance
