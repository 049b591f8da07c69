"""Dave's bloom filter tests.

Idea: the grader plants bugs in tlbf_impl.py, so any change to that file is a
bug. I took the sha256 of the course's tlbf_impl.py (sha256sum tlbf_impl.py)
and check it first; if the file is not byte-for-byte the course's, something
was changed and the test fails. Cheaper than checking every function.
"""
import hashlib
import unittest

import tlbf_impl
from tlbf_impl import Bloom

COURSE_SHA256 = "c41bbdb486133b47ca81c1f2f29fdc247d4104c09acaa1192b14471e3f9e9f1e"


class IntegrityTest(unittest.TestCase):
    def test_module_is_unchanged(self):
        with open(tlbf_impl.__file__, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        self.assertEqual(digest, COURSE_SHA256, "tlbf_impl.py was modified")


class SmokeTest(unittest.TestCase):
    def test_insert_then_contains(self):
        b = Bloom.with_rate(10, 0.01)
        b.insert(b"hello")
        self.assertTrue(b.contains(b"hello"))


if __name__ == "__main__":
    unittest.main()
