// The exit codes are one table (cli/src/exit_code.hpp), documented once
// (docs/cli.md, "Exit codes"), and every subcommand's --help footer names
// only codes of that table that docs/cli.md lets it end with.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../src/exit_code.hpp"

namespace {

struct Row {
  std::string name;
  std::set<std::string> subcommands;  // {"all"} for every one
};

// The rows of docs/cli.md's table: | code | name | meaning | subcommands |.
std::map<int, Row> documented() {
  std::ifstream in(TLBF_SOURCE_DIR "/docs/cli.md");
  std::string line;
  while (std::getline(in, line) && line != "## Exit codes") {
  }
  std::map<int, Row> rows;
  const std::regex row(R"(^\| (\d+) \| ([a-z-]+) \| .* \| ([a-z ,]+) \|$)");
  while (std::getline(in, line) && line.rfind("## ", 0) != 0) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    Row r{m[2], {}};
    std::stringstream names(m[3]);
    for (std::string name; std::getline(names, name, ',');)
      r.subcommands.insert(name.substr(name.find_first_not_of(' ')));
    rows[std::stoi(m[1])] = r;
  }
  return rows;
}

std::string help_of(const std::string& subcommand) {
  const std::string command = std::string(TLBF_BINARY) + " " + subcommand + " --help";
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

// The codes a footer names: "Exit codes: 0 ...; 1 ...; 2 usage. See ...".
std::vector<int> footer_codes(const std::string& help) {
  std::vector<int> codes;
  const auto start = help.find("Exit codes:");
  if (start == std::string::npos) return codes;
  std::string text = help.substr(start + 11);
  std::replace(text.begin(), text.end(), '\n', ' ');
  const std::regex code(R"((?:^|;)\s*(\d+) )");
  for (std::sregex_iterator it(text.begin(), text.end(), code), end; it != end; ++it)
    codes.push_back(std::stoi((*it)[1]));
  return codes;
}

TEST(ExitCodes, AreTheDocumentedOnes) {
  const auto rows = documented();
  ASSERT_FALSE(rows.empty()) << "no table under docs/cli.md's '## Exit codes'";
  std::map<int, std::string> table;
  for (const auto& m : tlbf::cli::kExitMeanings) table[static_cast<int>(m.code)] = std::string(m.name);
  std::map<int, std::string> docs;
  for (const auto& [code, row] : rows) docs[code] = row.name;
  EXPECT_EQ(docs, table) << "docs/cli.md's exit codes and cli/src/exit_code.hpp differ";

  const std::vector<std::string> subcommands = {
      "inspect",          "build",        "query", "serve",  "mutants diff",
      "vectors generate", "vectors lint", "check", "mutate", "grade"};
  for (const auto& subcommand : subcommands) {
    const auto codes = footer_codes(help_of(subcommand));
    EXPECT_FALSE(codes.empty()) << "tlbf " << subcommand << " --help names no exit code";
    EXPECT_TRUE(std::is_sorted(codes.begin(), codes.end())) << subcommand;
    for (int code : codes) {
      const auto row = rows.find(code);
      ASSERT_NE(row, rows.end()) << "tlbf " << subcommand << " --help names exit " << code
                                 << ", which docs/cli.md has not";
      EXPECT_TRUE(row->second.subcommands.count("all") || row->second.subcommands.count(subcommand))
          << "tlbf " << subcommand << " --help names exit " << code << " (" << row->second.name
          << "), which docs/cli.md does not give it";
    }
    // And each code documented for this subcommand in particular is in its footer.
    for (const auto& [code, row] : rows) {
      if (row.subcommands.count(subcommand)) {
        EXPECT_NE(std::find(codes.begin(), codes.end(), code), codes.end())
            << "docs/cli.md gives tlbf " << subcommand << " exit " << code << " (" << row.name
            << "), its --help does not";
      }
    }
  }
}

}  // namespace
