// Transcripts: requests and the responses expected for them, replayed in one
// session of an implementation (docs/protocol.md, section 7).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/conformance/difference.hpp"
#include "tlbf/conformance/session.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::conformance {

struct Exchange {
  std::string request;  // without the "\n"
  std::string pattern;  // what the response must match
  int line = 0;         // of the request in the transcript text
};

struct Transcript {
  std::string name;
  std::vector<Exchange> exchanges;
};

// Parses transcript text. A malformed transcript is a Failure whose words are
// "LINE: what is wrong".
tlbf::Outcome<Transcript> parse_transcript(std::string_view text, std::string name);

// Replaces each pattern `?` (the line `< ?`) with the built-in oracle's
// answer as a pattern (judge.hpp, pattern_for: an error by its kind, a rate
// within the tolerance), from one oracle session that has been sent every
// request before it. Nothing changes in a transcript without one.
void fill_in_oracle_answers(Transcript& transcript);

// The words of a line split at every single space, empty words included, as
// patterns and responses are compared.
std::vector<std::string_view> split_on_spaces(std::string_view text);

// nullopt when `response` matches `pattern`, else how it differs. A response
// with a byte outside printable ASCII matches no pattern (judge.hpp,
// unprintable_in). A Difference, not a Failure: what it finds is a fact about
// the implementation under test, to judge and report (difference.hpp).
std::optional<Difference> mismatch(std::string_view pattern, std::string_view response);

struct ReplayReport {
  bool passed = false;
  std::vector<std::string> failures;    // one a line, naming the transcript line
  std::vector<std::string> acceptable;  // answers that differ where judge.hpp allows it, likewise
  std::string stderr_tail;              // the implementation's last stderr lines, on failure
};

// Sends every request of the transcript to one run of `command`, pipelined,
// then closes its input, and checks the responses, their count and a clean exit.
ReplayReport replay(const Transcript& transcript, const std::string& command, const Budget& budget,
                    const Launch& launch = {});

// The most bytes a right answer to `request` can have when it must match
// `pattern`: the pattern, the request (an error's message may quote it) and
// kAnswerSlack, and a MiB more when a '*' stands for any words; longer when
// an acceptable answer (judge.hpp) can be longer than the pattern.
std::size_t answer_limit(const std::string& request, const std::string& pattern);

}  // namespace tlbf::conformance
