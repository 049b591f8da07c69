// The transcript replayer must fail every broken implementation: a harness
// that passes a broken implementation is the worst bug this project can ship.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <fstream>

#include "tlbf/conformance/process.hpp"
#include "tlbf/conformance/transcript.hpp"

namespace tlbf::conformance {
namespace {

Budget quick_budget() {
  Budget b;
  b.first_answer = std::chrono::seconds(5);  // ends a hang; not a speed requirement
  return b;
}

using namespace std::chrono_literals;

Transcript parse(std::string_view text) {
  auto t = parse_transcript(text, "t");
  if (!t) throw std::runtime_error(t.why());
  return t.value();
}

const char* const kTwoRequests = "> hello\n< ok 1 *\n> fnv1a64 -\n< ok cbf29ce484222325\n";

TEST(TranscriptParse, ReadsRequestsResponsesAndRawBytes) {
  const Transcript t = parse("# c\n\n> hello\n< ok 1 *\n>x 68690d\n< err Protocol\n>x -\n< err Protocol\n");
  ASSERT_EQ(t.exchanges.size(), 3U);
  EXPECT_EQ(t.exchanges[0].request, "hello");
  EXPECT_EQ(t.exchanges[0].line, 3);
  EXPECT_EQ(t.exchanges[1].request, "hi\r");
  EXPECT_EQ(t.exchanges[1].pattern, "err Protocol");
  EXPECT_EQ(t.exchanges[2].request, "");
}

TEST(TranscriptParse, RefusesMalformedTranscripts) {
  for (const char* bad : {"> a\n> b\n< ok\n", "< ok\n", "> a\n", "hello\n", ">x 0a\n< ok\n", ">x zz\n< ok\n",
                          "", "# only a comment\n"}) {
    const auto t = parse_transcript(bad, "t");
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_FALSE(t.why().empty());
  }
}

TEST(TranscriptParse, AQuestionMarkIsTheOraclesAnswer) {
  // docs/protocol.md, sections 4 and 7: a new filter of m = 20, k = 3 holds
  // nothing; an error is compared by its kind; hello's words after its
  // version are free.
  Transcript t =
      parse("> new f 20 3\n< ?\n> info f\n< ?\n> union f g\n< ?\n> hello\n< ?\n> info f\n< ok 20 3 0\n");
  fill_in_oracle_answers(t);
  ASSERT_EQ(t.exchanges.size(), 5U);
  EXPECT_EQ(t.exchanges[0].pattern, "ok");
  EXPECT_EQ(t.exchanges[1].pattern, "ok 20 3 0");
  EXPECT_EQ(t.exchanges[2].pattern, "err NoSuchFilter");
  EXPECT_EQ(t.exchanges[3].pattern, "ok 1 *");
  EXPECT_EQ(t.exchanges[4].pattern, "ok 20 3 0");
}

TEST(Patterns, MatchWordByWord) {
  EXPECT_EQ(mismatch("ok 11 14 17", "ok 11 14 17"), std::nullopt);
  EXPECT_NE(mismatch("ok 11 14 17", "ok 11 14 16"), std::nullopt);
  EXPECT_NE(mismatch("ok 11 14 17", "ok 11 14"), std::nullopt);
  EXPECT_NE(mismatch("ok 11 14", "ok 11 14 17"), std::nullopt);
  EXPECT_NE(mismatch("ok", "ok "), std::nullopt);
  EXPECT_NE(mismatch("ok true", "ok  true"), std::nullopt);
}

TEST(Patterns, ErrorsCompareTheKindOnly) {
  EXPECT_EQ(mismatch("err Format", "err Format anything at all"), std::nullopt);
  EXPECT_EQ(mismatch("err Format", "err Format"), std::nullopt);
  EXPECT_NE(mismatch("err Format", "err BadParams m = 0"), std::nullopt);
  EXPECT_NE(mismatch("err Format", "ok"), std::nullopt);
  EXPECT_NE(mismatch("ok", "err Format"), std::nullopt);
}

TEST(Patterns, WildcardAndReals) {
  EXPECT_EQ(mismatch("ok 1 *", "ok 1"), std::nullopt);
  EXPECT_EQ(mismatch("ok 1 *", "ok 1 my impl 2.0"), std::nullopt);
  EXPECT_NE(mismatch("ok 1 *", "ok 2 x"), std::nullopt);
  EXPECT_EQ(mismatch("ok ~0.017410586496326586", "ok 1.7410586496326586e-2"), std::nullopt);
  EXPECT_EQ(mismatch("ok ~1.0", "ok 1"), std::nullopt);
  EXPECT_EQ(mismatch("ok ~nan", "ok nan"), std::nullopt);
  EXPECT_NE(mismatch("ok ~0.0174106", "ok 0.017410586496326586"), std::nullopt);  // 6 digits are not enough
  EXPECT_NE(mismatch("ok ~1.0", "ok nan"), std::nullopt);
  // An infinity agrees only with the same infinity: a relative difference
  // alone (inf - x <= 1e-12 * inf) would pass `inf` for every rate.
  EXPECT_EQ(mismatch("ok ~inf", "ok inf"), std::nullopt);
  EXPECT_EQ(mismatch("ok ~-inf", "ok -inf"), std::nullopt);
  EXPECT_NE(mismatch("ok ~0.017410586496326586", "ok inf"), std::nullopt);
  EXPECT_NE(mismatch("ok ~0.017410586496326586", "ok -inf"), std::nullopt);
  EXPECT_NE(mismatch("ok ~inf", "ok 1.7976931348623157e308"), std::nullopt);
  EXPECT_NE(mismatch("ok ~inf", "ok -inf"), std::nullopt);
  EXPECT_NE(mismatch("ok ~1.0", "ok one"), std::nullopt);
}

// Each of these "implementations" is wrong in one way; replay must say so.
struct BrokenStub {
  const char* name;
  const char* command;
  friend void PrintTo(const BrokenStub& b, std::ostream* os) { *os << b.name; }
};

class BrokenImplementations : public ::testing::TestWithParam<BrokenStub> {};

TEST_P(BrokenImplementations, AreReportedAsFailing) {
  const ReplayReport report = replay(parse(kTwoRequests), GetParam().command, quick_budget());
  EXPECT_FALSE(report.passed);
  EXPECT_FALSE(report.failures.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Replay, BrokenImplementations,
    ::testing::Values(
        BrokenStub{"Silent", "cat > /dev/null"}, BrokenStub{"Echo", "cat"},
        BrokenStub{"OneAnswerShort", "read a; echo 'ok 1 x'; cat > /dev/null"},
        BrokenStub{"ExtraLine", "printf 'ok 1 x\\nok cbf29ce484222325\\nok\\n'; cat > /dev/null"},
        BrokenStub{"WrongValue", "printf 'ok 1 x\\nok cbf29ce484222324\\n'; cat > /dev/null"},
        BrokenStub{"NoFinalNewline", "printf 'ok 1 x\\nok cbf29ce484222325'; cat > /dev/null"},
        BrokenStub{"ExitsNonZero", "printf 'ok 1 x\\nok cbf29ce484222325\\n'; cat > /dev/null; exit 1"},
        BrokenStub{"Crashes", "printf 'ok 1 x\\nok cbf29ce484222325\\n'; cat > /dev/null; kill -SEGV $$"},
        BrokenStub{"Hangs", "printf 'ok 1 x\\nok cbf29ce484222325\\n'; exec sleep 60"},
        BrokenStub{"Missing", "/nonexistent/implementation"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(Replay, AConformingStubPasses) {
  // The control for the broken ones above: the same shape, answering right.
  const ReplayReport report = replay(
      parse(kTwoRequests), "printf 'ok 1 stub\\nok cbf29ce484222325\\n'; cat > /dev/null", quick_budget());
  EXPECT_TRUE(report.passed) << (report.failures.empty() ? "" : report.failures[0]);
}

TEST(Replay, ALongAcceptableAnswerAboutAnOpenFilterIsJudgedNotCutOff) {
  // The oracle refuses k = 70000 (the filter does not exist), so the
  // transcript expects err NoSuchFilter; an implementation that takes such a
  // k (acceptable: StrictKBound) then answers to_bytes with 125,032 bytes, a
  // line of 250 KB (read in several chunks) that the answer limit of
  // "err NoSuchFilter" must not cut. The file is the empty filter of that m
  // and k (m = 1000000 = 0x0f4240, k = 70000 = 0x011170, little-endian),
  // since the k given is the filter's k (docs/check.md, "What is acceptable").
  const ReplayReport report =
      replay(parse("> new f 1000000 70000\n< err BadParams\n> to_bytes f\n< err NoSuchFilter\n"),
             "printf 'ok\\nok 544c42460100000040420f00000000007011010000000000'; "
             "head -c 250016 /dev/zero | tr '\\0' 0; echo; cat > /dev/null",
             quick_budget());
  EXPECT_TRUE(report.passed) << (report.failures.empty() ? "" : report.failures[0]);
  EXPECT_FALSE(report.acceptable.empty());
}

// Alive and not a zombie: a killed process whose new parent has not reaped it
// yet still answers kill(pid, 0), so read its state instead.
bool is_running(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, command, state;
  if (!(stat >> pid_field >> command >> state)) return false;  // gone
  return state != "Z" && state != "X";
}

TEST(Process, TimeoutKillsTheWholeGroup) {
  // The grandchild writes its pid, then would outlive a careless harness.
  const auto start = std::chrono::steady_clock::now();
  // 3 s: time enough for the grandchild to print its pid on a loaded machine.
  const RunResult run = run_with_input("sh -c 'echo $$; exec sleep 60' & wait", "", 3s);
  EXPECT_TRUE(run.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 30s);  // a hang guard, not a speed test
  ASSERT_FALSE(run.out.empty()) << "the grandchild never printed its pid";
  const int grandchild = std::stoi(run.out);
  // SIGKILL is delivered asynchronously: allow the kernel a moment to act.
  for (int i = 0; i < 500 && is_running(grandchild); ++i) ::usleep(10'000);
  EXPECT_FALSE(is_running(grandchild)) << "pid " << grandchild << " outlived the run";
}

TEST(Process, LargeInputAndOutputDoNotDeadlock) {
  const std::string input(8 << 20, 'x');  // far beyond any pipe buffer
  const RunResult run = run_with_input("cat", input, 60s);
  EXPECT_TRUE(run.exited_cleanly()) << run.how_it_ended();
  EXPECT_EQ(run.out.size(), input.size());
}

TEST(Process, ReportsSignalsAndExitCodes) {
  EXPECT_EQ(run_with_input("exit 7", "", 5s).exit_code, 7);
  EXPECT_EQ(run_with_input("kill -ABRT $$", "", 5s).signal, SIGABRT);
  EXPECT_EQ(run_with_input("echo oops >&2", "", 5s).err, "oops\n");
}

}  // namespace
}  // namespace tlbf::conformance
