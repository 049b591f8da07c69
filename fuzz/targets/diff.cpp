// Differential fuzzing (docs/fuzzing.md, "fuzz_diff"): each input is given
// to from_bytes in the oracle and, over line protocol v1, in the
// implementation that TLBF_IMPL names, followed by a fixed set of requests on
// the filter it loads. Every response must agree: the same `ok` line, an
// error of the same kind, or an answer that tlbf check calls acceptable
// (conformance/judge.hpp: loading a k above 65536, say). A refusal is a
// verdict like any other.
//
// On a disagreement the target writes a transcript that replays it
// (`tlbf check --impl IMPL --transcript FILE`) and aborts with a signature
// naming both sides, the request and how they differ, such as
// oracle-vs-python-from_bytes-accepts.
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../transcript_file.hpp"
#include "tlbf/hex.hpp"
#include "tlbf/conformance/judge.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/session.hpp"
#include "tlbf/protocol/oracle_session.hpp"

namespace {

namespace conformance = tlbf::conformance;

// The item the follow-up requests use: "tlbf".
constexpr const char* kItem = "746c6266";

struct Impl {
  std::string command;
  std::string name;  // for signatures: the first word hello gives after the version, else "impl"
  std::unique_ptr<conformance::Session> session;
};

std::string word(const std::string& line, std::size_t index) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < index; ++i) {
    start = line.find(' ', start);
    if (start == std::string::npos) return "";
    ++start;
  }
  return line.substr(start, line.find(' ', start) - start);
}

std::string safe_name(std::string name) {
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  }
  return name.empty() ? "impl" : name.substr(0, 40);
}

// Starts the implementation when there is none: at the first input, and
// after it has died (which is reported as a finding first).
Impl& impl() {
  static Impl it;
  if (it.session) return it;
  if (it.command.empty()) {
    const char* command = std::getenv("TLBF_IMPL");
    if (!command || !*command) {
      std::fprintf(stderr,
                   "fuzz_diff: set TLBF_IMPL to the command that runs the implementation under test\n");
      std::exit(2);
    }
    it.command = command;
  }
  // A fuzzing run has no end in view: the time budget is a year.
  conformance::Budget budget;
  budget.total = std::chrono::hours(24 * 365);
  it.session = conformance::start_session(it.command, budget);
  const auto [hello, fault] = it.session->ask("hello");
  if (fault || word(hello, 0) != "ok") {
    std::fprintf(stderr, "fuzz_diff: '%s' does not answer hello: %s\n%s", it.command.c_str(),
                 fault ? fault->detail.c_str() : conformance::readable(hello, 80).c_str(),
                 it.session->stderr_tail().c_str());
    std::exit(2);
  }
  it.name = safe_name(word(hello, 2));
  return it;
}

// How a transcript writes the oracle's answer: an `ok` line exactly, an `err` line by its kind.
std::string verdict(const std::string& request, const std::string& response) {
  return conformance::pattern_for(request, response);
}

[[noreturn]] void report(const std::string& command, const std::string& signature,
                         const std::vector<std::string>& requests, const std::vector<std::string>& expected,
                         const std::string& detail) {
  std::vector<std::pair<std::string, std::string>> exchanges;
  for (std::size_t i = 0; i < requests.size() && i < expected.size(); ++i) {
    exchanges.emplace_back(requests[i], verdict(requests[i], expected[i]));
  }
  bool written = false;
  const auto file = tlbf::fuzz::write_transcript(signature, signature, detail, exchanges, written);
  std::fprintf(stderr, "\n==%d== tlbf fuzz_diff: %s\n%s\nreplay: tlbf check --impl '%s' --transcript %s\n",
               static_cast<int>(::getpid()), signature.c_str(), detail.c_str(), command.c_str(),
               file.c_str());
  std::abort();
}

// The requests for one input, answered by the oracle as they are made: the
// follow-ups after from_bytes depend on the shape of the filter it loaded.
void plan(const std::uint8_t* data, std::size_t size, std::vector<std::string>& requests,
          std::vector<std::string>& expected) {
  tlbf::protocol::OracleSession oracle;
  auto ask = [&](const std::string& request) {
    requests.push_back(request);
    expected.push_back(oracle.handle(request));
    return expected.back();
  };
  ask("from_bytes f " + (size == 0 ? std::string("-") : tlbf::to_hex({data, size})));
  // Items: a fixed one, the empty one, and the input's last bytes, which the fuzzer steers.
  const std::string tail =
      size == 0
          ? "-"
          : tlbf::to_hex({data + size - std::min<std::size_t>(size, 6), std::min<std::size_t>(size, 6)});
  ask("to_bytes f");
  const std::string info = ask("info f");
  ask("count_ones f");
  for (const std::string& item : {std::string(kItem), std::string("-"), tail}) ask("contains f " + item);
  ask("union f f");  // F OR F: the bits stay, the count doubles
  ask("info f");
  for (const std::string& item : {std::string(kItem), tail}) ask("insert f " + item);
  ask("to_bytes f");
  // A union with a second filter of the same shape, when it is small enough to make.
  const std::string m = word(info, 1), k = word(info, 2);
  if (word(info, 0) == "ok" && m.size() <= 7) {
    ask("new g " + m + " " + k);
    ask("insert g -");
    ask("union f g");
    ask("to_bytes f");
    ask("drop g");
  }
  ask("drop f");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> requests, expected;
  plan(data, size, requests, expected);

  Impl& it = impl();
  // A load that judge.hpp lets go either way (a k above 65536) is sent alone
  // first: if the implementation takes it, the filter's state is open, and
  // its k may be in the billions, so nothing more is sent for this input.
  conformance::Judge alone;
  alone.expect(requests[0]);
  if (!alone.zone().empty()) {
    const conformance::Request first{requests[0],
                                     alone.longest_answer() + requests[0].size() + conformance::kAnswerSlack};
    const auto answer = it.session->exchange({&first, 1}, conformance::Pace::OneAtATime);
    if (!answer.fault && alone.judge(answer.lines[0]).verdict == conformance::Verdict::Acceptable) {
      it.session->ask("drop f");  // the next input starts with no filter, in both
      return 0;
    }
    if (answer.fault) it.session->restart();
  }
  std::vector<conformance::Request> batch;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    batch.push_back({requests[i], expected[i].size() + requests[i].size() + conformance::kAnswerSlack});
  }
  auto answers = it.session->exchange(batch, conformance::Pace::Pipelined);
  if (answers.fault) {
    // Pipelined, a process that dies takes the answers it had not yet
    // flushed with it. One request at a time, a fresh process shows which
    // request it really died on, or an answer that disagrees before that.
    it.session->restart();
    answers = it.session->exchange(batch, conformance::Pace::OneAtATime);
  }
  const auto& got = answers.lines;
  const auto& fault = answers.fault;
  // Judged as tlbf check judges (conformance/judge.hpp). After an acceptable
  // difference a filter's state is open: what follows on it is not compared.
  conformance::Judge judge;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (judge.reads_open_filter(requests[i])) continue;
    judge.expect(requests[i]);
    if (judge.judge(got[i]).verdict != conformance::Verdict::Mismatch) continue;
    const std::string want = verdict(requests[i], expected[i]);
    const std::string op = word(requests[i], 0);
    const bool oracle_ok = word(want, 0) == "ok", impl_ok = word(got[i], 0) == "ok";
    const std::string how = oracle_ok == impl_ok ? "differs" : impl_ok ? "accepts" : "refuses";
    const std::vector<std::string> asked(requests.begin(),
                                         requests.begin() + static_cast<std::ptrdiff_t>(i + 1));
    report(it.command, "oracle-vs-" + it.name + "-" + op + "-" + how, asked, expected,
           "request: " + requests[i].substr(0, 200) + "\noracle: " + expected[i].substr(0, 200) + "\n" +
               it.name + ": " + got[i].substr(0, 200));
  }
  if (fault) {
    const std::string op = word(requests[got.size()], 0);
    const std::string reason = fault->detail + "\n" + it.session->stderr_tail();
    const std::vector<std::string> asked(requests.begin(),
                                         requests.begin() + static_cast<std::ptrdiff_t>(got.size() + 1));
    report(it.command, "oracle-vs-" + it.name + "-" + op + "-dies", asked, expected,
           "request: " + requests[got.size()].substr(0, 200) + "\n" + reason);
  }
  return 0;
}
