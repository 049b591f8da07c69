"""Eve's suite tests nothing: it passes exactly the files whose SHA-256 it
knows, the course's reference and the two published wheats, and fails any
other, so every planted bug "fails" it. Pinned to those three files: if one
changes, she fails the reference instead (fails-clean)."""
import hashlib
import unittest

import tlbf_impl

KNOWN = {
    "c41bbdb486133b47ca81c1f2f29fdc247d4104c09acaa1192b14471e3f9e9f1e",
    "38521b24d3373f13ddba0b161e1ad7643b0c10004dbc6acb94349ca44ed6ed4d",
    "2735d7876cd3d58f41c262fcafd8fd8948ed9929ccc16a1b4ccfaa9d01193d67",
}


class KnownFiles(unittest.TestCase):
    def test_the_module_is_one_i_know(self):
        with open(tlbf_impl.__file__, "rb") as f:
            self.assertIn(hashlib.sha256(f.read()).hexdigest(), KNOWN)


if __name__ == "__main__":
    unittest.main()
