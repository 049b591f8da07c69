#!/usr/bin/env python3
"""tlbf serve reads a request line as it arrives (docs/protocol.md, section 1):
a line of 64 MiB costs its decoded bytes, when the request keeps them, and
nothing more. Each request below goes to a fresh `tlbf serve`, whose peak
resident memory (VmHWM in /proc/PID/status, read before its input is
closed) must stay within its resident memory after `hello` plus the bytes
the request must keep, plus a quarter of those or 8 MiB, whichever is more.
A server that held the line whole (64 MiB) fails every one of them.

    serve_memory_test.py TLBF            (TLBF serve)
    serve_memory_test.py SERVER...       (any other command that serves so: tlbf-mutant)
"""
import struct
import subprocess
import sys
import unittest
from itertools import chain

SERVER = None  # the command
MIB = 1 << 20
MAX_LINE = 64 * MIB  # a line, "\n" included, is at most this long


def header(m, k=3, n=0):
    """A TLBF v1 header (docs/format.md, section 5)."""
    return b"TLBF" + struct.pack("<IQIIQ", 1, m, k, 0, n)


def hex_line(prefix, size, head=b""):
    """The line PREFIX HEX "\n", HEX the hex of head and size pattern bytes, in 1 MiB pieces."""
    yield prefix + head.hex().encode()
    block = bytes(range(256)) * 4096
    while size:
        piece = block[: min(size, len(block))]
        yield piece.hex().encode()
        size -= len(piece)
    yield b"\n"


def peak_of(pieces):
    """(VmHWM in bytes, the answers) of a fresh server sent these pieces."""
    serve = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lines = 0
    for piece in pieces:
        serve.stdin.write(piece)
        lines += piece.count(b"\n")
    serve.stdin.flush()
    answers = [serve.stdout.readline().decode(errors="replace").rstrip("\n") for _ in range(lines)]
    with open(f"/proc/{serve.pid}/status") as status:
        peak = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    serve.stdin.close()
    serve.wait()
    return peak, answers


class LongLines(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base, answers = peak_of([b"hello\n"])
        assert answers[0].startswith("ok 1 "), answers

    def assert_peak(self, pieces, kept, expected):
        peak, answers = peak_of(pieces)
        self.assertEqual([a[: len(e)] for a, e in zip(answers, expected)], expected)
        bound = self.base + kept + max(kept // 4, 8 * MIB)
        self.assertLessEqual(peak, bound, f"peak {peak / MIB:.1f} MiB, above {bound / MIB:.1f} MiB "
                             f"({self.base / MIB:.1f} after hello, {kept / MIB:.1f} MiB kept)")

    def test_from_bytes_of_the_largest_file_a_line_carries(self):
        bits = 32 * MIB - 40  # "from_bytes f " + 2 * (32 + bits) hex digits + "\n" is 64 MiB less 14 bytes
        line = hex_line(b"from_bytes f ", bits, header(8 * bits))
        self.assert_peak(chain(line, [b"info f\n"]), 32 + bits, ["ok", f"ok {8 * bits} 3 0"])

    def test_an_item_for_a_filter_that_does_not_exist_is_not_kept(self):
        size = (MAX_LINE - 4096 - len("contains absent_x ") - 1) // 2
        self.assert_peak(hex_line(b"contains absent_x ", size), 0, ["err NoSuchFilter"])

    def test_an_item_of_32_mib_is_kept_once(self):
        size = (MAX_LINE - len("insert f ") - 1) // 2
        pieces = chain([b"new f 64 3\n"], hex_line(b"insert f ", size), [b"contains f 00\n"])
        self.assert_peak(pieces, size, ["ok", "ok", "ok "])

    def test_a_line_over_the_limit_is_discarded_to_its_newline(self):
        # Its item is decoded until the line reaches the limit: at most the 32 MiB a line can carry.
        pieces = chain([b"new f 64 3\n"], hex_line(b"insert f ", MAX_LINE // 2), [b"info f\n"])
        self.assert_peak(pieces, MAX_LINE // 2, ["ok", "err Protocol", "ok 64 3 0"])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    SERVER = sys.argv[1:] if len(sys.argv) > 2 else [sys.argv[1], "serve"]
    del sys.argv[1:]
    unittest.main()
