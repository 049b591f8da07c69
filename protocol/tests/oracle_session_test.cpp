// The oracle's protocol session in process, for what transcripts cannot
// reach cheaply: every kind of request must get one line and never throw.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <string>

#include "tlbf/protocol/commands.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::protocol {
namespace {

TEST(Session, WorkedExample) {
  OracleSession s;
  EXPECT_EQ(s.handle("with_rate f 4 0.1"), "ok");
  EXPECT_EQ(s.handle("insert f 636174"), "ok");
  EXPECT_EQ(s.handle("insert f 646f67\r"), "ok");
  EXPECT_EQ(s.handle("to_bytes f"),
            "ok 544c424601000000140000000000000003000000000000000200000000000000096802");
}

// The command table (commands.hpp) is what the session dispatches by: every
// row is answered with its arguments' count, and its success has the row's
// answer form; every probe is a request of its row with that many arguments.
TEST(CommandTable, EveryRowIsHandledAndAnsweredInItsForm) {
  OracleSession s;
  ASSERT_EQ(s.handle("new f 64 3"), "ok");
  ASSERT_EQ(s.handle("new g 64 3"), "ok");
  for (const Command& c : commands()) {
    SCOPED_TRACE(std::string(c.word));
    std::string request(c.word);
    for (Arg a : c.args) {
      switch (a) {
        case Arg::Bytes:
          request += " 544c424601000000140000000000000003000000000000000200000000000000096802";
          break;
        case Arg::Hash:
          request += " 0000000000000001";
          break;
        case Arg::U64:
          request += " 64";
          break;
        case Arg::U32:
          request += " 3";
          break;
        case Arg::Real:
          request += " 0.1";
          break;
        case Arg::NewName:
          request += " h";
          break;
        case Arg::Filter:
          request += c.effect == Effect::Drops ? " g" : " f";
          break;
      }
    }
    const std::string answer = s.handle(request);
    ASSERT_EQ(answer.rfind("ok", 0), 0u) << request << " -> " << answer;
    const auto words = split_words(answer);
    ASSERT_TRUE(words.has_value());
    EXPECT_TRUE(has_answer_form(c.answer, std::vector<std::string_view>(words->begin() + 1, words->end())))
        << request << " -> " << answer;
    EXPECT_EQ(s.handle(request + " 1").rfind("err Protocol", 0), 0u) << "one argument too many";
    for (const auto probe : c.probes) {
      const auto probe_words = split_words(probe);
      ASSERT_TRUE(probe_words.has_value()) << probe;
      EXPECT_EQ((*probe_words)[0], c.word) << probe;
      EXPECT_EQ(probe_words->size(), c.args.size() + 1) << probe;
    }
  }
  EXPECT_EQ(s.handle("clear f").rfind("err Unknown", 0), 0u);
  EXPECT_EQ(command_named("clear"), nullptr);
}

// docs/protocol.md, section 4, lists the table's commands: the same words,
// the same number of arguments, the same capability.
TEST(CommandTable, IsTheOneDocsProtocolMdLists) {
  std::ifstream in(TLBF_SOURCE_DIR "/docs/protocol.md");
  std::string line;
  while (std::getline(in, line) && line != "## 4. Commands") {
  }
  const std::regex row(R"(^\| `([a-z0-9_]+)((?: [A-Z_]+)*)` \| .* \| ([a-z()]+) \|$)");
  std::set<std::string> documented;
  while (std::getline(in, line) && line.rfind("## ", 0) != 0) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const std::string word = m[1];
    documented.insert(word);
    const Command* c = command_named(word);
    ASSERT_NE(c, nullptr) << "docs/protocol.md lists '" << word << "', the command table has not";
    const std::string args = m[2];
    EXPECT_EQ(static_cast<std::size_t>(std::count(args.begin(), args.end(), ' ')), c->args.size()) << word;
    EXPECT_EQ(std::string(m[3]), c->capability ? std::string(to_string(*c->capability)) : "(all)") << word;
  }
  std::set<std::string> table;
  for (const Command& c : commands()) table.insert(std::string(c.word));
  EXPECT_EQ(documented, table);
}

TEST(Session, ErrorsCarryAKindAndAMessage) {
  OracleSession s;
  EXPECT_EQ(s.handle("new f 0 3"), "err BadParams m = 0; must be 1 ..= 2^40");
  EXPECT_EQ(s.handle("info f"), "err NoSuchFilter no filter 'f'");
  EXPECT_EQ(s.handle("insert f zz"), "err Protocol argument 2 of insert must be bytes (hex, or - for none)");
}

TEST(Session, RandomLinesAlwaysGetOneLineAnswers) {
  // Random printable and unprintable garbage, and mutations of real requests.
  OracleSession s;
  ASSERT_EQ(s.handle("new f 64 3"), "ok");
  std::mt19937_64 rng(42);
  const std::string seeds[] = {"insert f 00",          "union f f",         "from_bytes g 544c4246",
                               "positions_for 20 3 -", "with_rate h 4 0.1", "optimal_m 4 1e-300"};
  for (int i = 0; i < 20000; ++i) {
    std::string line = seeds[rng() % std::size(seeds)];
    const int edits = static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !line.empty(); ++e) {
      const std::size_t at = rng() % line.size();
      switch (rng() % 3) {
        case 0:
          line[at] = static_cast<char>(rng() % 256);
          break;
        case 1:
          line.erase(at, 1);
          break;
        default:
          line.insert(at, 1, static_cast<char>(32 + rng() % 95));
          break;
      }
    }
    const std::string answer = s.handle(line);
    ASSERT_TRUE(answer == "ok" || answer.rfind("ok ", 0) == 0 || answer.rfind("err ", 0) == 0) << answer;
    ASSERT_EQ(answer.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace tlbf::protocol
