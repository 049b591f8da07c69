// Conformance cases: what `tlbf check` sends and what it expects back.
#pragma once

#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/conformance/session.hpp"
#include "tlbf/protocol/commands.hpp"

// Declared only: the vector files' JSON (nlohmann/json, some 95,000 lines)
// reaches only the sources that read them, not every one that names a case.
namespace tlbf::vectors {
struct VectorFile;
}

namespace tlbf::conformance {

// The command groups of docs/protocol.md, section 4: the protocol's command
// table (tlbf/protocol/commands.hpp) says which command is in which.
using protocol::Capability;
using protocol::capability_named;
using protocol::kAllCapabilities;
using protocol::to_string;
// The group a command word belongs to; hello (and unknown words) belong to none.
std::optional<Capability> capability_of(std::string_view command);

struct Step {
  std::string request;  // one protocol line, without "\n"; with a fill, the line's start
  std::string pattern;  // a transcript pattern (docs/protocol.md, section 7)
  // The rest of a line too long to hold (64 MiB): the Session writes it in
  // pieces, and reports show the line by shown_request(). The judge's
  // oracle takes lines whole, so a step with a fill is judged by its pattern
  // alone, and is the only step of its case (rule_cases_tests holds them so).
  Fill fill = {};
};

// A step's request for a report: whole, or, with a fill, its start, eight
// bytes of the fill and the line's length, in readable()'s words:
// "contains x aaaaaaaa...[67104767 bytes in all]".
std::string shown_request(const Step& step);

struct Case {
  std::string name;  // hierarchical and stable: vectors/hash/Fnv1a64Test/1
  std::vector<Step> steps;
  std::set<Capability> needs;  // derived from the steps' commands
  // Its source calls some other answers acceptable (a vector's `result`);
  // which ones, judge.hpp decides, and a test holds the two to agree.
  bool acceptable = false;
  std::string why;  // the flags, for people
  // What the case checks, for people: a vector's comment, a rule case's
  // rule (docs/check.md, "Rules and the cases that check them").
  std::string about;
  // Set for a case whose steps are too big to make on every run, even one
  // that does not run it (a request of 16 MiB): makes them. Until
  // make_steps_now(), `steps` is empty and `needs` is set by hand.
  std::function<std::vector<Step>()> make_steps;
  // The least time each of its answers is waited for (Request::patience):
  // set for a case whose requests are slow in some correct implementations.
  std::chrono::milliseconds patience{0};
};

// Makes the steps of a case that makes them late (Case::make_steps); check()
// does it for every case it is given. Nothing for other cases.
void make_steps_now(Case& c);

// One case for each test of each vector file: the test's inputs as requests,
// its expected outputs as patterns.
std::vector<Case> cases_from_vectors(const std::vector<vectors::VectorFile>& files);

}  // namespace tlbf::conformance
