"""Tests of the Rust kit's binding, mutants/kits/rust/course (docs/mutants.md,
"The Rust kind"): the crate tl-ds a learner's tests/ds08_bloom.rs is built
against, whose tl_ds::bloom forwards every call over line protocol v1 to
TLBF_IMPL.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. python3 mutants/tests/test_rust_binding.py

The crate is copied with four test files in its tests/ (the course's
example suite, the class's alice, and rust_binding/binding.rs and
failing.rs, which test the binding itself) into TLBF_RUST_BINDING_DIR (a
folder of the build tree, shared by every test of this file: ctest runs
each alone, and cargo then rebuilds only what changed), under a lock,
with the files' times kept; each test runs
the built executables with TLBF_IMPL set to `tlbf serve` (the oracle), `tlbf
serve --mutant sNN`, the Python implementation, or a small script that
misbehaves on purpose.
"""
import fcntl
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

TLBF = os.path.abspath(os.environ["TLBF_BINARY"])
SOURCE = os.path.abspath(os.environ["TLBF_SOURCE_DIR"])
CRATE = os.path.join(SOURCE, "mutants/kits/rust/course")
SUITES = {
    "course": os.path.join(SOURCE, "conformance/impls/rust/tests/ds08_bloom.rs"),
    "alice": os.path.join(SOURCE, "mutants/tests/class/rust/alice/tests/ds08_bloom.rs"),
    "binding": os.path.join(SOURCE, "mutants/tests/rust_binding/binding.rs"),
    "failing": os.path.join(SOURCE, "mutants/tests/rust_binding/failing.rs"),
}
PYTHON_IMPL = os.path.join(SOURCE, "conformance/impls/python/tlbf_impl.py")

# Answers "ok" to every request but insert, which it refuses: only the answers sent ahead are wrong.
INSERT_REFUSER = r'''
import sys
for line in sys.stdin:
    word = line.split()[0]
    sys.stdout.write({"insert": "err BadParams no", "contains": "ok false"}.get(word, "ok") + "\n")
    sys.stdout.flush()
'''


def cargo():
    found = shutil.which("cargo")
    home = os.path.join(os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")), "bin/cargo")
    return found or (home if os.access(home, os.X_OK) else None)


class RustBinding(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not cargo():
            raise unittest.SkipTest("cargo is missing")
        cls.dir = tempfile.mkdtemp(prefix="tlbf_rust_binding_test_")
        shared = os.environ.get("TLBF_RUST_BINDING_DIR") or os.path.join(cls.dir, "shared")
        os.makedirs(shared, exist_ok=True)
        crate = os.path.join(shared, "crate")
        with open(os.path.join(shared, "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            shutil.copytree(CRATE, crate, ignore=shutil.ignore_patterns("target"), dirs_exist_ok=True)
            os.makedirs(os.path.join(crate, "tests"), exist_ok=True)
            for name, path in SUITES.items():
                shutil.copy2(path, os.path.join(crate, "tests", name + ".rs"))
            r = subprocess.run([cargo(), "test", "--offline", "--no-run", "--message-format=json-render-diagnostics"],
                               cwd=crate, capture_output=True, text=True, timeout=1800)
        assert r.returncode == 0, r.stderr
        cls.exe = {}
        for line in r.stdout.splitlines():
            message = json.loads(line)
            if message.get("reason") == "compiler-artifact" and message.get("executable") \
                    and "test" in message["target"]["kind"]:
                cls.exe[message["target"]["name"]] = message["executable"]
        assert set(SUITES) <= set(cls.exe), cls.exe

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def run_suite(self, suite, impl, *args):
        env = dict(os.environ, TLBF_IMPL=impl)
        env.pop("TLBF_MUTANT", None)
        return subprocess.run([self.exe[suite], *args], cwd=self.dir, env=env, capture_output=True, text=True,
                              timeout=600)

    def script(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return shlex.quote(sys.executable) + " " + shlex.quote(path)

    def test_the_course_suite_and_alice_pass_unchanged_against_the_served_oracle(self):
        # Written against the reference crate: the same names, signatures, answers and errors.
        for suite in ("course", "alice"):
            r = self.run_suite(suite, shlex.quote(TLBF) + " serve")
            self.assertEqual(r.returncode, 0, suite + "\n" + r.stdout + r.stderr)
        r = self.run_suite("course", shlex.quote(sys.executable) + " " + shlex.quote(PYTHON_IMPL))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_the_course_suite_fails_every_served_mutant(self):
        for n in range(1, 11):
            r = self.run_suite("course", shlex.quote(TLBF) + " serve --mutant s%02d" % n)
            self.assertEqual(r.returncode, 101, "s%02d survived\n%s" % (n, r.stdout + r.stderr))
            self.assertIn("panicked at", r.stdout + r.stderr)

    def test_the_binding_answers_as_the_reference_from_many_threads(self):
        r = self.run_suite("binding", shlex.quote(TLBF) + " serve", "--nocapture", "--test-threads", "4")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("100000 contains", r.stdout)
        print("\n" + [l for l in r.stdout.splitlines() if "100000 contains" in l][0], file=sys.stderr)

    def test_a_dead_subject_fails_the_run_even_when_its_panics_are_caught(self):
        r = self.run_suite("failing", "exit 0", "--exact", "a_dead_subject_is_caught_and_still_fails_the_run")
        self.assertIn("1 passed", r.stdout)  # the test caught both panics...
        self.assertEqual(r.returncode, 101, r.stdout + r.stderr)  # ...and the run fails all the same
        self.assertIn("ended without answering", r.stderr)

    def test_a_refused_insert_fails_the_next_call_the_drop_or_the_exit(self):
        refuser = self.script("refuser.py", INSERT_REFUSER)
        for test, passes in (("a_refused_insert_fails_the_next_call", False),
                             ("a_refused_insert_fails_the_drop", False),
                             ("a_refused_insert_fails_the_exit", True)):
            r = self.run_suite("failing", refuser, "--exact", test)
            self.assertEqual(r.returncode, 101, test + "\n" + r.stdout + r.stderr)
            self.assertIn("(only \"ok\" is right)", r.stdout + r.stderr, test)
            self.assertEqual("1 passed" in r.stdout, passes, test + "\n" + r.stdout)

    def test_an_error_the_signature_cannot_carry_panics_that_call_alone(self):
        # The implementation that refuses everything: fnv1a64's error has no place in its u64.
        r = self.run_suite("binding", shlex.quote(TLBF) + " serve --refuse-all", "--exact",
                           "the_functions_answer_as_the_reference")
        self.assertEqual(r.returncode, 101, r.stdout + r.stderr)
        self.assertIn("which this function of the Rust API cannot return", r.stdout)


if __name__ == "__main__":
    unittest.main()
