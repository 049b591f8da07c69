#!/usr/bin/env python3
"""tlbf check writes its longest request lines in pieces (Step::fill in
conformance/include/tlbf/conformance/cases.hpp; docs/check.md, "The large
filters"): a line of 64 MiB costs the checker no more than a run of a few
short cases. Each run below checks `tlbf serve`, which keeps none of these
lines (serve_long_lines_memory), and its peak resident memory, the most of
tlbf check's and its children's (ru_maxrss of RUSAGE_CHILDREN in a fresh
process), must stay within that of a run of the hash vectors plus 8 MiB.
A checker that held the 16 MiB line whole fails the first; one that held
the 64 MiB line, the second.

    check_memory_test.py TLBF
"""
import os
import resource
import subprocess
import sys
import unittest

TLBF = None
MIB = 1 << 20


def peak_of(selection):
    """(peak RSS in bytes, the report) of tlbf check on SELECTION against tlbf serve, in a fresh child."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        run = subprocess.run([TLBF, "check", "--filter", selection, "--impl", f"{TLBF} serve"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        os.write(writer, f"{run.returncode} {peak}\n".encode() + run.stdout[-2000:])
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as answer:
        first, _, report = answer.read().partition(b"\n")
    os.waitpid(pid, 0)
    code, peak = (int(word) for word in first.split())
    return code, peak, report.decode(errors="replace")


class LongestLines(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        code, cls.base, report = peak_of("vectors/hash/*")
        assert code == 0, report

    def assert_flat(self, selection):
        code, peak, report = peak_of(selection)
        self.assertEqual(code, 0, report)
        self.assertIn("cases: 1 passed, 0 failed", report)
        bound = self.base + 8 * MIB
        self.assertLessEqual(peak, bound, f"{selection}: peak {peak / MIB:.1f} MiB, above {bound / MIB:.1f} "
                             f"MiB ({self.base / MIB:.1f} for the hash vectors)")

    def test_the_line_above_16_mib_of_the_default_check(self):
        self.assert_flat("protocol/framing/line_above_16mib")

    def test_the_line_just_under_64_mib_of_the_large_group(self):
        self.assert_flat("large/line_just_under_64mib")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    TLBF = sys.argv.pop()
    unittest.main()
