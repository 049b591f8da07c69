"""Heidi - tests for the TLBF Bloom filter.

I developed these against my own copy of tlbf_impl.py (in this folder), but
they only use what the spec defines, so they should pass against any correct
implementation. Expected numbers are from docs/format.md.
"""
import unittest

from tlbf_impl import Bloom, TlbfError, fnv1a64, mix64, optimal_k, optimal_m, positions


def spec_file(m_bytes, k_bytes, count, bits_hex):
    return b"TLBF" + (1).to_bytes(4, "little") + m_bytes + k_bytes + bytes(4) + count.to_bytes(8, "little") + bytes.fromhex(bits_hex)


M20 = (20).to_bytes(8, "little")
K3 = (3).to_bytes(4, "little")
CAT_DOG = spec_file(M20, K3, 2, "096802")  # section 6
CAT_ONLY = spec_file(M20, K3, 1, "004802")  # bits 11, 14, 17 -> byte1 = 8 + 64, byte2 = 2
DOG_ONLY = spec_file(M20, K3, 1, "092000")  # bits 0, 3, 13 -> byte0 = 1 + 8, byte1 = 32


class HashingTests(unittest.TestCase):
    def test_offset_basis(self):
        self.assertEqual(fnv1a64(b""), 0xCBF29CE484222325)

    def test_published(self):
        self.assertEqual(fnv1a64(b"a"), 0xAF63DC4C8601EC8C)
        self.assertEqual(fnv1a64(b"foobar"), 0x85944171F73967E8)

    def test_h2_values_from_table(self):
        self.assertEqual(mix64(0xCAAF3B18F47478E9) | 1, 0x82E76F0678A0C26F)  # dog
        self.assertEqual(mix64(0xDEEC1C9BD0D98672) | 1, 0x74EC5C2BA1867951)  # bird


class ProbeTests(unittest.TestCase):
    def test_table(self):
        self.assertEqual(positions(20, 3, b"dog"), [13, 0, 3])
        self.assertEqual(positions(20, 3, b"bird"), [14, 7, 16])

    def test_odd_step_covers_power_of_two(self):
        for i in range(100):
            with self.subTest(i=i):
                self.assertEqual(len(set(positions(16, 16, i.to_bytes(2, "big")))), 16)


class SizingTests(unittest.TestCase):
    def test_m(self):
        self.assertEqual(optimal_m(4, 0.1), 20)
        self.assertEqual(optimal_m(10, 1e-6), 288)

    def test_k(self):
        self.assertEqual(optimal_k(20, 4), 3)
        self.assertEqual(optimal_k(288, 10), 20)   # 19.96
        self.assertEqual(optimal_k(8, 3), 2)       # 1.848

    def test_with_rate_header(self):
        blob = Bloom.with_rate(10, 1e-6).to_bytes()
        self.assertEqual(int.from_bytes(blob[8:16], "little"), 288)
        self.assertEqual(int.from_bytes(blob[16:20], "little"), 20)
        self.assertEqual(len(blob), 32 + 36)


class FilterTests(unittest.TestCase):
    def setUp(self):
        self.f = Bloom.with_rate(4, 0.1)

    def test_cat(self):
        self.f.insert(b"cat")
        self.assertEqual(self.f.to_bytes(), CAT_ONLY)
        self.assertEqual(self.f.count_ones(), 3)

    def test_dog(self):
        self.f.insert(b"dog")
        self.assertEqual(self.f.to_bytes(), DOG_ONLY)

    def test_both(self):
        self.f.insert(b"cat")
        self.f.insert(b"dog")
        self.assertEqual(self.f.to_bytes(), CAT_DOG)
        self.assertFalse(self.f.contains(b"bird"))

    def test_inserted_are_found(self):
        items = [bytes([i, i ^ 0x5A]) for i in range(200)]
        g = Bloom.with_rate(200, 0.05)
        for it in items:
            g.insert(it)
        for it in items:
            self.assertTrue(g.contains(it), it)


class UnionTests(unittest.TestCase):
    def test_cat_union_dog(self):
        a = Bloom.from_bytes(CAT_ONLY)
        a.union(Bloom.from_bytes(DOG_ONLY))
        self.assertEqual(a.to_bytes(), CAT_DOG)

    def test_empty_union_keeps(self):
        a = Bloom.from_bytes(CAT_ONLY)
        a.union(Bloom.new(20, 3))
        self.assertEqual(a.to_bytes(), CAT_ONLY)

    def test_different_shape(self):
        with self.assertRaises(TlbfError) as cm:
            Bloom.new(20, 3).union(Bloom.new(20, 5))
        self.assertEqual(cm.exception.kind, "Mismatch")


class ParseTests(unittest.TestCase):
    def assertRefused(self, blob):
        with self.assertRaises(TlbfError) as cm:
            Bloom.from_bytes(blob)
        self.assertEqual(cm.exception.kind, "Format")

    def test_round_trip(self):
        for blob in (CAT_ONLY, DOG_ONLY, CAT_DOG):
            self.assertEqual(Bloom.from_bytes(blob).to_bytes(), blob)

    def test_length_must_match(self):
        self.assertRefused(CAT_DOG[:-1])
        self.assertRefused(CAT_DOG + b"\x00")
        self.assertRefused(DOG_ONLY[:-1])  # dropping a zero byte

    def test_header(self):
        self.assertRefused(b"")
        self.assertRefused(b"BLTF" + CAT_DOG[4:])
        self.assertRefused(CAT_DOG[:8] + bytes(8) + CAT_DOG[16:])  # m = 0


if __name__ == "__main__":
    unittest.main()
