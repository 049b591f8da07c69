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

}  // namespace
}  // namespace tlbf::conformance
