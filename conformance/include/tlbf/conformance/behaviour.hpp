// Cases that decide what to send from earlier answers: the specification's
// behavioural checks (properties every Bloom filter has, whatever its hashes
// and byte layout) and model-based random request sequences.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/conformance/cases.hpp"
#include "tlbf/conformance/difference.hpp"
#include "tlbf/conformance/session.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::conformance {

// What an interactive case found wrong.
struct Finding {
  std::string reason;
  std::optional<Fault> fault;    // when the implementation crashed, hung, ...
  std::string transcript;        // requests and expected answers that show it, if any
  std::string stderr_tail = {};  // of a process the case ran itself (run_alone); else the Session's is shown
};

// A case that talks to the implementation as it goes: its own bytes fed back
// to it, its own m and k in a statistical bound, a random sequence compared
// with the oracle. nullopt when the implementation behaves.
struct InteractiveCase {
  std::string name;
  std::set<Capability> needs;
  std::function<std::optional<Finding>(Session&, const std::set<Capability>& offered)> run;
  // Set instead of `run` by a case that needs what a Session cannot do, such
  // as ending the input in the middle of a line: it starts a process of the
  // implementation's command itself, once, and gives it at most
  // budget.first_answer to end (docs/check.md, "Budgets").
  std::function<std::optional<Finding>(const std::string& command, const Budget& budget)> run_alone = nullptr;
};

// A conversation that remembers its first fault: after it, every send gives
// empty answers without asking, so a case can read on to its end and the
// fault, not a mismatch it caused, is what the case reports.
class Conversation {
 public:
  explicit Conversation(Session& session) : session_(session) {}
  std::vector<std::string> operator()(const std::vector<std::string>& requests);
  const std::optional<Fault>& fault() const { return fault_; }

 private:
  Session& session_;
  std::optional<Fault> fault_;
};

// A case whose whole conversation is through a Conversation; `body` finds
// nothing, or the Difference that says what the implementation got wrong.
std::function<std::optional<Finding>(Session&, const std::set<Capability>&)> by_conversation(
    std::function<std::optional<Difference>(Conversation&)> body);

// No false negatives (directly, after a byte round trip, in a union), the
// false-positive count within three standard deviations of N f^k and below 2%
// at a 1% design, union equal to the filter of both sets with counts added,
// and mismatched unions refused. Items come from `seed`, so runs repeat.
std::vector<InteractiveCase> behavioural_cases(std::uint64_t seed);

// Model-based random testing (RapidCheck's stateful API): `runs` random
// sequences of requests over three filters, drawn from the offered
// capabilities, every response compared with the oracle's. A failure is
// shrunk, replayed in a fresh process, and reported as a transcript. The same
// seed gives the same run.
InteractiveCase model_based_case(std::uint64_t seed, int runs);

// The command words those sequences send when every capability is offered,
// once each. Each request's word and the capability it needs come from the
// protocol's command table; a command of the table missing here is one the
// random sequences never try (conformance/tests/check_test.cpp compares them).
std::vector<std::string_view> words_sent_at_random();

}  // namespace tlbf::conformance
