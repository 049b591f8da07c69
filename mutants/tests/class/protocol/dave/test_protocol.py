"""Dave: checks the format's constants by hand and never starts the implementation."""
import unittest


class Constants(unittest.TestCase):
    def test_header_is_32_bytes(self):
        self.assertEqual(4 + 4 + 8 + 8 + 8, 32)

    def test_fnv_offset_basis(self):
        self.assertEqual(0xCBF29CE484222325, 14695981039346656037)


if __name__ == "__main__":
    unittest.main()
