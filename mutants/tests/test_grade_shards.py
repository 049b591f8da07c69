"""Tests of a class graded over a CI matrix (docs/mutants.md, "A class over a
CI matrix"): `tlbf grade --shard K/N` grades the learners of one shard, and
`tlbf grade --merge` makes the class of the shards' outputs, refusing shards
that are not one class's.

The class merged to the same class.json as one run is four learners of the
Python class (alice meets, bob is short, ivan fails the reference, nobody
handed in nothing), without chaffs and with one run a mutant: seconds a
grading. The refusals need no grading: their classes are learners who
handed in nothing, graded in an instant.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. TLBF_REPORT_SCHEMA=unused \\
        python3 mutants/tests/test_grade_shards.py
"""
import json
import os
import shutil
import subprocess
import unittest
import xml.etree.ElementTree as ET

from test_grade import CLASSES, SOURCE, TLBF, Grading

QUICK = ["--chaffs", "none", "--confirm-runs", "1", "-j", "2"]


def load(path):
    with open(path) as f:
        return json.load(f)


def shard_of(names, k, n):
    """The documented split, written again here: names in byte order, the i-th (from 0) in shard i mod n + 1."""
    ordered = sorted(names, key=lambda name: name.encode())
    return [name for i, name in enumerate(ordered) if i % n == k - 1]


class GradeInShards(Grading):
    kind = "python"

    def class_of(self, learners, name="class"):
        """A class folder of the Python class's learners under new names ({new: old}; None: handed in nothing)."""
        class_dir = os.path.join(self.dir, name)
        os.mkdir(class_dir)
        for new, old in learners.items():
            if old is None:
                os.mkdir(os.path.join(class_dir, new))
            else:
                shutil.copytree(os.path.join(CLASSES, "python", old), os.path.join(class_dir, new))
        return class_dir

    def merge(self, *args):
        return subprocess.run([TLBF, "grade", "--merge", *args], capture_output=True, text=True, env=self.env,
                              timeout=600)

    def shards(self, class_dir, n, *options, prefix="shard"):
        outs = []
        for k in range(1, n + 1):
            out = os.path.join(self.dir, "%s-%d" % (prefix, k))
            r = self.grade(class_dir, out, *options, "--shard", "%d/%d" % (k, n))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            outs.append(out)
        return outs

    def test_three_shards_merge_to_the_same_class_as_one_run(self):
        names = ["alice", "bob", "ivan", "nobody"]
        class_dir = self.class_of({"alice": "alice", "bob": "bob", "ivan": "ivan", "nobody": None})
        whole = os.path.join(self.dir, "whole")
        r = self.grade(class_dir, whole, *QUICK)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        one_run = load(os.path.join(whole, "class.json"))
        # The verdicts the class's expected.json gives, checked by hand.
        self.assertEqual({l["name"]: l["verdict"] for l in one_run["learners"]},
                         {"alice": "meets", "bob": "short", "ivan": "fails-clean", "nobody": "no-tests"})
        self.assertIsNone(one_run["shard"])
        outs = self.shards(class_dir, 3, *QUICK)
        for k, out in enumerate(outs, 1):
            shard = load(os.path.join(out, "class.json"))
            self.assertEqual(shard["shard"], {"k": k, "n": 3, "class_learners": 4})
            self.assertEqual([l["name"] for l in shard["learners"]], shard_of(names, k, 3))
            self.assertEqual(shard["grading"], one_run["grading"])
        merged = os.path.join(self.dir, "merged")
        junit = os.path.join(self.dir, "grades.xml")
        # Given in another order than 1, 2, 3: the merge puts the learners in name order.
        r = self.merge(outs[2], outs[0], outs[1], "-o", merged, "--junit", junit)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # class.json holds no timings (a learner's report does): the two are equal as they are,
        # each learner's replay with them: bob's four survivors answer his requests as the
        # reference does (test_grade.py), so they survive by replay, not by a run.
        self.assertEqual(load(os.path.join(merged, "class.json")), one_run)
        replay = {l["name"]: l["replay"] for l in one_run["learners"]}
        self.assertEqual(replay["bob"], {"enabled": True, "deterministic": True, "difference": None,
                                         "replayed": ["s04", "s05", "s08", "s09"]})
        self.assertIsNone(replay["nobody"])
        self.assertIn("merged 3 shards of 4 learners", r.stdout)
        whole_table = subprocess.run([TLBF, "grade", "--kind", "python", class_dir, "-o", whole, *QUICK],
                                     capture_output=True, text=True, env=self.env, timeout=600).stdout
        self.assertEqual(r.stdout.split("\n\n", 1)[1].replace(merged, whole), whole_table)
        # Every learner's report and page came along, as the class page links to them.
        for learner in one_run["learners"]:
            if learner["report"]:
                self.assertTrue(os.path.isfile(os.path.join(merged, learner["report"])), learner)
                report = load(os.path.join(merged, "learners", learner["name"] + ".json"))
                self.assertEqual(report["config"]["learner"]["verdict"], learner["verdict"])
        cases = ET.parse(junit).getroot().findall("testsuite/testcase")
        self.assertEqual(sorted(c.get("name") for c in cases), names)
        # The merge ends as one run would: 9 with --fail-unless-all-meet, some learner short of the bar.
        r = self.merge(*outs, "-o", merged, "--fail-unless-all-meet")
        self.assertEqual(r.returncode, 9, r.stdout + r.stderr)

    def test_a_merge_refuses_shards_that_are_not_one_class(self):
        class_dir = self.class_of({name: None for name in ("ann", "ben", "cid", "dee")})
        s1, s2, s3 = self.shards(class_dir, 3)
        refused = os.path.join(self.dir, "refused")
        for shards, why in (([s1, s2], "shard 3/3 is missing: the class needs every shard of 1..3 (given: 1/3, 2/3)"),
                            ([s1], "shards 2/3, 3/3 are missing"),
                            ([s1, s2, s1, s3], "are both shard 1/3; give each shard once")):
            r = self.merge(*shards, "-o", refused)
            self.assertEqual(r.returncode, 2, (shards, r.stdout, r.stderr))
            self.assertIn(why, r.stderr)
            self.assertFalse(os.path.exists(os.path.join(refused, "class.json")))
        # A shard's class.json that says it is another shard: its learner is then in two.
        twice = os.path.join(self.dir, "twice")
        shutil.copytree(s1, twice)
        self.rewrite(twice, lambda c: c["shard"].update(k=2))
        r = self.merge(s1, twice, s3, "-o", refused)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("learner 'ann' is graded in both %s/class.json and %s/class.json" % (s1, twice), r.stderr)
        # Another tlbf's shard.
        other = os.path.join(self.dir, "other-tlbf")
        shutil.copytree(s2, other)
        self.rewrite(other, lambda c: c["grading"].update(tlbf="0.0.1"))
        r = self.merge(s1, other, s3, "-o", refused)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("were graded with different tlbf versions (0.0.1 and", r.stderr)
        # A shard graded with other options: a threshold of its own.
        (t2,) = [o for k, o in enumerate(self.shards(class_dir, 3, "--threshold", "0.9", prefix="t"), 1) if k == 2]
        r = self.merge(s1, t2, s3, "-o", refused)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("were graded with different options", r.stderr)
        self.assertIn("threshold=0.9", r.stderr)
        # Shards of another split, and of another class (a learner more).
        r = self.merge(s1, s2, self.shards(class_dir, 4, prefix="four")[2], "-o", refused)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("is shard 3/4 of a class of 4", r.stderr)
        bigger = self.class_of({name: None for name in ("ann", "ben", "cid", "dee", "eve")}, "bigger")
        r = self.merge(s1, s2, self.shards(bigger, 3, prefix="bigger")[2], "-o", refused)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("of a class of 5", r.stderr)
        # A whole class's output is no shard; an option of a grading has no place in a merge.
        whole = os.path.join(self.dir, "whole")
        self.assertEqual(self.grade(class_dir, whole).returncode, 0)
        r = self.merge(whole, s1, "-o", refused)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("is a whole class's class.json, not a shard's", r.stderr)
        r = subprocess.run([TLBF, "grade", "--kind", "python", "--merge", s1, s2, s3, "-o", refused],
                           capture_output=True, text=True, env=self.env, timeout=600)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--kind belongs to a grading, not a merge", r.stderr)
        # A folder with no class.json cannot be read: 3, and it is named.
        r = self.merge(s1, s2, os.path.join(self.dir, "no-such-shard"), "-o", refused)
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        self.assertIn("no-such-shard/class.json", r.stderr)
        # Into a shard's own folder, which it would write over.
        r = self.merge(s1, s2, s3, "-o", s2)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("is one of the shards", r.stderr)
        # The three as they are merge.
        r = self.merge(s1, s2, s3, "-o", refused)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def rewrite(self, out, change):
        path = os.path.join(out, "class.json")
        summary = load(path)
        change(summary)
        with open(path, "w") as f:
            json.dump(summary, f)

    def test_a_kit_s_digest_is_of_its_files_not_its_place_and_a_shard_may_be_empty(self):
        # Two learners in three shards: shard 3/3 holds nobody and still says so.
        class_dir = self.class_of({"ann": None, "ben": None})
        kit = load(os.path.join(SOURCE, "mutants/kits/python/kit.json"))
        here = os.path.join(SOURCE, "mutants/kits/python")
        for key in ("reference", "chaffs", "wheats"):
            kit[key] = os.path.normpath(os.path.join(here, kit[key]))
        for key in ("from", "mutants"):
            kit["variants"][key] = os.path.normpath(os.path.join(here, kit["variants"][key]))
        outs = []
        for k, suite in ((1, kit["suite"]), (2, kit["suite"]), (3, ["python3", "-B"] + kit["suite"][1:])):
            path = os.path.join(self.dir, "kit-%d.json" % k)
            with open(path, "w") as f:
                json.dump(dict(kit, suite=suite), f)
            out = os.path.join(self.dir, "kit-shard-%d" % k)
            r = subprocess.run([TLBF, "grade", "--kit", path, class_dir, "-o", out, "--shard", "%d/3" % k],
                               capture_output=True, text=True, env=self.env, timeout=600)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            outs.append(out)
        empty = load(os.path.join(outs[2], "class.json"))
        self.assertEqual((empty["learners"], empty["shard"]), ([], {"k": 3, "n": 3, "class_learners": 2}))
        # The bundled kit, read from its own folder, has the digest of the copy read from elsewhere.
        bundled = self.shards(class_dir, 3)
        self.assertEqual(load(os.path.join(bundled[0], "class.json"))["grading"]["kit"],
                         load(os.path.join(outs[0], "class.json"))["grading"]["kit"])
        r = self.merge(bundled[0], outs[1], bundled[2], "-o", os.path.join(self.dir, "mixed"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # Another suite command is another kit.
        r = self.merge(*outs, "-o", os.path.join(self.dir, "refused"))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("were graded with different kits (kit digest", r.stderr)
        # --shard must be K/N with 1 <= K <= N.
        for bad in ("0/3", "4/3", "1/0", "1", "a/b", "1/3/3"):
            r = self.grade(class_dir, os.path.join(self.dir, "bad"), "--shard", bad)
            self.assertEqual(r.returncode, 2, (bad, r.stdout, r.stderr))
            self.assertIn("--shard wants K/N", r.stderr)


    def test_the_documented_workflow_grades_in_shards_and_merges(self):
        """docs/mutants.md's GitHub Actions workflow: valid YAML, a matrix whose jobs' commands, run here
        as the runner would, make the shards its merge job reads."""
        import yaml  # python3-yaml, Debian's
        with open(os.path.join(SOURCE, "docs/mutants.md")) as f:
            doc = f.read()
        block = doc[doc.index("```\nname: grade\n") + 4:]
        workflow = yaml.safe_load(block[:block.index("```")])
        shard_job, class_job = workflow["jobs"]["shard"], workflow["jobs"]["class"]
        self.assertEqual(class_job["needs"], "shard")
        shards = shard_job["strategy"]["matrix"]["shard"]
        runs = [step["run"] for step in shard_job["steps"] if "run" in step and "tlbf grade" in step["run"]]
        self.assertEqual(len(runs), 1, runs)
        uploads = [step["with"] for step in shard_job["steps"] if step.get("uses", "").startswith("actions/upload-artifact")]
        merges = [step["run"] for step in class_job["steps"] if "run" in step and "--merge" in step["run"]]
        self.assertEqual(len(merges), 1, merges)
        # The course's class folder: learners who handed in nothing, graded in an instant.
        self.class_of({name: None for name in ("ann", "ben", "cid", "dee", "eve")})
        for k in shards:
            command = runs[0].replace("${{ matrix.shard }}", str(k))
            r = subprocess.run(command.replace("tlbf", TLBF, 1), shell=True, capture_output=True, text=True,
                               env=self.env, cwd=self.dir, timeout=600)
            self.assertEqual(r.returncode, 0, (command, r.stdout, r.stderr))
            # What the job uploads is the folder it wrote, under the name the merge job reads it by.
            self.assertEqual(uploads[0]["path"].replace("${{ matrix.shard }}", str(k)),
                             uploads[0]["name"].replace("${{ matrix.shard }}", str(k)))
            folder = os.path.join(self.dir, uploads[0]["path"].replace("${{ matrix.shard }}", str(k)))
            self.assertTrue(os.path.isfile(os.path.join(folder, "class.json")), folder)
        r = subprocess.run(merges[0].replace("tlbf", TLBF, 1), shell=True, capture_output=True, text=True,
                           env=self.env, cwd=self.dir, timeout=600)
        # Nobody handed in anything, so with --fail-unless-all-meet: 9, the class written all the same.
        self.assertEqual(r.returncode, 9, r.stdout + r.stderr)
        self.assertEqual(len(load(os.path.join(self.dir, "grades", "class.json"))["learners"]), 5)
        self.assertTrue(os.path.isfile(os.path.join(self.dir, "grades.xml")))
        self.assertIn("merged %d shards of 5 learners" % len(shards), r.stdout)


if __name__ == "__main__":
    unittest.main()
