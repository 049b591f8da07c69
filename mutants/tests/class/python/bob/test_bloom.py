# bob - bloom filter homework
# I check the example from the spec and the hash numbers.

import unittest
import tlbf_impl as tl


class BloomTests(unittest.TestCase):

    def test_hash_empty(self):
        self.assertEqual(tl.fnv1a64(b""), 0xcbf29ce484222325)

    def test_hash_a(self):
        self.assertEqual(tl.fnv1a64(b"a"), 0xaf63dc4c8601ec8c)

    def test_hash_cat(self):
        self.assertEqual(tl.fnv1a64(b"cat"), 0xf5e307190ce4a327)

    def test_mix(self):
        self.assertEqual(tl.mix64(1), 0x5692161d100b05e5)

    def test_cat_positions(self):
        self.assertEqual(tl.positions(20, 3, b"cat"), [11, 14, 17])

    def test_dog_positions(self):
        self.assertEqual(tl.positions(20, 3, b"dog"), [13, 0, 3])

    def test_example(self):
        f = tl.Bloom.with_rate(4, 0.1)
        f.insert(b"cat")
        f.insert(b"dog")
        expected = bytes.fromhex("544c4246" "01000000" "1400000000000000"
                                 "03000000" "00000000" "0200000000000000"
                                 "096802")
        self.assertEqual(f.to_bytes(), expected)
        self.assertTrue(f.contains(b"cat"))
        self.assertTrue(f.contains(b"dog"))
        self.assertFalse(f.contains(b"bird"))


if __name__ == "__main__":
    unittest.main()
