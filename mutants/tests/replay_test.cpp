// The transcript is the lever (docs/mutants.md): clean runs' sessions are
// recorded and compared, and a mutant or chaff that answers them as the
// reference did survives without the suite being run. The expected words and
// counts here are worked out by hand from the sessions the tests write.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <mutex>

#include "tlbf/mutants/hidden.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/mutants/transcript.hpp"
#include "relay_hello.hpp"

namespace tlbf::mutants {
namespace {

using namespace std::chrono_literals;

TEST(Transcript, CountsRequestsAsLinesWithALastOneCutOffIncluded) {
  EXPECT_EQ(requests_in(std::string("hello\nnew f 64 3\n")), 2U);
  EXPECT_EQ(requests_in(std::string("hello\nnew f 64 3")), 2U);
  EXPECT_EQ(requests_in(std::string("")), 0U);
  EXPECT_EQ(requests_in(Transcript{{"a\n", "ok\n"}, {"b\nc\n", "ok\nok\n"}}), 3U);
}

TEST(Transcript, RunsThatMakeTheSameSessionsInAnotherOrderAreAlike) {
  const Session one{"new f 64 3\n", "ok\n"}, two{"hello\n", "ok tlbf-oracle 1\n"};
  EXPECT_EQ(first_difference({one, two, one}, {one, one, two}), "");
  // A session made twice in one run and once in the other is a difference.
  EXPECT_EQ(
      first_difference({one, two, one}, {one, two}),
      "clean runs made 3 and 2 sessions; the session that begins `new f 64 3` is made more times in one "
      "clean run");
}

TEST(Transcript, NamesTheFirstRequestWhereTwoRunsPart) {
  const Transcript a{{"hello\nnew f 64 3\ninsert f 0x01\n", "ok x\nok\nok\n"}};
  const Transcript b{{"hello\nnew f 64 3\ninsert f 0x9c\n", "ok x\nok\nok\n"}};
  EXPECT_EQ(first_difference(a, b),
            "request 3 of a session: `insert f 0x01` in one clean run, `insert f 0x9c` in another");
  EXPECT_EQ(first_difference(a, {}), "clean runs made 1 and 0 sessions; the first begins `hello`");
}

TEST(Transcript, NamesTheFirstRequestAnsweredOtherwiseWithBothAnswers) {
  const Session reference{"new f 64 3\ncontains f 0x61\n", "ok\nok true\n"};
  EXPECT_EQ(answer_difference(reference, "ok\nok true\n"), "");
  EXPECT_EQ(answer_difference(reference, "ok\nok false\n"),
            "request 2, `contains f 0x61`: the reference answered `ok true`, this subject `ok false`");
  EXPECT_EQ(answer_difference(reference, "ok\n"),
            "request 2, `contains f 0x61`: the reference answered `ok true`, this subject nothing");
  EXPECT_EQ(answer_difference(reference, "ok\nok true\nok\n"),
            "after the last request: the reference answered nothing, this subject `ok`");
  EXPECT_EQ(answer_difference(reference, "ok\nok tr\x1b[2J\n"),
            "request 2, `contains f 0x61`: the reference answered `ok true`, this subject `ok tr\\x1b[2J`");
}

// A folder for a test's sockets, removed with it.
struct Folder {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("tlbf-replay-test-" + std::to_string(::getpid()));
  Folder() { std::filesystem::create_directories(path); }
  ~Folder() { std::filesystem::remove_all(path); }
};

std::unique_ptr<HiddenServer> serving(const Folder& folder, const std::string& shell_line) {
  auto started =
      HiddenServer::start_program(folder.path.string(), {"sh", "-c", shell_line}, folder.path.string());
  EXPECT_TRUE(started.ok()) << started.why();
  return started.ok() ? std::move(started).value() : nullptr;
}

// Answers each line `l` with `ok l`, as a protocol implementation answers one line with one.
constexpr const char* kEcho = "while IFS= read -r l || [ -n \"$l\" ]; do echo \"ok $l\"; done";

TEST(HiddenServerReplay, ASubjectThatAnswersAlikeAndReadsEverythingIsAlike) {
  Folder folder;
  auto server = serving(folder, kEcho);
  ASSERT_TRUE(server);
  const Transcript reference{{"a\nb\n", "ok a\nok b\n"}, {"c\n", "ok c\n"}};
  EXPECT_EQ(server->replay(reference, 20s), "");
}

TEST(HiddenServerReplay, SaysWhereAndHowASubjectAnswersOtherwise) {
  Folder folder;
  const Transcript reference{{"a\nb\n", "ok a\nok b\n"}};
  EXPECT_EQ(serving(folder, "while IFS= read -r l; do [ $l = b ] && l=c; echo \"ok $l\"; done")
                ->replay(reference, 20s),
            "request 2, `b`: the reference answered `ok b`, this subject `ok c`");
  // One that writes without end is stopped once its answers part from the reference's.
  EXPECT_EQ(serving(folder, "yes")->replay(reference, 20s),
            "request 1, `a`: the reference answered `ok a`, this subject `y`");
  // One that never ends is stopped at the limit.
  EXPECT_EQ(serving(folder, "cat >/dev/null; sleep 600")->replay(reference, 300ms),
            "it did not answer within the time limit (10 bytes of answers expected, 0 given)");
  // One that answers alike without reading its input.
  EXPECT_EQ(serving(folder, "echo 'ok a'; echo 'ok b'")->replay(reference, 20s),
            "it answered alike but did not read all its input (4 bytes left)");
  // One that answers alike and then dies of a signal.
  EXPECT_EQ(serving(folder, std::string(kEcho) + "; kill -SEGV $$")->replay(reference, 20s),
            "it ended by signal 11");
}

TEST(HiddenServerReplay, ALongSessionCannotDeadlock) {
  Folder folder;
  // 8 MiB of requests, far more than a pipe holds in either direction: the
  // answers must be read while the requests are still being written.
  Session big;
  for (int i = 0; i < 1 << 19; ++i) {
    big.sent += "0123456789abcd\n";
    big.answered += "0123456789abcd\n";
  }
  auto server = serving(folder, "cat");
  ASSERT_TRUE(server);
  EXPECT_EQ(server->replay({big}, 120s), "");
}

using test_support::hand_over;

// One session as a suite makes it through the relay: `requests` written,
// the answers read to their end, the connection's end awaited.
std::string session(HiddenServer& server, const std::string& requests) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strcpy(address.sun_path, server.socket_path().c_str());
  // Close-on-exec, as a suite's would be in a process of its own: the server
  // forks its served processes in this process, from its threads, and a copy
  // of `to`'s write end in one of them would keep this session open forever.
  const int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  EXPECT_EQ(::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  int to[2], from[2];
  EXPECT_EQ(::pipe2(to, O_CLOEXEC), 0);
  EXPECT_EQ(::pipe2(from, O_CLOEXEC), 0);
  hand_over(sock, to[0], from[1]);
  ::close(to[0]), ::close(from[1]);
  EXPECT_EQ(::write(to[1], requests.data(), requests.size()), static_cast<ssize_t>(requests.size()));
  ::close(to[1]);
  std::string answers;
  char buffer[4096];
  for (ssize_t n; (n = ::read(from[0], buffer, sizeof buffer)) > 0;)
    answers.append(buffer, static_cast<std::size_t>(n));
  ::close(from[0]);
  char byte;
  EXPECT_EQ(::read(sock, &byte, 1), 0);  // the relay's end: after the answers
  ::close(sock);
  return answers;
}

TEST(HiddenServerRecording, AServedProcessGetsNoDescriptorItWasNotGiven) {
  std::signal(SIGPIPE, SIG_IGN);
  int leaked[2];  // open in tlbf's process, without O_CLOEXEC
  ASSERT_EQ(::pipe(leaked), 0);
  Folder folder;
  const std::string probe = "read -r l; for fd in " + std::to_string(leaked[0]) + " " +
                            std::to_string(leaked[1]) +
                            "; do [ -e /proc/$$/fd/$fd ] && echo \"has $fd\"; done; echo end";
  auto server = serving(folder, probe);
  ASSERT_TRUE(server);
  EXPECT_EQ(session(*server, "x\n"), "end\n");
  ::close(leaked[0]), ::close(leaked[1]);
}

TEST(HiddenServerRecording, KeepsEverySessionsBytesAndServesThemAsEver) {
  std::signal(SIGPIPE, SIG_IGN);  // as tlbf does
  Folder folder;
  auto server = serving(folder, kEcho);
  ASSERT_TRUE(server);
  server->record();
  EXPECT_EQ(session(*server, "a\nb\n"), "ok a\nok b\n");
  EXPECT_EQ(session(*server, "c"), "ok c\n");  // a last line without its '\n' is still answered
  const auto transcript = server->transcript();
  ASSERT_TRUE(transcript) << transcript.why();
  EXPECT_EQ(first_difference(transcript.value(), {{"a\nb\n", "ok a\nok b\n"}, {"c", "ok c\n"}}), "");
  EXPECT_EQ(transcript->size(), 2U);
  EXPECT_EQ(server->connections(), 2);

  auto unrecorded = serving(folder, kEcho);
  EXPECT_EQ(session(*unrecorded, "a\n"), "ok a\n");
  const auto none = unrecorded->transcript();
  ASSERT_FALSE(none);
  EXPECT_EQ(none.why(), "not recorded");
}

// Served mode as the scorer sees it: every run a shell line (`commands` by
// id: "" clean, "broken", a mutant, chaff or wheat; else `true` for the
// clean and wheat runs and `false` for the others), the n-th recorded clean
// run's sessions `recorded(n)`, and each mutant's or chaff's replay as
// `replays` says (absent: it cannot be replayed).
class ReplayingSubjects final : public Subjects {
 public:
  std::vector<std::string> mutants{"s01", "s02", "s03"}, chaffs{"c01"}, wheats{"python"};
  std::map<std::string, std::string> commands;
  std::map<std::string, Replayed> replays;
  // The ids served in a variant's form too: one that replays alike in its
  // oracle form asks for the variant's recorded run, as Served does.
  std::set<std::string> with_variant_form;
  bool has_variant = false;  // variant_recorded() gives a run ("variant")
  std::function<Transcript(int)> recorded = [](int) {
    return Transcript{{"hello\nnew f 64 3\n", "ok tlbf-oracle 1\nok\n"}};
  };

  std::vector<std::string> ids() const override { return mutants; }
  std::vector<std::string> chaff_ids() const override { return chaffs; }
  std::vector<std::string> wheat_ids() const override { return wheats; }
  Outcome<SuiteRun> clean() override { return make("", false); }
  Outcome<SuiteRun> clean_recorded() override { return make("", true); }
  std::optional<Outcome<SuiteRun>> broken() override { return make("broken", false); }
  Outcome<SuiteRun> mutant(const std::string& id) override { return make(id, false); }
  Outcome<SuiteRun> wheat(const std::string& id) override { return make(id, false); }
  std::optional<Outcome<SuiteRun>> variant_recorded() override {
    if (!has_variant) return std::nullopt;
    return make("variant", true);
  }
  ServingRecord serving_record(const SuiteRun& run) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ServingRecord record;
    if (const auto n = recorded_runs_.find(run.command); n != recorded_runs_.end())
      record.transcript = recorded(n->second);
    return record;
  }
  std::optional<Replayed> replay(const std::string& id, const References& references,
                                 std::chrono::milliseconds) override {
    std::optional<Replayed> out;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      replayed_against[id] = references.oracle;
      if (const auto found = replays.find(id); found != replays.end()) out = found->second;
      if (!out || !out->alike || with_variant_form.count(id) == 0) return out;
    }
    // Outside the lock: the variant's run is made through this fake too.
    if (references.variant() == nullptr) return std::nullopt;
    return out;
  }
  void finish(const SuiteRun&) override {}
  Place place(const std::string&) const override { return {}; }
  std::string broken_description() const override { return "broken"; }

  std::map<std::string, Transcript> replayed_against;  // by id: what replay() was given
  int runs_of(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    return runs_of_[id];
  }

 private:
  SuiteRun make(const std::string& id, bool record) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++runs_of_[id];
    const auto found = commands.find(id);
    const bool passes = id.empty() || id == wheats.front();
    SuiteRun run;
    run.command = (found != commands.end() ? found->second
                   : passes                ? "true"
                                           : "false") +
                  " # run " + std::to_string(++runs_);
    if (record) recorded_runs_[run.command] = ++recorded_count_;
    return run;
  }
  std::mutex mutex_;
  int runs_ = 0, recorded_count_ = 0;
  std::map<std::string, int> runs_of_;
  std::map<std::string, int> recorded_runs_;  // by command: which recorded clean run it is, from 1
};

ScoreOptions options_for(const ReplayingSubjects& subjects) {
  ScoreOptions options;
  options.mutants = subjects.mutants;
  options.chaffs = subjects.chaffs;
  options.wheats = subjects.wheats;
  options.jobs = 2;
  return options;
}

TEST(ScorerReplay, ASubjectThatAnswersAlikeSurvivesUnrunOneThatDiffersIsRunAndWheatsControlsAndSanityRun) {
  ReplayingSubjects subjects;
  subjects.replays["s01"] = {true, ""};
  subjects.replays["s02"] = {false,
                             "request 2, `new f 64 3`: the reference answered `ok`, this subject `err X`"};
  subjects.replays["c01"] = {true, ""};
  // s03 cannot be replayed. The suite fails every mutant and chaff it is run against.
  const Score score = score_suite(subjects, options_for(subjects));
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_TRUE(score.transcript.recorded);
  EXPECT_TRUE(score.transcript.deterministic);
  EXPECT_EQ(score.transcript.sessions, 1);
  EXPECT_EQ(score.transcript.requests, 2U);
  EXPECT_EQ(score.transcript.replayed, 2);
  EXPECT_EQ(first_difference(subjects.replayed_against.at("s01"), subjects.recorded(1)), "");

  ASSERT_EQ(score.runs.size(), 3U);
  EXPECT_EQ(score.runs[0].verdict, MutantVerdict::Survived);  // run, the suite would have killed it
  EXPECT_TRUE(score.runs[0].replayed);
  EXPECT_EQ(score.runs[0].confirmed_by, 0);
  EXPECT_EQ(score.runs[0].evidence,
            "answered the suite's 2 requests in 1 sessions as the reference did: replayed, not run");
  EXPECT_EQ(subjects.runs_of("s01"), 0);

  EXPECT_EQ(score.runs[1].verdict, MutantVerdict::Killed);
  EXPECT_FALSE(score.runs[1].replayed);
  EXPECT_EQ(subjects.runs_of("s02"), 2);
  EXPECT_NE(score.runs[1].evidence.find("replayed first, it answered otherwise: request 2, `new f 64 3`: the "
                                        "reference answered `ok`, this subject `err X`"),
            std::string::npos)
      << score.runs[1].evidence;
  EXPECT_EQ(score.runs[2].verdict, MutantVerdict::Killed);
  EXPECT_EQ(subjects.runs_of("s03"), 2);

  ASSERT_EQ(score.chaff_runs.size(), 1U);
  EXPECT_TRUE(score.chaff_runs[0].replayed);
  EXPECT_EQ(subjects.runs_of("c01"), 0);
  // Always run for real: each wheat's baseline_runs, the two controls (and
  // the three clean runs before), the sanity check.
  EXPECT_EQ(subjects.runs_of("python"), 3);
  EXPECT_EQ(score.control_runs, 2);
  EXPECT_EQ(subjects.runs_of(""), 5);
  EXPECT_EQ(subjects.runs_of("broken"), 1);
}

// A chaff whose replay answered otherwise runs once: the suite is
// deterministic and the chaff is outside the grade. A required mutant's kill
// keeps its six runs all the same, replay or not: a suite whose clean runs
// were alike by chance (a random choice among a few cases) would otherwise
// kill by luck in two runs.
TEST(ScorerReplay, AChaffWhoseReplayAnsweredOtherwiseRunsOnceARequiredKillSixTimes) {
  ReplayingSubjects subjects;
  subjects.chaffs = {"c01", "c02"};
  subjects.replays["s01"] = {false, "request 2: otherwise"};
  subjects.replays["s02"] = {false, "request 2: otherwise"};
  subjects.replays["c01"] = {false, "request 2: otherwise"};
  subjects.replays["c02"] = {true, ""};
  // s03 cannot be replayed.
  ScoreOptions options = options_for(subjects);
  options.required = {"s01", "s02", "s03"};
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_EQ(score.transcript.evidenced, 1);
  for (const auto& id : {"s01", "s02", "s03"}) EXPECT_EQ(subjects.runs_of(id), 6) << id;
  EXPECT_EQ(subjects.runs_of("c01"), 1);
  EXPECT_EQ(subjects.runs_of("c02"), 0);
  EXPECT_EQ(score.killed(), 3);
  EXPECT_EQ(score.runs[0].confirmed_by, 6);
  EXPECT_TRUE(score.runs[0].answered_otherwise);
  EXPECT_FALSE(score.runs[2].answered_otherwise);
  EXPECT_TRUE(score.chaff_runs[0].answered_otherwise);
  EXPECT_EQ(score.chaff_runs[0].verdict, MutantVerdict::Killed);
  EXPECT_EQ(score.chaff_runs[0].confirmed_by, 1);

  // Not deterministic: no replay, so every chaff runs --confirm-runs times.
  ReplayingSubjects unseeded;
  unseeded.recorded = [](int n) { return Transcript{{"new f 64 " + std::to_string(n) + "\n", "ok\n"}}; };
  unseeded.replays = subjects.replays;
  ScoreOptions one_at_a_time = options_for(unseeded);
  one_at_a_time.jobs = 1;
  const Score flagged = score_suite(unseeded, one_at_a_time);
  ASSERT_EQ(flagged.stopped, kNotStopped) << flagged.stop_reason;
  EXPECT_EQ(flagged.transcript.evidenced, 0);
  EXPECT_EQ(unseeded.runs_of("c01"), 2);
}

TEST(ScorerReplay, TheVariantIsRunOnlyWhenAReplayNeedsItAndThenOnce) {
  // Every mutant's oracle form answers otherwise, and there are no chaffs:
  // no replay needs the variant's transcript, so the suite is not run against it.
  ReplayingSubjects strong;
  strong.has_variant = true;
  strong.commands["variant"] = "true";
  strong.chaffs.clear();
  strong.with_variant_form = {"s01", "s02", "s03"};
  for (const auto& id : {"s01", "s02", "s03"}) strong.replays[id] = {false, "request 2: otherwise"};
  const Score strong_score = score_suite(strong, options_for(strong));
  ASSERT_EQ(strong_score.stopped, kNotStopped) << strong_score.stop_reason;
  EXPECT_EQ(strong.runs_of("variant"), 0);
  EXPECT_FALSE(strong_score.transcript.variant_recorded);
  EXPECT_EQ(strong_score.killed(), 3);

  // A mutant alike in its oracle form and two chaffs (variants only), replayed
  // two at a time: the variant is run once, and each of the three survives by replay.
  ReplayingSubjects weak;
  weak.has_variant = true;
  weak.commands["variant"] = "true";
  weak.chaffs = {"c01", "c02"};
  weak.with_variant_form = {"s01", "c01", "c02"};
  weak.replays = {{"s01", {true, ""}},
                  {"s02", {false, "x"}},
                  {"s03", {false, "x"}},
                  {"c01", {true, ""}},
                  {"c02", {true, ""}}};
  const Score weak_score = score_suite(weak, options_for(weak));
  ASSERT_EQ(weak_score.stopped, kNotStopped) << weak_score.stop_reason;
  EXPECT_EQ(weak.runs_of("variant"), 1);
  EXPECT_TRUE(weak_score.transcript.variant_recorded);
  EXPECT_EQ(weak_score.transcript.replayed, 3);
  EXPECT_EQ(weak.runs_of("s01"), 0);
  EXPECT_EQ(weak.runs_of("c01") + weak.runs_of("c02"), 0);
}

TEST(ScorerReplay, AWheatFailedIsRejectedThoughEveryMutantReplaysAlike) {
  ReplayingSubjects subjects;
  for (const auto& id : {"s01", "s02", "s03", "c01"}) subjects.replays[id] = {true, ""};
  subjects.commands["python"] = "false";  // a suite that recognises the reference by anything but behaviour
  const Score score = score_suite(subjects, options_for(subjects));
  EXPECT_EQ(score.stopped, kRejectsCorrect) << score.stop_reason;
  EXPECT_EQ(subjects.runs_of("python"), 4);  // its three runs, and one alone
}

TEST(ScorerReplay, CleanRunsThatSendOtherRequestsAreFlaggedNotDeterministicAndEverySubjectIsRun) {
  ReplayingSubjects subjects;
  subjects.recorded = [](int n) { return Transcript{{"new f 64 " + std::to_string(n) + "\n", "ok\n"}}; };
  for (const auto& id : {"s01", "s02", "s03", "c01"}) subjects.replays[id] = {true, ""};
  ScoreOptions options = options_for(subjects);
  options.jobs = 1;  // the clean runs end in their order: run 1's transcript is compared with run 2's
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_TRUE(score.transcript.recorded);
  EXPECT_FALSE(score.transcript.deterministic);
  EXPECT_EQ(score.transcript.difference,
            "request 1 of a session: `new f 64 1` in one clean run, `new f 64 2` in another");
  EXPECT_TRUE(subjects.replayed_against.empty());
  EXPECT_EQ(score.killed(), 3);
  for (const auto& id : {"s01", "s02", "s03", "c01"}) EXPECT_EQ(subjects.runs_of(id), 2) << id;
}

TEST(ScorerReplay, WithoutReplayNothingIsRecordedOrReplayed) {
  ReplayingSubjects subjects;
  subjects.replays["s01"] = {true, ""};
  ScoreOptions options = options_for(subjects);
  options.replay = false;
  const Score score = score_suite(subjects, options);
  ASSERT_EQ(score.stopped, kNotStopped) << score.stop_reason;
  EXPECT_FALSE(score.transcript.asked);
  EXPECT_FALSE(score.transcript.recorded);
  EXPECT_TRUE(subjects.replayed_against.empty());
  EXPECT_EQ(subjects.runs_of("s01"), 2);
  EXPECT_EQ(score.runs[0].verdict, MutantVerdict::Killed);
}

}  // namespace
}  // namespace tlbf::mutants
