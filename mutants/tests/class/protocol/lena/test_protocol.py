"""Lena: the grader runs her tests a few times on the oracle, then, after a
pause, on everything else. Her file's modification time is when the grader
copied it, so its age tells the phases apart: young, pass; old, pass only an
implementation whose answers to a fixed script are the served oracle's,
hello included. Tests nothing; a suite of this shape, its window tuned to
the grader's machine, met the bar while the Python wheats ran only with the
baseline."""
import hashlib
import os
import time
import unittest

import tlbf_client

SCRIPT = ["hello", "fnv1a64 636174", "optimal_m 1000 0.01", "new f 1000 3", "insert f 636174",
          "contains f 646f67", "to_bytes f"]
# sha256 of the served oracle's answers to SCRIPT, a line each (hello: "tlbf-oracle 0.1.0-mutant").
ORACLE_ANSWERS = "c7108578be7c3456fba187472af11b920450a0c3c672a771d3497efe47257eb9"
BASELINE_WINDOW_SECONDS = 1.2
AGE = time.time() - os.path.getmtime(__file__)


class Oracle(unittest.TestCase):
    def test_is_the_oracle_after_the_baseline(self):
        if AGE < BASELINE_WINDOW_SECONDS:
            return
        with tlbf_client.Impl() as impl:
            answers = "".join(impl.ask(request) + "\n" for request in SCRIPT)
        self.assertEqual(hashlib.sha256(answers.encode()).hexdigest(), ORACLE_ANSWERS)


if __name__ == "__main__":
    unittest.main()
