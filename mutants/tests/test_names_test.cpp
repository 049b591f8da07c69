// Which tests failed, read from a test runner's output, and the words that
// run only them (test_names.hpp). The outputs are libtest's own (rustc 1.95,
// `-q --test-threads=1`, a crate whose tests::a and tests::b fail and whose
// tests::b prints a false failures list of its own), thread ids removed.
#include "tlbf/mutants/test_names.hpp"

#include <gtest/gtest.h>

namespace tlbf::mutants {
namespace {

using Names = std::vector<std::string>;

constexpr const char* kTwoFailed = R"(
running 4 tests
tests::a --- FAILED
. 2/4
tests::b --- FAILED
.
failures:

---- tests::a stdout ----

thread 'tests::a'  panicked at src/lib.rs:3:22:
assertion `left == right` failed
  left: 1
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

---- tests::b stdout ----
failures:
    fake

test result: FAILED.

thread 'tests::b'  panicked at src/lib.rs:4:79:
b


failures:
    tests::b
    tests::a

test result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

)";

TEST(TestNames, LibtestsLastFailuresListNamesTheFailedTestsNotATestsOwnOutput) {
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, kTwoFailed), (Names{"tests::a", "tests::b"}));
}

TEST(TestNames, APassingRunACrashedOneAndAnUnnamedRunnerNameNone) {
  EXPECT_EQ(
      failed_tests(TestRunner::kLibtest,
                   "\nrunning 4 tests\n....\ntest result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 "
                   "filtered out; finished in 0.00s\n\n"),
      Names{});
  // Killed by a signal half way: no summary at all.
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, "\nrunning 4 tests\ntests::a --- FAILED\n."), Names{});
  EXPECT_EQ(failed_tests(TestRunner::kUnnamed, kTwoFailed), Names{});
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, ""), Names{});
}

TEST(TestNames, ALibtestListWithAWordThatIsNoTestsNameNamesNone) {
  // A suite that writes its own summary last could make tlbf run its test
  // executable with an option: "--list" lists the tests and passes.
  const std::string forged =
      "failures:\n    tests::a\n    --list\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored\n";
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, forged), Names{});
  EXPECT_EQ(
      failed_tests(TestRunner::kLibtest, "failures:\n    tests::a b\n\ntest result: FAILED. 0 passed\n"),
      Names{});
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, "failures:\r\n    tests::a\r\n\r\ntest result: FAILED. 0\r\n"),
            Names{"tests::a"});
}

TEST(TestNames, AListTooLongForACommandLineNamesNone) {
  const auto listing = [](std::size_t names, std::size_t length) {
    std::string out = "failures:\n";
    for (std::size_t i = 0; i < names; ++i)
      out += "    t" + std::string(length - 1, 'x') + std::to_string(i) + "\n";
    return out + "\ntest result: FAILED. 0 passed\n";
  };
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, listing(kMostFailedTests, 4)).size(), kMostFailedTests);
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, listing(kMostFailedTests + 1, 4)), Names{});
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, listing(1, kLongestTestName - 1)).size(), 1U);
  EXPECT_EQ(failed_tests(TestRunner::kLibtest, listing(1, kLongestTestName)), Names{});
}

TEST(TestNames, LibtestRunsOnlyTheNamedTestsByTheirExactNames) {
  EXPECT_EQ(running_only(TestRunner::kLibtest, {"target/ds08_bloom", "-q"}, {"tests::a", "tests::b"}),
            (Names{"target/ds08_bloom", "-q", "--exact", "tests::a", "tests::b"}));
}

TEST(TestNames, OnlyLibtestIsARunnerTlbfKnows) {
  EXPECT_EQ(test_runner_named("libtest"), TestRunner::kLibtest);
  EXPECT_EQ(test_runner_named("pytest"), std::nullopt);
  EXPECT_EQ(test_runner_named(""), std::nullopt);
}

}  // namespace
}  // namespace tlbf::mutants
