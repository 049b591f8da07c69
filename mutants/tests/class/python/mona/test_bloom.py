"""Mona's tests for the TLBF v1 Bloom filter (tlbf_impl.py): alice's, and one more.

The one more is over-specified: optimal_m(0, 0.5) must be 0, as the reference
answers, or raise BadParams, as I would have written it. docs/check.md
(OutOfDomain) accepts any u64 there too, and so must a suite.

Expected values are from the spec (docs/format.md): the worked example in
section 6, the hand hash values in section 2, and the sizing table in section 7.
I only use the functions the spec names, and I read the filter's state back
through to_bytes() so the tests don't depend on how the module stores things.

Run: python3 -m unittest -q test_bloom
"""
import struct
import unittest

from tlbf_impl import (
    Bloom,
    TlbfError,
    fnv1a64,
    mix64,
    optimal_k,
    optimal_m,
    positions,
)

# with_rate(4, 0.1) after inserting b"cat" and b"dog" -- spec section 6, byte for byte
SPEC_FILE = bytes.fromhex(
    "544c4246"          # magic "TLBF"
    "01000000"          # version 1
    "1400000000000000"  # m = 20
    "03000000"          # k = 3
    "00000000"          # reserved
    "0200000000000000"  # n_inserted = 2
    "096802"            # bits 0,3 | 11,13,14 | 17
)


def header(blob):
    """(magic, version, m, k, reserved, n_inserted) of a TLBF file."""
    return struct.unpack_from("<4sIQIIQ", blob)


def bits_set(blob):
    """Which bit numbers are set in the body, counting from the LSB of byte 0."""
    body = blob[32:]
    return [g for g in range(len(body) * 8) if body[g // 8] >> (g % 8) & 1]


class TestHashing(unittest.TestCase):
    def test_fnv1a_empty_is_offset_basis(self):
        self.assertEqual(fnv1a64(b""), 0xCBF29CE484222325)

    def test_fnv1a_single_byte(self):
        # FNV-1 (multiply first) would give 0xaf63bd4c8601b7be here
        self.assertEqual(fnv1a64(b"a"), 0xAF63DC4C8601EC8C)

    def test_fnv1a_worked_example_items(self):
        self.assertEqual(fnv1a64(b"cat"), 0xF5E307190CE4A327)
        self.assertEqual(fnv1a64(b"dog"), 0xCAAF3B18F47478E9)
        self.assertEqual(fnv1a64(b"bird"), 0xDEEC1C9BD0D98672)

    def test_fnv1a_published_vector(self):
        # from the FNV test suite on isthe.com
        self.assertEqual(fnv1a64(b"foobar"), 0x85944171F73967E8)

    def test_mix64_spec_values(self):
        self.assertEqual(mix64(0), 0)
        self.assertEqual(mix64(1), 0x5692161D100B05E5)
        self.assertEqual(mix64(0x9E3779B97F4A7C15), 0xE220A8397B1DCDAF)


class TestSizing(unittest.TestCase):
    # (n, p, m, k) straight from the reference rows in section 7
    ROWS = [
        (4, 0.1, 20, 3),
        (1000, 0.01, 9586, 7),
        (100, 0.001, 1438, 10),
        (10, 1e-6, 288, 20),
        (1, 0.5, 2, 1),
        (3, 0.3, 8, 2),
    ]

    def test_optimal_m_rows(self):
        for n, p, m, _ in self.ROWS:
            with self.subTest(n=n, p=p):
                self.assertEqual(optimal_m(n, p), m)

    def test_optimal_k_rows(self):
        for n, _, m, k in self.ROWS:
            with self.subTest(m=m, n=n):
                self.assertEqual(optimal_k(m, n), k)

    def test_with_rate_uses_both(self):
        for n, p, m, k in self.ROWS:
            with self.subTest(n=n, p=p):
                _, _, got_m, got_k, _, count = header(Bloom.with_rate(n, p).to_bytes())
                self.assertEqual((got_m, got_k, count), (m, k, 0))

    def test_bad_with_rate_arguments(self):
        for n, p in [(0, 0.1), (10, 0.0), (10, 1.0), (10, -0.5)]:
            with self.subTest(n=n, p=p):
                with self.assertRaises(TlbfError) as cm:
                    Bloom.with_rate(n, p)
                self.assertEqual(cm.exception.kind, "BadParams")


class TestPositions(unittest.TestCase):
    def test_worked_example_positions(self):
        self.assertEqual(list(positions(20, 3, b"cat")), [11, 14, 17])
        self.assertEqual(list(positions(20, 3, b"dog")), [13, 0, 3])
        self.assertEqual(list(positions(20, 3, b"bird")), [14, 7, 16])

    def test_step_is_odd(self):
        # m = 2: the second probe lands on the other bit exactly when h2 is odd
        for i in range(100):
            item = b"word-%d" % i
            self.assertEqual(sorted(positions(2, 2, item)), [0, 1], item)

    def test_k_bits_for_one_item(self):
        f = Bloom.new(1 << 20, 7)
        f.insert(b"hello")
        self.assertEqual(f.count_ones(), 7)


class TestFilter(unittest.TestCase):
    def make_spec_filter(self):
        f = Bloom.with_rate(4, 0.1)
        f.insert(b"cat")
        f.insert(b"dog")
        return f

    def test_worked_example_bytes(self):
        self.assertEqual(self.make_spec_filter().to_bytes(), SPEC_FILE)

    def test_worked_example_bits(self):
        self.assertEqual(bits_set(self.make_spec_filter().to_bytes()), [0, 3, 11, 13, 14, 17])

    def test_membership(self):
        f = self.make_spec_filter()
        self.assertTrue(f.contains(b"cat"))
        self.assertTrue(f.contains(b"dog"))
        self.assertFalse(f.contains(b"bird"))  # bit 7 is clear

    def test_fresh_filter_is_all_zero(self):
        blob = Bloom.new(20, 3).to_bytes()
        self.assertEqual(blob, SPEC_FILE[:24] + bytes(8) + b"\x00\x00\x00")

    def test_no_false_negatives(self):
        f = Bloom.with_rate(500, 0.01)
        words = [b"w%04d" % i for i in range(500)]
        for w in words:
            f.insert(w)
        missing = [w for w in words if not f.contains(w)]
        self.assertEqual(missing, [])


class TestUnion(unittest.TestCase):
    def test_union_gives_worked_example(self):
        a = Bloom.with_rate(4, 0.1)
        b = Bloom.with_rate(4, 0.1)
        a.insert(b"cat")
        b.insert(b"dog")
        a.union(b)
        self.assertEqual(a.to_bytes(), SPEC_FILE)

    def test_union_adds_counts(self):
        a, b = Bloom.new(64, 2), Bloom.new(64, 2)
        for w in (b"x", b"y", b"z"):
            a.insert(w)
        b.insert(b"q")
        a.union(b)
        self.assertEqual(header(a.to_bytes())[5], 4)

    def test_union_with_itself_doubles_count_keeps_bits(self):
        f = Bloom.with_rate(4, 0.1)
        f.insert(b"cat")
        before = f.to_bytes()
        f.union(f)
        after = f.to_bytes()
        self.assertEqual(after[32:], before[32:])
        self.assertEqual(header(after)[5], 2)

    def test_mismatch(self):
        for other in (Bloom.new(21, 3), Bloom.new(20, 4)):
            with self.assertRaises(TlbfError) as cm:
                Bloom.new(20, 3).union(other)
            self.assertEqual(cm.exception.kind, "Mismatch")


class TestFromBytes(unittest.TestCase):
    def test_round_trip(self):
        self.assertEqual(Bloom.from_bytes(SPEC_FILE).to_bytes(), SPEC_FILE)

    def test_loaded_filter_answers(self):
        f = Bloom.from_bytes(SPEC_FILE)
        self.assertTrue(f.contains(b"cat"))
        self.assertFalse(f.contains(b"bird"))

    def assertFormatError(self, blob):
        with self.assertRaises(TlbfError) as cm:
            Bloom.from_bytes(blob)
        self.assertEqual(cm.exception.kind, "Format")

    def test_too_short(self):
        self.assertFormatError(SPEC_FILE[:31])

    def test_bad_magic(self):
        self.assertFormatError(b"TLBG" + SPEC_FILE[4:])

    def test_bad_version(self):
        self.assertFormatError(SPEC_FILE[:4] + b"\x02\x00\x00\x00" + SPEC_FILE[8:])

    def test_truncated_body(self):
        self.assertFormatError(SPEC_FILE[:-1])
        self.assertFormatError(SPEC_FILE[:-2])  # last byte 0x09 has no padding bits set

    def test_trailing_bytes(self):
        self.assertFormatError(SPEC_FILE + b"\x00")

    def test_padding_bit(self):
        # m = 20, so bits 4..7 of the last byte are padding
        self.assertFormatError(SPEC_FILE[:-1] + b"\x12")


class OutOfDomain(unittest.TestCase):
    def test_optimal_m_of_no_items(self):
        try:
            m = optimal_m(0, 0.5)
        except TlbfError as e:
            self.assertEqual(e.kind, "BadParams")
        else:
            self.assertEqual(m, 0)


if __name__ == "__main__":
    unittest.main()
