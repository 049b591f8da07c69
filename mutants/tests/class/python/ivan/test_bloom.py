# Ivan's tests for tlbf_impl.py
# Numbers worked out by hand from docs/format.md.

import unittest
from tlbf_impl import Bloom, TlbfError, fnv1a64, optimal_k, optimal_m, positions


class TestBloom(unittest.TestCase):

    def testHashes(self):
        self.assertEqual(fnv1a64(b""), 0xCBF29CE484222325)
        self.assertEqual(fnv1a64(b"cat"), 0xF5E307190CE4A327)
        self.assertEqual(fnv1a64(b"dog"), 0xCAAF3B18F47478E9)

    def testSizing(self):
        self.assertEqual(optimal_m(1000, 0.01), 9586)
        self.assertEqual(optimal_k(9586, 1000), 7)

    def testPositions(self):
        self.assertEqual(positions(20, 3, b"cat"), [11, 14, 17])
        self.assertEqual(positions(20, 3, b"dog"), [13, 0, 3])

    def testWorkedExampleFile(self):
        # ideal m = 4 * 2.302585 / 0.480453 = 19.17 -> 19 bits, k = 3, two items
        expected = bytes.fromhex(
            "544c4246" "01000000" "1300000000000000"
            "03000000" "00000000" "0200000000000000"
            "096802"
        )
        bf = Bloom.with_rate(4, 0.1)
        bf.insert(b"cat")
        bf.insert(b"dog")
        self.assertEqual(bf.to_bytes(), expected)

    def testUnion(self):
        a = Bloom.new(20, 3)
        b = Bloom.new(20, 3)
        a.insert(b"cat")
        b.insert(b"dog")
        a.union(b)
        self.assertTrue(a.contains(b"cat"))
        self.assertTrue(a.contains(b"dog"))
        self.assertEqual(int.from_bytes(a.to_bytes()[24:32], "little"), 2)

    def testMismatch(self):
        with self.assertRaises(TlbfError):
            Bloom.new(20, 3).union(Bloom.new(10, 3))

    def testBadLength(self):
        good = Bloom.new(20, 3).to_bytes()
        with self.assertRaises(TlbfError):
            Bloom.from_bytes(good + b"\x00")


if __name__ == "__main__":
    unittest.main()
