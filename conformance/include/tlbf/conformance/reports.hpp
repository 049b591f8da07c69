// What tlbf check reports, in every form: the text a person reads
// (src/text_report.cpp), the HTML page (src/html_report.cpp), JSON, JUnit
// XML and TAP (src/machine_reports.cpp), and the parity matrix of several
// implementations. The failure list is expected_failures.hpp's. The top
// layer of conformance/: it only reads CheckReports.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tlbf/conformance/runner.hpp"

namespace tlbf::conformance {

// "vectors/hash/Fnv1a64Test/3" -> "vectors/hash"; "behaviour/x/y" -> "behaviour/x"
std::string group_of(const std::string& name);

struct TextOptions {
  bool verbose = false;      // also acceptable differences and skipped cases
  bool tlbf_profile = true;  // the verdict names TLBF v1; else "behaves as a Bloom filter"
  bool colour = false;
};

// The report for people: each failure (request, expected and got shortened
// and escaped), the table of groups, the cases not run and why, the
// capabilities, restarts, the session's end, and the verdict line.
std::string text_report(const CheckReport& report, const TextOptions& options);

// Every case's outcome, with requests, answers and transcripts whole.
nlohmann::ordered_json to_json(const CheckReport& report);

// For several implementations: passed/run per group and implementation, the
// implementations numbered in the header and their commands listed under it.
// Columns line up whatever the group names.
std::string parity_matrix(const std::vector<CheckReport>& reports, bool verbose = false);

// One HTML page for people, self-contained (inline CSS, no script; the page
// forbids itself to load anything): for each implementation the verdict, the
// capabilities, the group table, each failure with its request, expected,
// got, stderr and reproduce line, and the cases not run; for several, first
// the parity matrix, whose cells link to that implementation's failures in
// that group. The same facts as text_report (not verbose). Every text from an
// implementation or a command line is HTML-escaped, and bytes that are not
// UTF-8 become U+FFFD.
std::string html_report(const std::vector<CheckReport>& reports, bool tlbf_profile = true);

// JUnit XML: one testsuite for the implementation, a testcase per case.
std::string to_junit(const CheckReport& report);

// TAP version 13 (testanything.org; TAP 14 consumers read it too): a test
// point per case, in case order, and a last one, session/end_of_input, that
// fails when the session did not end cleanly. A failure carries a YAML block
// (message, severity, and the case's checks, request, expected, got, oracle,
// allowed, reproduce and stderr); a skipped case is "ok ... # SKIP reason";
// an acceptable difference passes with its reason as a comment; a case not
// run fails. Every byte past ASCII and every control byte becomes '?', as in
// JUnit XML.
std::string to_tap(const CheckReport& report);

}  // namespace tlbf::conformance
