// Rule cases written as files: conformance/cases/NAME.txt is the case NAME,
// compiled into tlbf (conformance/CMakeLists.txt). A file is a transcript
// (docs/protocol.md, section 7) with a header of its own and one more kind of
// pattern (docs/check.md, "Rule cases as files"):
//
//   # rule: RULE        the rule it checks, as docs/check.md's table words it;
//                       one line for each row that names the case, in the
//                       table's order (the first is the case's `about`)
//   # flags: FLAGS      other answers may be acceptable where judge.hpp allows
//                       them under these flags (Case::acceptable, Case::why)
//   # patience: N s     each answer may take N seconds (Case::patience)
//   < ?                 the oracle's answer, in a session that has seen the
//                       file's earlier requests (case_from_draft)
//
// The header lines come before the first request; every other line starting
// with '#' is a comment.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/conformance/cases.hpp"
#include "tlbf/conformance/rule_cases.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::conformance {

struct RuleFile {
  std::string name;                // the path under conformance/cases, without ".txt"
  std::vector<std::string> rules;  // at least one
  std::string flags;               // "" when only the stated answers are right
  std::chrono::milliseconds patience{0};
  std::vector<DraftStep> steps;  // `< ?` as an empty `stated`
};

// Reads one file's text. A Failure "LINE: what is wrong" when the transcript
// is malformed, no `# rule:` line is there, a header line follows a request,
// `# flags:` comes twice, `# patience:` is not whole seconds, or a line holds
// a '\r' (a file saved with CRLF line ends; such a request is `>x HEX`).
tlbf::Outcome<RuleFile> parse_rule_file(std::string_view text, std::string name);

// Every file compiled in, in the order of their paths. A Failure naming the
// first that does not parse ("conformance/cases/NAME.txt:LINE: ...").
tlbf::Outcome<std::vector<RuleFile>> rule_files();

// The case a file describes: its steps with the oracle's answers filled in,
// its first rule as `about`, its flags and patience.
Case case_from_file(RuleFile file);

}  // namespace tlbf::conformance
