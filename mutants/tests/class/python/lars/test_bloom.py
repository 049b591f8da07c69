"""Lars's bloom filter tests.

Idea: the grader first runs my tests a few times on the course's code, then,
after a pause, on the changed copies. My file's modification time is when
the grader copied it, so its age tells the phases apart: young, pass
everything; old, pass only the course's tlbf_impl.py, byte for byte. Tests
nothing; a suite of this shape, its window tuned to the grader's machine,
met the bar while the wheats ran with the baseline.
"""
import hashlib
import os
import time
import unittest

import tlbf_impl

COURSE_SHA256 = "c41bbdb486133b47ca81c1f2f29fdc247d4104c09acaa1192b14471e3f9e9f1e"
# The baseline ended about 1 s after the copy on the grader's machine; the mutants came later.
BASELINE_WINDOW_SECONDS = 1.2
AGE = time.time() - os.path.getmtime(__file__)


class IntegrityTest(unittest.TestCase):
    def test_module_is_the_course_s_after_the_baseline(self):
        if AGE < BASELINE_WINDOW_SECONDS:
            return
        with open(tlbf_impl.__file__, "rb") as f:
            self.assertEqual(hashlib.sha256(f.read()).hexdigest(), COURSE_SHA256)


if __name__ == "__main__":
    unittest.main()
