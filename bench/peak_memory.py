#!/usr/bin/env python3
"""Peak resident memory of tlbf build and tlbf query on a large filter,
against m/8, the size of its bits (docs/performance.md, "Memory").

    bench/peak_memory.py TLBF [N]      (default N = 900000000: m/8 is about 1 GiB at p = 0.01)
"""
import os
import resource
import subprocess
import sys
import tempfile


def peak_rss_of(command, stdin_bytes):
    """Runs the command alone in a fresh child and returns its peak RSS in bytes."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        result = subprocess.run(command, input=stdin_bytes, stdout=subprocess.DEVNULL)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        os.write(writer, f"{result.returncode} {usage.ru_maxrss}".encode())
        os._exit(0)
    os.close(writer)
    code, kib = os.read(reader, 100).decode().split()
    os.waitpid(pid, 0)
    if code != "0":
        sys.exit(f"{command[1]} failed with status {code}")
    return int(kib) * 1024


def main(tlbf, n):
    items = b"".join(b"paragraph %d\n" % i for i in range(1_000_000))
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "large.tlbf")
        build = peak_rss_of([tlbf, "build", "--n", str(n), "--p", "0.01", "-o", path], items)
        bits = os.path.getsize(path) - 32
        query = peak_rss_of([tlbf, "query", path], items[: len(items) // 10])
    mib = 1 << 20
    print(f"filter: n = {n}, p = 0.01, m/8 = {bits / mib:.0f} MiB of bits; 1M items inserted, 100k queried")
    print(f"tlbf build peak RSS: {build / mib:.0f} MiB = {build / bits:.2f} x m/8")
    print(f"tlbf query peak RSS: {query / mib:.0f} MiB = {query / bits:.2f} x m/8")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 900_000_000)
