"""Tests of `tlbf mutate` as a course author runs it (docs/mutants.md): the
Rust crate tl-ds graded with cargo, hidden identity, flaky suites and
confirmed timeouts.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. python3 -m unittest mutants/tests/test_mutate.py

Tests that need cargo skip (exit 77 under ctest) where it is missing.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TLBF = os.environ["TLBF_BINARY"]
SOURCE = os.environ["TLBF_SOURCE_DIR"]
CRATE = os.path.join(SOURCE, "conformance/impls/rust")
RUST_PATCHES = os.path.join(SOURCE, "mutants/patches/rust")
RUST_SANITY = os.path.join(SOURCE, "mutants/patches/rust-sanity.patch")
PYTHON = os.path.join(SOURCE, "conformance/impls/python")
PYTHON_PATCHES = os.path.join(SOURCE, "mutants/patches/python")
ALL = ["s%02d" % i for i in range(1, 11)]


def cargo():
    found = shutil.which("cargo")
    home = os.path.join(os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")), "bin/cargo")
    return found or (home if os.access(home, os.X_OK) else None)


def read(path):
    with open(path) as f:
        return f.read()


def verdicts(output):
    """{mutant: outcome} from tlbf mutate's table."""
    return dict(re.findall(r"^(s\d\d)\s+(killed|SURVIVED|timeout|error)\s", output, re.M))


class Scratch(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tlbf_mutate_test_")
        self.tmp = os.path.join(self.dir, "tmp")
        os.mkdir(self.tmp)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def mutate(self, *args, env=None):
        environment = dict(os.environ, TMPDIR=self.tmp, **(env or {}))
        if cargo():
            environment["PATH"] = os.path.dirname(cargo()) + os.pathsep + environment["PATH"]
        return subprocess.run([TLBF, "mutate", *args], capture_output=True, text=True, env=environment, timeout=3000)

    def assertScratchGone(self):
        self.assertEqual(os.listdir(self.tmp), [], "tlbf mutate left its scratch folders behind")


@unittest.skipIf(cargo() is None, "cargo is missing: scripts/setup installs it")
class RustCrate(Scratch):
    def rust(self, workdir, *options, env=None):
        return self.mutate("--patches", RUST_PATCHES, "--workdir", workdir, "--sanity-patch", RUST_SANITY, *options,
                           "--", "cargo", "test", "--offline", "-q", env=env)

    def test_the_example_suite_kills_all_ten_with_the_same_verdicts_at_j1_and_j2(self):
        report = os.path.join(self.dir, "report.json")
        # A CARGO_TARGET_DIR in the grader's environment would have concurrent
        # runs build one binary and run each other's mutants; tlbf mutate removes it.
        shared = os.path.join(self.dir, "shared-target")
        two = self.rust(CRATE, "-j", "2", "--json", report, env={"CARGO_TARGET_DIR": shared})
        self.assertFalse(os.path.exists(shared), "a run built in the shared CARGO_TARGET_DIR")
        self.assertEqual(two.returncode, 0, two.stdout + two.stderr)
        self.assertIn("score: 10/10 = 1.00", two.stdout)
        self.assertIn("it fails with the sanity patch", two.stdout)
        one = self.rust(CRATE, "-j", "1")
        self.assertEqual(one.returncode, 0, one.stdout + one.stderr)
        self.assertEqual(verdicts(one.stdout), verdicts(two.stdout))
        self.assertEqual(verdicts(two.stdout), {m: "killed" for m in ALL})
        # The evidence is the failing assertion, not cargo's first lines.
        mutants = {m["id"]: m for f in json.loads(read(report))["files"].values() for m in f["mutants"]}
        self.assertIn("panicked at", mutants["s01"]["statusReason"])
        # s01 fails two tests; whichever panics first is the evidence.
        self.assertTrue(any(what in mutants["s01"]["statusReason"] for what in ("optimal_m(4, 0.1)", "left: (19, 3)")),
                        mutants["s01"]["statusReason"])
        self.assertScratchGone()

    def test_a_weaker_suite_falls_short_and_names_its_survivors(self):
        crate = os.path.join(self.dir, "tl-ds")
        shutil.copytree(CRATE, crate, ignore=shutil.ignore_patterns("target"))
        shutil.copy(os.path.join(SOURCE, "mutants/tests/rust/weak_ds08_bloom.rs"), os.path.join(crate, "tests/ds08_bloom.rs"))
        r = self.rust(crate, "-j", "2")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("score: 6/10 = 0.60", r.stdout)
        survived = sorted(m for m, v in verdicts(r.stdout).items() if v == "SURVIVED")
        self.assertEqual(survived, ["s04", "s05", "s08", "s09"])
        self.assertIn("required mutants not killed: s04 s05 s08 s09", r.stdout)


class HiddenIdentity(Scratch):
    def test_served_runs_look_alike_until_tested(self):
        log = os.path.join(self.dir, "log")
        # Each run writes what it can see without testing: TLBF_MUTANT, the
        # shape of TLBF_IMPL (its random socket name masked) and hello's answer.
        suite = ('printf "%%s|%%s|%%s\\n" "${TLBF_MUTANT-unset}" "$(printf %%s "$TLBF_IMPL" | sed "s/[0-9a-f]\\{16\\}$/NAME/")" '
                 '"$(echo hello | sh -c "$TLBF_IMPL")" >> %s; exec %s check' % (log, TLBF))
        r = self.mutate("--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        lines = read(log).splitlines()
        self.assertEqual(len(lines), 3 + 1 + 10, lines)  # baseline runs, sanity, mutants
        answered = [line for line in lines if "|ok " in line]
        self.assertEqual(len(answered), 13, lines)  # all but the sanity run, which refuses hello
        self.assertEqual(len(set(answered)), 1, lines)
        self.assertTrue(answered[0].startswith("unset|"), answered[0])
        self.assertNotIn("serve", answered[0])
        self.assertScratchGone()

    def test_a_suite_that_reads_its_identity_is_not_graded(self):
        cheat = 'case "$TLBF_MUTANT $TLBF_IMPL" in *s0*|*s10*|*refuse*) exit 1;; esac; exit 0'
        r = self.mutate("--", "sh", "-c", cheat)
        self.assertEqual(r.returncode, 4, r.stdout + r.stderr)  # it passes against a broken implementation
        # --reveal-mutant brings back what it reads, and with it the false 10/10.
        revealed = self.mutate("--reveal-mutant", "--", "sh", "-c", cheat)
        self.assertEqual(revealed.returncode, 0, revealed.stdout + revealed.stderr)
        self.assertIn("score: 10/10", revealed.stdout)

    def test_patch_mode_does_not_name_the_mutant(self):
        log = os.path.join(self.dir, "log")
        suite = 'echo "${TLBF_MUTANT-unset} ${TLBF_IMPL-unset}" >> %s; exec python3 -m unittest -q test_tlbf_impl' % log
        r = self.mutate("--patches", PYTHON_PATCHES, "--workdir", PYTHON, "--", "sh", "-c", suite,
                        env={"TLBF_MUTANT": "s07", "TLBF_IMPL": "leaked"})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(set(read(log).splitlines()), {"unset unset"})
        self.assertScratchGone()


class Flakiness(Scratch):
    def test_a_suite_that_passes_and_fails_on_the_same_code_is_flaky(self):
        counter = os.path.join(self.dir, "count")
        # Passes on odd runs, fails on even ones: the clean reference never changes.
        suite = ('n=$(cat %s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s; '
                 'if [ $((n %% 2)) -eq 1 ]; then echo "passing run $n"; else echo "failing run $n"; exit 1; fi') % (counter, counter)
        r = self.mutate("--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
        self.assertIn("flaky", r.stdout)
        self.assertIn("passed 2 of 3 runs", r.stdout)
        self.assertIn("passing run 1", r.stdout)
        self.assertIn("failing run 2", r.stdout)
        self.assertNotIn("score:", r.stdout)

    def test_a_timeout_counts_only_when_a_second_run_times_out_too(self):
        marker = os.path.join(self.dir, "slow-once")
        # s03's first run hangs (a machine busy for a moment); its second is tested for real.
        # The mutants' runs fail at once rather than run tlbf check: a check as slow as the baseline
        # would meet the bound (factor 1) on a loaded machine and time out for real.
        once = ('if [ "$TLBF_MUTANT" = s03 ] && [ ! -e %s ]; then touch %s; exec sleep 3598; fi; '
                'if [ -n "$TLBF_MUTANT" ]; then exit 1; fi; exec %s check' % (marker, marker, TLBF))
        r = self.mutate("--reveal-mutant", "--mutants", "s02,s03", "--timeout-floor", "1", "--timeout-factor", "1",
                        "--", "sh", "-c", once)
        self.assertEqual(verdicts(r.stdout), {"s02": "killed", "s03": "killed"}, r.stdout + r.stderr)
        always = ('if [ "$TLBF_MUTANT" = s03 ]; then exec sleep 3598; fi; '
                  'if [ -n "$TLBF_MUTANT" ]; then exit 1; fi; exec %s check' % TLBF)
        r = self.mutate("--reveal-mutant", "--mutants", "s02,s03", "--timeout-floor", "1", "--timeout-factor", "1",
                        "--", "sh", "-c", always)
        self.assertEqual(verdicts(r.stdout), {"s02": "killed", "s03": "timeout"}, r.stdout + r.stderr)
        # The bound is the slowest baseline run (factor 1), at least the 1 s floor.
        self.assertRegex(r.stdout, r"s03 +timeout .*stopped after [0-9]+ ms, twice")
        self.assertEqual(subprocess.run(["pgrep", "-f", "^sleep 3598$"]).returncode, 1, "a hanging suite outlived its run")


if __name__ == "__main__":
    # ctest runs one class at a time: exit 77 (skipped) when all of its tests skipped.
    result = unittest.main(exit=False).result
    if result.testsRun and len(result.skipped) == result.testsRun:
        sys.exit(77)
    sys.exit(0 if result.wasSuccessful() else 1)
