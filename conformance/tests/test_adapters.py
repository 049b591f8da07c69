"""Tests of tlbf check --python-module and --rust-crate (docs/check.md,
"Checking a library"): a learner's library with the course's API, checked
through a protocol server over it, where every answer, positions_for's
included, comes from the learner's code.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. python3 conformance/tests/test_adapters.py PythonModule
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
SEED_BLOOM = os.path.join(SOURCE, "conformance/tests/adapters/seed_bloom.py")
CRATE = os.path.join(SOURCE, "conformance/impls/rust")


def cargo():
    found = shutil.which("cargo")
    home = os.path.join(os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")), "bin/cargo")
    return found or (home if os.access(home, os.X_OK) else None)


class Adapters(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tlbf_adapters_test_")
        self.env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.dir, "cache"))
        self.env["PATH"] = "/usr/bin:" + self.env.get("PATH", "")  # Debian's python3 before a pyenv shim

    # The planted bugs are each seen in the vector cases, which call every
    # function of the API: a whole check costs some 3.5 CPU-seconds through
    # the Python adapter (many more under ASan), these a tenth of one. The
    # clean module alone gets the whole check.
    VECTORS = ("--filter", "vectors/*")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def check(self, *args):
        out = os.path.join(self.dir, "report.json")
        r = subprocess.run([TLBF, "check", *args, "--json", out], capture_output=True, text=True, env=self.env,
                           timeout=1200)
        r.report = json.load(open(out)) if os.path.exists(out) else None
        if os.path.exists(out):
            os.unlink(out)
        return r

    def failed(self, r):
        """The names of the failed cases of the one implementation checked."""
        return {c["name"] for c in r.report["cases"] if c["outcome"] == "FAIL"}

    def planted(self, name, source, old, new):
        """A copy of `source` (a file or a folder) with `old` replaced by `new` in the file `name`."""
        if os.path.isdir(source):
            copy = os.path.join(self.dir, "copy-" + os.path.basename(source))
            shutil.copytree(source, copy, ignore=shutil.ignore_patterns("target"))
            path = os.path.join(copy, name)
        else:
            copy = path = os.path.join(self.dir, name)
            shutil.copy(source, path)
        text = open(path).read()
        self.assertIn(old, text)
        open(path, "w").write(text.replace(old, new))
        return copy


class PythonModule(Adapters):
    def test_a_module_with_the_course_api_conforms(self):
        r = self.check("--python-module", SEED_BLOOM)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr)
        self.assertIn("conforms to TLBF v1", r.stdout)

    def test_a_bug_in_bit_positions_fails_positions_for_too(self):
        module = self.planted("bloom.py", SEED_BLOOM, "h2 = mix64(h1) | 1", "h2 = mix64(h1)")
        r = self.check("--python-module", module, *self.VECTORS)
        self.assertEqual(r.returncode, 1, r.stdout[-3000:] + r.stderr)
        failed = self.failed(r)
        # positions_for answers from the module's bit_positions, not the adapter's own hashing.
        self.assertTrue(any(n.startswith("vectors/positions/PositionsForTest/") for n in failed), sorted(failed)[:20])
        self.assertTrue(any(n.startswith("vectors/filter/") for n in failed), sorted(failed)[:20])

    def test_any_exception_from_sizing_is_bad_params_which_is_acceptable_there(self):
        # optimal_m(n, 0) raising inside math.log: err BadParams, which docs/check.md allows (OutOfDomain).
        module = self.planted("bloom.py", SEED_BLOOM, "def _log(p):\n", "def _log(p):\n    return math.log(p)\n")
        r = self.check("--python-module", module, *self.VECTORS)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr)
        self.assertRegex(r.stdout, r"[1-9][0-9]* acceptable differences")

    def test_an_exception_where_no_error_is_allowed_fails_and_is_shown(self):
        module = self.planted("bloom.py", SEED_BLOOM, "    def count_ones(self):\n",
                              "    def count_ones(self):\n        raise RuntimeError('not written yet')\n")
        r = self.check("--python-module", module, "-v", *self.VECTORS)
        self.assertEqual(r.returncode, 1, r.stdout[-3000:] + r.stderr)
        self.assertIn("err Raised RuntimeError: not written yet", r.stdout)

    def test_what_the_module_prints_goes_to_stderr_not_into_the_answers(self):
        module = self.planted("bloom.py", SEED_BLOOM, "    def insert(self, item):\n",
                              "    def insert(self, item):\n        print('inserting', item)\n")
        r = self.check("--python-module", module, *self.VECTORS)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr)

    def test_a_module_that_cannot_be_imported_cannot_run_and_shows_python_s_message(self):
        module = self.planted("bloom.py", SEED_BLOOM, "class Bloom:", "class Bloom(")
        r = self.check("--python-module", module)
        self.assertEqual(r.returncode, 7, r.stdout + r.stderr)  # cannot run
        self.assertIn("does not serve", r.stderr)
        self.assertIn("SyntaxError", r.stderr)

    def test_a_module_without_a_name_the_adapter_calls_says_which(self):
        module = self.planted("bloom.py", SEED_BLOOM, "def mix64(z):", "def mix_64(z):")
        r = self.check("--python-module", module)
        self.assertEqual(r.returncode, 7, r.stdout + r.stderr)  # cannot run
        self.assertIn("has no mix64", r.stderr)

    def test_modules_compare_in_a_parity_run(self):
        module = self.planted("bloom.py", SEED_BLOOM, "h2 = mix64(h1) | 1", "h2 = mix64(h1)")
        r = subprocess.run([TLBF, "check", "--python-module", SEED_BLOOM, "--python-module", module, *self.VECTORS],
                           capture_output=True, text=True, env=self.env, timeout=1200)
        self.assertEqual(r.returncode, 1, r.stdout[-3000:] + r.stderr)
        self.assertEqual(len(re.findall(r"^verdict: ", r.stdout, re.M)), 2, r.stdout[-3000:])


class RustCrate(Adapters):
    def setUp(self):
        if not cargo():
            raise unittest.SkipTest("cargo is missing")
        super().setUp()
        self.env["PATH"] = os.path.dirname(cargo()) + ":" + self.env["PATH"]

    def test_the_bundled_crate_conforms_and_a_bit_positions_bug_fails(self):
        r = self.check("--rust-crate", CRATE)
        self.assertEqual(r.returncode, 0, r.stdout[-3000:] + r.stderr)
        crate = self.planted("src/bloom.rs", CRATE, "let h2 = mix64(h1) | 1;", "let h2 = mix64(h1);")
        r = self.check("--rust-crate", crate, "--rust-module", "tl_ds::bloom")
        self.assertEqual(r.returncode, 1, r.stdout[-3000:] + r.stderr)
        failed = self.failed(r)
        self.assertTrue(any(n.startswith("vectors/positions/PositionsForTest/") for n in failed), sorted(failed)[:20])

    def test_a_crate_without_an_item_the_server_calls_cannot_run_and_shows_cargo_s_message(self):
        crate = self.planted("src/bloom.rs", CRATE, "pub fn count_ones(", "pub fn popcount(")
        r = self.check("--rust-crate", crate)
        self.assertEqual(r.returncode, 7, r.stdout + r.stderr)  # cannot run
        self.assertIn("cannot build the Rust adapter", r.stderr)
        self.assertIn("count_ones", r.stderr)

    def test_a_module_that_is_not_there_is_named(self):
        r = self.check("--rust-crate", CRATE, "--rust-module", "filters")
        self.assertEqual(r.returncode, 7, r.stdout + r.stderr)  # cannot run
        self.assertIn("tl_ds::filters", r.stderr)


if __name__ == "__main__":
    cases = sys.argv[1:] or ["PythonModule", "RustCrate"]
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromName(c, sys.modules[__name__]) for c in cases)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if result.wasSuccessful() and result.skipped and result.testsRun == len(result.skipped):
        sys.exit(77)
    sys.exit(0 if result.wasSuccessful() else 1)
