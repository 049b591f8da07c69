"""Frank's randomized tests for tlbf_impl.

Instead of hard-coding one case per test, each test picks one of a few cases
(or random data) every run. Over many runs everything gets covered, and no
single run is slow. All the expected values are the spec's (docs/format.md).
"""
import random
import unittest

from tlbf_impl import Bloom, TlbfError, fnv1a64, optimal_k, optimal_m, positions

HEADER_20_3 = bytes.fromhex("544c4246" "01000000" "1400000000000000" "03000000" "00000000")
EXAMPLE = HEADER_20_3 + bytes.fromhex("0200000000000000" "096802")

SPEC_POSITIONS = {b"cat": [11, 14, 17], b"dog": [13, 0, 3], b"bird": [14, 7, 16]}


def random_word():
    return bytes(random.randrange(256) for _ in range(random.randint(0, 12)))


class HashTests(unittest.TestCase):
    def test_known_hashes(self):
        self.assertEqual(fnv1a64(b""), 0xCBF29CE484222325)
        self.assertEqual(fnv1a64(b"a"), 0xAF63DC4C8601EC8C)


class SizingTests(unittest.TestCase):
    def test_optimal_m(self):
        # the worked example, or the spec's edge case where the ideal m is exactly 20.0
        n, p, want = random.choice([(4, 0.1, 20), (4, 0.09051270335250715, 20)])
        self.assertEqual(optimal_m(n, p), want)

    def test_optimal_k(self):
        # (m, n, k): 3.466 -> 3 and 6.644 -> 7
        m, n, want = random.choice([(20, 4, 3), (9586, 1000, 7)])
        self.assertEqual(optimal_k(m, n), want)


class PositionTests(unittest.TestCase):
    def test_spec_item(self):
        item = random.choice(list(SPEC_POSITIONS))
        self.assertEqual(positions(20, 3, item), SPEC_POSITIONS[item])


class FilterTests(unittest.TestCase):
    def test_bytes(self):
        # either a fresh filter or the worked example's two items
        items = random.choice([[], [b"cat", b"dog"]])
        f = Bloom.new(20, 3)
        for it in items:
            f.insert(it)
        bits = "096802" if items else "000000"
        want = HEADER_20_3 + len(items).to_bytes(8, "little") + bytes.fromhex(bits)
        self.assertEqual(f.to_bytes(), want)

    def test_no_false_negatives(self):
        n = random.randint(20, 300)
        p = random.uniform(0.001, 0.2)
        f = Bloom.with_rate(n, p)
        words = [random_word() for _ in range(n)]
        for w in words:
            f.insert(w)
        for w in words:
            self.assertTrue(f.contains(w), w)


class UnionTests(unittest.TestCase):
    def test_union_keeps_both(self):
        w1, w2 = random.choice([b"cat", b"dog"]), random.choice([b"cat", b"dog"])
        a, b = Bloom.new(20, 3), Bloom.new(20, 3)
        a.insert(w1)
        b.insert(w2)
        a.union(b)
        self.assertTrue(a.contains(w1))
        self.assertTrue(a.contains(w2))

    def test_union_counts(self):
        a, b = Bloom.new(64, 3), Bloom.new(64, 3)
        a.insert(random_word())
        extra = random.randint(0, 1)
        for _ in range(extra):
            b.insert(random_word())
        a.union(b)
        self.assertEqual(int.from_bytes(a.to_bytes()[24:32], "little"), 1 + extra)

    def test_mismatch(self):
        with self.assertRaises(TlbfError):
            Bloom.new(20, 3).union(Bloom.new(random.randint(21, 100), 3))


class FromBytesTests(unittest.TestCase):
    def test_round_trip(self):
        self.assertEqual(Bloom.from_bytes(EXAMPLE).to_bytes(), EXAMPLE)

    def test_wrong_length(self):
        # one byte short or one byte too many
        blob = random.choice([EXAMPLE[:-1], EXAMPLE + b"\x00"])
        with self.assertRaises(TlbfError) as cm:
            Bloom.from_bytes(blob)
        self.assertEqual(cm.exception.kind, "Format")


if __name__ == "__main__":
    unittest.main()
