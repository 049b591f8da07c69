#include "tlbf/lines.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace tlbf {
namespace {

std::vector<std::string> all_lines(const std::string& input) {
  std::istringstream in(input);
  std::vector<std::string> out;
  std::string line;
  while (read_line(in, line)) out.push_back(line);
  return out;
}

using Lines = std::vector<std::string>;

TEST(Lines, SplitsOnNewline) { EXPECT_EQ(all_lines("cat\ndog\n"), (Lines{"cat", "dog"})); }

TEST(Lines, LastLineNeedsNoNewline) { EXPECT_EQ(all_lines("cat\ndog"), (Lines{"cat", "dog"})); }

TEST(Lines, EmptyLinesAreEmptyItems) {
  EXPECT_EQ(all_lines("\n"), (Lines{""}));
  EXPECT_EQ(all_lines("a\n\nb\n"), (Lines{"a", "", "b"}));
}

TEST(Lines, EmptyInputHasNoLines) { EXPECT_EQ(all_lines(""), Lines{}); }

TEST(Lines, DropsOneCarriageReturnBeforeNewline) {
  EXPECT_EQ(all_lines("cat\r\ndog\r\r\n"), (Lines{"cat", "dog\r"}));
}

TEST(Lines, KeepsNulAndHighBytes) {
  const std::string input("a\0b\xff\n", 5);
  EXPECT_EQ(all_lines(input), (Lines{std::string("a\0b\xff", 4)}));
}

}  // namespace
}  // namespace tlbf
