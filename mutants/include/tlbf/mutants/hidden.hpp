// Serving a subject to a suite without telling the suite which one it is
// (docs/mutants.md, "What a suite can see").
//
// A suite starts the implementation itself (TLBF_IMPL), as the same user, so
// whatever that process can read, the suite can read too: a file, an
// argument, an environment variable. So the subject is chosen where the suite
// cannot look: `tlbf mutate` listens on a socket of its own for each run, and
// starts the served process itself for every connection; that process makes
// itself non-dumpable, then forks the child that asks this server for the
// subject and serves it. TLBF_IMPL is `tlbf-mutant --connect SOCKET`, which
// only carries bytes between the suite and that socket.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tlbf/mutants/transcript.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// A name nobody can guess from the run it belongs to: 16 random hex digits.
// Every name a suite can see (sockets, run folders) is one, never a count.
std::string random_name();

// The choice is written padded with spaces to this many bytes, so that the
// served process reads the same number of bytes whatever it serves.
inline constexpr std::size_t kChoiceWidth = 16;

// The most bytes one run's recorded sessions may hold, both directions
// together: a run past it is served to its end but its transcript is not
// kept (and nothing is replayed against it).
inline constexpr long long kRecordBudget = 64LL << 20;

class HiddenServer {
 public:
  // Listens on a new socket in `dir` (a private folder) and serves each
  // connection with `tlbf_mutant --choice-from SOCKET`, whose child asks the
  // same socket for `choice` ("" for the clean oracle, "refuse-all", or a
  // mutant id): a connection from a child of a served process gets it. A
  // failure when the socket cannot be made.
  static Outcome<std::unique_ptr<HiddenServer>> start(const std::string& dir, const std::string& tlbf_mutant,
                                                      const std::string& choice);
  // Listens as above, but serves each connection with `program` (an argument
  // list whose first word is found on PATH now) run in `folder`: a correct or
  // buggy implementation of another language, which holds no secret of the
  // grading (which one it is shows only to a process that can see it, and a
  // sandboxed suite cannot). A failure when the socket cannot be made.
  static Outcome<std::unique_ptr<HiddenServer>> start_program(const std::string& dir,
                                                              const std::vector<std::string>& program,
                                                              const std::string& folder);
  // Stops listening, kills every process it started and removes the socket.
  ~HiddenServer();
  HiddenServer(const HiddenServer&) = delete;
  HiddenServer& operator=(const HiddenServer&) = delete;

  const std::string& socket_path() const { return path_; }
  // The folder that holds the socket, and nothing else.
  const std::string& socket_folder() const { return folder_; }

  // How many connections it has served: a run that never connected never
  // met its subject, so its failure cannot be the subject's doing.
  int connections() const { return connections_.load(); }
  // What it could not do while serving ("" when nothing): a process it could
  // not start, a connection it could not accept. A suite that fails after
  // that failed because of the machine, not because of the subject.
  std::string fault();

  // Records every session served from now on: the bytes the suite sent and
  // the bytes the subject answered, carried between the relay's pipes and
  // the served process's by a thread of this server. Only for the runs whose
  // transcript is wanted (the baseline's): every other connection is served
  // on the suite's own pipes, with no copy between.
  void record();
  // After the run: the sessions recorded, once each has ended (one still
  // open ten seconds after the call is stopped). A Failure saying why when
  // record() was not called, a session was stopped or the run's sessions
  // held more than kRecordBudget bytes.
  Outcome<Transcript> transcript();
  // Replays every session of `reference`, one after another, each against a
  // new served process started as a connection's is, but on pipes this
  // server owns, writing the requests while it reads the answers (no
  // deadlock, however long the session). "" when each session's answers
  // were the reference's byte for byte and its process read all its input
  // and ended; else what differed first (answer_difference), or how it
  // ended otherwise. `limit` bounds all the sessions together.
  std::string replay(const Transcript& reference, std::chrono::milliseconds limit);

 private:
  HiddenServer() = default;
  static Outcome<std::unique_ptr<HiddenServer>> listen_in(std::unique_ptr<HiddenServer> server,
                                                          const std::string& dir);
  void accept_loop();
  void serve(int connection);
  bool answer_choice(int connection);  // true: the connection asked for the choice, and got it
  void reap(bool kill_all);
  // The served process, reading `in` and writing `out` (and holding
  // `keep_open` open, -1 for none); its pid, or -1 with the fault noted. A
  // replayed one is reaped by replay_session, not by reap().
  pid_t start_served(int in, int out, int keep_open, bool replayed);
  void carry_session(int connection, const int (&stdio)[2]);  // record()'s serve()
  std::string replay_session(const Session& reference, std::chrono::steady_clock::time_point deadline);

  void note_fault(const std::string& what);

  std::string folder_, path_, tlbf_mutant_, choice_;
  std::vector<std::string> program_;  // start_program's, with its first word a path; empty for tlbf_mutant_
  std::vector<char*> program_argv_;   // program_'s words as execve wants them, null-terminated
  std::string program_folder_;
  int image_ = -1;  // tlbf_mutant_ as an image this user may run and not read (hidden.cpp)
  std::atomic<int> connections_{0};
  std::string fault_;  // the first one, under mutex_
  int listener_ = -1;
  int wake_[2] = {-1, -1};  // written to stop the loop
  std::thread loop_;
  std::mutex mutex_;
  std::vector<pid_t> children_;
  std::vector<pid_t> replayed_;  // served processes of replay(), under mutex_

  // record()'s, under mutex_ but for the atomics.
  std::atomic<bool> recording_{false};
  std::atomic<long long> budget_{kRecordBudget};
  int stop_carrying_[2] = {-1, -1};  // written to stop every carrying thread
  std::vector<std::thread> carriers_;
  int carrying_ = 0;  // of them, the ones whose session has not ended
  std::condition_variable carried_;
  Transcript sessions_;
  bool cut_ = false;  // a session was not kept whole
};

// The client side, run by TLBF_IMPL (tlbf-relay SOCKET): hands its standard
// input and output to the server over the socket (SCM_RIGHTS), so that the
// served process reads the suite's requests and writes its answers with no
// process between them, then waits until the served process has ended (the
// socket's end of file). Returns an exit status.
int relay(const std::string& socket_path);

// What the relay sends first, with its two descriptors: a connection that
// does not begin so is not served.
inline constexpr char kRelayHello[] = "tlbf-relay-1";

}  // namespace tlbf::mutants
