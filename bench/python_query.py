#!/usr/bin/env python3
"""`tlbf query` done by the bundled Python implementation, as a library:
present or absent for each line of standard input, by a filter file.
scripts/bench compares its throughput with tlbf query's.

    bench/python_query.py FILTER < ITEMS
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "conformance" / "impls" / "python"))
from tlbf_impl import Bloom  # noqa: E402


def main(path):
    bloom = Bloom.from_bytes(pathlib.Path(path).read_bytes())
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        out.write(b"present\n" if bloom.contains(line.rstrip(b"\n")) else b"absent\n")


if __name__ == "__main__":
    main(sys.argv[1])
