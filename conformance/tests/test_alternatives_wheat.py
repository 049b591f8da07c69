"""The alternatives wheat, `tlbf serve --alternatives SEED` (docs/mutants.md,
"The alternatives wheat"): `tlbf check` passes it at every seed it is given,
and it does answer otherwise than the oracle wherever docs/check.md allows,
under every flag of that table, the same way for the same request and seed.

Run: TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. python3 test_alternatives_wheat.py
"""
import glob
import json
import os
import shlex
import subprocess
import tempfile
import unittest

TLBF = os.environ["TLBF_BINARY"]
SOURCE = os.environ["TLBF_SOURCE_DIR"]
FLAGS = ["OutOfDomain", "LogLastBit", "StrictKBound", "CountSaturates", "CannotAllocate"]


def served(seed):
    return f"{shlex.quote(TLBF)} serve --alternatives {seed}"


def answers(command, requests):
    done = subprocess.run(command, shell=True, input="".join(r + "\n" for r in requests),
                          capture_output=True, text=True, timeout=600)
    return done.stdout.splitlines()


class CheckPassesIt(unittest.TestCase):
    def test_at_several_seeds_with_every_flag_taken(self):
        # Each wheat seed once, and each check seed at least once: a whole check
        # costs 6.5 CPU-seconds under ASan, where this test ran six (docs/testing.md, "Time").
        for seed, check_seed in [("1", "1"), ("3a", "2"), ("ffffffffffffffff", "1")]:
            with self.subTest(seed=seed, check_seed=check_seed), tempfile.TemporaryDirectory() as tmp:
                report = os.path.join(tmp, "check.json")
                done = subprocess.run([TLBF, "check", "--impl", served(seed), "--seed", check_seed,
                                       "--json", report], capture_output=True, text=True, timeout=1800)
                self.assertEqual(done.returncode, 0, done.stdout[-3000:] + done.stderr[-2000:])
                with open(report) as f:
                    cases = json.load(f)["cases"]
                reasons = " ".join(c.get("reason", "") for c in cases if c["outcome"] == "acceptable difference")
                for flag in FLAGS:
                    self.assertIn(flag + " allows", reasons, f"no acceptable difference under {flag}")

    def test_the_transcripts_replay(self):
        transcripts = sorted(glob.glob(os.path.join(SOURCE, "conformance", "transcripts", "*.txt")))
        done = subprocess.run([TLBF, "check", "--impl", served("9"), "--transcript", *transcripts],
                              capture_output=True, text=True, timeout=600)
        self.assertEqual(done.returncode, 0, done.stdout[-3000:] + done.stderr[-2000:])


class ItsAnswers(unittest.TestCase):
    # docs/check.md, OutOfDomain: optimal_m with n = 0 may be any u64; the
    # oracle answers 0 and the lenient wheat err BadParams, so this one
    # answers another u64 (docs/mutants.md).
    OUT_OF_DOMAIN = ["optimal_m 0 0.5", "optimal_k 10 0", "predicted_fp_rate 0 3 4"]

    def test_out_of_domain_it_answers_a_value_neither_zero_nor_an_error(self):
        for seed in ["1", "2", "abc", "0"]:
            got = answers(served(seed), self.OUT_OF_DOMAIN)
            self.assertEqual(len(got), 3, got)
            m, k, rate = (line.split(" ") for line in got)
            self.assertEqual(m[0], "ok")
            self.assertNotEqual(m[1], "0")
            self.assertTrue(0 <= int(m[1]) < 2**64)
            self.assertEqual(k[0], "ok")
            self.assertTrue(0 <= int(k[1]) < 2**32)
            self.assertEqual(rate[0], "ok")
            float(rate[1])

    def test_the_same_request_gets_the_same_answer_and_another_seed_another(self):
        requests = self.OUT_OF_DOMAIN * 3
        first = answers(served("5"), requests)
        self.assertEqual(first[:3], first[3:6])
        self.assertEqual(first[:3], first[6:])
        self.assertEqual(first, answers(served("5"), requests))
        self.assertNotEqual(first[0], answers(served("6"), requests)[0])

    def test_hello_is_the_mutant_builds(self):
        # Served beside the oracle's mutants, it must not tell itself apart by hello.
        mutant = os.path.join(os.path.dirname(TLBF), "tlbf-mutant")
        self.assertEqual(answers(served("1"), ["hello"]), answers(shlex.quote(mutant), ["hello"]))

    def test_notes_name_each_request_answered_otherwise(self):
        with tempfile.TemporaryDirectory() as tmp:
            notes = os.path.join(tmp, "notes")
            answers(served("1") + " --notes " + shlex.quote(notes),
                    ["optimal_m 0 0.5", "fnv1a64 636174", "optimal_m 4 0.1"])
            with open(notes) as f:
                lines = f.read().splitlines()
        self.assertEqual(len(lines), 1, lines)
        request, answer, flag, allows = lines[0].split("\t")
        self.assertEqual((request, flag), ("'optimal_m 0 0.5'", "OutOfDomain"))  # quoted, escaped as tlbf check shows answers
        self.assertIn("u64", allows)

    def test_usage_errors(self):
        for args in (["--alternatives", "xyz"], ["--alternatives", "12345678901234567"], ["--notes", "f"]):
            done = subprocess.run([TLBF, "serve", *args], input="", capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 2, args)
            self.assertIn("--", done.stderr)


if __name__ == "__main__":
    unittest.main()
