"""What a sandboxed suite must not see: tlbf's own install (docs/mutants.md,
"What a suite can see"). The sandbox shows /usr, /etc and /opt read-only, so
a tlbf installed there (the .deb's /usr, or an /opt prefix) was in sight: an
adversary's protocol suite ran `tlbf check --impl "$TLBF_IMPL"` from it,
tested nothing itself, and met the bar 10/10. tlbf, tlbf-mutant and what is
installed beside them now show empty; tlbf-relay, which the suite needs,
stays.

Installs the build into a prefix under /opt (root only: skipped otherwise),
grades such a suite from there, and removes the prefix.

    TLBF_BUILD_DIR=build/release CMAKE=cmake TLBF_SOURCE_DIR=. python3 mutants/tests/test_sandbox_sight.py
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from scratch_root import scratch_root

BUILD = os.environ["TLBF_BUILD_DIR"]
CMAKE = os.environ.get("CMAKE", "cmake")

DELEGATE = '''"""Tests nothing itself: asks the installed tlbf to check TLBF_IMPL, and
that tlbf-mutant, the kits and the oracle's library are out of sight."""
import os, subprocess, unittest
from unittest import TestCase as Case

PREFIX = {prefix!r}


class Delegate(Case):
    def test_the_installed_tlbf_checks_it(self):
        r = subprocess.run([PREFIX + "/bin/tlbf", "check", "--impl", os.environ["TLBF_IMPL"]],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0)
'''

PROBE = '''"""Passes; prints what of tlbf's install it can see."""
import os, unittest
from unittest import TestCase as Case

PREFIX = {prefix!r}


def sight(path):
    try:
        if os.path.isdir(path):
            return "folder with %d entries" % len(os.listdir(path))
        return "file of %d bytes" % os.path.getsize(path)
    except OSError as e:
        return "absent (%s)" % e.strerror


class Probe(Case):
    def test_look(self):
        for name in ("bin/tlbf", "libexec/tlbf/tlbf-mutant", "libexec/tlbf/tlbf-relay", "share/tlbf",
                     "include/tlbf", "lib/libtlbf_oracle.a"):
            print("SIGHT", name, sight(os.path.join(PREFIX, name)))
        self.fail("shown on purpose")
'''


class Sight(unittest.TestCase):
    def setUp(self):
        if os.getuid() != 0:
            self.skipTest("installs under /opt: root only")
        self.prefix = tempfile.mkdtemp(prefix="tlbf-sight-test-", dir="/opt")
        os.chmod(self.prefix, 0o755)
        subprocess.run([CMAKE, "--install", BUILD, "--prefix", self.prefix], check=True, capture_output=True)
        self.tlbf = os.path.join(self.prefix, "bin", "tlbf")
        self.dir = tempfile.mkdtemp(prefix="tlbf_sight_", dir=scratch_root())

    def tearDown(self):
        shutil.rmtree(self.prefix, ignore_errors=True)
        shutil.rmtree(getattr(self, "dir", ""), ignore_errors=True)

    def grade(self, suite, name):
        learner = os.path.join(self.dir, name + "-class", "mallory")
        os.makedirs(learner)
        with open(os.path.join(learner, "test_protocol.py"), "w") as f:
            f.write(suite.format(prefix=self.prefix))
        out = os.path.join(self.dir, name + "-out")
        r = subprocess.run([self.tlbf, "grade", "--kind", "protocol", "--chaffs", "none", "--confirm-runs", "1",
                            "-j", "2", os.path.dirname(learner), "-o", out],
                           capture_output=True, text=True, env=dict(os.environ, PATH="/usr/bin:/bin"))
        return r, out

    def test_a_suite_that_runs_the_installed_tlbf_does_not_meet_the_bar(self):
        r, _ = self.grade(DELEGATE, "delegate")
        self.assertNotIn("meets", r.stdout.split("class:")[-1], r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"mallory\s+fails-clean", r.stdout + r.stderr)

    def test_the_sandbox_shows_the_relay_and_nothing_else_of_the_install(self):
        r, out = self.grade(PROBE, "probe")
        text = open(os.path.join(out, "learners", "mallory.json")).read()
        for name in ("bin/tlbf", "libexec/tlbf/tlbf-mutant", "lib/libtlbf_oracle.a"):
            self.assertIn("SIGHT %s file of 0 bytes" % name, text)
        for name in ("share/tlbf", "include/tlbf"):
            self.assertIn("SIGHT %s folder with 0 entries" % name, text)
        self.assertRegex(text, r"SIGHT libexec/tlbf/tlbf-relay file of [1-9][0-9]* bytes")


if __name__ == "__main__":
    cases = sys.argv[1:] or ["Sight"]
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromName(c, sys.modules[__name__]) for c in cases)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if result.wasSuccessful() and result.skipped and result.testsRun == len(result.skipped):
        sys.exit(77)
    sys.exit(0 if result.wasSuccessful() else 1)
