"""Tests of `tlbf mutate` as a course author runs it (docs/mutants.md): the
Rust crate tl-ds graded with cargo, hidden identity, flaky suites, confirmed
timeouts, the JSON reports (validated against the npm package
mutation-testing-report-schema) and the merge of shards' reports.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. TLBF_REPORT_SCHEMA=.../mutation-testing-report-schema.json \
        python3 -m unittest mutants/tests/test_mutate.py

Tests that need cargo skip (exit 77 under ctest) where it is missing.
"""
import json
import os
import re
import resource
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import jsonschema

from scratch_root import scratch_root

TLBF = os.environ["TLBF_BINARY"]
SOURCE = os.environ["TLBF_SOURCE_DIR"]
CRATE = os.path.join(SOURCE, "conformance/impls/rust")
RUST_PATCHES = os.path.join(SOURCE, "mutants/patches/rust")
RUST_SANITY = os.path.join(SOURCE, "mutants/patches/rust-sanity.patch")
PYTHON = os.path.join(SOURCE, "conformance/impls/python")
PYTHON_PATCHES = os.path.join(SOURCE, "mutants/patches/python")
ALL = [m["id"] for m in json.loads(open(os.path.join(SOURCE, "mutants/catalog.json")).read())["mutants"]]
# Installed by the ctest fixture mutate_install_report_schema.
SCHEMA = os.environ["TLBF_REPORT_SCHEMA"]


def cargo():
    found = shutil.which("cargo")
    home = os.path.join(os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")), "bin/cargo")
    return found or (home if os.access(home, os.X_OK) else None)


def read(path):
    with open(path) as f:
        return f.read()


# A kill confirmed by two runs, as the class gradings confirm them, where the
# default is six (docs/mutants.md, "A kill must be reproducible"): for the tests
# of what a run sees or leaves, not of how many runs confirm a kill (those are
# HiddenIdentity's count and scorer_test's). A full kill set is 20 mutant runs, not 60.
KILLS_TWICE = ["--confirm-kills", "2"]


def verdicts(output):
    """{mutant: outcome} from tlbf mutate's table."""
    return dict(re.findall(r"^(s\d\d)\s+(killed|SURVIVED|timeout|error)\s", output, re.M))


class Scratch(unittest.TestCase):
    def setUp(self):
        # Under scratch_root() whatever TMPDIR says (a tmpfs where there is one,
        # scratch_root.py): the hidden server's socket lives in
        # TMPDIR/tlbf-mutate-XXXXXX, and a Unix socket's path has at most 107 bytes.
        self.dir = tempfile.mkdtemp(prefix="tlbf_mutate_test_", dir=scratch_root())
        # The suites' logs go here: run as root, tlbf runs them as nobody
        # (docs/mutants.md, "Who a suite runs as"), who must write them.
        os.chmod(self.dir, 0o777)
        self.tmp = os.path.join(self.dir, "tmp")
        os.mkdir(self.tmp)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def mutate(self, *args, env=None):
        environment = dict(os.environ, TMPDIR=self.tmp, **(env or {}))
        if cargo():
            environment["PATH"] = os.path.dirname(cargo()) + os.pathsep + environment["PATH"]
        return subprocess.run([TLBF, "mutate", *args], capture_output=True, text=True, env=environment, timeout=3000)

    def report(self, path):
        """The JSON report at path, after checking it against the published schema."""
        with open(SCHEMA) as f:
            schema = json.load(f)
        report = json.loads(read(path))
        jsonschema.Draft7Validator(schema).validate(report)
        return report

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
        # Two runs a kill (KILLS_TWICE): each is a cargo test that rebuilds the crate.
        two = self.rust(CRATE, "-j", "2", *KILLS_TWICE, "--json", report, env={"CARGO_TARGET_DIR": shared})
        self.assertFalse(os.path.exists(shared), "a run built in the shared CARGO_TARGET_DIR")
        self.assertEqual(two.returncode, 0, two.stdout + two.stderr)
        self.assertIn("score: 10/10 = 1.00", two.stdout)
        self.assertIn("it fails with the sanity patch", two.stdout)
        # One run a mutant at -j1: the verdicts compared are the suite's, which is
        # seeded; the second, confirming run is the -j2 grading's (and Scorer.*'s) to test.
        one = self.rust(CRATE, "-j", "1", "--confirm-runs", "1")
        self.assertEqual(one.returncode, 0, one.stdout + one.stderr)
        self.assertEqual(verdicts(one.stdout), verdicts(two.stdout))
        self.assertEqual(verdicts(two.stdout), {m: "killed" for m in ALL})
        # The evidence is the failing assertion, not cargo's first lines.
        mutants = {m["id"]: m for f in self.report(report)["files"].values() for m in f["mutants"]}
        self.assertIn("panicked at", mutants["s01"]["statusReason"])
        # s01 fails two tests; whichever panics first is the evidence.
        self.assertTrue(any(what in mutants["s01"]["statusReason"] for what in ("optimal_m(4, 0.1)", "left: (19, 3)")),
                        mutants["s01"]["statusReason"])
        self.assertScratchGone()

    def test_a_weaker_suite_falls_short_and_names_its_survivors(self):
        crate = os.path.join(self.dir, "tl-ds")
        shutil.copytree(CRATE, crate, ignore=shutil.ignore_patterns("target"))
        shutil.copy(os.path.join(SOURCE, "mutants/tests/rust/weak_ds08_bloom.rs"), os.path.join(crate, "tests/ds08_bloom.rs"))
        r = self.rust(crate, "-j", "2", *KILLS_TWICE)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("score: 6/10 = 0.60", r.stdout)
        survived = sorted(m for m, v in verdicts(r.stdout).items() if v == "SURVIVED")
        self.assertEqual(survived, ["s04", "s05", "s08", "s09"])
        self.assertIn("required mutants not killed: s04 s05 s08 s09", r.stdout)


class HiddenIdentity(Scratch):
    def test_served_runs_look_alike_until_tested(self):
        log = os.path.join(self.dir, "log")
        # Each run writes what it can see without testing: TLBF_MUTANT, the
        # shape of TLBF_IMPL (its random socket folder and name masked) and hello's answer.
        # Then the default check, to its first failing case: what kills, not how much fails.
        suite = ('printf "%%s|%%s|%%s\\n" "${TLBF_MUTANT-unset}" "$(printf %%s "$TLBF_IMPL" | sed "s/[0-9a-f]\\{16\\}\\/[0-9a-f]\\{16\\}$/NAME/")" '
                 '"$(echo hello | sh -c "$TLBF_IMPL")" >> %s; exec %s check --max-failures 1' % (log, TLBF))
        r = self.mutate("--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        lines = read(log).splitlines()
        # baseline runs, sanity, each mutant six times (tlbf check kills every one, and each is
        # required; its replay's evidence does not shorten that: docs/mutants.md, "A kill must
        # be reproducible"), hidden controls
        self.assertEqual(len(lines), 3 + 1 + 10 * 6 + 2, lines)
        answered = [line for line in lines if "|ok " in line]
        self.assertEqual(len(answered), 65, lines)  # all but the sanity run, which refuses hello
        self.assertEqual(len(set(answered)), 1, lines)
        self.assertTrue(answered[0].startswith("unset|"), answered[0])
        # The words, not a substring: a checkout or TMPDIR path may hold "serve".
        impl_words = shlex.split(answered[0].split("|")[1])
        self.assertEqual(len(impl_words), 2, answered[0])
        self.assertTrue(impl_words[0].endswith("/tlbf-relay"), answered[0])
        self.assertTrue(impl_words[1].endswith("/NAME"), answered[0])
        self.assertScratchGone()

    def test_a_suite_that_writes_all_its_requests_before_reading_is_answered(self):
        # protocol.md allows pipelining. Requests of 100 kB and answers of 190 kB,
        # written by one thread while another reads, fill both socket buffers: a
        # relay that blocked on one direction hung (an adversary's honest suite
        # failed the clean reference so: 3 answers of 80 in 20 s).
        suite = os.path.join(self.dir, "pipelining.py")
        with open(suite, "w") as f:
            f.write("""import os, subprocess, sys, threading
p = subprocess.Popen(os.environ["TLBF_IMPL"], shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
requests = ["fnv1a64 61"]
for i in range(40):
    requests += ["fnv1a64 " + "ab" * 50000, "positions_for 20 65536 %02x" % i]
def write():
    for r in requests:
        p.stdin.write(r.encode() + b"\\n")
    p.stdin.close()
t = threading.Thread(target=write)
t.start()
answers = p.stdout.read().splitlines()
t.join()
p.wait()
# fnv1a64("a") is af63dc4c8601ec8c (docs/format.md's hand value; s10's FNV-1 differs).
sys.exit(0 if len(answers) == len(requests) and answers[0] == b"ok af63dc4c8601ec8c" else 1)
""")
        # Ample room for runs of a tenth of a second; a hung relay used all of it.
        r = self.mutate("--mutants", "s10", "--no-sandbox", "--setup-timeout", "300", "--", "python3", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(verdicts(r.stdout), {"s10": "killed"}, r.stdout + r.stderr)

    def test_a_relative_tmpdir_still_names_a_socket_the_suite_can_reach(self):
        # The suite changes folder before it starts TLBF_IMPL.
        suite = "cd / && exec %s check --filter 'vectors/hash/*'" % TLBF
        r = subprocess.run([TLBF, "mutate", "--mutants", "s10", "--require", "s10", "--", "sh", "-c", suite],
                           capture_output=True, text=True, cwd=self.dir, env=dict(os.environ, TMPDIR="tmp"), timeout=3000)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("score: 1/1", r.stdout)
        self.assertScratchGone()

    def test_a_suite_that_reads_its_identity_is_not_graded(self):
        # It reads only what differs between runs when identity is revealed:
        # TLBF_MUTANT and serve's options. Matching "s0" anywhere in
        # TLBF_IMPL also matched the random name of the private folder
        # (mkdtemp's letters and digits) about one run in 800, and failed CI.
        cheat = ('case "${TLBF_MUTANT-}" in s0?|s10) exit 1;; esac; '
                 'case "$TLBF_IMPL" in *" --mutant "*|*" --refuse-all"*) exit 1;; esac; exit 0')
        r = self.mutate("--", "sh", "-c", cheat)
        self.assertEqual(r.returncode, 4, r.stdout + r.stderr)  # it passes against a broken implementation
        # --reveal-mutant brings back what it reads, and with it the false 10/10.
        revealed = self.mutate("--reveal-mutant", "--", "sh", "-c", cheat)
        self.assertEqual(revealed.returncode, 0, revealed.stdout + revealed.stderr)
        self.assertIn("score: 10/10", revealed.stdout)

    def test_patch_mode_does_not_name_the_mutant(self):
        log = os.path.join(self.dir, "log")
        suite = 'echo "${TLBF_MUTANT-unset} ${TLBF_IMPL-unset}" >> %s; exec python3 -m unittest -q test_tlbf_impl' % log
        # Unsandboxed: the log is outside the run's folder, where a sandboxed suite cannot write.
        r = self.mutate("--no-sandbox", "--patches", PYTHON_PATCHES, "--workdir", PYTHON, "--", "sh", "-c", suite,
                        env={"TLBF_MUTANT": "s07", "TLBF_IMPL": "leaked"})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(set(read(log).splitlines()), {"unset unset"})
        self.assertScratchGone()


    def test_every_graded_run_starts_from_the_same_state(self):
        log = os.path.join(self.dir, "log")
        # Each run counts in a file of its work directory and logs what it found:
        # a run that saw another graded run's file could tell them apart.
        suite = ('n=$(cat counter 2>/dev/null || echo 0); echo $((n+1)) > counter; echo "$n" >> %s; '
                 'exec python3 -m unittest -q test_tlbf_impl' % log)
        r = self.mutate("--no-sandbox", "-j", "2", "--patches", PYTHON_PATCHES, "--workdir", PYTHON, "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        seen = read(log).split()
        # The warm-up and the job folders' warming runs (ungraded) come first; then 3 clean runs, and 10 mutants
        # twice each with 2 clean control runs among them.
        graded = seen[-25:]
        self.assertEqual(len(set(graded)), 1, seen)
        self.assertScratchGone()


class Flakiness(Scratch):
    def test_a_suite_that_passes_and_fails_on_the_same_code_is_flaky(self):
        counter = os.path.join(self.dir, "count")
        # Passes on odd runs, fails on even ones: the clean reference never changes.
        suite = ('n=$(cat %s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s; '
                 'if [ $((n %% 2)) -eq 1 ]; then echo "passing run $n"; else echo "failing run $n"; exit 1; fi') % (counter, counter)
        # One job at a time: two clean runs at once would race on the counter
        # (both read 1, both fail). It failed once in a loaded full run, output lost.
        r = self.mutate("-j", "1", "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
        self.assertIn("flaky", r.stdout)
        self.assertIn("passed 2 of 3 runs", r.stdout)
        self.assertIn("passing run 1", r.stdout)
        self.assertIn("failing run 2", r.stdout)
        self.assertNotIn("score:", r.stdout)

    def counting_suite(self, name):
        """A suite that games a grader which runs the clean code first: it keeps
        a count outside its work directory, passes its first three runs and
        fails every later one, whatever it faces. It starts the implementation
        each time, as a suite that tests something would: a failure that never
        started it is no kill anyway (test_a_failure_without_starting_...)."""
        counter = os.path.join(self.dir, name)
        return ('echo hello | sh -c "$TLBF_IMPL" > /dev/null; '
                'n=$(cat %s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s; '
                'if [ $n -gt 3 ]; then echo "run $n: failing"; exit 1; fi; echo "run $n: passing"'
                % (counter, counter))

    def test_a_suite_that_counts_its_runs_fails_a_hidden_control_run(self):
        # One job at a time: two runs at once would race on the counter.
        r = self.mutate("-j", "1", "--", "sh", "-c", self.counting_suite("runs"))
        self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
        self.assertIn("flaky or counts its runs", r.stdout)
        self.assertIn("failed 2 of the 2 clean runs hidden among them", r.stdout)
        self.assertNotIn("score:", r.stdout)
        # Without the controls it would have scored 10/10: the hole they close.
        unguarded = self.mutate("-j", "1", "--control-runs", "0", "--no-replay", "--", "sh", "-c",
                                self.counting_suite("runs2"))
        self.assertEqual(unguarded.returncode, 0, unguarded.stdout + unguarded.stderr)
        self.assertIn("score: 10/10", unguarded.stdout)
        # With replay it never meets a mutant: each answers its one request (hello) as the
        # reference does, so each survives without a run (docs/mutants.md, "The transcript is the lever").
        replayed = self.mutate("-j", "1", "--control-runs", "0", "--", "sh", "-c", self.counting_suite("runs3"))
        self.assertEqual(replayed.returncode, 1, replayed.stdout + replayed.stderr)
        self.assertIn("score: 0/10", replayed.stdout)
        self.assertEqual(replayed.stdout.count("replayed, not run"), 10, replayed.stdout)

    def test_a_failure_without_starting_the_implementation_is_no_kill(self):
        # The fifth run (the first mutant's, after three clean runs and the sanity
        # check) fails before it starts TLBF_IMPL, as a suite does that cannot fork:
        # counted as a kill, it would raise the score of a suite that caught nothing.
        counter = os.path.join(self.dir, "runs")
        suite = ('n=$(cat %s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s; '
                 'if [ $n -eq 5 ]; then echo "run $n: cannot fork"; exit 1; fi; '
                 "exec %s check --filter 'vectors/hash/*'" % (counter, counter, TLBF))
        r = self.mutate("-j", "1", "--control-runs", "0", "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
        self.assertIn("without ever starting TLBF_IMPL, so that failure was not the mutant's doing", r.stdout)
        self.assertIn("run 5: cannot fork", r.stdout)
        self.assertNotIn("score:", r.stdout)

    def test_counting_is_caught_in_patch_mode_too(self):
        # Patch mode adds a warm-up run and a job folder's warming run before the graded ones: a suite
        # that knows this would count 5 and fail after; the controls catch it the same way.
        counter = os.path.join(self.dir, "runs")
        suite = ('n=$(cat %s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s; '
                 'if [ $n -gt 5 ]; then exit 1; fi; exec python3 -m unittest -q test_tlbf_impl' % (counter, counter))
        # Unsandboxed, a suite can keep a count anywhere this user can write: the controls catch it.
        r = self.mutate("--no-sandbox", "-j", "1", "--patches", PYTHON_PATCHES, "--workdir", PYTHON, "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 5, r.stdout + r.stderr)
        self.assertIn("failed 2 of the 2 clean runs hidden among them", r.stdout)
        self.assertScratchGone()
        # Sandboxed (the default), it cannot keep one at all: every run sees a fresh /tmp and
        # nothing of the machine's folders but its own copy, so each run counts 1.
        os.remove(counter)
        r = self.mutate("-j", "1", "--patches", PYTHON_PATCHES, "--workdir", PYTHON, "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertFalse(os.path.exists(counter))
        self.assertScratchGone()

    def test_the_controls_sit_at_random_places(self):
        positions = set()
        for attempt in range(3):
            log = os.path.join(self.dir, "log%d" % attempt)
            # Each run logs what it faces (TLBF_MUTANT unset for the clean code under --reveal-mutant,
            # and TLBF_IMPL naming --refuse-all for the sanity check).
            suite = ('case "$TLBF_IMPL" in *refuse-all*) echo broken;; *) echo "${TLBF_MUTANT-clean}";; esac >> %s; '
                     'exec %s check --filter "vectors/hash/*"' % (log, TLBF))
            r = self.mutate("--reveal-mutant", "-j", "1", "--", "sh", "-c", suite)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # the hash vectors catch s10 only
            self.assertIn("controls: it passes the 2 clean runs", r.stdout)
            logged = read(log).split()
            self.assertEqual(logged[:3], ["clean"] * 3)  # the baseline
            # One phase: the sanity check, the controls, each mutant confirmed by a second run, and s10,
            # the one killed (a required kill), by four more.
            graded = logged[3:]
            self.assertEqual(sorted(graded), sorted(ALL * 2 + ["s10"] * 4 + ["clean", "clean", "broken"]), graded)
            positions.add(tuple(i for i, who in enumerate(graded) if who in ("clean", "broken")))
        # 2925 possible places for two controls and the sanity check among 27 runs: three gradings
        # all alike would be a fixed order (by chance, about once in 8.6 million).
        self.assertGreater(len(positions), 1, positions)

    def test_a_timeout_counts_only_when_a_second_run_times_out_too(self):
        marker = os.path.join(self.dir, "slow-once")
        # s03's first run hangs (a machine busy for a moment); its second is tested for real.
        # The mutants' runs fail at once rather than run tlbf check: a check as slow as the baseline
        # would meet the bound (factor 1) on a loaded machine and time out for real; for the same reason
        # there are no control runs (clean runs, which do run tlbf check).
        once = ('if [ "$TLBF_MUTANT" = s03 ] && [ ! -e %s ]; then touch %s; exec sleep 3598; fi; '
                'if [ -n "$TLBF_MUTANT" ]; then exit 1; fi; exec %s check' % (marker, marker, TLBF))
        r = self.mutate("--reveal-mutant", "--mutants", "s02,s03", "--timeout-floor", "1", "--timeout-factor", "1", "--control-runs", "0",
                        "--", "sh", "-c", once)
        self.assertEqual(verdicts(r.stdout), {"s02": "killed", "s03": "killed"}, r.stdout + r.stderr)
        always = ('if [ "$TLBF_MUTANT" = s03 ]; then exec sleep 3598; fi; '
                  'if [ -n "$TLBF_MUTANT" ]; then exit 1; fi; exec %s check' % TLBF)
        r = self.mutate("--reveal-mutant", "--mutants", "s02,s03", "--timeout-floor", "1", "--timeout-factor", "1", "--control-runs", "0",
                        "--", "sh", "-c", always)
        self.assertEqual(verdicts(r.stdout), {"s02": "killed", "s03": "timeout"}, r.stdout + r.stderr)
        # The bound is the slowest baseline run (factor 1), at least the 1 s floor.
        self.assertRegex(r.stdout, r"s03 +timeout .*stopped after [0-9]+ ms, twice")
        self.assertEqual(subprocess.run(["pgrep", "-f", "^sleep 3598$"]).returncode, 1, "a hanging suite outlived its run")

    def test_a_cache_trusting_whole_seconds_never_runs_the_seed_code(self):
        # Python reuses a .pyc whose recorded source time (whole seconds) and
        # size match the file's. The warm-up compiles the seed; s08 and s10 keep
        # the file's size; a patch made in the second the seed was built used to
        # run the clean code, so s10 SURVIVED about one grading in three. Later
        # the runs got files with a time unlike the seed's, so that the cache
        # was rebuilt; now the compiled cache of a file the patches change is
        # gone from every run's copy (a suite could read it: the clean code),
        # while the warm-up's caches of the other files are still there.
        # Each run logs whether the cache it starts with would be trusted.
        log = os.path.join(self.dir, "log")
        probe = ("import importlib.util, os, struct\n"
                 "src = 'tlbf_impl.py'\n"
                 "pyc = importlib.util.cache_from_source(src)\n"
                 "state = 'no cache'\n"
                 "if os.path.exists(pyc):\n"
                 "    head = open(pyc, 'rb').read(16)\n"
                 "    flags, mtime, size = struct.unpack('<III', head[4:16])\n"
                 "    s = os.stat(src)\n"
                 "    trusted = flags == 0 and mtime == int(s.st_mtime) & 0xFFFFFFFF and size == s.st_size & 0xFFFFFFFF\n"
                 "    state = 'trusted' if trusted else 'rebuilt'\n"
                 "other = importlib.util.cache_from_source('test_tlbf_impl.py')\n"
                 "state += ', others cached' if os.path.exists(other) else ', others not'\n"
                 "open(%r, 'a').write(state + '\\n')\n" % log)
        with open(os.path.join(self.dir, "probe.py"), "w") as f:
            f.write(probe)
        suite = "python3 %s && exec python3 -m unittest -q test_tlbf_impl" % os.path.join(self.dir, "probe.py")
        for attempt in range(4):
            r = self.mutate("--no-sandbox", "-j", "1", "--baseline-runs", "1", "--control-runs", "0", "--mutants", "s08,s10",
                            "--require", "s08,s10", "--patches", PYTHON_PATCHES, "--workdir", PYTHON,
                            "--", "sh", "-c", suite, env={"PYTHONDONTWRITEBYTECODE": ""})
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(verdicts(r.stdout), {"s08": "killed", "s10": "killed"}, r.stdout)
        states = read(log).splitlines()
        self.assertEqual({state.split(",")[0] for state in states}, {"no cache"}, states)
        self.assertIn("no cache, others cached", states)  # the warm-up's caches reach the runs
        self.assertScratchGone()


class HostileSuites(Scratch):
    """What an adversary's suites did to the grader (docs/mutants.md, "What a
    suite can see"): each test is one of its findings, fixed."""

    def test_output_cannot_draw_on_the_terminal_or_break_the_json(self):
        path = os.path.join(self.dir, "r.json")
        # Fails on every mutant (not on the clean oracle), saying so with an escape sequence
        # that would move the terminal's cursor, and a byte that is not UTF-8.
        suite = ('r=$(echo "optimal_m 4 0.1" | sh -c "$TLBF_IMPL"); [ "$r" = "ok 20" ] && exit 0; '
                 'printf "FAIL \\033[2K\\033[1Afake verdict \\351\\n"; exit 1')
        r = self.mutate("--mutants", "s01", "--require", "s01", "--json", path, "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("\x1b", r.stdout)
        self.assertIn("FAIL \\x1b[2K\\x1b[1Afake verdict \\xe9", r.stdout)
        report = self.report(path)  # valid JSON, valid against the schema
        self.assertIn("\\x1b[2K", mutants_of(report)["s01"]["statusReason"])

    def small_quarantine(self):
        """The environment, with AddressSanitizer (when tlbf is built with it) keeping
        little freed memory: its quarantine would otherwise count in the peak."""
        options = [o for o in os.environ.get("ASAN_OPTIONS", "").split(":") if o] + ["quarantine_size_mb=16"]
        return dict(os.environ, TMPDIR=self.tmp, ASAN_OPTIONS=":".join(options))

    def test_a_flood_of_output_is_kept_bounded(self):
        path = os.path.join(self.dir, "r.json")
        # 200 MB on the clean oracle, then a failure: a grader that kept it all would hold it all.
        suite = 'head -c 200000000 /dev/zero | tr "\\0" x; echo; echo the last words; exit 1'
        # tlbf mutate runs under a Python process of its own, whose only child it is, so that
        # RUSAGE_CHILDREN's peak is tlbf mutate's (or its small suite's), not an earlier test's.
        measure = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:]); "
                   "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)")
        r = subprocess.run([sys.executable, "-c", measure, TLBF, "mutate", "--baseline-runs", "1", "--json", path,
                            "--", "sh", "-c", suite],
                           capture_output=True, text=True, env=self.small_quarantine(), timeout=3000)
        peak_kib = int(r.stderr.strip().splitlines()[-1])
        self.assertIn("bytes of output not kept", r.stdout)
        self.assertIn("the last words", r.stdout)
        self.assertLess(len(r.stdout), 2 << 20)
        # Kept whole, the 200 MB would be in memory at least once; the sanitizer build peaked near 110 MB
        # with its default 256 MB quarantine of freed memory, which small_quarantine() shrinks.
        self.assertLess(peak_kib, 160 * 1024, "tlbf mutate held the flood in memory")
        self.assertIn("the last words", self.report(path)["config"]["stopped"]["failingOutput"])
        self.assertEqual(self.report(path)["config"]["exitCode"], 8)  # fails clean

    def test_a_daemon_left_by_the_suite_is_ended_before_the_report(self):
        tag = "tlbf-daemon-%d" % os.getpid()
        path = os.path.join(self.dir, "r.json")
        # A process in a session of its own escapes its run's process group. This one would
        # rewrite the report after tlbf mutate exits, with a grade the suite never earned.
        daemon = "sleep 3; echo forged > %s" % path
        # The tag is the daemon shell's $0, so that pgrep finds it by its command line.
        suite = 'setsid sh -c %s %s </dev/null >/dev/null 2>&1 & exec %s check' % (shlex.quote(daemon), tag, TLBF)
        r = self.mutate("--mutants", "s01", "--require", "s01", "--json", path, "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        time.sleep(4)
        self.assertEqual(subprocess.run(["pgrep", "-f", tag], capture_output=True).stdout, b"", "a daemon outlived tlbf mutate")
        self.report(path)  # still the report tlbf wrote

    def test_patched_and_clean_files_look_alike(self):
        # Each run logs what it can see of the file the patches change without reading it:
        # its change time minus its modification time, its link count, and a .orig backup.
        log = os.path.join(self.dir, "log")
        work = os.path.join(self.dir, "work")
        shutil.copytree(PYTHON, work)
        # Three lines more at the top: every patch now applies at an offset, as to a learner's own file.
        with open(os.path.join(work, "tlbf_impl.py")) as f:
            text = f.read()
        first_newline = text.index("\n") + 1
        with open(os.path.join(work, "tlbf_impl.py"), "w") as f:
            f.write(text[:first_newline] + "# a\n# b\n# c\n" + text[first_newline:])
        suite = ('python3 -c "import os; s = os.stat(\'tlbf_impl.py\'); '
                 'print(s.st_ctime - s.st_mtime < 0.5, s.st_nlink, os.path.exists(\'tlbf_impl.py.orig\'))" >> %s; '
                 'exec python3 -m unittest -q test_tlbf_impl' % log)
        # Two runs a kill (KILLS_TWICE): the runs are looked at, not how many confirm a kill.
        r = self.mutate("--no-sandbox", "-j", "1", *KILLS_TWICE, "--patches", PYTHON_PATCHES, "--workdir", work,
                        "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        graded = read(log).splitlines()[-25:]  # 3 baseline runs, 10 mutants twice each, 2 controls
        self.assertEqual(set(graded), {"True 1 False"}, graded)
        self.assertScratchGone()

    def test_a_run_that_cannot_be_prepared_is_the_harness_not_the_suite(self):
        # The suite deletes the copies later runs are made from: not flaky (5), a harness error (7).
        suite = 'rm -rf ../seed-*; exec python3 -m unittest -q test_tlbf_impl'
        # Run as root, tlbf runs the suite as nobody, who can neither list the scratch
        # folder nor remove what is in it: the grading goes on, and is right. As root
        # again (--suite-user root), the suite removes the seeds.
        as_root = []
        if os.getuid() == 0:
            r = self.mutate("--no-sandbox", "-j", "1", *KILLS_TWICE, "--patches", PYTHON_PATCHES, "--workdir", PYTHON,
                            "--", "sh", "-c", suite)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            as_root = ["--suite-user", "root"]
        r = self.mutate("--no-sandbox", *as_root, "-j", "1", "--patches", PYTHON_PATCHES, "--workdir", PYTHON,
                        "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 7, r.stdout + r.stderr)
        self.assertIn("could not be prepared", r.stdout)
        self.assertNotIn("flaky", r.stdout)
        self.assertScratchGone()
        # Sandboxed, the seeds are not there to delete: the grading goes on, and is right.
        r = self.mutate("-j", "1", *KILLS_TWICE, "--patches", PYTHON_PATCHES, "--workdir", PYTHON, "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertScratchGone()

    def test_a_sandboxed_suite_sees_its_own_copy_and_nothing_of_where_it_came_from(self):
        # A suite that would tell a mutant from the clean code by comparing the file under test
        # with another copy of it (the work directory, the warmed copies beside its folder), or
        # that reaches the network (a server of this test's, on the loopback): under the sandbox
        # none of it is there.
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(64)
        self.addCleanup(server.close)
        probe = ("import os, socket, sys\n"
                 "seen = [p for p in (%r, %r, '../warm', '../seed-1', '/work') if os.path.exists(p)]\n"
                 "try:\n"
                 "    seen += [p for p in os.listdir('..') if p != os.path.basename(os.getcwd())]\n"
                 "except OSError:\n"
                 "    pass  # a folder closed to the suite user\n"
                 "try:\n"
                 "    socket.create_connection(('127.0.0.1', %d), timeout=2).close(); seen.append('network')\n"
                 "except OSError:\n"
                 "    pass\n"
                 "if seen: sys.exit('can see: %%s' %% seen)\n" % (PYTHON, os.path.join(self.dir, "work"), server.getsockname()[1]))
        work = os.path.join(self.dir, "work")
        shutil.copytree(PYTHON, work)
        with open(os.path.join(work, "probe.py"), "w") as f:
            f.write(probe)
        suite = "python3 probe.py && exec python3 -m unittest -q test_tlbf_impl"
        r = self.mutate("-j", "2", *KILLS_TWICE, "--patches", PYTHON_PATCHES, "--workdir", work, "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # Unsandboxed, the same suite sees the work directory and the copies beside its own: it fails clean.
        r = self.mutate("--no-sandbox", "-j", "2", "--patches", PYTHON_PATCHES, "--workdir", work, "--", "sh", "-c", suite)
        self.assertEqual(r.returncode, 8, r.stdout + r.stderr)  # fails clean
        self.assertIn("can see:", r.stdout)


def mutants_of(report):
    return {m["id"]: dict(m, file=name, source=entry["source"])
            for name, entry in report["files"].items() for m in entry["mutants"]}


class Reports(Scratch):
    def test_a_graded_run_writes_a_valid_report_with_its_verdict(self):
        path = os.path.join(self.dir, "r.json")
        # The hash vectors alone catch FNV-1 (s10) and nothing else.
        r = self.mutate("--json", path, "--", TLBF, "check", "--filter", "vectors/hash/*")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        report = self.report(path)
        config = report["config"]
        self.assertEqual((config["killed"], config["ran"], config["meets"], config["exitCode"]), (1, 10, False, 1))
        self.assertIsNone(config["stopped"])
        self.assertIsNone(config["shard"])
        self.assertEqual(config["selected"], ALL)
        self.assertEqual(config["require"], ALL)
        self.assertEqual({m: v["status"] for m, v in mutants_of(report).items()},
                         dict({m: "Survived" for m in ALL}, s10="Killed"))

    def stopped(self, code, why, *suite):
        path = os.path.join(self.dir, "stopped-%d.json" % code)
        r = self.mutate("--json", path, "--", *suite)
        self.assertEqual(r.returncode, code, r.stdout + r.stderr)
        report = self.report(path)
        self.assertEqual(report["files"], {})
        self.assertEqual(report["config"]["exitCode"], code)
        self.assertFalse(report["config"]["meets"])
        self.assertEqual(report["config"]["stopped"]["exitCode"], code)
        self.assertEqual(report["config"]["stopped"]["why"], why)
        return report["config"]["stopped"]

    def test_a_run_that_stops_writes_its_report_and_why(self):
        fails = self.stopped(8, "fails-clean", "sh", "-c", "echo the suite is broken; exit 7")
        self.assertIn("fails on the clean reference", fails["reason"])
        self.assertIn("the suite is broken", fails["failingOutput"])
        self.assertIn("not testing the implementation", self.stopped(4, "passes-broken", "true")["reason"])
        counter = os.path.join(self.dir, "count")
        flaky = self.stopped(5, "flaky", "sh", "-c", 'n=$(cat %s 2>/dev/null || echo 0); echo $((n+1)) > %s; '
                             'echo "run $((n+1))"; [ $((n %% 2)) -eq 0 ]' % (counter, counter))
        self.assertIn("flaky", flaky["reason"])
        self.assertEqual((flaky["passingOutput"], flaky["failingOutput"]), ("run 1\n", "run 2\n"))

    def test_a_patch_that_only_adds_lines_covers_the_line_it_follows(self):
        work = os.path.join(self.dir, "work")
        os.mkdir(work)
        with open(os.path.join(work, "f.txt"), "w") as f:
            f.write("alpha\nbeta\ngamma\n")
        patches = os.path.join(self.dir, "patches")
        os.mkdir(patches)
        # Hand-written diffs: one adds a line after "beta", one before the first line.
        with open(os.path.join(patches, "after.patch"), "w") as f:
            f.write("adds a line after beta\n--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,4 @@\n alpha\n beta\n+added\n gamma\n")
        with open(os.path.join(patches, "top.patch"), "w") as f:
            f.write("adds a first line\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n+first\n alpha\n beta\n")
        path = os.path.join(self.dir, "r.json")
        r = self.mutate("--patches", patches, "--workdir", work, "--require", "after", "--json", path,
                        "--", "sh", "-c", "! grep -qx added f.txt")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # top.patch survives: 1 of 2
        self.assertRegex(r.stdout, r"(?m)^after\s+killed")
        self.assertRegex(r.stdout, r"(?m)^top\s+SURVIVED")
        mutants = mutants_of(self.report(path))
        after, top = mutants["after"], mutants["top"]
        self.assertEqual(after["location"], {"start": {"line": 2, "column": 1}, "end": {"line": 2, "column": 5}})
        self.assertEqual(after["replacement"], "beta\nadded")
        self.assertEqual(top["location"], {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 6}})
        self.assertEqual(top["replacement"], "first\nalpha")


class Merge(Scratch):
    """Shards of one grading, merged. The suite is a stand-in that fails on
    every mutant but those named in SURVIVORS (it reads the revealed id)."""

    SUITE = ('case "$TLBF_IMPL" in *refuse-all*) exit 1;; esac; '
             'case " $SURVIVORS " in *" ${TLBF_MUTANT:-clean} "*) exit 0;; esac; [ -z "${TLBF_MUTANT-}" ]')

    def shard(self, k, survivors, *options):
        path = os.path.join(self.dir, "shard-%s-%s.json" % (k.replace("/", "of"), len(os.listdir(self.dir))))
        r = self.mutate("--reveal-mutant", "--shard", k, "--json", path, *options, "--", "sh", "-c", self.SUITE,
                        env={"SURVIVORS": survivors})
        return r.returncode, path

    def merge(self, *reports, options=()):
        return self.mutate("--merge", *reports, *options)

    def test_the_whole_verdict_can_differ_from_a_shards_own(self):
        # Shard 1/2 runs s01 s03 s05 s07 s09, shard 2/2 the even ones.
        rc1, one = self.shard("1/2", "s02 s04", "--require", "s01,s03")
        rc2, two = self.shard("2/2", "s02 s04", "--require", "s01,s03")
        self.assertEqual((rc1, rc2), (0, 1))  # 5/5, and 3/5 < 0.80
        whole = os.path.join(self.dir, "whole.json")
        r = self.merge(one, two, options=("--json", whole))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)  # 8/10 meets 0.80
        self.assertIn("score: 8/10 = 0.80 (threshold 0.80)", r.stdout)
        self.assertEqual(verdicts(r.stdout), dict({m: "killed" for m in ALL}, s02="SURVIVED", s04="SURVIVED"))
        report = self.report(whole)
        self.assertEqual((report["config"]["killed"], report["config"]["ran"], report["config"]["meets"]), (8, 10, True))
        self.assertEqual(len(mutants_of(report)), 10)
        # One more survivor: shard 1 still meets the bar alone, the whole does not.
        rc1, one = self.shard("1/2", "s02 s04 s06", "--require", "s01,s03")
        rc2, two = self.shard("2/2", "s02 s04 s06", "--require", "s01,s03")
        self.assertEqual((rc1, rc2), (0, 1))
        r = self.merge(two, one)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("score: 7/10 = 0.70", r.stdout)

    def test_the_required_mutants_are_the_shards(self):
        # Each shard meets the bar on score; s02 is required and survives in shard 2.
        _, one = self.shard("1/2", "s02", "--threshold", "0.5")
        _, two = self.shard("2/2", "s02", "--threshold", "0.5")
        r = self.merge(one, two)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("required mutants not killed: s02", r.stdout)
        self.assertIn("(threshold 0.50)", r.stdout)

    def test_refuses_shards_that_disagree_overlap_or_are_missing(self):
        _, one = self.shard("1/2", "")
        _, two = self.shard("2/2", "")
        _, two_strict = self.shard("2/2", "", "--threshold", "0.9")
        _, one_of_three = self.shard("1/3", "")
        _, whole = self.shard("1/1", "")
        for reports, why in [((one, two_strict), "disagree on threshold"),
                             ((one, one), "is shard 1/2 again"),
                             ((one, one_of_three), "the others are shards of 2"),
                             ((whole, two), "the others are shards of 1"),
                             ((one,), "no report holds s02 s04 s06 s08 s10: a shard is missing")]:
            r = self.merge(*reports)
            self.assertEqual(r.returncode, 2, (why, r.stdout, r.stderr))
            self.assertIn(why, r.stderr)
        not_a_report = os.path.join(self.dir, "other.json")
        with open(not_a_report, "w") as f:
            json.dump({"schemaVersion": "2", "thresholds": {"high": 80, "low": 60}, "files": {}}, f)
        r = self.merge(one, not_a_report)
        self.assertEqual(r.returncode, 2)
        self.assertIn("is not a report of this version of tlbf mutate", r.stderr)
        r = self.merge(one, two, options=("--threshold", "0.5"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("--threshold belongs to a grading, not a merge", r.stderr)
        self.assertEqual(self.merge(one, two).returncode, 0)

    def test_refuses_durations_and_counts_out_of_range(self):
        # A real shard's report with one number edited: the merge took each as it was.
        _, one = self.shard("1/2", "")
        _, two = self.shard("2/2", "")
        with open(two) as f:
            original = json.load(f)
        def negative(report):
            for entry in report["files"].values():
                for mutant in entry["mutants"]:
                    mutant["duration"] = -5
        for edit, why in [(negative, ".duration is -5, not a duration in milliseconds in 0 ..= 604800000 (a week)"),
                          (lambda r: r["performance"].update(mutation=1e300),
                           "performance.mutation is 1e+300, not a duration"),
                          (lambda r: r["config"].update(killed=r["config"]["ran"] + 1),
                           "config.killed is 6, not a count in 0 ..= 5")]:
            report = json.loads(json.dumps(original))
            edit(report)
            with open(two, "w") as f:
                json.dump(report, f)
            r = self.merge(one, two)
            self.assertEqual(r.returncode, 2, (why, r.stdout, r.stderr))
            self.assertIn(two + ": ", r.stderr)
            self.assertIn(why, r.stderr)

    def test_a_shard_that_stopped_stops_the_merge(self):
        _, one = self.shard("1/2", "")
        stopped = os.path.join(self.dir, "stopped.json")
        r = self.mutate("--shard", "2/2", "--json", stopped, "--", "true")  # passes against anything: exit 4
        self.assertEqual(r.returncode, 4)
        r = self.merge(one, stopped)
        self.assertEqual(r.returncode, 4, r.stdout + r.stderr)
        self.assertIn("stopped.json stopped: the suite passes even against", r.stdout)


if __name__ == "__main__":
    # ctest runs one class at a time: exit 77 (skipped) when all of its tests skipped.
    result = unittest.main(exit=False).result
    if result.testsRun and len(result.skipped) == result.testsRun:
        sys.exit(77)
    sys.exit(0 if result.wasSuccessful() else 1)
