"""The catalog of planted bugs (mutants/catalog.json) is the one place their
ids and descriptions are written; these tests fail when the repository
drifts from it: a patch without a catalog entry or an entry without a patch,
a patch that changes another file, no longer applies or repeats the
description, a switch in the oracle the catalog does not know or counts
wrongly, the oracle's enum of ids out of step.

    TLBF_SOURCE_DIR=. python3 mutants/tests/test_catalog.py
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.environ.get("TLBF_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def read(path):
    with open(os.path.join(SOURCE, path)) as f:
        return f.read()


CATALOG = json.loads(read("mutants/catalog.json"))
IDS = [m["id"] for m in CATALOG["mutants"]]


class Catalog(unittest.TestCase):
    def test_ids_are_unique_and_described(self):
        self.assertEqual(len(IDS), len(set(IDS)), IDS)
        for m in CATALOG["mutants"]:
            self.assertRegex(m["id"], r"^s\d\d$")
            self.assertTrue(m["description"].strip(), m["id"])

    def test_every_patch_set_holds_one_patch_per_bug_and_no_other(self):
        for name, patch_set in CATALOG["patch_sets"].items():
            found = sorted(os.path.basename(p)[:-len(".patch")]
                           for p in glob.glob(os.path.join(SOURCE, patch_set["dir"], "*.patch")))
            self.assertEqual(found, sorted(IDS), "%s: %s holds patches for %s, the catalog names %s"
                             % (name, patch_set["dir"], found, IDS))

    def test_each_patch_changes_its_file_applies_and_leaves_the_description_to_the_catalog(self):
        for name, patch_set in CATALOG["patch_sets"].items():
            for id in IDS:
                path = os.path.join(patch_set["dir"], id + ".patch")
                text = read(path)
                self.assertTrue(text.startswith("--- "), "%s has a preamble: its description is the catalog's" % path)
                self.assertEqual(re.findall(r"^\+\+\+ [^/\n]+/(\S+)", text, re.M), [patch_set["file"]], path)
                with tempfile.TemporaryDirectory() as copy:
                    os.makedirs(os.path.dirname(os.path.join(copy, patch_set["file"])), exist_ok=True)
                    shutil.copy(os.path.join(SOURCE, patch_set["workdir"], patch_set["file"]),
                                os.path.join(copy, patch_set["file"]))
                    applied = subprocess.run(["patch", "-p1", "--batch", "--forward", "-i", os.path.join(SOURCE, path)],
                                             cwd=copy, capture_output=True, text=True)
                    self.assertEqual(applied.returncode, 0, "%s does not apply: %s" % (path, applied.stdout))
            self.assertTrue(os.path.isfile(os.path.join(SOURCE, patch_set["sanity"])), patch_set["sanity"])

    def test_the_oracle_has_the_catalogs_switches_and_no_other(self):
        counts = {}
        for path in glob.glob(os.path.join(SOURCE, "oracle", "**", "*.[ch]pp"), recursive=True):
            if path.endswith("mutant_switch.hpp"):
                continue  # defines the macro
            for id in re.findall(r"TLBF_MUTANT\((s\d\d)\)", open(path).read()):
                counts[id] = counts.get(id, 0) + 1
        self.assertEqual(counts, {m["id"]: m["oracle"]["places"] for m in CATALOG["mutants"]})
        for m in CATALOG["mutants"]:
            self.assertIn(m["oracle"]["switch"], read(m["oracle"]["file"]), m["id"])

    def test_the_oracles_enum_of_ids_is_the_catalogs(self):
        # Generated from the catalog at configure time (oracle/CMakeLists.txt);
        # no source file of the oracle writes the ids or their number again.
        with open(os.environ["TLBF_MUTANT_IDS_HEADER"]) as f:
            generated = f.read()
        enum = re.search(r"enum class Id \{ none, ([^}]*) \};", generated)
        self.assertEqual([w.strip() for w in enum.group(1).split(",")], IDS)
        self.assertIn(f"kCount = {len(IDS)};", generated)
        self.assertNotIn("enum class Id", read("oracle/include/tlbf/mutant_switch.hpp"))
        self.assertNotRegex(read("oracle/src/mutants.cpp"), r"<= *\d|s01 *\.\.")

    def test_no_source_writes_the_range_of_ids_again(self):
        # Help texts and messages take the range from the catalog (mutants::id_range()).
        first_last = re.compile(re.escape(IDS[0]) + r" ?\.\. ?" + re.escape(IDS[-1]))
        for path in glob.glob(os.path.join(SOURCE, "cli", "src", "*.cpp")) + \
                glob.glob(os.path.join(SOURCE, "oracle", "src", "*.cpp")):
            self.assertIsNone(first_last.search(open(path).read()), path)

    def test_the_mutant_build_takes_every_catalog_id_and_refuses_any_other(self):
        binary = os.environ["TLBF_MUTANT_BINARY"]
        for id in IDS + ["s00", f"s{len(IDS) + 1:02d}", "S01", "s1"]:
            r = subprocess.run([binary], input="hello\n", capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, TLBF_MUTANT=id))
            if id in IDS:
                self.assertEqual(r.returncode, 0, id + ": " + r.stderr)
                self.assertTrue(r.stdout.startswith("ok 1 "), id + ": " + r.stdout)
            else:
                self.assertEqual(r.returncode, 2, id)
                self.assertIn("names no mutant; use one of " + " ".join(IDS), r.stderr)


if __name__ == "__main__":
    unittest.main()
