"""Tests of `tlbf grade` on autograder platforms (docs/mutants.md, "Grading
on a platform"): one submission graded as Gradescope, PrairieLearn and GitHub
Classroom run it, each result valid against a JSON Schema written from the
platform's published format (platform-schemas/), what each feedback level
shows the learner (never a chaff), and the packages an author uploads, run
end to end from an installed prefix in a folder laid out as the platform's
container.

The submissions are learners of the Python class (mutants/tests/class/python:
alice meets the bar, bob is short with s04 s05 s08 s09 surviving, carol
rejects the lenient wheat, ivan fails the reference; expected.json says so,
reasoned from each suite), and a learner who handed in no tests file. Each is graded once; the other
views of the same grading come from the reuse of its report (same -o, same
files and options), which takes no run of a suite.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. TLBF_BUILD_DIR=build/release CMAKE=cmake \\
        TLBF_REPORT_SCHEMA=unused python3 mutants/tests/test_grade_platforms.py
"""
import base64
import glob
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import jsonschema

from scratch_root import scratch_root
from test_grade import CLASSES, SOURCE, TLBF, Grading

QUICK = ["--chaffs", "none", "--confirm-runs", "1", "-j", "2"]
SCHEMAS = os.path.join(SOURCE, "mutants/tests/platform-schemas")
with open(os.path.join(CLASSES, "python", "expected.json")) as f:
    EXPECTED = json.load(f)
with open(os.path.join(SOURCE, "mutants/catalog.json")) as f:
    CATALOG = {m["id"]: m["description"] for m in json.load(f)["mutants"]}
ALL_IDS = sorted(CATALOG)
LEVELS = ["none", "score", "mutants", "all"]


def schema(name):
    with open(os.path.join(SCHEMAS, name + ".schema.json")) as f:
        return json.load(f)


def chaff_words():
    """What no learner may read of the Python kit's chaffs: each id, its
    description (the patch's first line) and every line it adds or removes."""
    words = set()
    for path in glob.glob(os.path.join(SOURCE, "mutants/chaffs/python/*.patch")):
        words.add(os.path.basename(path)[:-len(".patch")])
        with open(path) as f:
            lines = f.read().splitlines()
        words.add(lines[0])
        for line in lines:
            if line[:1] in "+-" and not line.startswith(("+++", "---")) and len(line[1:].strip()) > 8:
                words.add(line[1:].strip())
    return words


class Platforms(Grading):
    kind = "python"

    def submission(self, name, of):
        """A learner's folder: a copy of the class's learner `of`, or empty when None."""
        folder = os.path.join(self.dir, "subs", name)
        if of is None:
            os.makedirs(folder)
        else:
            shutil.copytree(os.path.join(CLASSES, "python", of), folder)
        return folder

    def results(self, folder, out, tag, *options):
        """Grades `folder` (or reuses its report in `out`), writing every platform's
        result; returns the run and the three results, GitHub Classroom's decoded."""
        files = {p: os.path.join(self.dir, "%s-%s.json" % (tag, p)) for p in ("gs", "pl")}
        ghc = os.path.join(self.dir, tag + "-github-output")
        env = dict(self.env, GITHUB_OUTPUT=ghc)
        r = subprocess.run([TLBF, "grade", "--kind", "python", "--submission", folder, "-o", out,
                            "--gradescope", files["gs"], "--prairielearn", files["pl"], "--github-classroom",
                            *options], capture_output=True, text=True, env=env, timeout=3600)
        got = {}
        for p, path in files.items():
            with open(path) as f:
                got[p + "_text"] = f.read()
            got[p] = json.loads(got[p + "_text"])
        with open(ghc) as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("result="), lines)
        got["ghc_text"] = base64.b64decode(lines[0][len("result="):], validate=True).decode()
        got["ghc"] = json.loads(got["ghc_text"])
        for p, name in (("gs", "gradescope"), ("pl", "prairielearn"), ("ghc", "github-classroom")):
            jsonschema.validate(got[p], schema(name))
        return r, got

    def test_each_platform_result_of_a_strong_short_rejecting_and_two_ungradable_submissions(self):
        out = os.path.join(self.dir, "out")
        graded = {}
        for name, of in (("alice", "alice"), ("bob", "bob"), ("carol", "carol"), ("ivan", "ivan"),
                         ("nobody", None)):
            r, got = self.results(self.submission(name, of), out, name, *QUICK)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            graded[name] = got
        # alice meets the bar: all the points, everywhere.
        alice = graded["alice"]
        self.assertEqual((alice["gs"]["score"], alice["gs"]["max_score"]), (10, 10))
        self.assertEqual(alice["gs"]["tests"][0]["status"], "passed")
        self.assertEqual((alice["pl"]["gradable"], alice["pl"]["score"]), (True, 1.0))
        self.assertEqual(alice["ghc"]["status"], "pass")
        self.assertEqual((sum(t["score"] for t in alice["ghc"]["tests"]), alice["ghc"]["max_score"]), (10, 10))
        # bob is short: by the course's policy (all or nothing at the bar) no points; the
        # default feedback names the four survivors, each with its pitfall from the catalog.
        bob = graded["bob"]
        survivors = sorted(set(ALL_IDS) - set(EXPECTED["bob"]["killed"]))
        self.assertEqual(survivors, ["s04", "s05", "s08", "s09"])
        self.assertEqual((bob["gs"]["score"], bob["pl"]["score"], bob["pl"]["gradable"]), (0, 0.0, True))
        self.assertEqual(bob["ghc"]["status"], "fail")
        failed = sorted(t["name"][len("Planted bug "):][:3] for t in bob["gs"]["tests"][1:] if t["status"] == "failed")
        self.assertEqual(failed, survivors)
        for sid in survivors:
            self.assertIn("Survived: %s: %s" % (sid, CATALOG[sid]), bob["gs"]["output"])
            self.assertIn("Survived: %s: %s" % (sid, CATALOG[sid]), bob["pl"]["message"])
        # Which survivors replay judged, not a run, is the author's report's
        # (config.replay.replayed); every platform marks exactly those.
        with open(os.path.join(out, "learners", "bob.json")) as f:
            replayed = set(json.load(f)["config"]["replay"]["replayed"])
        self.assertTrue(replayed & set(survivors), replayed)  # his survivors answer his requests alike
        for sid in survivors:
            mark = "Survived: %s: %s (by replay)" % (sid, CATALOG[sid])
            for text in (bob["gs"]["output"], bob["pl"]["message"], bob["ghc"]["tests"][0]["message"]):
                self.assertEqual(mark in text, sid in replayed, text)
        # The other policy, a point per planted bug caught: 6 of 10, from the same grading.
        r, share = self.results(os.path.join(self.dir, "subs", "bob"), out, "bob-share", *QUICK,
                                "--score-policy", "share")
        self.assertIn("reusing", r.stderr)
        self.assertEqual((share["gs"]["score"], share["pl"]["score"]), (len(EXPECTED["bob"]["killed"]), 0.6))
        self.assertEqual(sum(t["score"] for t in share["ghc"]["tests"]), 6)
        # carol rejects a correct variant: graded, no points, told what to fix; the
        # wheat she rejects and her failing test's output only at --feedback all.
        carol = graded["carol"]
        self.assertEqual((carol["pl"]["gradable"], carol["pl"]["score"], carol["gs"]["score"]), (True, 0.0, 0))
        self.assertIn("fail a correct implementation", carol["pl"]["message"])
        self.assertNotRegex(carol["pl"]["message"], "lenient|alternatives")
        r, everything = self.results(os.path.join(self.dir, "subs", "carol"), out, "carol-all", *QUICK,
                                     "--feedback", "all")
        self.assertIn("reusing", r.stderr)
        for text in (everything["pl"]["message"], everything["gs"]["output"]):
            # The wheat her shuffled runs meet first that she fails: both reject her.
            self.assertRegex(text, "'lenient'|'alternatives'")
            self.assertRegex(text, r"(FAIL|ERROR): test_")
        # ivan's suite fails the reference (m = 19 for the worked example): ungradable, told to fix it.
        self.assertEqual(EXPECTED["ivan"]["verdict"], "fails-clean")
        ivan = graded["ivan"]
        self.assertIs(ivan["pl"]["gradable"], False)
        self.assertEqual((ivan["gs"]["score"], ivan["ghc"]["status"]), (0, "error"))
        self.assertIn("fail the course's correct reference", ivan["gs"]["output"])
        # nobody handed in no tests file: not a silent zero but ungradable, saying what to hand in.
        nobody = graded["nobody"]
        self.assertIs(nobody["pl"]["gradable"], False)
        self.assertEqual(nobody["ghc"]["status"], "error")
        for text in (nobody["pl"]["message"], nobody["gs"]["output"], nobody["ghc"]["tests"][0]["message"]):
            self.assertIn("hand in your tests as test_bloom.py", text)

    def test_what_each_feedback_level_shows_and_no_chaff_at_any(self):
        out = os.path.join(self.dir, "out")
        bob = self.submission("bob", "bob")
        views = {}
        for level in LEVELS:
            r, views[level] = self.results(bob, out, "bob-" + level, "--confirm-runs", "1", "-j", "2",
                                           "--feedback", level)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            if level != LEVELS[0]:
                self.assertIn("reusing", r.stderr)
        # The author's report has the chaffs, each by id and description: what the
        # learner's views are checked for is there to be leaked.
        with open(os.path.join(out, "learners", "bob.json")) as f:
            author = f.read()
        words = chaff_words()
        ids = [w for w in words if len(w) == 3 and w.startswith("c")]
        self.assertEqual(len(ids), len(glob.glob(os.path.join(SOURCE, "mutants/chaffs/python/*.patch"))), ids)
        for cid in ids:
            self.assertIn('"id": "%s"' % cid, author)
        self.assertTrue(any(w in author for w in words - set(ids)))
        for level, got in views.items():
            for key in ("gs_text", "pl_text", "ghc_text"):
                for word in words:
                    self.assertNotIn(word, got[key], "%s at --feedback %s" % (word, level))
        none, score, mutants, everything = (views[level] for level in LEVELS)
        # none: the platform records the score; the learner sees nothing of it.
        self.assertEqual(none["gs"]["output"], "")
        self.assertTrue(all(t["visibility"] == "hidden" and t["output"] == "" for t in none["gs"]["tests"]))
        self.assertEqual((none["pl"]["message"], none["pl"]["tests"]), ("", []))
        self.assertEqual(none["ghc"]["tests"][0]["message"], "")
        # score: the score and the bar, no planted bug.
        self.assertIn("Score: 0 / 10", score["gs"]["output"])
        self.assertEqual(len(score["pl"]["tests"]), 1)
        for got in (none, score):
            for key in ("gs_text", "pl_text", "ghc_text"):
                self.assertNotRegex(got[key], r"s(0[1-9]|10)\b")
        # mutants: each survivor with its pitfall; all: the same for bob, whose grading did not stop.
        for got in (mutants, everything):
            self.assertEqual(len(got["pl"]["tests"]), 11)
            self.assertIn("Survived: s04: " + CATALOG["s04"], got["pl"]["message"])
            self.assertNotIn("Survived: s01", got["pl"]["message"])
        self.assertEqual(mutants["pl"]["message"], everything["pl"]["message"])

    def test_usage_errors_run_nothing(self):
        folder = self.submission("alice", "alice")
        for args, says in (
                (["--kind", "python", "--gradescope", "r.json", folder], "go with --submission"),
                (["--kind", "python", "--submission", folder, folder], "one of them"),
                (["--kit", "k.json", "--autograder", "gradescope", "-o", "pkg"], "installed kit"),
                (["--kind", "python", "--autograder", "gradescope", "--deb", "x.deb", "-o", "pkg"], "not tlbf_"),
                (["--kind", "python", "--submission", folder, "--feedback", "some"], "--feedback"),
                (["--kind", "python", "--submission", folder, "--score-policy", "mean"], "--score-policy")):
            r = subprocess.run([TLBF, "grade", *args], capture_output=True, text=True, env=self.env, cwd=self.dir)
            self.assertEqual(r.returncode, 2, (args, r.stdout + r.stderr))
            self.assertIn(says, r.stderr, args)


class Packages(Grading):
    """The packages, from an installed prefix, each entry point run in a folder
    laid out as the platform's container (AUTOGRADER_ROOT, GRADE_ROOT)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tlbf_pkg_test_", dir=scratch_root())
        self.prefix = os.path.join(self.dir, "prefix")
        subprocess.run([os.environ.get("CMAKE", "cmake"), "--install", os.environ["TLBF_BUILD_DIR"],
                        "--prefix", self.prefix], check=True, capture_output=True)
        self.env = dict(os.environ, TMPDIR=self.dir, PATH=os.path.join(self.prefix, "bin") + ":/usr/bin:/bin")
        self.env.pop("TLBF", None)
        # A stand-in for the .deb that `cmake --build BUILD --target package` makes: only its name is read here.
        self.deb = os.path.join(self.dir, "tlbf_1.0.0_amd64.deb")
        open(self.deb, "w").close()

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def package(self, platform, kind="python"):
        pkg = os.path.join(self.dir, platform + "-" + kind)
        r = subprocess.run(["tlbf", "grade", "--autograder", platform, "--kind", kind, "-o", pkg,
                            "--deb", self.deb, *QUICK], capture_output=True, text=True, env=self.env)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return pkg

    def container(self, name, learner, into):
        root = os.path.join(self.dir, name)
        os.makedirs(os.path.join(root, into))
        if learner:
            shutil.copy(os.path.join(CLASSES, "python", learner, "test_bloom.py"), os.path.join(root, into))
        return root

    def test_gradescope_package_installs_the_deb_and_grades_a_submission(self):
        pkg = self.package("gradescope")
        for name in ("setup.sh", "run_autograder"):
            self.assertTrue(os.access(os.path.join(pkg, name), os.X_OK), name)
        self.assertTrue(os.path.exists(os.path.join(pkg, "tlbf_1.0.0_amd64.deb")))
        # setup.sh, with apt-get standing in: installs the .deb beside it and what the suites run with.
        fake = os.path.join(self.dir, "fakebin")
        os.makedirs(fake)
        with open(os.path.join(fake, "apt-get"), "w") as f:
            f.write('#!/bin/sh\necho "$@" >> "%s/apt.log"\n' % self.dir)
        os.chmod(os.path.join(fake, "apt-get"), 0o755)
        r = subprocess.run(["bash", os.path.join(pkg, "setup.sh")], capture_output=True, text=True,
                           env=dict(self.env, PATH=fake + ":" + self.env["PATH"]))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(self.dir, "apt.log")) as f:
            self.assertEqual(f.read().splitlines(),
                             ["update", "install -y %s/tlbf_1.0.0_amd64.deb bubblewrap python3" % pkg])
        # run_autograder on /autograder/submission, here a folder laid out alike.
        root = self.container("autograder", "alice", "submission")
        r = subprocess.run([os.path.join(pkg, "run_autograder")], capture_output=True, text=True,
                           env=dict(self.env, AUTOGRADER_ROOT=root), cwd=root)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(root, "results", "results.json")) as f:
            results = json.load(f)
        jsonschema.validate(results, schema("gradescope"))
        self.assertEqual((results["score"], results["max_score"]), (10, 10))
        # A tlbf that writes nothing still leaves a result that says so, never a silent zero.
        r = subprocess.run([os.path.join(pkg, "run_autograder")], capture_output=True, text=True,
                           env=dict(self.env, AUTOGRADER_ROOT=root, TLBF="/bin/false"))
        self.assertNotEqual(r.returncode, 0)
        with open(os.path.join(root, "results", "results.json")) as f:
            results = json.load(f)
        jsonschema.validate(results, schema("gradescope"))
        self.assertIn("failed before it could grade", results["output"])

    def test_the_rust_packages_build_the_kits_variants_into_the_image(self):
        # The Rust kit's variants are compiled (docs/mutants.md, "The Rust kind"): the image
        # builds them once, after tlbf is installed, so that no submission pays their builds.
        fake = os.path.join(self.dir, "fakebin")
        os.makedirs(fake)
        for tool in ("apt-get", "tlbf"):
            with open(os.path.join(fake, tool), "w") as f:
                f.write('#!/bin/sh\necho "%s $*" >> "%s/setup.log"\n' % (tool, self.dir))
            os.chmod(os.path.join(fake, tool), 0o755)
        pkg = self.package("gradescope", "rust")
        r = subprocess.run(["bash", os.path.join(pkg, "setup.sh")], capture_output=True, text=True,
                           env=dict(self.env, PATH=fake + ":" + self.env["PATH"]))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(self.dir, "setup.log")) as f:
            self.assertEqual(f.read().splitlines(),
                             ["apt-get update",
                              "apt-get install -y %s/tlbf_1.0.0_amd64.deb bubblewrap cargo rustc" % pkg,
                              "tlbf grade --kind rust --prepare"])
        with open(os.path.join(self.package("prairielearn", "rust"), "Dockerfile")) as f:
            self.assertEqual(f.read().splitlines()[-1], "RUN tlbf grade --kind rust --prepare")
        # The Python kit's variants need no build: nothing is prepared.
        with open(os.path.join(self.package("prairielearn"), "Dockerfile")) as f:
            self.assertNotIn("--prepare", f.read())

    def test_prairielearn_package_grades_the_uploaded_file(self):
        pkg = self.package("prairielearn")
        run = os.path.join(pkg, "tests", "run.sh")
        self.assertTrue(os.access(run, os.X_OK))
        with open(os.path.join(pkg, "info.json")) as f:
            self.assertEqual(json.load(f)["externalGradingOptions"]["entrypoint"], "/grade/tests/run.sh")
        with open(os.path.join(pkg, "Dockerfile")) as f:
            self.assertIn("tlbf_*.deb", f.read())
        root = self.container("grade", "bob", "student")
        r = subprocess.run([run], capture_output=True, text=True, env=dict(self.env, GRADE_ROOT=root))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(root, "results", "results.json")) as f:
            results = json.load(f)
        jsonschema.validate(results, schema("prairielearn"))
        self.assertEqual((results["gradable"], results["score"]), (True, 0.0))
        self.assertIn("Survived: s04: " + CATALOG["s04"], results["message"])
        # An upload without the tests file: ungradable, saying what to hand in.
        root = self.container("grade-empty", None, "student")
        r = subprocess.run([run], capture_output=True, text=True, env=dict(self.env, GRADE_ROOT=root))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(root, "results", "results.json")) as f:
            results = json.load(f)
        jsonschema.validate(results, schema("prairielearn"))
        self.assertIs(results["gradable"], False)
        self.assertIn("test_bloom.py", results["message"])


if __name__ == "__main__":
    unittest.main()
