#!/usr/bin/env python3
"""Runs the ```console examples of a Markdown page and checks their output.

Usage: console_examples.py PAGE.md BIN_DIR

In each console block, a line starting with "$ " is a command; the lines after
it, up to the next command or the end of the block, are what it must print,
standard output and standard error together as a terminal shows them. Every command must exit 0 (an
example that shows a failure says `; echo "exit $?"`). Each block runs in a
fresh scratch folder with BIN_DIR first on PATH. Exit status: 0 when every
example matches, 1 otherwise, 2 for bad usage.
"""
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)


def examples(block):
    """(command, expected output) pairs of one console block."""
    pairs = []
    for line in block.splitlines():
        if line.startswith("$ "):
            pairs.append([line[2:], []])
        elif pairs:
            pairs[-1][1].append(line)
        else:
            raise ValueError(f"output before any command: {line!r}")
    return [(cmd, "".join(l + "\n" for l in out)) for cmd, out in pairs]


def run_block(block, env):
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        for command, expected in examples(block):
            done = subprocess.run(["bash", "-c", command], cwd=scratch, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=60)
            got = done.stdout
            if done.returncode != 0 or got != expected:
                failures += 1
                print(f"FAIL: $ {command}\n  exit {done.returncode}\n--- expected\n{expected}"
                      f"--- got\n{got}---")
            else:
                print(f"ok:   $ {command}")
    return failures


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    page, bin_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(page) as f:
        blocks = BLOCK.findall(f.read())
    if not blocks:
        print(f"{page}: no console examples found", file=sys.stderr)
        return 1
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C")
    failures = sum(run_block(block, env) for block in blocks)
    total = sum(len(examples(b)) for b in blocks)
    print(f"{total - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
