"""A small unit-test suite for tlbf_impl.py, in Python's own unittest.

It tests the module directly, not over the protocol, so `tlbf mutate` grades
it in patch mode: the ten planted bugs as patches against tlbf_impl.py
(mutants/patches/python, docs/mutants.md). Every expected value comes from
the specification's worked example, published FNV-1a values or arithmetic
done by hand, never from running the code under test.

    python3 -m unittest -q test_tlbf_impl
"""
import unittest

from tlbf_impl import Bloom, TlbfError, fnv1a64, mix64, optimal_k, optimal_m, positions

# The specification's worked example: with_rate(4, 0.1) holding cat and dog.
WORKED_EXAMPLE = bytes.fromhex(
    "544c4246" "01000000" "1400000000000000"  # "TLBF", version 1, m = 20
    "03000000" "00000000" "0200000000000000"  # k = 3, reserved, n_inserted = 2
    "096802")                                 # the bits


class HashTest(unittest.TestCase):
    def test_fnv1a64_published_values(self):
        self.assertEqual(fnv1a64(b""), 0xCBF29CE484222325)  # the offset basis
        self.assertEqual(fnv1a64(b"a"), 0xAF63DC4C8601EC8C)  # FNV-1 would give af63bd4c8601b7be
        self.assertEqual(fnv1a64(b"cat"), 0xF5E307190CE4A327)

    def test_mix64_of_the_worked_example(self):
        self.assertEqual(mix64(0xF5E307190CE4A327) | 1, 0xABC55D317F9D6793)


class SizingTest(unittest.TestCase):
    def test_worked_example(self):
        self.assertEqual(optimal_m(4, 0.1), 20)  # 19.17 rounds up
        self.assertEqual(optimal_k(20, 4), 3)    # 3.466 rounds to 3

    def test_k_rounds_half_up(self):
        # -1000 ln 0.01 / (ln 2)^2 = 9585.06, so m = 9586; 9.586 ln 2 = 6.644, so k = 7.
        self.assertEqual(optimal_m(1000, 0.01), 9586)
        self.assertEqual(optimal_k(9586, 1000), 7)


class BitsTest(unittest.TestCase):
    def test_positions_of_the_worked_example(self):
        self.assertEqual(positions(20, 3, b"cat"), [11, 14, 17])
        self.assertEqual(positions(20, 3, b"dog"), [13, 0, 3])
        self.assertEqual(positions(20, 3, b"bird"), [14, 7, 16])

    def test_h2_is_odd_so_probes_never_coincide_on_a_power_of_two(self):
        # With m = 2, g1 - g0 = h2 mod 2: the two probes differ exactly when h2 is odd.
        for i in range(200):
            self.assertEqual(sorted(positions(2, 2, b"item%d" % i)), [0, 1], i)

    def test_insert_sets_k_bits(self):
        b = Bloom.new(1 << 20, 7)
        b.insert(b"one item")
        self.assertEqual(b.count_ones(), 7)  # 7 distinct probes out of a million bits

    def test_worked_example_bytes(self):
        b = Bloom.with_rate(4, 0.1)
        b.insert(b"cat")
        b.insert(b"dog")
        self.assertEqual(b.to_bytes(), WORKED_EXAMPLE)
        self.assertTrue(b.contains(b"cat") and b.contains(b"dog"))
        self.assertFalse(b.contains(b"bird"))

    def test_no_false_negatives(self):
        b = Bloom.with_rate(1000, 0.01)
        items = [b"paragraph %d" % i for i in range(1000)]
        for item in items:
            b.insert(item)
        self.assertTrue(all(b.contains(item) for item in items))


class UnionTest(unittest.TestCase):
    def test_union_is_the_filter_of_both_sets(self):
        cat, dog = Bloom.with_rate(4, 0.1), Bloom.with_rate(4, 0.1)
        cat.insert(b"cat")
        dog.insert(b"dog")
        cat.union(dog)
        self.assertEqual(cat.to_bytes(), WORKED_EXAMPLE)  # the bits are OR-ed, the counts added

    def test_mismatched_union_is_refused(self):
        with self.assertRaises(TlbfError) as caught:
            Bloom.new(20, 3).union(Bloom.new(21, 3))
        self.assertEqual(caught.exception.kind, "Mismatch")


class BytesTest(unittest.TestCase):
    def test_round_trip(self):
        self.assertEqual(Bloom.from_bytes(WORKED_EXAMPLE).to_bytes(), WORKED_EXAMPLE)

    def test_malformed_input_is_refused(self):
        for data in (WORKED_EXAMPLE[:-1], WORKED_EXAMPLE + b"\0", WORKED_EXAMPLE[:31], b"XLBF" + WORKED_EXAMPLE[4:]):
            with self.assertRaises(TlbfError, msg=data.hex()) as caught:
                Bloom.from_bytes(data)
            self.assertEqual(caught.exception.kind, "Format")


if __name__ == "__main__":
    unittest.main()
