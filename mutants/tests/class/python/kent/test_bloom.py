"""Kent: tests for tlbf_impl, including a false-positive experiment.

The experiment fills a filter sized for 12,000 items at 1% and probes
12,000 other items. It is deterministic (fixed item names), some 24,000
calls. Exact values are from docs/format.md.
"""
import unittest

from tlbf_impl import Bloom, TlbfError, fnv1a64, mix64, optimal_k, optimal_m, positions

EXAMPLE = bytes.fromhex("544c424601000000140000000000000003000000000000000200000000000000096802")


class Exact(unittest.TestCase):
    def test_fnv(self):
        self.assertEqual(fnv1a64(b"a"), 0xAF63DC4C8601EC8C)
        self.assertEqual(fnv1a64(b"cat"), 0xF5E307190CE4A327)

    def test_mix(self):
        self.assertEqual(mix64(1), 0x5692161D100B05E5)

    def test_positions(self):
        self.assertEqual(positions(20, 3, b"cat"), [11, 14, 17])
        self.assertEqual(positions(20, 3, b"dog"), [13, 0, 3])

    def test_positions_mod_two(self):
        for i in range(64):
            self.assertNotEqual(*positions(2, 2, b"%x" % i))

    def test_sizing(self):
        self.assertEqual((optimal_m(4, 0.1), optimal_k(20, 4)), (20, 3))
        self.assertEqual((optimal_m(1000, 0.01), optimal_k(9586, 1000)), (9586, 7))

    def test_example(self):
        f = Bloom.with_rate(4, 0.1)
        f.insert(b"cat")
        f.insert(b"dog")
        self.assertEqual(f.to_bytes(), EXAMPLE)

    def test_union(self):
        a, b = Bloom.with_rate(4, 0.1), Bloom.with_rate(4, 0.1)
        a.insert(b"cat")
        b.insert(b"dog")
        a.union(b)
        self.assertEqual(a.to_bytes(), EXAMPLE)

    def test_from_bytes(self):
        self.assertEqual(Bloom.from_bytes(EXAMPLE).to_bytes(), EXAMPLE)
        for blob in (EXAMPLE[:-1], EXAMPLE + b"\x00"):
            with self.assertRaises(TlbfError) as cm:
                Bloom.from_bytes(blob)
            self.assertEqual(cm.exception.kind, "Format")


class Experiment(unittest.TestCase):
    N = 12_000

    def test_false_positive_rate_near_one_percent(self):
        f = Bloom.with_rate(self.N, 0.01)
        for i in range(self.N):
            f.insert(b"member-%d" % i)
        for i in range(0, self.N, 97):
            self.assertTrue(f.contains(b"member-%d" % i))
        fp = sum(f.contains(b"stranger-%d" % i) for i in range(self.N))
        # expect about 120; anything from 0.5% to 1.5% is fine
        self.assertGreater(fp, self.N * 0.005)
        self.assertLess(fp, self.N * 0.015)


if __name__ == "__main__":
    unittest.main()
