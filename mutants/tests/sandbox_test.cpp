// The sandbox a suite runs in (sandbox.hpp), seen from inside: what a suite
// run by a root grader can still change on the machine.
#include "tlbf/mutants/sandbox.hpp"

#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/suite_user.hpp"
#include "tlbf/shell_quote.hpp"

namespace {

using tlbf::mutants::Sandbox;
using tlbf::mutants::sandboxed;

// Writes a kernel setting back with the value it has (so the machine is left
// as it was either way) and says whether the kernel took the write; then
// whether a namespace of its own, made inside, is allowed.
constexpr const char* kTriesTheKernel =
    "v=$(cat /proc/sys/kernel/printk_ratelimit); "
    "if (echo \"$v\" > /proc/sys/kernel/printk_ratelimit) 2>/dev/null; then echo sysctl-written; "
    "else echo sysctl-refused; fi; "
    "if unshare -Ur true 2>/dev/null; then echo userns-made; else echo userns-refused; fi";

std::string run(const std::string& line) {
  // A long bound: this is not a test of time, only of what the run prints.
  const auto ran = tlbf::conformance::run_with_input(line, "", std::chrono::minutes(5));
  EXPECT_TRUE(ran.started && !ran.timed_out) << ran.how_it_ended();
  return ran.out;
}

TEST(Sandbox, ARootSuiteCannotWriteTheKernelsSettingsNorMakeNamespaces) {
  if (::geteuid() != 0) GTEST_SKIP() << "only a root grader's suite is uid 0 of the machine";
  ASSERT_TRUE(tlbf::mutants::sandbox_available().ok());
  // Outside the sandbox the same lines do both: the probe can see a hole.
  const std::string outside = run(std::string("sh -c ") + tlbf::shell_quote(kTriesTheKernel));
  ASSERT_NE(outside.find("sysctl-written"), std::string::npos) << outside;
  ASSERT_NE(outside.find("userns-made"), std::string::npos) << outside;

  const std::string inside = run(sandboxed(Sandbox{}, "", kTriesTheKernel));
  EXPECT_NE(inside.find("sysctl-refused"), std::string::npos) << inside;
  EXPECT_NE(inside.find("userns-refused"), std::string::npos) << inside;
}

// A root grader's suite runs as `nobody` (suite_user.hpp): the kernel sees
// that uid, so what only root may write stays unwritten, sandboxed or not.
class AsTheSuiteUser : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "only a root grader's suites change user";
    const passwd* nobody = ::getpwnam("nobody");
    if (nobody == nullptr) GTEST_SKIP() << "no user nobody here";
    nobody_uid_ = nobody->pw_uid;  // from the system's database, not from tlbf
    ASSERT_TRUE(tlbf::mutants::choose_suite_user("").ok());
    char pattern[] = "/tmp/tlbf-suite-user-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    ::chmod(dir_.c_str(), 0755);
    // Root's, mode 0755, outside the run's folder: root may write it, nobody may not.
    root_only_ = dir_ / "root-only";
    std::filesystem::create_directory(root_only_);
    ::chmod(root_only_.c_str(), 0755);
    own_ = dir_ / "own";
    std::filesystem::create_directory(own_);
    ASSERT_TRUE(tlbf::mutants::give_to_suite_user(own_).ok());
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  // Prints its uid, then whether it could write into root-only and into its own folder.
  std::string probe() const {
    const std::string q = tlbf::shell_quote((root_only_ / "x").string());
    const std::string mine = tlbf::shell_quote((own_ / "x").string());
    return "echo uid=$(id -u); if (: > " + q +
           ") 2>/dev/null; then echo root-only-written; else echo "
           "root-only-refused; fi; if (: > " +
           mine + ") 2>/dev/null; then echo own-written; fi";
  }
  uid_t nobody_uid_ = 0;
  std::filesystem::path dir_, root_only_, own_;
};

TEST_F(AsTheSuiteUser, TheProbeWritesAsRootWithoutIt) {
  const std::string out = run("sh -c " + tlbf::shell_quote(probe()));
  EXPECT_NE(out.find("uid=0\n"), std::string::npos) << out;
  EXPECT_NE(out.find("root-only-written"), std::string::npos) << out;
}

TEST_F(AsTheSuiteUser, AnUnsandboxedRunSeesAnotherUidAndCannotWriteRootsFolder) {
  const std::string out = run(tlbf::mutants::as_suite_user(probe()));
  EXPECT_NE(out.find("uid=" + std::to_string(nobody_uid_) + "\n"), std::string::npos) << out;
  EXPECT_NE(out.find("root-only-refused"), std::string::npos) << out;
  EXPECT_NE(out.find("own-written"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(root_only_ / "x"));
}

TEST_F(AsTheSuiteUser, ASandboxedRunSeesAnotherUidAndCannotWriteRootsFolderBoundWritable) {
  ASSERT_TRUE(tlbf::mutants::sandbox_available().ok());
  // root-only bound writable: only its owner and mode stop the write.
  const Sandbox box{{}, {own_.string(), root_only_.string()}, {}};
  const std::string out = run(sandboxed(box, own_.string(), probe()));
  EXPECT_NE(out.find("uid=" + std::to_string(nobody_uid_) + "\n"), std::string::npos) << out;
  EXPECT_NE(out.find("root-only-refused"), std::string::npos) << out;
  EXPECT_NE(out.find("own-written"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(root_only_ / "x"));
}

TEST_F(AsTheSuiteUser, AToolchainInAFolderClosedToItIsShownAndNothingBesideIt) {
  ASSERT_TRUE(tlbf::mutants::sandbox_available().ok());
  // As root's home is on Gradescope: a 0700 folder holding a 0755 toolchain
  // (a folder down, as ~/.rustup/toolchains) and a secret.
  const auto home = dir_ / "home";
  const auto tool = home / "toolchains" / "tool";
  std::filesystem::create_directories(tool);
  ::chmod(home.c_str(), 0700);
  ::chmod((home / "toolchains").c_str(), 0755);
  ::chmod(tool.c_str(), 0755);
  std::ofstream(tool / "run-me") << "#!/bin/sh\necho tool-ran\n";
  ::chmod((tool / "run-me").c_str(), 0755);
  std::ofstream(home / "secret") << "s\n";
  ::chmod((home / "secret").c_str(), 0644);
  ASSERT_EQ(tlbf::mutants::closed_to_suite_user(tool.string()), std::vector<std::string>{home.string()});
  const Sandbox box{{tool.string()}, {own_.string()}, {}};
  const std::string line = tlbf::shell_quote((tool / "run-me").string()) + "; if [ -e " +
                           tlbf::shell_quote((home / "secret").string()) + " ]; then echo secret-seen; fi";
  const std::string out = run(sandboxed(box, own_.string(), line));
  EXPECT_NE(out.find("tool-ran"), std::string::npos) << out;
  EXPECT_EQ(out.find("secret-seen"), std::string::npos) << out;
}

}  // namespace
