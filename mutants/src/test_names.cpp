#include "tlbf/mutants/test_names.hpp"

#include <algorithm>
#include <set>

namespace tlbf::mutants {

std::optional<TestRunner> test_runner_named(std::string_view word) {
  if (word == "libtest") return TestRunner::kLibtest;
  return std::nullopt;
}

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const auto end = text.find('\n');
    out.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  for (auto& line : out) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  }
  return out;
}

// A test's path (tests::one): no word libtest would take for an option
// ("--list" would list the tests and pass), no space or control character.
bool a_libtest_name(std::string_view name) {
  return !name.empty() && name.size() <= kLongestTestName && name.front() != '-' &&
         std::none_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) <= ' '; });
}

// libtest ends a failing run with
//   failures:
//       tests::one
//       tests::two
//   <blank>
//   test result: FAILED. ...
// A test's own captured output is printed earlier, under "---- NAME stdout ----",
// and may hold the same words: only the list right before the last result counts.
std::vector<std::string> libtest_failures(std::string_view out) {
  const auto lines = lines_of(out);
  std::size_t result = lines.size();
  while (result > 0 && lines[result - 1].rfind("test result: ", 0) != 0) --result;
  if (result == 0 || lines[result - 1].rfind("test result: FAILED.", 0) != 0) return {};
  std::size_t end = result - 1;  // the result's line
  while (end > 0 && lines[end - 1].empty()) --end;
  std::size_t start = end;
  while (start > 0 && lines[start - 1].rfind("    ", 0) == 0 && lines[start - 1].size() > 4) --start;
  if (start == end || start == 0 || lines[start - 1] != "failures:") return {};
  // A list longer than any suite's (printed by the suite itself) would
  // make a command line the kernel refuses: whole runs instead.
  if (end - start > kMostFailedTests) return {};
  std::set<std::string> names;
  for (std::size_t i = start; i < end; ++i) {
    const std::string_view name = lines[i].substr(4);
    if (!a_libtest_name(name)) return {};
    names.emplace(name);
  }
  return {names.begin(), names.end()};
}

}  // namespace

std::vector<std::string> failed_tests(TestRunner runner, std::string_view out) {
  switch (runner) {
    case TestRunner::kLibtest:
      return libtest_failures(out);
    case TestRunner::kUnnamed:
      break;
  }
  return {};
}

std::vector<std::string> running_only(TestRunner runner, std::vector<std::string> suite,
                                      const std::vector<std::string>& tests) {
  switch (runner) {
    case TestRunner::kLibtest:
      // Exact names: a bare name is a substring filter, and would run
      // tests::a_more beside tests::a.
      suite.push_back("--exact");
      suite.insert(suite.end(), tests.begin(), tests.end());
      break;
    case TestRunner::kUnnamed:
      break;
  }
  return suite;
}

}  // namespace tlbf::mutants
