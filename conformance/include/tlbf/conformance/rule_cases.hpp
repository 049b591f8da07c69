// Fixed request sequences for the rules of docs/protocol.md and the decisions
// of docs/format.md that the vector files do not reach: malformed requests and
// the order of errors, long items, header fields beyond the vectors' values,
// state across many filters and unions, and inputs on which each decision and
// its plausible alternatives give different answers. docs/check.md, "Rules and
// the cases that check them", maps each rule to its cases.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tlbf/conformance/behaviour.hpp"
#include "tlbf/conformance/cases.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::conformance {

// A case written as requests. A step's pattern is either stated (it comes from
// the documents, and the tests hold the oracle to it) or, when left empty, the
// oracle session's own answer to the request, in a fresh session that has seen
// the case's earlier requests: "err KIND" for an error, "ok 1 *" for hello, a
// tolerance for a rate, and the exact words otherwise.
struct DraftStep {
  std::string request;
  std::string stated;  // empty: ask the oracle
};

// A step whose expected answer is the oracle's.
inline DraftStep ask(std::string request) { return {std::move(request), ""}; }

// Turns drafts into cases, asking the oracle where no pattern is stated.
// Each case's needs are the capabilities of its commands.
Case case_from_draft(std::string name, std::vector<DraftStep> steps);

// The cases named protocol/..., format/..., items/... and state/...: the
// files of conformance/cases (rule_files.hpp) in the order of their paths,
// then the cases computed here and the described families. A Failure when a
// file compiled in does not parse (rule_cases_tests parses every one).
tlbf::Outcome<std::vector<Case>> rule_cases();

// One case for each entry of the committed from_bytes fuzz corpus
// (conformance/corpus/from_bytes): from_bytes, then info, count_ones and to_bytes
// when it loads, every answer as the oracle's. An entry refused only for a k
// above 65536 is `acceptable` (flag StrictKBound, as in the vectors).
std::vector<Case> corpus_cases();

// large/*: filters of m at or above 2^32 (512 MiB of bits and more, made
// one at a time, their steps only when they run). Not in the default check:
// `tlbf check --filter 'large/*'` runs them (docs/check.md, "The large filters").
std::vector<Case> large_cases();

// rule_cases() then corpus_cases(): the deterministic cases `tlbf check` adds
// to the vector cases, each with its rule (`about`) as docs/check.md's table
// words it: a file's first `# rule:` line, or the rule set where the case is
// computed (rule_cases_tests holds both to the table).
tlbf::Outcome<std::vector<Case>> deterministic_cases();

// protocol/framing/last_line_without_newline_answered: `hello` without its
// "\n", then the input closed; the implementation must answer `ok 1 ...` in
// one line and exit with status 0 (docs/protocol.md, section 1). It runs a
// process of its own (InteractiveCase::run_alone), since a Session only sends
// whole lines.
InteractiveCase end_of_input_case();

// protocol/session/hello_not_needed: a process that has been sent nothing
// yet gets filter requests with no hello first, and must answer them as one
// that began with hello does (docs/protocol.md, section 1: hello is a request
// like any other). An implementation that plays fair only after a hello, as
// `tlbf check` sends first, fails here.
InteractiveCase fresh_start_case();

}  // namespace tlbf::conformance
