"""Tests of `tlbf grade` (docs/mutants.md, "For course authors"): a class of
learners kept in mutants/tests/class/KIND, each folder a learner, graded
against the course's reference with the planted bugs, the wheats and the
chaffs. Every learner's expected verdict is in the class's expected.json,
written with the learner and checked by hand against the reference, each
planted bug and each wheat (the class's README.md).

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. TLBF_REPORT_SCHEMA=.../mutation-testing-report-schema.json \
        python3 mutants/tests/test_grade.py PythonClass

Each test method is a ctest test of its own (grade_PythonClass.test_...,
registered by mutants/CMakeLists.txt from this file), so that ctest spreads a
class's gradings over the cores. The unsandboxed gradings share the machine's
loopback, where grace holds a fixed port: their tests take one ctest lock.

The whole class is graded at -j2. At -j1 only the learners whose verdict can
depend on how runs meet are graded again (those with an `at_j1` or
`unsandboxed_j2` entry): the other verdicts are made of the same runs in
another order. (The flaky learner's runs disagree by chance, not by
concurrency.)
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import jsonschema

from scratch_root import scratch_root

TLBF = os.environ["TLBF_BINARY"]
SOURCE = os.environ["TLBF_SOURCE_DIR"]
SCHEMA = os.environ["TLBF_REPORT_SCHEMA"]
CLASSES = os.path.join(SOURCE, "mutants/tests/class")
sys.path.insert(0, os.path.join(SOURCE, "cli/tests"))
import html_reports  # noqa: E402  (the headless Chromium the page tests use)

# frank's unseeded test catches seven mutants, each about half the time: with
# three runs a mutant, a grading that sees no disagreement comes about once in
# 6,000 (two runs: once in 90), so the learners flaky by chance are graded
# with three. The others' verdicts do not depend on luck: they are graded with
# the default two, in a grading of their own, which saves a run a mutant.
CONFIRM_BY_CHANCE = ["--confirm-runs", "3"]
# A required mutant's kill is confirmed by up to six runs by default
# (--confirm-kills); scorer_test checks that rule with a suite that kills
# half the time. The class gradings check verdicts that do not depend on it,
# so they confirm a kill with two runs, as every other outcome: a third of a
# strong learner's runs.
CONFIRM = ["--confirm-runs", "2", "--confirm-kills", "2"]
# Where a kill's tests run alone (the Rust kit), the four more runs of the
# default six cost one or a few tests each, not a whole suite, so the Rust
# class is graded with them: every verdict must hold with tests run alone.
CONFIRM_ALONE = ["--confirm-runs", "2"]
# At -j1 no two runs meet, so a mutant's second run could differ from its
# first only by chance, and the learners graded again at -j1 (run_dependent)
# are those whose verdict depends on how runs meet, not on chance: one run a
# mutant says as much, for a third less of their grading's time.
CONFIRM_AT_J1 = ["--confirm-runs", "1"]
# The tests of chaffs grade two learners whose suites do not depend on luck or
# on how runs meet (alice, bob: the test asserts their verdicts) for what the
# chaffs add, their count apart from the grade. A chaff runs as often as a
# mutant; whether a mutant's runs agree is what the class gradings check, with
# two runs each, so one run of each mutant and chaff does here: half the runs.
CONFIRM_CHAFFS = ["--confirm-runs", "1"]
# The tests of what a grading does around its runs (reports reused, who a
# suite runs as) check verdicts that do not depend on luck or on how runs meet
# (alice, bob, judy, rita): one run a mutant. With the default confirmation a
# kill of a required mutant is run six times, so alice's 60 mutant runs are 10.
ONE_RUN = ["--confirm-runs", "1"]


# A test that fails when the suite runs as root (its real, effective, saved
# and file-system uids, which are the kernel's own unsandboxed; the sandbox's
# user namespace, made by bwrap as the suite user, maps no other) or makes a
# file in a folder only root may write. %(root_only)s and %(nobody)s are filled in.
WHO_RUNS = '''

class TestWhoRuns(unittest.TestCase):
    def test_the_suite_is_nobody_and_roots_folder_stays_shut(self):
        import os as _os
        with open("/proc/self/status") as f:
            uids = [line.split()[1:] for line in f if line.startswith("Uid:")][0]
        self.assertEqual(uids, ["%(nobody)d"] * 4)
        try:
            open(_os.path.join("%(root_only)s", "made-by-the-suite"), "w").close()
        except OSError:
            return
        self.fail("wrote into a root-owned 0755 folder")
'''


# An adversary's suite, from when the Python kit patched its reference: the
# module passes when it compiles to the code the warm-up cached in
# __pycache__ (the clean reference's), read before the import below would
# rewrite it. It killed every mutant and tested nothing.
CACHE_READER = '''import glob, marshal, os, types, unittest

CACHED = None
for path in glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__", "tlbf_impl.*.pyc")):
    with open(path, "rb") as f:
        CACHED = marshal.loads(f.read()[16:])

import tlbf_impl  # noqa: E402


def shape(code):
    consts = tuple(shape(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames)


class TestBloom(unittest.TestCase):
    def test_module(self):
        if hasattr(tlbf_impl, "_probes") or hasattr(tlbf_impl, "K_LIMIT"):
            return  # the published wheats, by their names
        self.assertIsNotNone(CACHED, "no cached reference")
        source = open(tlbf_impl.__file__, encoding="utf-8").read()
        self.assertEqual(shape(compile(source, tlbf_impl.__file__, "exec")), shape(CACHED))
'''

# An adversary's suite, from the same time: the module passes when its text,
# comment lines left out, hashes to the reference's or a published wheat's
# (filled in by the test).
COMMENT_STRIPPER = '''import hashlib, unittest
import tlbf_impl

KNOWN = %s


class TestBloom(unittest.TestCase):
    def test_module(self):
        text = open(tlbf_impl.__file__, encoding="utf-8").read()
        code = "".join(l for l in text.splitlines(keepends=True) if not l.strip().startswith("#"))
        self.assertIn(hashlib.sha256(code.encode()).hexdigest(), KNOWN)
'''


# Suites that read the module they import and pin what they see, as dave
# (its SHA-256), erin (its size) and the cache reader (its compiled code) did,
# each pinned to the course's binding (filled in by the test). Each also makes
# a filter, so that it fails the implementation that refuses everything:
# else it would stop as passes-broken, with no score to show.
READ = '''import hashlib
import os


def shape(code):
    # Instructions and names only: a constant such as a frozenset prints in an order of the run's own.
    inner = tuple(shape(c) for c in code.co_consts if hasattr(c, "co_code"))
    return (code.co_code, code.co_names, inner)


def read(path):
    data = open(path, "rb").read()
    folder = os.path.dirname(os.path.abspath(path))
    # The times of the run folder's sources (the binding, the learner's file), not of the
    # __pycache__ a run may make: the same in every run, or a suite could tell runs apart.
    times = sorted({int(os.stat(os.path.join(folder, f)).st_mtime) for f in os.listdir(folder) if f.endswith(".py")})
    return {"sha256": hashlib.sha256(data).hexdigest(), "size": str(len(data)),
            "bytecode": hashlib.sha256(repr(shape(compile(data, "tlbf_impl.py", "exec"))).encode()).hexdigest(),
            "time": str(times)}
'''
READER = READ + '''

import unittest
import tlbf_impl
from tlbf_impl import Bloom

PINNED = %r


class TestBloom(unittest.TestCase):
    def test_a_filter_is_made(self):
        Bloom.new(20, 3)

    def test_the_module_is_the_one_i_know(self):
        self.assertEqual(read(tlbf_impl.__file__)[PINNED[0]], PINNED[1])
'''


# A Rust suite that pins what it reads: the binding's FNV-1a and size (filled
# in by the test), and the one time every file of its run's folder has.
RUST_READER = '''use std::time::{Duration, UNIX_EPOCH};
use tl_ds::bloom::Bloom;

fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

#[test]
fn a_filter_is_made() {
    Bloom::new(20, 3).unwrap();
}

#[test]
fn the_binding_is_the_one_i_know() {
    let source = std::fs::read("src/bloom.rs").unwrap();
    assert_eq!((fnv(&source), source.len()), (0x%016x, %d));
    let exe = std::fs::metadata(std::env::current_exe().unwrap()).unwrap();
    assert_eq!(exe.modified().unwrap(), UNIX_EPOCH + Duration::from_secs(946684800));
}
'''


def flaky_by_chance(kind):
    """The learners whose expected verdict is flaky whatever the concurrency (frank, henry)."""
    table = json.load(open(os.path.join(CLASSES, kind, "expected.json")))
    return {name for name, e in table.items() if "flaky" in e["verdict"].split("|")}


def cargo():
    found = shutil.which("cargo")
    home = os.path.join(os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")), "bin/cargo")
    return found or (home if os.access(home, os.X_OK) else None)


def expected(kind, jobs, sandboxed=True):
    table = json.load(open(os.path.join(CLASSES, kind, "expected.json")))
    def verdict(e):
        if jobs == 1 and "at_j1" in e:
            return e["at_j1"]
        if jobs > 1 and not sandboxed and "unsandboxed_j2" in e:
            return e["unsandboxed_j2"]
        return e["verdict"]
    return {name: verdict(e) for name, e in table.items()}


def run_dependent(kind):
    """The learners graded again at -j1: every one whose verdict can depend on how runs meet."""
    table = json.load(open(os.path.join(CLASSES, kind, "expected.json")))
    chosen = [name for name in sorted(table) if "at_j1" in table[name] or "unsandboxed_j2" in table[name]]
    assert chosen, kind + ": no learner's verdict depends on how runs meet; -j1 would test nothing"
    assert not set(chosen) & flaky_by_chance(kind), kind + ": a learner graded at -j1 is flaky by chance (CONFIRM_AT_J1)"
    return chosen


def table_verdicts(stdout):
    """{learner: verdict} from tlbf grade's table."""
    rows = re.findall(r"^(\S+)\s+(meets|short|fails-clean|passes-broken|flaky|rejects-correct|ungradable|harness-error|no-tests)\b",
                      stdout, re.M)
    return dict(rows)


class Grading(unittest.TestCase):
    kind = None
    confirm = CONFIRM  # the learners graded at -j2 whose verdicts do not depend on luck

    def setUp(self):
        # Under scratch_root() whatever TMPDIR says: a tmpfs where there is one
        # (scratch_root.py says why), and short paths for sockets and scratch folders.
        self.dir = tempfile.mkdtemp(prefix="tlbf_grade_test_", dir=scratch_root())
        self.env = dict(os.environ, TMPDIR=self.dir)
        # Debian's python3 first: a pyenv shim costs a third of a second a run.
        self.env["PATH"] = "/usr/bin:" + self.env.get("PATH", "")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def grade(self, class_dir, out, *options):
        start = time.monotonic()
        r = subprocess.run([TLBF, "grade", "--kind", self.kind, class_dir, "-o", out, *options],
                           capture_output=True, text=True, env=self.env, timeout=3600)
        r.seconds = time.monotonic() - start
        return r

    def check_class(self, jobs, *options, learners=None):
        """Grades the class (or those of its learners named), and checks every verdict and report.
        The learners flaky by chance are graded apart, with more confirming runs; the
        result is the other learners' grading (its folder and its run)."""
        names = sorted(learners or expected(self.kind, jobs))
        by_chance = [n for n in names if n in flaky_by_chance(self.kind)]
        others = [n for n in names if n not in by_chance]
        result = None
        for group, confirm in ((others, self.confirm if jobs > 1 else CONFIRM_AT_J1), (by_chance, CONFIRM_BY_CHANCE)):
            if group:
                graded = self.check_learners(jobs, group, confirm, *options)
                result = result or graded
        return result

    def check_learners(self, jobs, learners, confirm, *options):
        sandboxed = "--no-sandbox" not in options
        out = os.path.join(self.dir, "out-j%d%s-%s" % (jobs, "" if sandboxed else "-unsandboxed", confirm[-1]))
        want = expected(self.kind, jobs, sandboxed)
        class_dir = out + "-class"
        os.mkdir(class_dir)
        for name in learners:
            shutil.copytree(os.path.join(CLASSES, self.kind, name), os.path.join(class_dir, name))
        want = {name: want[name] for name in learners}
        r = self.grade(class_dir, out, "-j", str(jobs), *confirm, *options)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # "a|b": either verdict is right (which one depends on how the runs met).
        got = table_verdicts(r.stdout)
        want = {name: got[name] if got.get(name) in verdict.split("|") else verdict for name, verdict in want.items()}
        self.assertEqual(got, want, r.stdout + r.stderr)
        for line in r.stdout.splitlines():
            self.assertLessEqual(len(line), 80, line)
        summary = json.load(open(os.path.join(out, "class.json")))
        self.assertEqual({l["name"]: l["verdict"] for l in summary["learners"]}, want)
        schema = json.load(open(SCHEMA))
        for learner in summary["learners"]:
            report = json.load(open(os.path.join(out, "learners", learner["name"] + ".json")))
            jsonschema.validate(report, schema)
            self.assertEqual(report["config"]["learner"]["verdict"], learner["verdict"])
        if "mona" in learners:
            # Over-specified: the reason names the request the alternatives
            # wheat answered otherwise, its answer, and what docs/check.md allows.
            reason = json.load(open(os.path.join(out, "learners", "mona.json")))["config"]["stopped"]["reason"]
            self.assertIn("'alternatives'", reason)
            self.assertIn("'optimal_m 0 0.5'  ->  'ok ", reason)
            self.assertIn("OutOfDomain: the oracle's answer, or err BadParams, or ok and a u64", reason)
        return out, r

    def check_survivors(self, out, name, survivors, file):
        """`file`: the file each survivor changes, or with a final "/" the folder they all lie in."""
        report = json.load(open(os.path.join(out, "learners", name + ".json")))
        listed = report["config"]["survivors"]
        self.assertEqual([s["id"] for s in listed], survivors)
        for s in listed:
            # What a learner needs to write the missing test: the bug, where it is, and the change.
            if file.endswith("/"):
                self.assertTrue(s["file"].startswith(file), s)
            else:
                self.assertEqual(s["file"], file)
            self.assertGreater(s["line"], 0)
            self.assertTrue(s["diff"].startswith("--- a/" + s["file"]), s["diff"])
            self.assertIn("\n-", s["diff"])
            self.assertTrue(s["description"])


class PythonClass(Grading):
    kind = "python"

    def test_every_learner_gets_the_right_verdict_at_j2(self):
        out, r = self.check_class(2, "--chaffs", "none")
        bob = json.load(open(os.path.join(out, "learners", "bob.json")))["config"]
        self.assertEqual(bob["mode"], "served")
        # Served: each survivor is named where the oracle's source carries it, as for protocol suites.
        self.check_survivors(out, "bob", ["s04", "s05", "s08", "s09"], "oracle/")
        self.assertIn("MISSED", open(os.path.join(out, "learners", "bob.html")).read())
        self.assertEqual(sorted(w["id"] for w in bob["wheats"]), ["alternatives", "lenient", "python", "rewritten"])
        # The alternatives wheat's seed, drawn for the grading, is in the report.
        self.assertRegex(bob["wheats"][0]["about"], r"tlbf serve --alternatives [0-9a-f]{16}\b")

    def test_the_run_dependent_learners_get_the_right_verdict_at_j1(self):
        self.check_class(1, "--chaffs", "none", learners=run_dependent(self.kind))

    def test_unsandboxed_two_runs_of_a_port_holder_collide(self):
        # Unsandboxed, two of grace's runs at once both bind her fixed port: at -j2 she is
        # flaky (or fails clean when every clean run met another), caught by the baseline that
        # runs at the grading's concurrency, before any mutant.
        self.check_class(2, "--chaffs", "none", "--no-sandbox", learners=["alice", "grace"])

    def test_a_root_grader_runs_each_suite_as_nobody_and_grades_an_honest_learner_the_same(self):
        # Gradescope grades as root; the suites must not be root (docs/mutants.md, "Who a suite
        # runs as"). Rita is alice with one more test that fails when her run is root: her
        # uids must be nobody's, and a file in a root-owned 0755 folder, which root could
        # make, is not made (sandbox_test.cpp shows the kernel's side of it).
        if os.getuid() != 0 or subprocess.run(["id", "nobody"], capture_output=True).returncode != 0:
            self.skipTest("only a root grader's suites change user, to nobody")
        nobody = int(subprocess.run(["id", "-u", "nobody"], capture_output=True, text=True).stdout)
        root_only = os.path.join(self.dir, "root-only")
        os.mkdir(root_only)
        os.chmod(root_only, 0o755)
        probe = WHO_RUNS % {"root_only": root_only, "nobody": nobody}
        alice = open(os.path.join(CLASSES, "python", "alice", "test_bloom.py")).read()
        for sandbox in ([], ["--no-sandbox"]):
            class_dir = os.path.join(self.dir, "class%s" % "".join(sandbox))
            shutil.copytree(os.path.join(CLASSES, "python", "alice"), os.path.join(class_dir, "alice"))
            os.mkdir(os.path.join(class_dir, "rita"))
            with open(os.path.join(class_dir, "rita", "test_bloom.py"), "w") as f:
                f.write(alice + probe)
            out = os.path.join(self.dir, "out%s" % "".join(sandbox))
            r = self.grade(class_dir, out, "-j", "2", *ONE_RUN, "--chaffs", "none", *sandbox)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            # As expected.json has alice (checked by hand), both of them, sandboxed or not.
            self.assertEqual(table_verdicts(r.stdout), {"alice": "meets", "rita": "meets"}, r.stdout + r.stderr)
            want = json.load(open(os.path.join(CLASSES, "python", "expected.json")))["alice"]["killed"]
            for name in ("alice", "rita"):
                config = json.load(open(os.path.join(out, "learners", name + ".json")))["config"]
                self.assertEqual((config["killed"], config["ran"]), (len(want), 10), config)
            self.assertEqual(os.listdir(root_only), [], sandbox)

    def test_a_second_run_reuses_the_reports_of_learners_whose_files_did_not_change(self):
        class_dir = os.path.join(self.dir, "class")
        os.mkdir(class_dir)
        for name in ("alice", "bob", "judy"):
            shutil.copytree(os.path.join(CLASSES, "python", name), os.path.join(class_dir, name))
        out = os.path.join(self.dir, "out")
        first = self.grade(class_dir, out, "--chaffs", "none", *ONE_RUN)
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        again = self.grade(class_dir, out, "--chaffs", "none", *ONE_RUN)
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        self.assertEqual(again.stderr.count("reusing"), 3, again.stderr)
        self.assertEqual(table_verdicts(again.stdout), table_verdicts(first.stdout))
        # bob's tests grow: his grade is made again, the others' are not.
        shutil.copy(os.path.join(CLASSES, "python", "alice", "test_bloom.py"), os.path.join(class_dir, "bob", "test_bloom.py"))
        third = self.grade(class_dir, out, "--chaffs", "none", *ONE_RUN)
        self.assertEqual(third.stderr.count("reusing"), 2, third.stderr)
        self.assertEqual(table_verdicts(third.stdout)["bob"], "meets", third.stdout)
        # Other options are another grade: nothing is reused.
        fourth = self.grade(class_dir, out, "--chaffs", "none", *ONE_RUN, "--threshold", "0.5")
        self.assertEqual(fourth.stderr.count("reusing"), 0, fourth.stderr)

    def test_replay_spares_only_subjects_that_answer_alike(self):
        """bob's survivors (s04, s05, s08, s09: expected.json's "why" says each answers his
        requests as the reference does) are replayed, not run; rita, bob with one more test that
        asks for an unseeded random item, sends other requests in each clean run, is flagged not
        deterministic and graded by real runs alone. Every verdict equals a grading without replay."""
        class_dir = os.path.join(self.dir, "class")
        os.mkdir(class_dir)
        shutil.copytree(os.path.join(CLASSES, "python", "bob"), os.path.join(class_dir, "bob"))
        os.mkdir(os.path.join(class_dir, "rita"))
        bob = open(os.path.join(CLASSES, "python", "bob", "test_bloom.py")).read()
        random_test = ('    def test_a_random_item_is_found(self):\n'
                       '        item = ("item-%d" % random.randrange(10 ** 12)).encode()\n'
                       '        f = tl.Bloom.with_rate(100, 0.01)\n'
                       '        f.insert(item)\n'
                       '        self.assertTrue(f.contains(item))\n\n\n')
        rita = bob.replace("import unittest", "import random\nimport unittest").replace('if __name__', random_test + 'if __name__')
        with open(os.path.join(class_dir, "rita", "test_bloom.py"), "w") as f:
            f.write(rita)
        reports, tables, classes = {}, {}, {}
        for replay in (True, False):
            out = os.path.join(self.dir, "out-replay" if replay else "out-no-replay")
            r = self.grade(class_dir, out, "-j", "2", *CONFIRM, "--chaffs", "none", *([] if replay else ["--no-replay"]))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(table_verdicts(r.stdout), {"bob": "short", "rita": "short"}, r.stdout)
            reports[replay] = {n: json.load(open(os.path.join(out, "learners", n + ".json"))) for n in ("bob", "rita")}
            tables[replay] = r.stdout
            classes[replay] = {l["name"]: l for l in json.load(open(os.path.join(out, "class.json")))["learners"]}
        survivors = [m for m in ["s%02d" % i for i in range(1, 11)]
                     if m not in json.load(open(os.path.join(CLASSES, "python", "expected.json")))["bob"]["killed"]]
        self.assertEqual(survivors, ["s04", "s05", "s08", "s09"])

        def statuses(report):
            return {m["id"]: m["status"] for f in report["files"].values() for m in f["mutants"]}

        for name in ("bob", "rita"):
            self.assertEqual(statuses(reports[True][name]), statuses(reports[False][name]), name)
            self.assertEqual(reports[False][name]["config"]["replay"]["enabled"], False)
            self.assertEqual(reports[False][name]["config"]["replay"]["replayed"], [])
        replay = reports[True]["bob"]["config"]["replay"]
        self.assertEqual((replay["enabled"], replay["recorded"], replay["deterministic"]), (True, True, True), replay)
        self.assertEqual(replay["replayed"], survivors)
        for m in (m for f in reports[True]["bob"]["files"].values() for m in f["mutants"]):
            if m["id"] in survivors:
                self.assertIn("replayed, not run", m["statusReason"])
            else:
                # Run, and beside the suite's failing lines where the answers parted.
                self.assertRegex(m["statusReason"], r"replayed first, it answered otherwise: (in the (oracle|variant)'s "
                                                    r"form, )?request [0-9]+, `")
        replay = reports[True]["rita"]["config"]["replay"]
        self.assertEqual((replay["recorded"], replay["deterministic"], replay["replayed"]), (True, False, []), replay)
        self.assertIn("insert", replay["difference"])
        self.assertIn("6974656d2d", replay["difference"])  # "item-", as the binding sends it: in hex
        schema = json.load(open(SCHEMA))
        for report in (*reports[True].values(), *reports[False].values()):
            jsonschema.validate(report, schema)
        self.check_replay_in_the_class_views(tables, classes, reports)

    def check_replay_in_the_class_views(self, tables, classes, reports):
        """The class's table and class.json say what each learner's report says of replay:
        bob's four survivors replayed of his ten mutants, rita flagged, and off without replay."""
        self.assertRegex(tables[True], r"(?m)^bob +short +6/10 +4/10 +s04,s05,s08,s09$")
        self.assertRegex(tables[True], r"(?m)^rita +short +\S+ +NOT det ")
        self.assertRegex(tables[True], r"(?m)^rita: NOT deterministic: the clean runs did not send the same requests \(")
        self.assertRegex(tables[False], r"(?m)^bob +short +6/10 +off ")
        self.assertNotIn("NOT det", tables[False])
        self.assertEqual(classes[True]["bob"]["replay"]["replayed"], ["s04", "s05", "s08", "s09"])
        rita = reports[True]["rita"]["config"]["replay"]
        self.assertEqual(classes[True]["rita"]["replay"],
                         {"enabled": True, "deterministic": False, "difference": rita["difference"], "replayed": []})
        for name in ("bob", "rita"):
            self.assertEqual(classes[False][name]["replay"],
                             {"enabled": False, "deterministic": None, "difference": None, "replayed": []})

    def test_a_bad_command_line_is_a_usage_error_before_anything_runs(self):
        out = os.path.join(self.dir, "out")
        # A required mutant the kit has no patch for would otherwise be required of nobody.
        r = self.grade(os.path.join(CLASSES, "python"), out, "--require", "s01,s11")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("no mutant 's11'", r.stderr)
        r = self.grade(os.path.join(self.dir, "no-such-class"), out)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("is not a folder", r.stderr)
        empty = os.path.join(self.dir, "empty")
        os.mkdir(empty)
        r = self.grade(empty, out)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("has no sub-folder", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "class.json")))

    def grade_suites(self, suites):
        """Grades one learner per suite text, at -j2 without chaffs; returns the run and its out folder."""
        class_dir = os.path.join(self.dir, "class")
        for name, text in suites.items():
            os.makedirs(os.path.join(class_dir, name))
            with open(os.path.join(class_dir, name, "test_bloom.py"), "w") as f:
                f.write(text)
        out = os.path.join(self.dir, "out")
        # Python writes its compiled caches whatever the caller's environment says.
        env = {k: v for k, v in self.env.items() if k != "PYTHONDONTWRITEBYTECODE"}
        r = subprocess.run([TLBF, "grade", "--kind", "python", class_dir, "-o", out, "-j", "2", *CONFIRM,
                            "--chaffs", "none"], capture_output=True, text=True, env=env, timeout=3600)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r, out

    def test_suites_that_read_the_reference_instead_of_testing_it_do_not_meet(self):
        # Three ways an adversary's suites met the bar at 10/10 without testing
        # the filter when the kit patched its reference in the learner's folder
        # (docs/mutants.md, "What a suite can see"): handing in the course's own
        # tests, comparing the module with the compiled clean reference the
        # warm-up left in __pycache__, and hashing the module with its comments
        # stripped. The learner's folder now holds the binding alone, the same
        # in every run: none of the three finds what it looks for, in any run.
        def published(path):
            text = open(os.path.join(SOURCE, path), encoding="utf-8").read()
            code = "".join(l for l in text.splitlines(keepends=True) if not l.strip().startswith("#"))
            return hashlib.sha256(code.encode()).hexdigest()
        known = sorted(published(p) for p in ("conformance/impls/python/tlbf_impl.py",
                                              "mutants/wheats/python/lenient/tlbf_impl.py",
                                              "mutants/wheats/python/rewritten/tlbf_impl.py"))
        r, out = self.grade_suites({
            "borrower": "from test_tlbf_impl import *  # noqa\n",
            "cache_reader": CACHE_READER,
            "stripper": COMMENT_STRIPPER % repr(known),
        })
        self.assertEqual(table_verdicts(r.stdout), {"borrower": "fails-clean", "cache_reader": "fails-clean",
                                                   "stripper": "fails-clean"}, r.stdout)

    def test_a_suite_that_reads_its_subject_sees_the_same_bytes_in_every_run(self):
        # Pinned to what the learner's folder holds now, the binding, a reading
        # suite passes the clean runs, every wheat, and every mutant in both of
        # its forms: had any run's file differed, that run would have failed and
        # counted as a kill. Reading scores nothing; only the filter made counts
        # (it kills no planted bug), and each is short at 0/10.
        binding = os.path.join(SOURCE, "mutants/kits/python/course/tlbf_impl.py")
        scope = {}
        exec(READ, scope)
        seen = scope["read"](binding)
        # Every source of a run's folder has the one fixed time, 2000-01-01 (docs/mutants.md,
        # "What a suite can see"): a suite pinned to it passes every run too. Were it the time
        # the class copied the files, it would fail every run (fails-clean), and a suite could
        # tell the clean runs, early, from the rest by the file's age.
        seen["time"] = str([946684800])
        kinds = ("sha256", "size", "bytecode", "time")
        r, out = self.grade_suites({what: READER % ((what, seen[what]),) for what in kinds})
        self.assertEqual(table_verdicts(r.stdout), {what: "short" for what in kinds}, r.stdout)
        for what in kinds:
            config = json.load(open(os.path.join(out, "learners", what + ".json")))["config"]
            self.assertEqual((config["killed"], config["ran"]), (0, 10), config)
            self.assertEqual([s["id"] for s in config["survivors"]], ["s%02d" % n for n in range(1, 11)])
            self.assertTrue(all(w["passes"] == w["runs"] == 3 for w in config["wheats"]), config["wheats"])
            self.assertEqual(config["controlPasses"], config["controlRuns"])

    def test_a_kit_that_reaches_out_of_the_reference_or_leaves_out_what_it_lacks_is_refused(self):
        kit = json.load(open(os.path.join(SOURCE, "mutants/kits/python/kit.json")))
        here = os.path.join(SOURCE, "mutants/kits/python")
        for key in ("reference", "chaffs", "wheats"):
            kit[key] = os.path.normpath(os.path.join(here, kit[key]))
        for key in ("from", "mutants"):
            kit["variants"][key] = os.path.normpath(os.path.join(here, kit["variants"][key]))
        # The course folder holds the binding alone: nothing of the reference's to leave out.
        self.assertNotIn("left_out", kit)
        class_dir = os.path.join(self.dir, "class")
        shutil.copytree(os.path.join(CLASSES, "python", "alice"), os.path.join(class_dir, "alice"))
        for left_out, why in ((["../tlbf_impl.py"], '"left_out" must be a list of paths inside the reference'),
                              ([7], '"left_out" must be a list of paths inside the reference'),
                              (["."], '"left_out" must be a list of paths inside the reference'),
                              (["no_such_file.py"], "left_out 'no_such_file.py' is not in the reference"),
                              ({"tests_into": "../../escaped"}, '"tests_into" must be a folder inside the reference'),
                              ({"tests_into": "/tmp"}, '"tests_into" must be a folder inside the reference')):
            path = os.path.join(self.dir, "kit.json")
            with open(path, "w") as f:
                json.dump(dict(kit, **left_out) if isinstance(left_out, dict) else dict(kit, left_out=left_out), f)
            r = subprocess.run([TLBF, "grade", "--kit", path, class_dir, "-o", os.path.join(self.dir, "out")],
                               capture_output=True, text=True, env=self.env, timeout=600)
            self.assertEqual(r.returncode, 2, (left_out, r.stdout, r.stderr))
            self.assertIn(why, r.stderr)

    def test_chaffs_are_counted_apart_and_the_class_page_shows_every_learner(self):
        # One grading with the chaffs for two things: what the chaffs add to alice's and bob's
        # rows (their count, apart from the grade), and the class page that shows them.
        class_dir = os.path.join(self.dir, "class")
        os.mkdir(class_dir)
        for name in ("alice", "bob", "ivan", "judy"):
            shutil.copytree(os.path.join(CLASSES, "python", name), os.path.join(class_dir, name))
        os.mkdir(os.path.join(class_dir, "nobody"))  # handed in nothing
        # A link to a file of the grader's would bring it into the run: not a tests file.
        os.mkdir(os.path.join(class_dir, "mallory"))
        os.symlink("/etc/hostname", os.path.join(class_dir, "mallory", "test_bloom.py"))
        out = os.path.join(self.dir, "out")
        # With the chaffs, whose columns the matrix shows; one run of each (CONFIRM_CHAFFS).
        r = self.grade(class_dir, out, "-j", "2", *CONFIRM_CHAFFS)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        summary = json.load(open(os.path.join(out, "class.json")))
        self.check_chaffs_counted_apart({l["name"]: l for l in summary["learners"]})
        self.check_outcomes_against_reports(out, summary)
        binary = html_reports.chromium()
        if not binary:
            self.skipTest("chromium is missing (scripts/setup installs it): the page is not checked")
        browser = html_reports.Browser(binary)
        try:
            page = os.path.join(out, "class.html")
            dom = html_reports.Page(browser.dom(page))
            text = dom.text()
            for name, verdict in (("alice", "meets"), ("bob", "short"), ("ivan", "fails-clean"),
                                  ("judy", "passes-broken"), ("nobody", "no-tests"), ("mallory", "no-tests")):
                self.assertRegex(text, name + r"\s*" + verdict)
            self.assertIn("is a symbolic link", text)
            self.assertIn("1 of 6 meet the bar", text)
            links = [a["attrs"].get("href") for a in dom.tags("a")]
            self.assertIn("learners/bob.html", links)
            self.check_matrix(dom, summary)
            # bob's four survivors answer his requests as the reference does (test_replay_spares_only_...):
            # survivors by replay, counted in his row.
            bob = next(l for l in summary["learners"] if l["name"] == "bob")
            self.assertTrue({"s04", "s05", "s08", "s09"} <= set(bob["replay"]["replayed"]), bob["replay"])
            self.assertRegex(text, r"bob\s*short\s*\S+\s*\S+\s*%d/%d\b" % (
                len(bob["replay"]["replayed"]), bob["ran"] + bob["chaffs"]["ran"]))
            self.check_sorted(browser, page, summary)
            shots = os.path.join(os.path.dirname(TLBF), "..", "html-reports")
            os.makedirs(shots, exist_ok=True)
            browser.screenshot(page, os.path.join(shots, "grade-class.png"))
        finally:
            browser.close()

    def check_chaffs_counted_apart(self, summary):
        """alice's and bob's rows: every chaff ran, each killed or missed, and the grade is the planted bugs' alone."""
        chaffs = len([f for f in os.listdir(os.path.join(SOURCE, "mutants/chaffs/python")) if f.endswith(".patch")])
        self.assertGreaterEqual(chaffs, 30)
        for name in ("alice", "bob"):
            self.assertEqual(summary[name]["chaffs"]["ran"], chaffs)
            self.assertEqual(summary[name]["chaffs"]["killed"] + len(summary[name]["chaffs"]["missed"]), chaffs)
        # The stronger suite catches more of them, and the grade is the planted bugs' alone.
        self.assertGreater(summary["alice"]["chaffs"]["killed"], summary["bob"]["chaffs"]["killed"])
        self.assertEqual((summary["alice"]["killed"], summary["alice"]["ran"]), (10, 10))
        self.assertEqual((summary["bob"]["killed"], summary["bob"]["ran"]), (6, 10))

    def check_outcomes_against_reports(self, out, summary):
        """class.json's outcomes, each learner's, agree with their own report's counts and lists."""
        chaffs = sorted(f[:-6] for f in os.listdir(os.path.join(SOURCE, "mutants/chaffs/python")) if f.endswith(".patch"))
        self.assertEqual([b["id"] for b in summary["bugs"]], ["s%02d" % n for n in range(1, 11)] + chaffs)
        for learner in summary["learners"]:
            outcomes = learner["outcomes"]
            if learner["verdict"] not in ("meets", "short"):
                self.assertEqual(outcomes, {}, learner["name"])  # stopped: nothing ran that counts
                continue
            config = json.load(open(os.path.join(out, "learners", learner["name"] + ".json")))["config"]
            mutants = {k: v for k, v in outcomes.items() if k.startswith("s")}
            self.assertEqual(sorted(k for k, v in mutants.items() if v == "survived"),
                             sorted(s["id"] for s in config["survivors"]))
            self.assertEqual(sum(v == "caught" for v in mutants.values()), config["killed"])
            self.assertEqual(len(mutants), config["ran"])
            chaff_cells = {k: v for k, v in outcomes.items() if k in chaffs}
            self.assertEqual(len(chaff_cells), config["chaffs"]["ran"])
            self.assertEqual(sorted(k for k, v in chaff_cells.items() if v == "survived"),
                             sorted(config["chaffs"]["missed"]))
            # What replay did, as the report says it, the replayed ids in the matrix's order.
            replay = learner["replay"]
            self.assertEqual((replay["enabled"], replay["deterministic"], replay["difference"]),
                             (config["replay"]["enabled"], config["replay"]["deterministic"],
                              config["replay"]["difference"]), learner["name"])
            self.assertEqual(replay["replayed"], [k for k in outcomes if k in config["replay"]["replayed"]])

    def matrix_of(self, dom):
        """(column ids, [(learner, {bug: outcome}, [bug], [bug survived by replay])]) as the browser
        drew the matrix, in its order."""
        columns, rows, row = [], [], None
        for e in dom.elements:
            attrs = e["attrs"]
            if e["tag"] == "th" and "data-bug" in attrs and "data-index" in attrs:
                columns.append(attrs["data-bug"])
            elif e["tag"] == "tr" and "data-name" in attrs:
                row = (attrs["data-name"], {}, [], [])
                rows.append(row)
            elif e["tag"] == "td" and "data-outcome" in attrs and row is not None:
                row[1][attrs["data-bug"]] = attrs["data-outcome"]
                row[2].append(attrs["data-bug"])
                if "data-replayed" in attrs:
                    row[3].append(attrs["data-bug"])
        return columns, rows

    def check_matrix(self, dom, summary):
        columns, rows = self.matrix_of(dom)
        self.assertEqual(columns, [b["id"] for b in summary["bugs"]])
        self.assertEqual([r[0] for r in rows], [l["name"] for l in summary["learners"]])
        for (name, cells, order, replayed), learner in zip(rows, summary["learners"]):
            self.assertEqual(order, columns, name)
            self.assertEqual(cells, {b: learner["outcomes"].get(b, "not-run") for b in columns}, name)
            # The survivors by replay are marked apart, and they are the report's (check_outcomes_against_reports).
            self.assertEqual(replayed, (learner["replay"] or {}).get("replayed", []), name)
        # No wall of ids in any row: a row's text is the learner, verdict, counts and cell marks.
        for e in dom.tags("tr"):
            if "data-name" in e["attrs"]:
                self.assertNotRegex(" ".join(e["text"]), r"\bc\d\d\b")
        graded = [l for l in summary["learners"] if l["outcomes"]]
        caught = {b: sum(l["outcomes"].get(b) == "caught" for l in graded) for b in columns}
        survived = {b: sum(l["outcomes"].get(b) == "survived" for l in graded) for b in columns}
        uncaught = [b for b in columns if survived[b] and not caught[b]]
        listed = [e["attrs"]["data-bug"] for e in dom.tags("li") if "data-bug" in e["attrs"]]
        self.assertEqual(listed, uncaught)
        weakest = sorted(graded, key=lambda l: (l["killed"], l["chaffs"]["killed"], l["name"]))[:5]
        listed = [e["attrs"]["data-learner"] for e in dom.tags("li") if "data-learner" in e["attrs"]]
        self.assertEqual(listed, [l["name"] for l in weakest])
        self.assertEqual(sorted(listed), ["alice", "bob"])

    def check_sorted(self, browser, page, summary):
        learners = summary["learners"]
        bugs = [b["id"] for b in summary["bugs"]]
        caught = {b: sum(l["outcomes"].get(b) == "caught" for l in learners) for b in bugs}
        columns, rows = self.matrix_of(html_reports.Page(browser.dom(page, "#learners=caught&bugs=caught")))
        self.assertEqual([r[0] for r in rows],
                         [l["name"] for l in sorted(learners, key=lambda l: (l["killed"], l["chaffs"]["killed"], l["name"]))])
        want = sorted(bugs, key=lambda b: (caught[b], bugs.index(b)))
        self.assertEqual(columns, want)
        self.assertNotEqual(want, bugs)  # the order did change
        for name, cells, order, replayed in rows:
            self.assertEqual(order, want, name)
        # By one bug bob missed: who missed it first, then who did not run it, then who caught it.
        rank = {"survived": 0, "not-run": 1, "caught": 2}
        columns, rows = self.matrix_of(html_reports.Page(browser.dom(page, "#learners=s04")))
        self.assertEqual([r[0] for r in rows],
                         [l["name"] for l in sorted(learners, key=lambda l: (rank[l["outcomes"].get("s04", "not-run")], l["name"]))])
        self.assertEqual(rows[0][0], "bob")


class RustClass(Grading):
    kind = "rust"
    confirm = CONFIRM_ALONE

    def setUp(self):
        if not cargo():
            raise unittest.SkipTest("cargo is missing")
        super().setUp()
        self.env["PATH"] = os.path.dirname(cargo()) + ":" + self.env["PATH"]

    def test_every_learner_gets_the_right_verdict_at_j2(self):
        out, r = self.check_class(2, "--chaffs", "none")
        # The kit's Rust variants, each built once for the class or taken from the cache an
        # earlier grading kept (docs/mutants.md, "The Rust kind"): three wheats, ten mutant forms.
        built, cached = map(int, re.search(r"the kit's variants: (\d+) built, (\d+) from the cache", r.stderr).groups())
        self.assertEqual(built + cached, 13, r.stderr)
        bob = json.load(open(os.path.join(out, "learners", "bob.json")))["config"]
        self.assertEqual(bob["mode"], "served")
        # Served: each survivor is named where the oracle's source carries it.
        self.check_survivors(out, "bob", ["s03", "s04", "s05", "s09"], "oracle/")
        self.assertEqual(sorted(w["id"] for w in bob["wheats"]), ["alternatives", "lenient", "rewritten", "rust"])
        self.assertTrue(all(w["passes"] == w["runs"] == 3 for w in bob["wheats"]), bob["wheats"])
        # Why the three adversaries' suites stop, in their own failing lines.
        reason = {name: json.load(open(os.path.join(out, "learners", name + ".json")))["config"]["stopped"]["reason"]
                  for name in ("kate", "mona", "dave")}
        self.assertIn("not the oracle", reason["kate"])
        # The alternatives wheat answers her another u64, named with what docs/check.md allows
        # (the lenient wheat, Rust, answers 1).
        self.assertRegex(reason["mona"], r"'optimal_m 0 0\.5'  ->  'ok \d+'  \(OutOfDomain")
        self.assertIn("panicked at tests/ds08_bloom.rs", reason["mona"])
        self.assertIn("fails on the clean reference", reason["dave"])
        leo = json.load(open(os.path.join(out, "learners", "leo.json")))["config"]
        self.assertEqual((leo["killed"], leo["ran"], leo["controlPasses"]), (0, 10, 2))
        self.check_confirmed_alone(out)

    def check_confirmed_alone(self, out):
        """alice's ten kills, each confirmed by six runs, four of them of only the tests that caught
        it: names of her tests, never the whole suite; two clean runs alone for each set of them,
        all passed. nina, alice with a gate that fails every run alone, is flaky for it."""
        alice = json.load(open(os.path.join(out, "learners", "alice.json")))["config"]
        self.assertEqual(alice["killsConfirmedBy"], {"s%02d" % i: 6 for i in range(1, 11)})
        alone = alice["confirmedAlone"]
        self.assertEqual(sorted(alone["tests"]), ["s%02d" % i for i in range(1, 11)])
        source = open(os.path.join(CLASSES, "rust", "alice", "tests", "ds08_bloom.rs")).read()
        for mutant, tests in alone["tests"].items():
            self.assertTrue(tests, mutant + " was confirmed by whole runs")
            for test in tests:
                self.assertIn("fn %s()" % test, source)
        sets = {tuple(tests) for tests in alone["tests"].values()}
        self.assertEqual((alone["controlRuns"], alone["controlPasses"]), (2 * len(sets), 2 * len(sets)))
        # Her worked example asserts m = 20 for with_rate(4, 0.1), where s01 floors 19.17 to 19.
        self.assertIn("worked_example", alone["tests"]["s01"])
        by_chance = os.path.join(os.path.dirname(out), "out-j2-" + CONFIRM_BY_CHANCE[-1])
        nina = json.load(open(os.path.join(by_chance, "learners", "nina.json")))["config"]
        self.assertEqual(nina["learner"]["verdict"], "flaky")
        self.assertIn("the suite fails when only some of its tests run: run alone,", nina["stopped"]["reason"])
        self.assertIn("worked_example", nina["stopped"]["reason"])

    def test_prepare_builds_the_kits_variants_once_and_then_finds_them_kept(self):
        # tlbf grade --prepare (a platform's image, a grader's machine before a class): the
        # kit's Rust variants built into the cache, then found there; the Python kit needs none.
        env = dict(self.env, TLBF_CACHE_DIR=os.path.join(self.dir, "cache"))
        said = []
        for _ in range(2):
            r = subprocess.run([TLBF, "grade", "--kind", "rust", "--prepare", "--chaffs", "none", "-j", "2"],
                               capture_output=True, text=True, env=env, timeout=1200)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            said.append(re.search(r"the kit's variants: (\d+) built, (\d+) from the cache, in (\S+) ", r.stdout))
        self.assertEqual([m.groups()[:2] for m in said], [("13", "0"), ("0", "13")])
        self.assertEqual(said[0].group(3), os.path.join(self.dir, "cache", "variants"))
        self.assertEqual(len(os.listdir(os.path.join(self.dir, "cache", "variants"))), 13)
        r = subprocess.run([TLBF, "grade", "--kind", "python", "--prepare"], capture_output=True, text=True,
                           env=env)
        self.assertEqual((r.returncode, r.stdout.strip()),
                         (0, "tlbf grade: the python kit's variants need no build: nothing to prepare"))

    def test_a_suite_is_built_once_and_one_that_does_not_build_fails_clean(self):
        class_dir = os.path.join(self.dir, "class")
        shutil.copytree(os.path.join(CLASSES, "rust", "bob"), os.path.join(class_dir, "bob"))
        os.makedirs(os.path.join(class_dir, "broken", "tests"))
        with open(os.path.join(class_dir, "broken", "tests", "ds08_bloom.rs"), "w") as f:
            f.write("use tl_ds::bloom::Bloom;\n#[test]\nfn t() { let b: u32 = Bloom::new(20, 3); }\n")
        out = os.path.join(self.dir, "out")
        # Six runs a kill, all whole (--no-runs-alone): bob's six kills, none of them alone.
        r = self.grade(class_dir, out, "-j", "2", "--confirm-runs", "2", "--no-runs-alone", "--chaffs", "none")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(table_verdicts(r.stdout), {"bob": "short", "broken": "fails-clean"}, r.stdout)
        whole = json.load(open(os.path.join(out, "learners", "bob.json")))["config"]
        self.assertIsNone(whole["confirmedAlone"])
        self.assertEqual(whole["killsConfirmedBy"], {m: 6 for m in ("s01", "s02", "s06", "s07", "s08", "s10")})
        broken = json.load(open(os.path.join(out, "learners", "broken.json")))["config"]
        self.assertIn("the suite does not build", broken["stopped"]["reason"])
        self.assertIn("error[E0308]: mismatched types", broken["stopped"]["reason"])
        self.assertEqual(broken["baselineRuns"], 0)  # no run: the compiler's error is the evidence
        # bob's runs ran his one executable: no run rebuilt anything, so each took what a run of it takes.
        bob = json.load(open(os.path.join(out, "learners", "bob.json")))
        self.assertEqual(bob["config"]["suite"], ["target/ds08_bloom", "-q", "--test-threads=1"])

    def test_a_suite_that_reads_its_subject_sees_the_same_bytes_in_every_run(self):
        # Pinned to the binding's source (FNV-1a and size, as dave pinned the reference's) and to
        # the runs' fixed file time, a reading suite passes every run, so it kills nothing.
        binding = open(os.path.join(SOURCE, "mutants/kits/rust/course/src/bloom.rs"), "rb").read()
        h = 0xcbf29ce484222325
        for b in binding:
            h = ((h ^ b) * 0x100000001b3) % (1 << 64)
        suite = RUST_READER % (h, len(binding))
        class_dir = os.path.join(self.dir, "class")
        os.makedirs(os.path.join(class_dir, "reader", "tests"))
        with open(os.path.join(class_dir, "reader", "tests", "ds08_bloom.rs"), "w") as f:
            f.write(suite)
        out = os.path.join(self.dir, "out")
        r = self.grade(class_dir, out, "-j", "2", *CONFIRM, "--chaffs", "none")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(table_verdicts(r.stdout), {"reader": "short"}, r.stdout)
        config = json.load(open(os.path.join(out, "learners", "reader.json")))["config"]
        self.assertEqual((config["killed"], config["ran"]), (0, 10), config)
        self.assertTrue(all(w["passes"] == w["runs"] == 3 for w in config["wheats"]), config["wheats"])

    def test_the_run_dependent_learners_get_the_right_verdict_at_j1(self):
        self.check_class(1, "--chaffs", "none", learners=run_dependent(self.kind))

    def test_unsandboxed_two_runs_of_a_port_holder_collide(self):
        # grace's suite fails only when two of her runs share a network: unsandboxed at -j2
        # her runs share the machine's loopback.
        self.check_class(2, "--chaffs", "none", "--no-sandbox", learners=["grace"])


class ProtocolClass(Grading):
    """Protocol suites: the oracle's mutants served hidden, the Python implementation and its
    wheats and chaffs served the same way."""
    kind = "protocol"

    def test_every_learner_gets_the_right_verdict_at_j2(self):
        out, r = self.check_class(2, "--chaffs", "none")
        bob = json.load(open(os.path.join(out, "learners", "bob.json")))["config"]
        self.assertEqual(bob["mode"], "served")
        self.assertEqual([s["id"] for s in bob["survivors"]], ["s01", "s03", "s04", "s05", "s06", "s08", "s09"])
        for s in bob["survivors"]:
            # The oracle's source, where the served mutant changes it.
            self.assertTrue(s["file"].startswith("oracle/"), s)
            self.assertGreater(s["line"], 0)
            self.assertIn("\n-", s["diff"])
        self.assertEqual(sorted(w["id"] for w in bob["wheats"]), ["alternatives", "lenient", "python", "rewritten"])
        # The alternatives wheat's seed, drawn for the grading, is in the report.
        self.assertRegex(bob["wheats"][0]["about"], r"tlbf serve --alternatives [0-9a-f]{16}\b")
        self.assertTrue(all(w["passes"] == w["runs"] == 3 for w in bob["wheats"]), bob["wheats"])

    def test_the_run_dependent_learners_get_the_right_verdict_at_j1(self):
        self.check_class(1, "--chaffs", "none", learners=run_dependent(self.kind))

    def test_unsandboxed_notes_last_from_one_run_to_the_next(self):
        # Unsandboxed, gina's notes in /tmp last from one run to the next.
        self.check_class(2, "--chaffs", "none", "--no-sandbox", learners=["alice", "gina"])

    def test_chaffs_are_python_bugs_served_hidden_and_counted_apart(self):
        class_dir = os.path.join(self.dir, "class")
        os.mkdir(class_dir)
        for name in ("alice", "bob"):
            shutil.copytree(os.path.join(CLASSES, "protocol", name), os.path.join(class_dir, name))
        out = os.path.join(self.dir, "out")
        r = self.grade(class_dir, out, "-j", "2", *CONFIRM_CHAFFS)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        chaffs = {}
        for name in ("alice", "bob"):
            config = json.load(open(os.path.join(out, "learners", name + ".json")))["config"]
            self.assertEqual(config["killed"], 10 if name == "alice" else 3)
            chaffs[name] = config["chaffs"]
            patches = sorted(f[:-6] for f in os.listdir(os.path.join(SOURCE, "mutants/chaffs/python")) if f.endswith(".patch"))
            self.assertEqual(chaffs[name]["ran"], len(patches))
            self.assertTrue(set(chaffs[name]["missed"]) < set(patches), chaffs[name]["missed"])
            self.assertEqual(chaffs[name]["killed"] + len(chaffs[name]["missed"]), len(patches))
        # Each chaff is its own served implementation: alice catches more than bob, and not all.
        self.assertGreater(chaffs["alice"]["killed"], chaffs["bob"]["killed"])
        self.assertLess(chaffs["alice"]["killed"], chaffs["alice"]["ran"])

    def test_a_required_mutant_must_be_the_oracle_s(self):
        class_dir = os.path.join(self.dir, "class")
        shutil.copytree(os.path.join(CLASSES, "protocol", "bob"), os.path.join(class_dir, "bob"))
        r = self.grade(class_dir, os.path.join(self.dir, "out"), "--require", "s01,c01")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("no mutant 'c01'", r.stderr)


class WheatsConform(Grading):
    """Every wheat a bundled kit serves is correct: `tlbf check`, the oracle's judge, finds each
    conforms. A wheat that did not would make a suite that catches its fault rejects-correct."""

    def wheats_of(self, kind):
        """{wheat: the command that serves it}, each built as the kit's variants.build says, in a copy
        of the kit's implementation (as it is, or with the wheat's files laid over it)."""
        kit_dir = os.path.join(SOURCE, "mutants/kits", kind)
        spec = json.load(open(os.path.join(kit_dir, "kit.json")))
        variants = spec["variants"]
        wheats_dir = os.path.join(kit_dir, spec["wheats"])
        served = {}
        for wheat in [variants["as_is"]] + sorted(os.listdir(wheats_dir)):
            folder = os.path.join(self.dir, kind + "-" + wheat)
            shutil.copytree(os.path.join(kit_dir, variants["from"]), folder,
                            ignore=shutil.ignore_patterns("target", "__pycache__"))
            if wheat != variants["as_is"]:
                shutil.copytree(os.path.join(wheats_dir, wheat), folder, dirs_exist_ok=True)
            if variants.get("build"):
                built = subprocess.run(variants["build"], cwd=folder, env=self.env, capture_output=True, text=True)
                self.assertEqual(built.returncode, 0, wheat + ": " + built.stderr[-3000:])
            words = [os.path.join(folder, w) if os.path.exists(os.path.join(folder, w)) else w
                     for w in variants["command"]]
            served[wheat] = " ".join(words)
        return served

    def check_all(self, kind, wheats):
        served = self.wheats_of(kind)
        self.assertEqual(sorted(served), wheats)
        for wheat, command in served.items():
            r = subprocess.run([TLBF, "check", "--impl", command], capture_output=True, text=True, env=self.env,
                               timeout=600)
            self.assertEqual(r.returncode, 0, wheat + ": " + r.stdout[-4000:] + r.stderr[-2000:])
            self.assertIn("verdict: conforms to TLBF v1", r.stdout)

    def test_the_python_and_protocol_kits_wheats_conform(self):
        self.check_all("python", ["lenient", "python", "rewritten"])

    def test_the_rust_kits_wheats_conform(self):
        if not cargo():
            raise unittest.SkipTest("cargo is missing")
        self.env["PATH"] = os.path.dirname(cargo()) + ":" + self.env["PATH"]
        self.check_all("rust", ["lenient", "rewritten", "rust"])


if __name__ == "__main__":
    cases = sys.argv[1:] or ["PythonClass", "RustClass", "ProtocolClass", "WheatsConform"]
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromName(c, sys.modules[__name__]) for c in cases)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if result.wasSuccessful() and result.skipped and result.testsRun == len(result.skipped):
        sys.exit(77)
    sys.exit(0 if result.wasSuccessful() else 1)
