"""Tests of the Python kit's binding, mutants/kits/python/course/tlbf_impl.py
(docs/mutants.md, "Kits"): the module a learner's test_bloom.py imports,
which forwards every call over line protocol v1 to TLBF_IMPL.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. python3 mutants/tests/test_binding.py

Each suite runs in a folder of its own holding the binding, as tlbf grade
runs a learner's, with TLBF_IMPL set to `tlbf serve` (the oracle), `tlbf
serve --mutant sNN`, the Python implementation, or a small script that
misbehaves on purpose.
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

TLBF = os.path.abspath(os.environ["TLBF_BINARY"])
SOURCE = os.path.abspath(os.environ["TLBF_SOURCE_DIR"])
BINDING = os.path.join(SOURCE, "mutants/kits/python/course/tlbf_impl.py")
PYTHON_IMPL = os.path.join(SOURCE, "conformance/impls/python/tlbf_impl.py")
COURSE_SUITE = os.path.join(SOURCE, "conformance/impls/python/test_tlbf_impl.py")
ALICE = os.path.join(SOURCE, "mutants/tests/class/python/alice/test_bloom.py")

# An implementation that answers "ok" to every request but insert, which it
# answers with an error: only the answer sent ahead is wrong.
INSERT_REFUSER = r'''
import sys
for line in sys.stdin:
    word = line.split()[0]
    answer = {"insert": "err BadParams no", "contains": "ok false", "count_ones": "ok 0"}.get(word, "ok")
    sys.stdout.write(answer + "\n")
    sys.stdout.flush()
'''
# One that answers its first request, then ends.
ONE_ANSWER = "read line; echo ok"


class Binding(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tlbf_binding_test_")
        shutil.copy(BINDING, os.path.join(self.dir, "tlbf_impl.py"))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_suite(self, impl, module="test_suite", text=None, copy=None, timeout=300):
        if copy:
            shutil.copy(copy, os.path.join(self.dir, module + ".py"))
        if text is not None:
            with open(os.path.join(self.dir, module + ".py"), "w") as f:
                f.write(textwrap.dedent(text))
        env = dict(os.environ, TLBF_IMPL=impl)
        env.pop("TLBF_MUTANT", None)
        return subprocess.run([sys.executable, "-m", "unittest", "-q", module], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=timeout)

    def script(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return shlex.quote(sys.executable) + " " + shlex.quote(path)

    def test_the_course_suite_and_alice_pass_unchanged_against_the_served_oracle(self):
        # Written against the old in-process module: the same names, answers and errors.
        for suite in (COURSE_SUITE, ALICE):
            r = self.run_suite(shlex.quote(TLBF) + " serve", copy=suite)
            self.assertEqual(r.returncode, 0, suite + "\n" + r.stdout + r.stderr)
        r = self.run_suite(shlex.quote(sys.executable) + " " + shlex.quote(PYTHON_IMPL), copy=COURSE_SUITE)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_the_course_suite_fails_every_served_mutant(self):
        for n in range(1, 11):
            r = self.run_suite(shlex.quote(TLBF) + " serve --mutant s%02d" % n, copy=COURSE_SUITE)
            self.assertNotEqual(r.returncode, 0, "s%02d survived\n%s" % (n, r.stdout + r.stderr))

    def test_the_reference_modules_types_and_errors(self):
        r = self.run_suite(shlex.quote(TLBF) + " serve", text='''
            import copy, unittest
            from tlbf_impl import Bloom, TlbfError, fnv1a64, mix64, optimal_k, optimal_m, positions, predicted_fp_rate

            class T(unittest.TestCase):
                def test_values(self):
                    self.assertEqual(fnv1a64(bytearray(b"cat")), 0xF5E307190CE4A327)
                    self.assertEqual(mix64(0xF5E307190CE4A327), 0xABC55D317F9D6792)
                    self.assertEqual(positions(20, 3, memoryview(b"cat")), [11, 14, 17])
                    self.assertEqual((optimal_m(4, 0.1), optimal_k(20, 4)), (20, 3))
                    self.assertAlmostEqual(predicted_fp_rate(20, 3, 2), 0.017410586496326586, places=15)
                    self.assertEqual(optimal_m(0, 0.1), 0)

                def test_a_filter(self):
                    f = Bloom.with_rate(4, 0.1)
                    self.assertIsNone(f.insert(b"cat"))
                    f.insert(b"dog")
                    self.assertIs(f.contains(b"cat"), True)
                    self.assertIs(f.contains(b"bird"), False)
                    self.assertEqual((f.m, f.k, f.n_inserted, f.count_ones()), (20, 3, 2, 6))
                    self.assertEqual(f.bits, bytes.fromhex("096802"))
                    with self.assertRaises(AttributeError):
                        f.m = 7
                    with self.assertRaises(TypeError):
                        f.bits[0] = 1  # read-only
                    g = Bloom.from_bytes(f.to_bytes())
                    self.assertIsNone(g.union(f))  # union changes g and returns nothing
                    self.assertEqual(g.n_inserted, 4)
                    twin = copy.deepcopy(g)
                    twin.insert(b"emu")
                    self.assertEqual((g.n_inserted, twin.n_inserted), (4, 5))

                def test_errors(self):
                    for call, kind in ((lambda: Bloom.new(0, 3), "BadParams"), (lambda: Bloom.new(-1, 3), "BadParams"),
                                       (lambda: Bloom.with_rate(0, 0.1), "BadParams"),
                                       (lambda: Bloom.from_bytes(b"TLBF"), "Format"),
                                       (lambda: Bloom.new(20, 3).union(Bloom.new(24, 3)), "Mismatch")):
                        with self.assertRaises(TlbfError) as caught:
                            call()
                        self.assertEqual(caught.exception.kind, kind)
                    with self.assertRaises(TypeError):
                        fnv1a64("cat")
            ''')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_an_implementation_that_ends_fails_the_test_even_inside_assert_raises_exception(self):
        r = self.run_suite(ONE_ANSWER, text='''
            import unittest
            from tlbf_impl import Bloom

            class T(unittest.TestCase):
                def test_it(self):
                    f = Bloom.new(20, 3)
                    with self.assertRaises(Exception):
                        f.contains(b"cat")
            ''')
        self.assertNotEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("ImplementationFailed", r.stderr)
        self.assertIn("ended without answering 'contains", r.stderr)

    def test_an_insert_sent_ahead_and_refused_fails_the_next_call_or_else_the_run(self):
        impl = self.script("refuser.py", INSERT_REFUSER)
        r = self.run_suite(impl, text='''
            import unittest
            from tlbf_impl import Bloom, TlbfError

            class T(unittest.TestCase):
                def test_it(self):
                    f = Bloom.new(20, 3)
                    f.insert(b"cat")  # returns at once: its answer is read at the next call
                    with self.assertRaises(TlbfError):  # not a TlbfError: the test fails
                        Bloom.new(0, 3)
            ''')
        self.assertNotEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("answered 'err BadParams no' to 'insert f1 636174', sent ahead", r.stderr)
        # When nothing follows the insert, the process exits with status 1 and says why.
        r = self.run_suite(impl, text='''
            import unittest
            from tlbf_impl import Bloom

            class T(unittest.TestCase):
                def test_it(self):
                    Bloom.new(20, 3).insert(b"cat")
            ''')
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("OK", r.stderr)
        self.assertIn("tlbf_impl: the implementation under test (TLBF_IMPL) answered 'err BadParams no'", r.stderr)

    def test_a_long_run_of_inserts_sent_ahead_ends(self):
        # The Python implementation writes its answers blocking: far more
        # than a pipe holds must be sent ahead without either side waiting for ever.
        r = self.run_suite(shlex.quote(sys.executable) + " " + shlex.quote(PYTHON_IMPL), text='''
            import unittest
            from tlbf_impl import Bloom

            class T(unittest.TestCase):
                def test_it(self):
                    f = Bloom.new(1 << 16, 2)
                    for i in range(60000):
                        f.insert(b"item %d with a longer name, so that the requests fill pipes %d" % (i, i))
                    self.assertEqual(f.n_inserted, 60000)
            ''', timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_many_filters_dropped_at_once_then_inserts_sent_ahead_end(self):
        # Their drops wait to be sent with the next request: every one must be
        # written before any of their answers is awaited.
        r = self.run_suite(shlex.quote(TLBF) + " serve", text='''
            import unittest
            from tlbf_impl import Bloom

            class T(unittest.TestCase):
                def test_it(self):
                    many = [Bloom.new(8, 1) for _ in range(20000)]
                    keep = many.pop()
                    del many
                    for i in range(20000):
                        keep.insert(b"%d" % i)
                    self.assertEqual(keep.n_inserted, 20000)
            ''', timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_filters_no_bloom_holds_are_dropped(self):
        impl = self.script("logger.py", INSERT_REFUSER.replace('"insert": "err BadParams no", ', "").replace(
            "sys.stdout.write(", "open(%r, 'a').write(line); sys.stdout.write(" % os.path.join(self.dir, "log")))
        r = self.run_suite(impl, text='''
            import unittest
            from tlbf_impl import Bloom

            class T(unittest.TestCase):
                def test_it(self):
                    for _ in range(3):
                        Bloom.new(20, 3)
                    Bloom.new(20, 3).count_ones()
            ''')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        log = open(os.path.join(self.dir, "log")).read()
        for name in ("f1", "f2", "f3"):
            self.assertIn("drop %s\n" % name, log)


if __name__ == "__main__":
    cases = sys.argv[1:] or ["Binding"]
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromName(c, sys.modules[__name__]) for c in cases)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
