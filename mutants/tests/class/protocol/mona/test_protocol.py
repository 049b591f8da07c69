"""Mona: alice's tests, and one over-specified: optimal_m 0 0.5 must answer
ok 0 (the reference's answer) or err BadParams. docs/check.md (OutOfDomain)
accepts ok and any u64 there too."""
import unittest

from tlbf_client import Impl

# docs/format.md's worked example: with_rate(4, 0.1) gives m = 20, k = 3;
# "cat" and "dog" set six bits; the bytes below are the example's file.
EXAMPLE_BYTES = "544c424601000000140000000000000003000000000000000200000000000000096802"


class Hashing(unittest.TestCase):
    def test_fnv1a64_of_cat(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("fnv1a64 636174"), "ok f5e307190ce4a327")

    def test_fnv1a64_of_nothing_is_the_offset_basis(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("fnv1a64 -"), "ok cbf29ce484222325")

    def test_mix64(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("mix64 f5e307190ce4a327"), "ok abc55d317f9d6792")

    def test_positions_of_cat(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("positions_for 20 3 636174"), "ok 11 14 17")

    def test_the_step_is_odd(self):
        # h2 is forced odd, so with m = 2 the two probes always differ.
        with Impl() as impl:
            for b in range(32):
                response = impl.ask(f"positions_for 2 2 {b:02x}")
                self.assertIn(response, ("ok 0 1", "ok 1 0"), f"byte {b:02x}")


class Sizing(unittest.TestCase):
    def test_optimal_m_takes_the_ceiling(self):
        # 4 * ln 10 / ln^2 2 = 19.17..., so 20.
        with Impl() as impl:
            self.assertEqual(impl.ask("optimal_m 4 0.1"), "ok 20")

    def test_optimal_k_rounds(self):
        # 10 / 4 * ln 2 = 1.73..., rounds to 2 (truncating would give 1).
        with Impl() as impl:
            self.assertEqual(impl.ask("optimal_k 10 4"), "ok 2")
            self.assertEqual(impl.ask("optimal_k 20 4"), "ok 3")


class Filter(unittest.TestCase):
    def test_worked_example(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("with_rate f 4 0.1"), "ok")
            self.assertEqual(impl.ask("info f"), "ok 20 3 0")
            self.assertEqual(impl.ask("positions f 636174"), "ok 11 14 17")
            self.assertEqual(impl.ask("insert f 636174"), "ok")
            self.assertEqual(impl.ask("insert f 646f67"), "ok")
            self.assertEqual(impl.ask("contains f 636174"), "ok true")
            self.assertEqual(impl.ask("contains f 62697264"), "ok false")
            self.assertEqual(impl.ask("count_ones f"), "ok 6")
            self.assertEqual(impl.ask("to_bytes f"), "ok " + EXAMPLE_BYTES)

    def test_union_ors_bits_and_adds_counts(self):
        with Impl() as impl:
            impl.ask("new a 20 3")
            impl.ask("new b 20 3")
            impl.ask("insert a 636174")
            impl.ask("insert b 646f67")
            self.assertEqual(impl.ask("union a b"), "ok")
            self.assertEqual(impl.ask("info a"), "ok 20 3 2")
            self.assertEqual(impl.ask("contains a 636174"), "ok true")
            self.assertEqual(impl.ask("contains a 646f67"), "ok true")
            self.assertEqual(impl.ask("to_bytes a"), "ok " + EXAMPLE_BYTES)

    def test_union_of_different_sizes_is_a_mismatch(self):
        with Impl() as impl:
            impl.ask("new a 20 3")
            impl.ask("new b 24 3")
            self.assertEqual(impl.ask("union a b").split()[:2], ["err", "Mismatch"])


class Bytes(unittest.TestCase):
    def test_round_trip(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("from_bytes g " + EXAMPLE_BYTES), "ok")
            self.assertEqual(impl.ask("info g"), "ok 20 3 2")
            self.assertEqual(impl.ask("contains g 646f67"), "ok true")

    def test_a_short_bit_array_is_refused(self):
        # The header says m = 20 (3 bytes of bits); two are given.
        with Impl() as impl:
            self.assertEqual(impl.ask("from_bytes g " + EXAMPLE_BYTES[:-2]).split()[:2], ["err", "Format"])

    def test_a_long_bit_array_is_refused(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("from_bytes g " + EXAMPLE_BYTES + "00").split()[:2], ["err", "Format"])

    def test_a_bare_header_is_refused(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("from_bytes g 544c4246").split()[:2], ["err", "Format"])


class OutOfDomain(unittest.TestCase):
    def test_optimal_m_of_no_items(self):
        with Impl() as impl:
            self.assertIn(impl.ask("optimal_m 0 0.5").split(" ")[:2], (["ok", "0"], ["err", "BadParams"]))


if __name__ == "__main__":
    unittest.main()
