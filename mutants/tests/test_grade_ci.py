"""Tests of `tlbf grade` in a CI and into a log (docs/mutants.md, "In CI and
in a log"): the JUnit file, the exit code of --fail-unless-all-meet, the
plain progress lines when standard error is not a terminal, and a table
whose names are never cut. Each grades two learners of the Python class at
most (alice meets the bar; bob is short), without chaffs and with one run a
mutant: seconds, where test_grade.py's gradings of whole classes take minutes.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. TLBF_REPORT_SCHEMA=unused \\
        python3 mutants/tests/test_grade_ci.py
"""
import os
import re
import shutil
import subprocess
import unittest
import xml.etree.ElementTree as ET

from test_grade import CLASSES, TLBF, Grading, table_verdicts

QUICK = ["--chaffs", "none", "--confirm-runs", "1", "-j", "2"]
LONG_NAME = "g7_" + "a_very_long_folder_name_" * 4  # 99 characters: wider than the terminal


class GradeInCi(Grading):
    kind = "python"

    def class_of(self, learners):
        """A class folder with the Python class's learners copied under new names
        ({new: old}); an old name of None is a learner who handed in nothing."""
        class_dir = os.path.join(self.dir, "class-" + "-".join(sorted(learners))[:60])
        os.mkdir(class_dir)
        for name, of in learners.items():
            if of is None:
                os.mkdir(os.path.join(class_dir, name))
            else:
                shutil.copytree(os.path.join(CLASSES, "python", of), os.path.join(class_dir, name))
        return class_dir

    def test_junit_file_has_a_case_per_learner_failing_unless_they_meet(self):
        class_dir = self.class_of({"alice": "alice", "bob": "bob", "nobody": None})
        out = os.path.join(self.dir, "out")
        junit = os.path.join(self.dir, "grades.xml")
        r = self.grade(class_dir, out, *QUICK, "--junit", junit)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        root = ET.parse(junit).getroot()  # well-formed XML, or this raises
        self.assertEqual(root.tag, "testsuites")
        suites = root.findall("testsuite")
        self.assertEqual([s.get("name") for s in suites], ["tlbf grade"])
        suite = suites[0]
        cases = {c.get("name"): c for c in suite.findall("testcase")}
        self.assertEqual(sorted(cases), ["alice", "bob", "nobody"])
        for case in cases.values():
            self.assertEqual(case.get("classname"), "tlbf.grade.python")
        self.assertEqual((suite.get("tests"), suite.get("failures"), suite.get("errors")), ("3", "2", "0"))
        # alice meets the bar: no failure, no error.
        self.assertIsNone(cases["alice"].find("failure"))
        self.assertIsNone(cases["alice"].find("error"))
        # bob does not: the message says which required mutants survived, the score and the threshold.
        failure = cases["bob"].find("failure")
        self.assertIsNotNone(failure)
        self.assertEqual(failure.get("type"), "short")
        self.assertEqual(failure.get("message"),
                         "short: score 6/10 = 0.60, threshold 0.80; required mutants that survived: s04 s05 s08 s09")
        # nobody handed in nothing: a failure of theirs, not the harness's.
        self.assertEqual(cases["nobody"].find("failure").get("type"), "no-tests")
        self.assertIsNone(cases["nobody"].find("error"))
        properties = {p.get("name"): p.get("value") for p in suite.find("properties")}
        self.assertEqual(properties["threshold"], "0.80")
        # An unwritable --junit is a file not written (3), the grades kept for the next run.
        r = self.grade(class_dir, out, *QUICK, "--junit", os.path.join(self.dir, "no-such-folder", "g.xml"))
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        self.assertIn("no-such-folder", r.stderr)

    def test_fail_unless_all_meet_exits_9_when_some_learner_does_not_meet(self):
        out = os.path.join(self.dir, "out")
        both = self.class_of({"alice": "alice", "bob": "bob"})
        r = self.grade(both, out, *QUICK, "--fail-unless-all-meet")
        self.assertEqual(r.returncode, 9, r.stdout + r.stderr)
        # Everything is written and printed as without it: only the exit code differs.
        self.assertEqual(table_verdicts(r.stdout), {"alice": "meets", "bob": "short"}, r.stdout)
        self.assertTrue(os.path.exists(os.path.join(out, "class.json")))
        # Without the flag, the same class exits 0 (every learner has a verdict).
        r = self.grade(both, out, *QUICK)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # A class where every learner meets exits 0 with it (alice's report reused: same out).
        alone = self.class_of({"alice": "alice"})
        r = self.grade(alone, out, *QUICK, "--fail-unless-all-meet")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("reusing", r.stderr)
        # The code is the documented one, in --help too.
        help_text = subprocess.run([TLBF, "grade", "--help"], capture_output=True, text=True).stdout
        self.assertRegex(help_text.replace("\n", " "), r"9 with --fail-unless-all-meet, some learner does not meet")

    def test_without_a_terminal_progress_is_plain_lines(self):
        class_dir = self.class_of({"alice": "alice"})
        out = os.path.join(self.dir, "out")
        # The interval, ten seconds, made none (for tests only), so that a grading of
        # a few seconds shows lines; standard error is a pipe here, not a terminal.
        self.env["TLBF_GRADE_PROGRESS_SECONDS"] = "0"
        r = self.grade(class_dir, out, *QUICK)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("\r", r.stderr)
        self.assertNotIn("\x1b", r.stderr)
        progress = [l for l in r.stderr.splitlines() if l.startswith("tlbf grade: 0/1 learners done; alice: ")]
        self.assertTrue(progress, r.stderr)
        for line in progress:
            self.assertRegex(line, r": (baseline \d+/\d+ runs, \d+ s"
                                   r"|mutants \d+/\d+ tested, \d+ survived, \d+ s, ETA \d+ s \(runs \d+/\d+\))$")
        self.assertTrue(any("mutants 10/10 tested" in l for l in progress), r.stderr)
        # A value that is not a whole number of seconds is refused before anything runs.
        self.env["TLBF_GRADE_PROGRESS_SECONDS"] = "0.5"
        r = self.grade(class_dir, os.path.join(self.dir, "out2"), *QUICK)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("TLBF_GRADE_PROGRESS_SECONDS", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out2")))

    def test_the_table_never_cuts_a_name_another_name_begins_alike(self):
        class_dir = self.class_of({"g5_strip_disguise": "alice", "g5_strip_disguise_and_hash": "bob",
                                   "g6_size_plus": None, LONG_NAME: None})
        r = self.grade(class_dir, os.path.join(self.dir, "out"), *QUICK)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        lines = r.stdout.splitlines()
        for line in lines:
            self.assertLessEqual(len(line), 80, line)
        # Each row's name whole, so that the two that begin alike are told apart by their verdicts.
        got = table_verdicts(r.stdout)
        self.assertEqual({name: got.get(name) for name in ("g5_strip_disguise", "g5_strip_disguise_and_hash", "g6_size_plus")},
                         {"g5_strip_disguise": "meets", "g5_strip_disguise_and_hash": "short", "g6_size_plus": "no-tests"},
                         r.stdout)
        self.assertNotIn("...", r.stdout.split("\n\n")[0])
        # A name wider than the terminal is wrapped, not cut: its lines put together make it.
        table = r.stdout.split("\n\n")[0]
        self.assertIn(LONG_NAME, table.replace("\n", ""))
        self.assertRegex(table, re.escape(LONG_NAME[80:]) + r"\n +no-tests")
        # And so is it in the lines that say why a grading stopped.
        self.assertIn(LONG_NAME + ":", r.stdout.replace("\n", ""))


if __name__ == "__main__":
    unittest.main()
