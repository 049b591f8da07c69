#!/usr/bin/env python3
"""Peak resident memory of tlbf build and tlbf query on a large filter,
against m/8, the size of its bits; or, with --serve, of tlbf serve for
request lines of up to 64 MiB, against the bytes they carry
(docs/performance.md, "Memory").

    bench/peak_memory.py TLBF [N]      (default N = 900000000: m/8 is about 1 GiB at p = 0.01)
    bench/peak_memory.py --serve TLBF...
"""
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time
from itertools import chain

MIB = 1 << 20


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
    mib = MIB
    print(f"filter: n = {n}, p = 0.01, m/8 = {bits / mib:.0f} MiB of bits; 1M items inserted, 100k queried")
    print(f"tlbf build peak RSS: {build / mib:.0f} MiB = {build / bits:.2f} x m/8")
    print(f"tlbf query peak RSS: {query / mib:.0f} MiB = {query / bits:.2f} x m/8")


def hex_line(prefix, size, head=b""):
    """PREFIX, the hex of head and `size` pattern bytes, and "\n", in pieces of 2 MiB."""
    yield prefix + head.hex().encode()
    block = bytes(range(256)) * 4096
    while size:
        yield block[: min(size, len(block))].hex().encode()
        size -= min(size, len(block))
    yield b"\n"


def serve_peak(tlbf, pieces):
    """VmHWM of a fresh tlbf serve once it has answered these pieces (read
    before its input closes: a child's ru_maxrss would count the parent's
    pages it was forked with), and its answers."""
    serve = subprocess.Popen([tlbf, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lines = 0
    for piece in pieces:
        serve.stdin.write(piece)
        lines += piece.count(b"\n")
    serve.stdin.flush()
    answers = [serve.stdout.readline().decode(errors="replace").strip()[:30] for _ in range(lines)]
    with open(f"/proc/{serve.pid}/status") as status:
        peak = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    serve.stdin.close()
    serve.wait()
    return peak, answers


def main_serve(tlbfs):
    bits = 32 * MIB - 40  # the largest file a line of 64 MiB carries: 64 MiB less 14 bytes
    item = (64 * MIB - len("insert f ") - 1) // 2
    header = b"TLBF" + struct.pack("<IQIIQ", 1, 8 * bits, 3, 0, 0)
    requests = [
        ("hello", lambda: [b"hello\n"]),
        ("from_bytes of 32 MiB (a 64 MiB line)", lambda: hex_line(b"from_bytes f ", bits, header)),
        ("insert of a 32 MiB item", lambda: chain([b"new f 64 3\n"], hex_line(b"insert f ", item))),
        ("contains, 32 MiB item, no such filter", lambda: hex_line(b"contains absent_f ", item - 16)),
        ("a line over 64 MiB (discarded)", lambda: chain([b"new f 64 3\n"], hex_line(b"insert f ", 32 * MIB))),
    ]
    for tlbf in tlbfs:
        print(tlbf)
        for name, pieces in requests:
            start = time.monotonic()
            peak, answers = serve_peak(tlbf, pieces())
            print(f"  {name:40} peak {peak / MIB:6.1f} MiB  {time.monotonic() - start:5.2f} s  {answers}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--serve":
        main_serve(sys.argv[2:])
        sys.exit(0)
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 900_000_000)
