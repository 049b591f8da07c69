"""Carol -- unit tests for tlbf_impl (TLBF v1).

I went through docs/format.md section by section and wrote a test for every
"Decision" box too, since those are the parts people get wrong.
"""
import unittest

import tlbf_impl

EXAMPLE = bytes.fromhex(
    "544c4246 01000000 1400000000000000 03000000 00000000 0200000000000000 096802".replace(" ", "")
)
U64_MAX = 2 ** 64 - 1
U32_MAX = 2 ** 32 - 1


def count_field(blob):
    return int.from_bytes(blob[24:32], "little")


class Section2Hashing(unittest.TestCase):
    def test_fnv1a(self):
        cases = {
            b"": 0xCBF29CE484222325,
            b"a": 0xAF63DC4C8601EC8C,
            b"cat": 0xF5E307190CE4A327,
            b"dog": 0xCAAF3B18F47478E9,
        }
        for data, want in cases.items():
            with self.subTest(data=data):
                self.assertEqual(tlbf_impl.fnv1a64(data), want)

    def test_mix64(self):
        self.assertEqual(tlbf_impl.mix64(0), 0)
        self.assertEqual(tlbf_impl.mix64(1), 0x5692161D100B05E5)


class Section3Positions(unittest.TestCase):
    def test_table(self):
        table = {b"cat": [11, 14, 17], b"dog": [13, 0, 3], b"bird": [14, 7, 16]}
        for item, want in table.items():
            with self.subTest(item=item):
                self.assertEqual(tlbf_impl.positions(20, 3, item), want)

    def test_power_of_two_m_gives_distinct_probes(self):
        # h2 is odd, so on m = 4 with k = 4 every bit gets hit once
        for i in range(64):
            with self.subTest(i=i):
                self.assertEqual(sorted(tlbf_impl.positions(4, 4, str(i).encode())), [0, 1, 2, 3])


class Section4And6Bits(unittest.TestCase):
    def test_example_file(self):
        f = tlbf_impl.Bloom.with_rate(4, 0.1)
        for w in (b"cat", b"dog"):
            f.insert(w)
        self.assertEqual(f.to_bytes(), EXAMPLE)
        self.assertEqual(f.count_ones(), 6)

    def test_bird_absent(self):
        f = tlbf_impl.Bloom.from_bytes(EXAMPLE)
        self.assertFalse(f.contains(b"bird"))
        self.assertTrue(f.contains(b"dog"))

    def test_one_item_sets_k_bits(self):
        f = tlbf_impl.Bloom.new(4096, 5)
        f.insert(b"unique")
        self.assertEqual(f.count_ones(), 5)


class Section7Sizing(unittest.TestCase):
    ROWS = [(4, 0.1, 20, 3), (1000, 0.01, 9586, 7), (100, 0.001, 1438, 10), (3, 0.3, 8, 2)]

    def test_rows(self):
        for n, p, m, k in self.ROWS:
            with self.subTest(n=n, p=p):
                self.assertEqual(tlbf_impl.optimal_m(n, p), m)
                self.assertEqual(tlbf_impl.optimal_k(m, n), k)

    # Decision: the conversions saturate like Rust's `as`.
    def test_optimal_m_saturates(self):
        self.assertEqual(tlbf_impl.optimal_m(0, 0.5), 0)
        self.assertEqual(tlbf_impl.optimal_m(10, 0.0), U64_MAX)

    def test_optimal_k_saturates(self):
        self.assertEqual(tlbf_impl.optimal_k(10, 0), U32_MAX)
        self.assertEqual(tlbf_impl.optimal_k(0, 0), 1)


class Section5And8Constructors(unittest.TestCase):
    def expect(self, kind, fn, *args):
        with self.assertRaises(tlbf_impl.TlbfError) as cm:
            fn(*args)
        self.assertEqual(cm.exception.kind, kind)

    def test_bad_m(self):
        self.expect("BadParams", tlbf_impl.Bloom.new, 0, 3)

    # Decision: k is at most 65536.
    def test_k_above_max(self):
        self.expect("BadParams", tlbf_impl.Bloom.new, 8, 70000)

    def test_bad_rate(self):
        self.expect("BadParams", tlbf_impl.Bloom.with_rate, 0, 0.5)
        self.expect("BadParams", tlbf_impl.Bloom.with_rate, 5, 1.5)


class Section9Union(unittest.TestCase):
    def test_union_is_example(self):
        a = tlbf_impl.Bloom.with_rate(4, 0.1)
        b = tlbf_impl.Bloom.with_rate(4, 0.1)
        a.insert(b"cat")
        b.insert(b"dog")
        a.union(b)
        self.assertEqual(a.to_bytes(), EXAMPLE)

    # Decision: counts saturate at 2^64 - 1.
    def test_counts_saturate(self):
        big = EXAMPLE[:24] + U64_MAX.to_bytes(8, "little") + EXAMPLE[32:]
        a = tlbf_impl.Bloom.from_bytes(big)
        a.union(tlbf_impl.Bloom.from_bytes(EXAMPLE))
        self.assertEqual(count_field(a.to_bytes()), U64_MAX)

    def test_mismatch(self):
        with self.assertRaises(tlbf_impl.TlbfError) as cm:
            tlbf_impl.Bloom.new(20, 3).union(tlbf_impl.Bloom.new(20, 2))
        self.assertEqual(cm.exception.kind, "Mismatch")


class Section10FromBytes(unittest.TestCase):
    def test_round_trip(self):
        self.assertEqual(tlbf_impl.Bloom.from_bytes(EXAMPLE).to_bytes(), EXAMPLE)

    def test_rejects(self):
        bad = {
            "short": EXAMPLE[:20],
            "magic": b"tlbf" + EXAMPLE[4:],
            "reserved": EXAMPLE[:20] + b"\x01\x00\x00\x00" + EXAMPLE[24:],
            "one byte missing": EXAMPLE[:-1],
            "one byte extra": EXAMPLE + b"\x00",
            "padding": EXAMPLE[:-1] + b"\x82",
        }
        for why, blob in bad.items():
            with self.subTest(why):
                with self.assertRaises(tlbf_impl.TlbfError) as cm:
                    tlbf_impl.Bloom.from_bytes(blob)
                self.assertEqual(cm.exception.kind, "Format")


if __name__ == "__main__":
    unittest.main()
