"""Bob: hash values and the positions of the worked example, nothing more."""
import unittest

from tlbf_client import Impl


class Hashes(unittest.TestCase):
    def test_fnv1a64(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("fnv1a64 636174"), "ok f5e307190ce4a327")

    def test_mix64(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("mix64 f5e307190ce4a327"), "ok abc55d317f9d6792")

    def test_positions(self):
        with Impl() as impl:
            self.assertEqual(impl.ask("positions_for 20 3 636174"), "ok 11 14 17")


if __name__ == "__main__":
    unittest.main()
