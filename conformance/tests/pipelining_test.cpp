// A pipelining harness sends everything before it reads anything. tlbf serve
// must keep answering: one million contains requests in one stream.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tlbf/conformance/process.hpp"

namespace tlbf::conformance {
namespace {

using namespace std::chrono_literals;

TEST(Pipelining, OracleAnswersAMillionPipelinedRequests) {
  constexpr int kRequests = 1'000'000;
  std::string input = "with_rate f 1000 0.01\ninsert f 636174\n";
  for (int i = 0; i < kRequests; ++i) input += (i % 2 == 0) ? "contains f 636174\n" : "contains f 62697264\n";
  // The limit only ends a deadlock; it is far above any plausible run time.
  const RunResult run = run_with_input(TLBF_ORACLE_IMPL, input, 600s);
  ASSERT_TRUE(run.exited_cleanly()) << run.how_it_ended() << "\n" << run.err;

  std::string expected = "ok\nok\n";
  for (int i = 0; i < kRequests; ++i) expected += (i % 2 == 0) ? "ok true\n" : "ok false\n";
  EXPECT_TRUE(run.out == expected) << "responses differ; got " << run.out.size() << " bytes, want "
                                   << expected.size();
}

TEST(Pipelining, AnOverlongLineIsRefusedAndTheSessionGoesOn) {
  // One byte over the 64 MiB cap, then an ordinary request, then one cut off
  // by the end of input.
  std::string input = "fnv1a64 ";
  input.append((std::size_t{64} << 20) - input.size() + 1, '0');
  input += "\nfnv1a64 636174\nfnv1a64 -";
  const RunResult run = run_with_input(TLBF_ORACLE_IMPL, input, 600s);
  ASSERT_TRUE(run.exited_cleanly()) << run.how_it_ended() << "\n" << run.err;
  EXPECT_EQ(run.out,
            "err Protocol request line longer than 64 MiB\nok f5e307190ce4a327\nok cbf29ce484222325\n");
}

TEST(Pipelining, ALineOfExactlyTheCapIsServed) {
  // 64 MiB with its "\n": an insert of 32 MiB - 5 bytes of zeros.
  std::string line = "insert f ";
  line.append((std::size_t{64} << 20) - line.size() - 1, '0');
  line += "\n";
  ASSERT_EQ(line.size(), std::size_t{64} << 20);
  const RunResult run = run_with_input(TLBF_ORACLE_IMPL, "new f 8 1\n" + line + "info f\n", 600s);
  ASSERT_TRUE(run.exited_cleanly()) << run.how_it_ended();
  EXPECT_EQ(run.out, "ok\nok\nok 8 1 1\n");
}

}  // namespace
}  // namespace tlbf::conformance
