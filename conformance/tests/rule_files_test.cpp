// The rule cases written as files (conformance/cases, rule_files.hpp): each
// one compiled in and parsed, its header read as documented, `< ?` answered
// by the oracle, and docs/check.md's table of rules and the files' `# rule:`
// lines (and the rules of the computed cases) in agreement. The table is read
// here, by the test; tlbf itself never reads the docs.
#include <fnmatch.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tlbf/conformance/rule_cases.hpp"
#include "tlbf/conformance/rule_files.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {
namespace {

struct Row {
  std::string rule;
  std::vector<std::string> names;  // the backticked names and globs of its cases cell
};

// docs/check.md, "Rules and the cases that check them": "| RULE | SOURCE | CASES |" rows.
std::vector<Row> table_rows() {
  std::ifstream doc(TLBF_CHECK_DOC);
  std::stringstream text;
  text << doc.rdbuf();
  const std::string all = text.str();
  const std::size_t start = all.find("## Rules and the cases that check them");
  EXPECT_NE(start, std::string::npos) << "no rules table in " << TLBF_CHECK_DOC;
  std::vector<Row> rows;
  std::istringstream lines(all.substr(start));
  std::string line;
  std::getline(lines, line);  // the heading
  while (std::getline(lines, line) && line.rfind("## ", 0) != 0) {
    if (line.rfind("| ", 0) != 0 || line.rfind("|---", 0) == 0) continue;
    const std::size_t first = line.find(" | ");
    const std::size_t cases = line.find(" | ", first + 3);
    if (cases == std::string::npos) continue;
    Row row{line.substr(2, first - 2), {}};
    const std::string cell = line.substr(cases + 3);
    static const std::regex ticked("`([^`]+)`");
    for (std::sregex_iterator it(cell.begin(), cell.end(), ticked), end; it != end; ++it)
      row.names.push_back((*it)[1]);
    rows.push_back(std::move(row));
  }
  EXPECT_GT(rows.size(), 1u);
  return rows.size() > 1 ? std::vector<Row>(rows.begin() + 1, rows.end()) : rows;  // without the header row
}

// The rules of the rows that name `name` (or a glob matching it), in the table's order.
std::vector<std::string> rules_naming(const std::vector<Row>& rows, const std::string& name) {
  std::vector<std::string> out;
  for (const Row& row : rows) {
    for (const auto& glob : row.names) {
      if (::fnmatch(glob.c_str(), name.c_str(), 0) == 0) {
        out.push_back(row.rule);
        break;
      }
    }
  }
  return out;
}

TEST(RuleFiles, EveryFileIsCompiledInAndParses) {
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(TLBF_RULE_CASES_DIR)) {
    if (!entry.is_regular_file()) continue;
    const auto relative = std::filesystem::relative(entry.path(), TLBF_RULE_CASES_DIR).string();
    EXPECT_EQ(entry.path().extension(), ".txt") << relative << ": only NAME.txt files are cases";
    on_disk.insert(relative.substr(0, relative.size() - 4));
  }
  const auto files = rule_files();
  ASSERT_TRUE(files.ok()) << files.why();
  std::set<std::string> compiled;
  for (const auto& f : files.value()) compiled.insert(f.name);
  EXPECT_EQ(compiled, on_disk) << "reconfigure (cmake) after adding or removing a case file";
  EXPECT_GT(compiled.size(), 100u);
}

TEST(RuleFiles, EveryFileIsACaseOfTheCheckUnderItsPath) {
  const auto files = rule_files();
  ASSERT_TRUE(files.ok()) << files.why();
  std::map<std::string, Case> by_name;
  auto cases = deterministic_cases().value();
  for (auto& c : cases) by_name.emplace(c.name, std::move(c));
  for (const auto& f : files.value()) {
    const auto found = by_name.find(f.name);
    ASSERT_NE(found, by_name.end()) << f.name;
    EXPECT_EQ(found->second.about, f.rules.front()) << f.name;
    EXPECT_EQ(found->second.steps.size(), f.steps.size()) << f.name;
  }
}

TEST(RuleFiles, TheDocsTableAndTheFilesAgree) {
  const auto rows = table_rows();
  const auto files = rule_files();
  ASSERT_TRUE(files.ok()) << files.why();
  for (const auto& f : files.value()) {
    EXPECT_EQ(f.rules, rules_naming(rows, f.name))
        << "conformance/cases/" << f.name << ".txt: its '# rule:' lines must be the rules of the rows of "
        << "docs/check.md's table that name it, in the table's order";
  }
}

TEST(RuleFiles, EveryCaseHasItsFirstRowsRule) {
  // A file's first '# rule:' line, or for a case made in code (the long
  // lines, the described families, the corpus) a constant there: the rule of
  // the table's first row naming the case, which its report shows.
  const auto rows = table_rows();
  const auto cases = deterministic_cases().value();
  for (const auto& c : cases) {
    const auto rules = rules_naming(rows, c.name);
    ASSERT_FALSE(rules.empty()) << c.name << " is named by no row of docs/check.md's table";
    EXPECT_EQ(c.about, rules.front()) << c.name;
  }
}

TEST(RuleFiles, TheDocsExampleIsACase) {
  // docs/check.md, "Rule cases as files": the first block after the heading.
  std::ifstream doc(TLBF_CHECK_DOC);
  std::stringstream text;
  text << doc.rdbuf();
  const std::string all = text.str();
  const std::size_t section = all.find("### Rule cases as files");
  ASSERT_NE(section, std::string::npos);
  const std::size_t open = all.find("```\n", section);
  const std::size_t close = all.find("```\n", open + 4);
  ASSERT_NE(close, std::string::npos);
  auto file = parse_rule_file(all.substr(open + 4, close - open - 4), "state/example");
  ASSERT_TRUE(file.ok()) << file.why();
  EXPECT_EQ(file->rules, rules_naming(table_rows(), "state/union_self_doubles_count"));
  const Case c = case_from_file(std::move(file.value()));
  protocol::OracleSession oracle;
  for (const auto& step : c.steps) EXPECT_FALSE(mismatch(step.pattern, oracle.handle(step.request)));
}

TEST(RuleFiles, TheProbeFileSetsAllButTheLastProbe) {
  // items/contains_reads_every_probe: cat's first 32 probe bits at m = 1000,
  // k = 33, made again from the oracle's positions; the 33rd is not among them.
  protocol::OracleSession oracle;
  oracle.handle("new p33 1000 33");
  std::istringstream words(oracle.handle("positions p33 636174").substr(3));
  std::vector<std::uint64_t> positions;
  for (std::uint64_t g; words >> g;) positions.push_back(g);
  ASSERT_EQ(positions.size(), 33u);
  std::vector<std::uint8_t> bits(125, 0);
  for (std::size_t i = 0; i + 1 < positions.size(); ++i)
    bits[positions[i] / 8] |= static_cast<std::uint8_t>(1 << (positions[i] % 8));
  EXPECT_EQ(std::count(positions.begin(), positions.end() - 1, positions.back()), 0);
  // The header: TLBF, version 1, m = 1000, k = 33, reserved 0, n_inserted = 1 (docs/format.md, section 5).
  const std::string file = std::string("544c4246") + "01000000" + "e803000000000000" + "21000000" +
                           "00000000" + "0100000000000000" + protocol::write_bytes(bits);
  const auto files = rule_files();
  ASSERT_TRUE(files.ok()) << files.why();
  for (const auto& f : files.value()) {
    if (f.name == "items/contains_reads_every_probe") {
      EXPECT_EQ(f.steps.at(0).request, "from_bytes rp " + file);
      return;
    }
  }
  FAIL() << "no file items/contains_reads_every_probe";
}

TEST(RuleFiles, TheHeaderIsRead) {
  const auto file = parse_rule_file(
      "# rule: first\n# rule: second\n# flags: CountSaturates\n# patience: 30 s\n#\n# a comment\n"
      "> new f 20 3\n< ?\n# a comment between\n> info f\n< ok 20 3 0\n>x 68656c6c6f0d\n< ok 1 *\n",
      "x/y");
  ASSERT_TRUE(file.ok()) << file.why();
  EXPECT_EQ(file->name, "x/y");
  EXPECT_EQ(file->rules, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(file->flags, "CountSaturates");
  EXPECT_EQ(file->patience, std::chrono::seconds(30));
  ASSERT_EQ(file->steps.size(), 3u);
  EXPECT_EQ(file->steps[0].stated, "");  // `< ?`: the oracle's
  EXPECT_EQ(file->steps[1].stated, "ok 20 3 0");
  EXPECT_EQ(file->steps[2].request, "hello\r");
}

TEST(RuleFiles, TheOracleAnswersTheQuestionMarks) {
  // docs/protocol.md, section 4: a new filter of m = 20, k = 3 holds nothing.
  auto file = parse_rule_file("# rule: r\n> new f 20 3\n< ?\n> info f\n< ?\n> union f g\n< ?\n", "x");
  ASSERT_TRUE(file.ok()) << file.why();
  const Case c = case_from_file(std::move(file.value()));
  ASSERT_EQ(c.steps.size(), 3u);
  EXPECT_EQ(c.steps[0].pattern, "ok");
  EXPECT_EQ(c.steps[1].pattern, "ok 20 3 0");
  EXPECT_EQ(c.steps[2].pattern, "err NoSuchFilter");
  EXPECT_EQ(c.about, "r");
  EXPECT_FALSE(c.acceptable);
  EXPECT_EQ(c.needs, (std::set<Capability>{Capability::Filter, Capability::Union}));
}

TEST(RuleFiles, FlagsMakeTheCaseAcceptable) {
  auto file = parse_rule_file("# rule: r\n# flags: OutOfDomain\n> optimal_m 0 0.5\n< ?\n", "x");
  ASSERT_TRUE(file.ok()) << file.why();
  const Case c = case_from_file(std::move(file.value()));
  EXPECT_TRUE(c.acceptable);
  EXPECT_EQ(c.why, "OutOfDomain");
}

TEST(RuleFiles, AMalformedFileIsRefusedWithItsLine) {
  const std::map<std::string, std::string> bad = {
      {"> hello\n< ok 1 *\n", "1: no '# rule:' line"},
      {"# rule: r\n> hello\n< ok 1 *\n# rule: s\n", "4: a '# rule:', '# flags:' or '# patience:' line after"},
      {"# rule: r\n# flags: A\n# flags: B\n> hello\n< ?\n", "3: a second '# flags:' line"},
      {"# rule: r\n# patience: 30\n> hello\n< ?\n", "2: '# patience:' takes whole seconds"},
      {"# rule: r\n# patience: 0 s\n> hello\n< ?\n", "2: '# patience:' takes whole seconds"},
      {"# rule: r\n> hello\n> hello\n< ?\n", "3: a request follows a request"},
      {"# rule: r\n", "no request in the whole transcript"},
      {"# rule: r\nhello\n< ?\n", "2: a line must start with"},
      {"# rule: r\r\n> hello\r\n< ?\r\n", "1: a '\\r' in the line (CRLF line ends?)"},
  };
  for (const auto& [text, why] : bad) {
    const auto file = parse_rule_file(text, "x");
    ASSERT_FALSE(file.ok()) << text;
    EXPECT_NE(file.why().find(why), std::string::npos) << text << "\n-> " << file.why();
  }
}

}  // namespace
}  // namespace tlbf::conformance
