"""A half-wired mutant is a test failure, never a kill (issue: "a test plants
a fake extra entry and shows that a half-wired mutant is a build or test
failure, not a kill").

A catalog entry s11 with no switch in the oracle is what a contributor leaves
who writes the entry and forgets the switch. The catalog is the one source of
the ids: configure writes s11 into the oracle's enum (oracle/CMakeLists.txt),
so the mutant build compiles and accepts TLBF_MUTANT=s11; then

  - the switch count of test_catalog.py fails: the oracle holds no switch of it;
  - oracle_suite_kills_s11, defined from the same catalog, fails: with no
    switch the suite passes, and a passing suite is no kill.

This runs both on a copy of the repository's view in which only
mutants/catalog.json differs: the other folders are links to the real ones,
and a tiny CMake project builds the oracle's suite against the mutant build
(one target, not the project). As controls, the same switch count passes on
the real repository, and oracle_suite_kills_s01 passes in the copy.

    TLBF_SOURCE_DIR=. CMAKE=cmake CTEST=ctest python3 mutants/tests/test_fake_catalog_entry.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.abspath(os.environ.get("TLBF_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
CMAKE = os.environ.get("CMAKE", "cmake")
CTEST = os.environ.get("CTEST", "ctest")
CXX = os.environ.get("TLBF_CXX", "")
FAKE = "s11"

# The tiny project: what the real top-level CMakeLists.txt sets up for
# common/ and oracle/, and nothing else. -O1: the suite runs twice below,
# and compiling it at -O3 costs more than it saves (at -O0 the build is 15%
# cheaper and the suite's run against s11 ten times dearer). A unity build of
# 8 sources, as the real one: half the compile time of one source at a time
# (21 core-seconds against 40, measured 2026-12-05).
PROJECT = """cmake_minimum_required(VERSION 3.25)
project(tlbf_fake_catalog_entry LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_UNITY_BUILD ON)
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
add_library(tlbf_warnings INTERFACE)
set(TLBF_BUILD_TESTS ON)
enable_testing()
find_package(GTest REQUIRED)
find_package(rapidcheck REQUIRED)
include(GoogleTest)
include(mutants/catalog.cmake)
add_subdirectory(common)
add_subdirectory(oracle)
"""


def fake_entry():
    return {
        "id": FAKE,
        "description": "A planted bug whose switch was never written",
        "oracle": {
            "file": "oracle/src/sizing.cpp",
            "function": "optimal_m",
            "original": "  return saturating_cast<std::uint64_t>(std::ceil(ideal));",
            "mutated": "  return saturating_cast<std::uint64_t>(std::ceil(ideal)) + 1;",
            "switch": "TLBF_MUTANT(s11) ? std::ceil(ideal) + 1 : std::ceil(ideal)",
            "places": 1,
        },
    }


def make_view(root):
    """The repository as links, with a mutants/ of its own whose catalog has s11."""
    for name in os.listdir(SOURCE):
        if name not in ("mutants", "CMakeLists.txt", "build", ".git"):
            os.symlink(os.path.join(SOURCE, name), os.path.join(root, name))
    mutants = os.path.join(root, "mutants")
    os.mkdir(mutants)
    for name in os.listdir(os.path.join(SOURCE, "mutants")):
        if name not in ("catalog.json", "catalog.cmake"):
            os.symlink(os.path.join(SOURCE, "mutants", name), os.path.join(mutants, name))
    # A copy, not a link: it finds the catalog beside itself (CMAKE_CURRENT_LIST_DIR).
    shutil.copy(os.path.join(SOURCE, "mutants", "catalog.cmake"), mutants)
    with open(os.path.join(SOURCE, "mutants", "catalog.json")) as f:
        catalog = json.load(f)
    assert FAKE not in [m["id"] for m in catalog["mutants"]], "the catalog has a real " + FAKE + " now: pick another id"
    catalog["mutants"].append(fake_entry())
    with open(os.path.join(mutants, "catalog.json"), "w") as f:
        json.dump(catalog, f, indent=2)
    with open(os.path.join(root, "CMakeLists.txt"), "w") as f:
        f.write(PROJECT)


def switch_count(source):
    """test_catalog.py's switch count, run against `source`."""
    return subprocess.run(
        [sys.executable, os.path.join(SOURCE, "mutants", "tests", "test_catalog.py"),
         "Catalog.test_the_oracle_has_the_catalogs_switches_and_no_other"],
        env=dict(os.environ, TLBF_SOURCE_DIR=source), capture_output=True, text=True, timeout=120)


class AHalfWiredMutant(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="tlbf-fake-entry-")
        cls.view = os.path.join(cls.scratch, "src")
        cls.build = os.path.join(cls.scratch, "build")
        os.mkdir(cls.view)
        make_view(cls.view)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_fails_the_switch_count(self):
        control = switch_count(SOURCE)
        self.assertEqual(control.returncode, 0, "the real repository: " + control.stderr)
        fake = switch_count(self.view)
        self.assertNotEqual(fake.returncode, 0, "the switch count took a catalog entry with no switch")
        self.assertIn(FAKE, fake.stderr)

    def test_builds_and_its_kill_test_fails(self):
        flags = ["-G", "Ninja", "-DCMAKE_CXX_FLAGS=-O1"] + (["-DCMAKE_CXX_COMPILER=" + CXX] if CXX else [])
        configured = subprocess.run([CMAKE, "-S", self.view, "-B", self.build] + flags,
                                    capture_output=True, text=True, timeout=300)
        self.assertEqual(configured.returncode, 0, configured.stdout + configured.stderr)
        with open(os.path.join(self.build, "oracle", "generated", "tlbf", "mutant_ids.hpp")) as f:
            self.assertIn(", " + FAKE + " };", f.read(), "the enum of ids comes from the catalog")
        # The designed behaviour: an id with no switch compiles (only a switch
        # whose id is not in the catalog does not).
        built = subprocess.run([CMAKE, "--build", self.build, "--target", "oracle_tests_mutant_build", "--parallel", "2"],
                               capture_output=True, text=True, timeout=1500)
        self.assertEqual(built.returncode, 0, built.stdout[-3000:] + built.stderr[-3000:])

        # The mutant build takes s11 (it is in the enum): no refusal (status 2)
        # hides what follows. No test is run here, only the id checked.
        binary = os.path.join(self.build, "oracle", "tests", "oracle_tests_mutant_build")
        for mutant, status in ((FAKE, 0), ("s12", 2)):
            taken = subprocess.run([binary, "--gtest_filter=-*"], env=dict(os.environ, TLBF_MUTANT=mutant),
                                   capture_output=True, text=True, timeout=60)
            self.assertEqual(taken.returncode, status, mutant + ": " + taken.stderr)

        # The kill tests as ctest runs them: s01 is killed, s11 is not.
        for mutant, killed in (("s01", True), (FAKE, False)):
            ran = subprocess.run([CTEST, "--test-dir", self.build, "-R", "^oracle_suite_kills_" + mutant + "$"],
                                 capture_output=True, text=True, timeout=1500)
            self.assertIn("out of 1\n", ran.stdout, ran.stdout)  # the test exists: its verdict is the one read
            self.assertEqual(ran.returncode == 0, killed, mutant + ": " + ran.stdout)


if __name__ == "__main__":
    unittest.main()
