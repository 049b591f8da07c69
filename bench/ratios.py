#!/usr/bin/env python3
"""Prints oracle_speed's results (Google Benchmark JSON) as ratios to the
floors measured in the same run, and the goals of docs/performance.md.

    bench/ratios.py RESULTS.json
"""
import json
import sys

KIB = {256: "256 KiB", 1 << 20: "1 GiB"}


def main(path):
    runs = json.load(open(path))["benchmarks"]
    ns = {}  # name -> ns per item
    for r in runs:
        if r.get("run_type", "iteration") != "iteration":
            continue
        ns[r["name"]] = 1e9 / r["items_per_second"]
    # A floor is the fastest way measured to do that part of the work alone:
    # hashing one item at a time or four side by side, reading with or
    # without software prefetch 32 reads ahead.
    for n in (16, 64):
        print("hash, %d-byte items: one at a time %.1f ns, four side by side %.1f ns"
              % (n, ns[f"HashFloor/{n}"], ns[f"HashManyFloor/{n}"]))
    for s in KIB:
        print("memory, 7 random reads over %s: plain %.1f ns, prefetched %.1f ns"
              % (KIB[s], ns[f"MemoryFloor/{s}/0"], ns[f"MemoryFloor/{s}/32"]))
    hash_floor = {n: min(ns[f"HashFloor/{n}"], ns[f"HashManyFloor/{n}"]) for n in (16, 64)}
    memory_floor = {s: min(ns[f"MemoryFloor/{s}/0"], ns[f"MemoryFloor/{s}/32"]) for s in KIB}
    print("floors: hash %.1f ns (16 B), %.1f ns (64 B); memory, 7 random reads: %.1f ns (256 KiB), %.1f ns (1 GiB)"
          % (hash_floor[16], hash_floor[64], memory_floor[256], memory_floor[1 << 20]))
    print()
    print("%-9s %-8s %-8s %4s %-7s %9s %9s %11s %13s" %
          ("op", "path", "filter", "item", "items", "ns/item", "Mitems/s", "/hash floor", "/memory floor"))
    for op in ("Contains", "Insert"):
        for size in KIB:
            for length in (16, 64):
                for present in (1, 0):
                    for path in ("Scalar", "Batched"):
                        name = f"{op}{path}/{size}/{length}/{present}"
                        if name not in ns:
                            continue
                        t = ns[name]
                        print("%-9s %-8s %-8s %4d %-7s %9.1f %9.1f %11.2f %13.2f" %
                              (op.lower(), path.lower(), KIB[size], length, "present" if present else "absent",
                               t, 1e3 / t, t / hash_floor[length], t / memory_floor[size]))
    print()
    print("goals (docs/performance.md):")
    for length in (16, 64):
        t = ns[f"ContainsBatched/256/{length}/1"]
        strict, literal = t / hash_floor[length], t / ns[f"HashFloor/{length}"]
        print(f"  in cache, batched contains of present {length}-byte items within 1.5x the hash floor: "
              f"{strict:.2f}x {'met' if strict <= 1.5 else 'NOT met'} "
              f"(against hashing one item at a time: {literal:.2f}x)")
    large = 1 << 20
    for length in (16, 64):
        scalar, batched = ns[f"ContainsScalar/{large}/{length}/1"], ns[f"ContainsBatched/{large}/{length}/1"]
        print(f"  1 GiB, batched contains of present {length}-byte items at least 2x scalar: "
              f"{scalar / batched:.2f}x {'met' if scalar / batched >= 2 else 'NOT met'} "
              f"(scalar is at {scalar / memory_floor[large]:.2f}x the memory floor, the most batched could gain); "
              f"within 1.5x the memory floor: "
              f"{batched / memory_floor[large]:.2f}x {'met' if batched / memory_floor[large] <= 1.5 else 'NOT met'}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
