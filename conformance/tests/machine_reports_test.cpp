// The reports for machines (machine_reports.cpp): JUnit XML and TAP, each
// held whole against a file written by hand from docs/check.md ("CI output").
#include <gtest/gtest.h>

#include "tlbf/conformance/reports.hpp"

namespace tlbf::conformance {
namespace {

// One case of each outcome; the failure with every field, and text that must be escaped.
CheckReport one_of_each() {
  CheckReport r;
  r.command = "./impl --mode \"<x>\"";
  r.speaks_protocol = true;
  CaseResult passed;
  passed.name = "vectors/hash/Fnv1a64Test/1";
  CaseResult failed;
  failed.name = "vectors/union/UnionTest/1";
  failed.outcome = CaseOutcome::Failed;
  failed.reason = "expected 'ok 1', got 'ok 2 & more'";
  failed.about = "union ORs the bits";
  failed.request = "union 0 1";
  failed.expected = "ok 1";
  failed.got = "ok 2 & more\xff";
  failed.oracle = "ok 1";
  failed.reproduce = "printf 'union 0 1\\n' | ./impl";
  failed.stderr_tail = "panic: <here>\n";
  CaseResult skipped;
  skipped.name = "capabilities/union";
  skipped.outcome = CaseOutcome::Skipped;
  skipped.reason = "not offered";
  CaseResult acceptable;
  acceptable.name = "behaviour/sizing";
  acceptable.outcome = CaseOutcome::Acceptable;
  acceptable.reason = "m one ulp off";
  CaseResult not_run;
  not_run.name = "model/random_request_sequences";
  not_run.outcome = CaseOutcome::NotRun;
  not_run.reason = "the time budget of 60 s ran out";
  r.results = {passed, failed, skipped, acceptable, not_run};
  return r;
}

TEST(MachineReports, JUnitHasATestcasePerCaseAndOneForTheSession) {
  CheckReport report = one_of_each();
  report.session_problem = "at the end of its input it exited with status 1 (want status 0)";
  EXPECT_EQ(
      to_junit(report),
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
      "<testsuite name=\"tlbf check ./impl --mode &quot;&lt;x&gt;&quot;\" tests=\"6\" failures=\"3\" "
      "skipped=\"1\">\n"
      " <testcase classname=\"vectors.hash.Fnv1a64Test\" name=\"1\"/>\n"
      " <testcase classname=\"vectors.union.UnionTest\" name=\"1\">"
      "<failure message=\"expected 'ok 1', got 'ok 2 &amp; more'\">checks: union ORs the bits\n"
      "request: union 0 1\nexpected: ok 1\ngot: ok 2 &amp; more?\noracle: ok 1\n"
      "reproduce: printf 'union 0 1\\n' | ./impl\nstderr:\npanic: &lt;here&gt;\n</failure></testcase>\n"
      " <testcase classname=\"capabilities\" name=\"union\"><skipped message=\"not offered\"/></testcase>\n"
      " <testcase classname=\"behaviour\" name=\"sizing\"><system-out>acceptable difference: m one ulp "
      "off</system-out></testcase>\n"
      " <testcase classname=\"model\" name=\"random_request_sequences\">"
      "<failure message=\"not run: the time budget of 60 s ran out\"/></testcase>\n"
      " <testcase classname=\"session\" name=\"end_of_input\"><failure message=\"at the end of its input "
      "it exited with status 1 (want status 0)\"/></testcase>\n"
      "</testsuite>\n</testsuites>\n");
}

TEST(MachineReports, TapHasATestPointPerCaseAndOneForTheSession) {
  EXPECT_EQ(to_tap(one_of_each()),
            "TAP version 13\n1..6\n# tlbf check ./impl --mode \"<x>\"\n"
            "ok 1 - vectors/hash/Fnv1a64Test/1\n"
            "not ok 2 - vectors/union/UnionTest/1\n"
            "  ---\n"
            "  message: \"expected 'ok 1', got 'ok 2 & more'\"\n"
            "  severity: fail\n"
            "  data:\n"
            "    checks: \"union ORs the bits\"\n"
            "    request: \"union 0 1\"\n"
            "    expected: \"ok 1\"\n"
            "    got: \"ok 2 & more?\"\n"
            "    oracle: \"ok 1\"\n"
            "    reproduce: \"printf 'union 0 1\\\\n' | ./impl\"\n"
            "    stderr: \"panic: <here>\\n\"\n"
            "  ...\n"
            "ok 3 - capabilities/union # SKIP not offered\n"
            "ok 4 - behaviour/sizing\n# acceptable difference: m one ulp off\n"
            "not ok 5 - model/random_request_sequences\n"
            "  ---\n  message: \"not run: the time budget of 60 s ran out\"\n  severity: fail\n  ...\n"
            "ok 6 - session/end_of_input\n");
}

TEST(MachineReports, TapFailsTheSessionThatDidNotEndCleanly) {
  CheckReport report;
  report.command = "./impl";
  report.session_problem = "wrote \"extra\" after its last answer";
  EXPECT_EQ(to_tap(report),
            "TAP version 13\n1..1\n# tlbf check ./impl\nnot ok 1 - session/end_of_input\n"
            "  ---\n  message: \"wrote \\\"extra\\\" after its last answer\"\n  severity: fail\n  ...\n");
}

}  // namespace
}  // namespace tlbf::conformance
