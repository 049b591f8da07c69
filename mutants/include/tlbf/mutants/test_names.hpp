// Naming a suite's tests: which ones failed in a run, and the words that run
// only some of them (docs/mutants.md, "A kill must be reproducible"). A kit
// says which test runner its suite is run by ("test_runner"); a kit that
// does not, runs its suite whole every time.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tlbf::mutants {

enum class TestRunner {
  kUnnamed,  // the kit does not say: no test is run alone
  kLibtest,  // a Rust test executable (libtest): `--exact NAME...`
};

// The runner a kit's "test_runner" names ("libtest"); nullopt for a word tlbf does not know.
std::optional<TestRunner> test_runner_named(std::string_view word);

// The tests that failed in a run whose standard output is `out`, as the
// runner lists them at its end (libtest's last "failures:" list before
// "test result: FAILED."), each once, in name order. Empty when the runner
// is kUnnamed or the output lists none: a run cut short by a crash, a
// timeout, or output that does not end as the runner's does, or a list of
// more than kMostFailedTests names or a name longer than kLongestTestName.
inline constexpr std::size_t kMostFailedTests = 1000;
inline constexpr std::size_t kLongestTestName = 1000;
std::vector<std::string> failed_tests(TestRunner runner, std::string_view out);

// The suite's words running only `tests` (each by its exact name). `tests`
// must not be empty, nor the runner kUnnamed.
std::vector<std::string> running_only(TestRunner runner, std::vector<std::string> suite,
                                      const std::vector<std::string>& tests);

}  // namespace tlbf::mutants
