// The oracle's protocol session in process, for what transcripts cannot
// reach cheaply: every kind of request must get one line and never throw.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "tlbf/protocol/session.hpp"

namespace tlbf::protocol {
namespace {

TEST(Session, WorkedExample) {
  OracleSession s;
  EXPECT_EQ(s.handle("with_rate f 4 0.1"), "ok");
  EXPECT_EQ(s.handle("insert f 636174"), "ok");
  EXPECT_EQ(s.handle("insert f 646f67\r"), "ok");
  EXPECT_EQ(s.handle("to_bytes f"), "ok 544c424601000000140000000000000003000000000000000200000000000000096802");
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
  const std::string seeds[] = {"insert f 00", "union f f", "from_bytes g 544c4246", "positions_for 20 3 -",
                               "with_rate h 4 0.1", "optimal_m 4 1e-300"};
  for (int i = 0; i < 20000; ++i) {
    std::string line = seeds[rng() % std::size(seeds)];
    const int edits = static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !line.empty(); ++e) {
      const std::size_t at = rng() % line.size();
      switch (rng() % 3) {
        case 0: line[at] = static_cast<char>(rng() % 256); break;
        case 1: line.erase(at, 1); break;
        default: line.insert(at, 1, static_cast<char>(32 + rng() % 95)); break;
      }
    }
    const std::string answer = s.handle(line);
    ASSERT_TRUE(answer == "ok" || answer.rfind("ok ", 0) == 0 || answer.rfind("err ", 0) == 0) << answer;
    ASSERT_EQ(answer.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace tlbf::protocol
