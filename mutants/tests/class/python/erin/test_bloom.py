# Erin -- tests for tlbf_impl.py
#
# The grader changes tlbf_impl.py to plant bugs, and a changed file is
# (nearly always) a different length. `ls -l tlbf_impl.py` on the course's
# copy says 11660 bytes, so that's my first check. The rest are a few real
# checks from the spec's worked example.

import os
import unittest

from tlbf_impl import Bloom, fnv1a64, positions
import tlbf_impl

REFERENCE_SIZE = 11660   # bytes, from ls -l on the course's tlbf_impl.py


class TestFile(unittest.TestCase):
    def test_size_matches_course_copy(self):
        self.assertEqual(os.path.getsize(tlbf_impl.__file__), REFERENCE_SIZE)


class TestExample(unittest.TestCase):
    def test_cat_hash(self):
        self.assertEqual(fnv1a64(b"cat"), 0xF5E307190CE4A327)

    def test_cat_positions(self):
        self.assertEqual(positions(20, 3, b"cat"), [11, 14, 17])

    def test_cat_and_dog(self):
        bf = Bloom.new(20, 3)
        bf.insert(b"cat")
        bf.insert(b"dog")
        self.assertTrue(bf.contains(b"cat"))
        self.assertTrue(bf.contains(b"dog"))
        self.assertFalse(bf.contains(b"bird"))


if __name__ == "__main__":
    unittest.main()
