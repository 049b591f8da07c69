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

// tlbf serve hands the session each line in pieces as they are read
// (LineHandler), cut anywhere: at every cut, and byte by byte, the answer is
// the one written here by hand from docs/protocol.md's order of checks, as it
// is for the line given whole.
TEST(Session, LinesInPiecesGetTheAnswersOfWholeLines) {
  const std::pair<std::string, std::string> cases[] = {
      {"fnv1a64 636174", "ok f5e307190ce4a327"},
      {"fnv1a64 636174\r", "ok f5e307190ce4a327"},
      {"fnv1a64 636174\r\r", "err Protocol"},
      {"fnv1a64 63\r6174", "err Protocol"},
      {"fnv1a64 636174 ", "err Protocol"},
      {" fnv1a64 636174", "err Protocol"},
      {"fnv1a64  636174", "err Protocol"},
      {"", "err Protocol"},
      {"\r", "err Protocol"},
      {"fnv1a64 63617", "err Protocol argument 1"},
      {"fnv1a64 -", "ok cbf29ce484222325"},
      {"fnv1a64 -0", "err Protocol argument 1"},
      {"fnv1a64 0-", "err Protocol argument 1"},
      {"fnv1a64 636174 00", "err Protocol fnv1a64 takes 1 arguments, not 2"},
      {"fnv1a64x 636174", "err Unknown no command 'fnv1a64x'"},
      {"insert absent_f 00", "err NoSuchFilter"},
      {"insert absent_f 0", "err Protocol argument 2"},
      {"insert f 636174", "ok"},
      {"contains f 636174", "ok false"},  // each line goes to a fresh session, its f empty
      {"from_bytes g 544c424601000000140000000000000003000000000000000200000000000000096802", "ok"},
      {"from_bytes g 544C424601000000140000000000000003000000000000000200000000000000096802", "ok"},
      {"from_bytes g 544c42460100000014000000000000000300000000000000020000000000000009680201", "err Format"},
  };
  // An error is matched by its start (kind, and the words that tell which
  // check failed); a success whole.
  auto starts = [](const std::string& answer, const std::string& expected) {
    return expected.rfind("err ", 0) == 0 ? answer.rfind(expected, 0) == 0 : answer == expected;
  };
  for (const auto& [line, expected] : cases) {
    SCOPED_TRACE(line);
    for (std::size_t cut = 0; cut <= line.size(); ++cut) {
      OracleSession s;
      ASSERT_EQ(s.handle("new f 64 3"), "ok");
      s.add(std::string_view(line).substr(0, cut));
      s.add(std::string_view(line).substr(cut));
      EXPECT_TRUE(starts(s.finish(), expected)) << "cut at " << cut;
    }
    OracleSession s;
    ASSERT_EQ(s.handle("new f 64 3"), "ok");
    for (char c : line) s.add(std::string_view(&c, 1));
    EXPECT_TRUE(starts(s.finish(), expected)) << "byte by byte";
    EXPECT_TRUE(starts(s.handle(line), expected)) << "whole";
  }
}

// A line over the limit is abandoned part way; the next line starts afresh.
TEST(Session, AnAbandonedLineLeavesNothingBehind) {
  OracleSession s;
  s.add("insert absent_f 00");
  s.abandon();
  s.add("hel");
  s.add("lo");
  EXPECT_EQ(s.finish().rfind("ok 1 tlbf-oracle", 0), 0u);
}

}  // namespace
}  // namespace tlbf::protocol
