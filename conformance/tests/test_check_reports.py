"""What tlbf check reports about failures (docs/check.md, "Output" and
"Budgets"): a crash costs one case, not the run (an implementation that dies
on every out-of-domain request is restarted after each death, every other
case is run, and each lost case is named with its fault); and each failure
says what its case checks (a vector's comment and flags, a rule case's rule
from docs/check.md's table), the oracle's whole answer, and what else is
allowed.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. python3 conformance/tests/test_check_reports.py Faults
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

TLBF = os.environ["TLBF_BINARY"]
SOURCE = os.environ["TLBF_SOURCE_DIR"]
CRASHING = os.path.join(SOURCE, "conformance/tests/crashing_impl.py")
BANK = os.path.join(SOURCE, "conformance/tests/bug_bank/buggy_impl.py")
ENV = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""))


def check(*args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        r = subprocess.run([TLBF, "check", *args, "--json", out], capture_output=True, text=True, env=ENV, timeout=3600)
        r.report = json.load(open(out))
    return r


def vector(file, tc_id):
    for group in json.load(open(os.path.join(SOURCE, "vectors", file)))["testGroups"]:
        for t in group["tests"]:
            if t["tcId"] == tc_id:
                return t
    raise KeyError(tc_id)


def rules_table():
    """{case name or glob: rule} from docs/check.md's table, read here apart from tlbf's own reading."""
    text = open(os.path.join(SOURCE, "docs/check.md")).read()
    table = text[text.index("## Rules and the cases that check them"):]
    table = table[:table.index("\n## ", 5)]
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and "`" in cells[2]:
            for name in re.findall(r"`([^`]+)`", cells[2]):
                out.setdefault(name, cells[0])
    return out


class Faults(unittest.TestCase):
    def test_every_case_but_the_crashing_ones_is_run_and_each_lost_case_is_named(self):
        # Ample room: this is not a test of the budget.
        r = check("--impl", "python3 " + CRASHING, "--time-budget", "3600")
        report = r.report
        self.assertEqual(r.returncode, 1, r.stdout[-3000:] + r.stderr)
        self.assertEqual(report["not_run"], 0, report["stopped_because"])
        self.assertIsNone(report["stopped_because"] or None)
        failed = [c for c in report["cases"] if c["outcome"] == "FAIL"]
        crashed = [c for c in failed if "exited" in c["reason"]]
        # Many out-of-domain requests, each a crash; every failure is one of them or follows from one.
        self.assertGreater(len(crashed), 10, [c["reason"] for c in failed][:5])
        self.assertGreater(report["restarts"], 10)
        # The end of the traceback a death left on stderr is shown with its case
        # ("RuntimeError: unhandled: ..."). Most, not all: a case pinned on a
        # replay may show another process's tail, or none.
        shown = [c for c in crashed if "Error: " in c.get("stderr", "")]
        self.assertGreater(2 * len(shown), len(crashed), [c.get("stderr", "")[-200:] for c in crashed])
        # What a crash-free implementation passes is passed here too: hashes, the worked example, bytes.
        passed = {c["name"] for c in report["cases"] if c["outcome"] == "pass"}
        for name in ("vectors/hash/Fnv1a64Test/1", "vectors/positions/PositionsForTest/1", "vectors/filter/FilterTest/1"):
            self.assertIn(name, passed)
        self.assertIn("not run", r.stdout)  # the verdict line counts them: 0 not run


class Explanations(unittest.TestCase):
    def test_a_failing_vector_case_shows_its_comment_flags_and_the_oracle_s_error_message(self):
        r = check("--impl", "python3 " + BANK + " padding_off_by_one", "--filter", "vectors/from_bytes/*")
        self.assertEqual(r.returncode, 1, r.stdout[-3000:] + r.stderr)
        t = vector("tlbf_from_bytes_v1.json", 40)
        [case] = [c for c in r.report["cases"] if c["name"] == "vectors/from_bytes/FromBytesTest/40"]
        self.assertEqual(case["outcome"], "FAIL")
        self.assertEqual(case["about"], t["comment"] + " (flags: " + ", ".join(t["flags"]) + ")")
        # The oracle's own words, not only the kind the case compares.
        self.assertTrue(case["oracle"].startswith("err Format padding"), case["oracle"])
        self.assertIn("printf", case["reproduce"])
        text = r.stdout[r.stdout.index("FAIL vectors/from_bytes/FromBytesTest/40"):]
        self.assertIn("  checks:   " + case["about"], text)
        self.assertIn("  oracle:   'err Format padding", text)
        for line in r.stdout.splitlines():
            self.assertLessEqual(len(line), 80, line)

    def test_a_failing_rule_case_shows_its_rule_as_docs_check_md_words_it(self):
        r = check("--impl", "python3 " + BANK + " m_zero_accepted", "--filter", "format/header/*")
        self.assertEqual(r.returncode, 1, r.stdout[-3000:] + r.stderr)
        rules = rules_table()
        [case] = [c for c in r.report["cases"] if c["name"] == "format/header/m_zero_with_its_length"]
        self.assertEqual(case["about"], rules["format/header/m_zero_with_its_length"])

    def test_an_acceptable_difference_names_what_else_is_allowed(self):
        lenient = os.path.join(SOURCE, "mutants/wheats/python/lenient/tlbf_impl.py")
        r = check("--impl", "python3 " + lenient, "--filter", "vectors/from_bytes/*", "-v")
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr)
        [case] = [c for c in r.report["cases"] if c["name"] == "vectors/from_bytes/FromBytesTest/30"]
        self.assertEqual(case["outcome"], "acceptable difference")
        self.assertIn("k above 65536", case["allowed"])
        self.assertIn("  allowed:  ", r.stdout)


if __name__ == "__main__":
    cases = sys.argv[1:] or ["Faults", "Explanations"]
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromName(c, sys.modules[__name__]) for c in cases)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
