// Quoting for /bin/sh, held to what the shell itself reads back.
#include "tlbf/shell_quote.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace tlbf {
namespace {

// What /bin/sh makes of `line` as the words of printf '%s\n'.
std::string as_sh_reads(const std::string& line) {
  const std::string command = "printf '%s\\n' " + line;
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  for (int c; (c = std::fgetc(pipe)) != EOF;) out += static_cast<char>(c);
  ::pclose(pipe);
  return out;
}

TEST(ShellQuote, QuotesEveryWordWhole) {
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
  for (const std::string word : {"it's $HOME", "a b\tc", "\"q\" `x` \\ *", "", "''"})
    EXPECT_EQ(as_sh_reads(shell_quote(word)), word + "\n") << word;
}

TEST(ShellQuote, LeavesPlainWordsAsTheyAre) {
  EXPECT_EQ(shell_quote_if_needed("/usr/bin/tlbf-relay"), "/usr/bin/tlbf-relay");
  EXPECT_EQ(shell_quote_if_needed("a=b,c:d@e%f+g"), "a=b,c:d@e%f+g");
  EXPECT_EQ(shell_quote_if_needed("a b"), "'a b'");
  EXPECT_EQ(shell_quote_if_needed(""), "''");
  EXPECT_EQ(as_sh_reads(shell_quote_if_needed("x;y")), "x;y\n");
}

}  // namespace
}  // namespace tlbf
