#!/usr/bin/env python3
"""Inputs per second of the fuzz targets, measured in one run (scripts/bench).

    speed.py libfuzzer BIN_DIR RUST_SERVER SECONDS [REPEATS]
    speed.py replay    BIN_DIR RUST_SERVER ROUNDS

Four targets on the same inputs: the in-process harness on the C example
and on the tl-ds crate (through the Rust shim), fuzz_diff over line
protocol v1 against the same crate's protocol server, and fuzz_from_bytes,
the oracle alone. Printed with the ratios the issue asks about: in process
against the protocol, and against the oracle alone.

libfuzzer: the fuzz build's fuzz_* binaries (clang, libFuzzer, ASan and
UBSan), each for SECONDS from the committed corpus, REPEATS times (default
3, seeds 1, 2, ...); the rate of a run is the inputs libFuzzer ran over its
wall time, and the median run is shown with the range. A run's rate
depends on the inputs the fuzzer happens to keep (large filters cost more
than headers refused), so one run alone can be off by a factor of three.
replay: the replay_fuzz_* binaries of a build without libFuzzer, each over
the committed corpus ROUNDS times (fuzz_diff a tenth as many): the same
inputs for every target, no mutation, no sanitizers.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus", "from_bytes")
DICT = os.path.join(HERE, "tlbf.dict")

TARGETS = [
    ("in-process, C example", "inprocess_example", False),
    ("in-process, tl-ds (Rust shim)", "inprocess_rust", False),
    ("fuzz_diff over the protocol, tl-ds server", "diff", True),
    ("fuzz_from_bytes (the oracle alone)", "from_bytes", False),
]


def usage():
    sys.exit(__doc__)


def run_libfuzzer(binary, env, seconds, seed):
    scratch = tempfile.mkdtemp(prefix="tlbf-speed-")
    try:
        start = time.perf_counter()
        done = subprocess.run(
            [binary, scratch, CORPUS, f"-dict={DICT}", "-max_len=4096", "-malloc_limit_mb=64", f"-seed={seed}",
             f"-max_total_time={seconds}", "-print_final_stats=1", f"-artifact_prefix={scratch}/"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
        wall = time.perf_counter() - start
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    found = re.search(r"stat::number_of_executed_units:\s*(\d+)", done.stderr)
    if done.returncode != 0 or not found:
        sys.exit(f"speed.py: {binary} failed (exit {done.returncode}):\n" + done.stderr[-2000:])
    return int(found.group(1)), wall


def run_replay(binary, env, rounds):
    files = sorted(f for f in os.listdir(CORPUS) if not f.startswith("."))
    start = time.perf_counter()
    done = subprocess.run([binary] + [CORPUS] * rounds, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"speed.py: {binary} failed (exit {done.returncode})")
    return len(files) * rounds, wall


def main(argv):
    if len(argv) not in (5, 6) or argv[1] not in ("libfuzzer", "replay") or (len(argv) == 6 and argv[1] != "libfuzzer"):
        usage()
    mode, bin_dir, server = argv[1], argv[2], argv[3]
    try:
        amount = int(argv[4])
        repeats = int(argv[5]) if len(argv) == 6 else 3
    except ValueError:
        usage()
    if amount < 1 or repeats < 1:
        usage()
    prefix = "fuzz_" if mode == "libfuzzer" else "replay_fuzz_"
    rates = {}
    print(f"{'target':44} {'inputs':>10} {'seconds':>8} {'inputs/s':>10}" + ("   range of the runs" if mode == "libfuzzer" else ""))
    for label, name, protocol in TARGETS:
        binary = os.path.join(bin_dir, prefix + name)
        if not os.access(binary, os.X_OK):
            sys.exit(f"speed.py: no {binary}")
        env = dict(os.environ)
        if protocol:
            env["TLBF_IMPL"] = server
        if mode == "libfuzzer":
            runs = sorted((inputs / wall, inputs, wall) for inputs, wall in
                          (run_libfuzzer(binary, env, amount, seed) for seed in range(1, repeats + 1)))
            rate, inputs, wall = runs[len(runs) // 2]
            spread = f"   {runs[0][0]:,.0f} .. {runs[-1][0]:,.0f}"
        else:
            inputs, wall = run_replay(binary, env, max(1, amount // 10) if protocol else amount)
            rate, spread = inputs / wall, ""
        rates[name] = rate
        print(f"{label:44} {inputs:>10,} {wall:>8.2f} {rate:>10,.0f}{spread}")
    print()
    goal_rust, goal_oracle = ("   (goal: at least 40x)", "   (goal: at most 3x)") if mode == "libfuzzer" else ("", "")
    print(f"in-process (Rust) / fuzz_diff (same crate, protocol): {rates['inprocess_rust'] / rates['diff']:6.1f}x{goal_rust}")
    print(f"in-process (C)    / fuzz_diff (tl-ds, protocol):      {rates['inprocess_example'] / rates['diff']:6.1f}x")
    print(f"fuzz_from_bytes   / in-process (Rust):                {rates['from_bytes'] / rates['inprocess_rust']:6.2f}x{goal_oracle}")
    print(f"fuzz_from_bytes   / in-process (C):                   {rates['from_bytes'] / rates['inprocess_example']:6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
