// The sandbox a suite runs in (sandbox.hpp), seen from inside: what a suite
// run by a root grader can still change on the machine.
#include "tlbf/mutants/sandbox.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>

#include "tlbf/conformance/process.hpp"
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

}  // namespace
