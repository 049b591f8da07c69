#!/usr/bin/env python3
"""Golden cases for the oracle, computed by a second TLBF implementation.

This file shares no code with the C++ oracle: it was written from
docs/format.md alone. The C++ test golden_test.cpp checks the oracle against
the JSON this script writes, and a ctest entry re-runs the script and compares
its output with the committed file, so the two implementations are held to
each other on every run.

Usage: make_golden.py [OUT]   (default: standard output)
"""
import json
import math
import sys

MASK = (1 << 64) - 1
LN2 = 0.6931471805599453


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return h


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def round_half_away(x: float) -> int:
    # Python's round() goes to even; the format rounds halves away from zero.
    # x - floor(x) is exact for every finite double, so this never misrounds.
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole


def optimal_m(n: int, p: float) -> int:
    return math.ceil((-float(n) * math.log(p)) / (LN2 * LN2))


def optimal_k(m: int, n: int) -> int:
    return max(1, round_half_away((float(m) / float(n)) * LN2))


def positions(m: int, k: int, item: bytes) -> list:
    h1 = fnv1a64(item)
    h2 = mix64(h1) | 1
    return [((h1 + i * h2) & MASK) % m for i in range(k)]


class Filter:
    def __init__(self, m: int, k: int):
        self.m, self.k, self.n = m, k, 0
        self.bits = bytearray((m + 7) // 8)

    def insert(self, item: bytes):
        for g in positions(self.m, self.k, item):
            self.bits[g // 8] |= 1 << (g % 8)
        self.n += 1

    def contains(self, item: bytes) -> bool:
        return all(self.bits[g // 8] >> (g % 8) & 1 for g in positions(self.m, self.k, item))

    def to_bytes(self) -> bytes:
        header = b"TLBF" + (1).to_bytes(4, "little") + self.m.to_bytes(8, "little")
        header += self.k.to_bytes(4, "little") + bytes(4) + self.n.to_bytes(8, "little")
        return header + bytes(self.bits)


def case(name, items, probes, n=None, p=None, m=None, k=None):
    if n is not None:
        m = optimal_m(n, p)
        k = optimal_k(m, n)
    f = Filter(m, k)
    for item in items:
        f.insert(item)
    out = {"name": name}
    if n is not None:
        out["with_rate"] = {"n": n, "p": repr(p)}
    else:
        out["create"] = {"m": m, "k": k}
    out.update({
        "m": m,
        "k": k,
        "items": [item.hex() for item in items],
        "positions": [positions(m, k, item) for item in items],
        "bytes": f.to_bytes().hex(),
        "probes": [{"item": q.hex(), "present": f.contains(q)} for q in probes],
    })
    return out


def words(prefix, count):
    return [f"{prefix}{i}".encode() for i in range(count)]


def cases():
    fresh = words("probe", 20)
    return [
        case("worked example", [b"cat", b"dog"], [b"bird", b"cat", b"dog"] + fresh, n=4, p=0.1),
        case("empty and zero items", [b"", b"\x00", b"\x00\x00"], [b"", b"\x00\x00\x00"] + fresh,
             n=3, p=0.01),
        case("odd m", words("odd", 5), words("odd", 8) + fresh, m=13, k=2),
        case("p = 1e-6", words("item", 10), words("item", 12) + fresh, n=10, p=1e-6),
        case("one bit", [b"x"], [b"x", b"y"], m=1, k=1),
        case("power-of-two m", words("pow", 6), words("pow", 10) + fresh, m=64, k=4),
        case("k above 64", words("wide", 3), words("wide", 5) + fresh, m=1000, k=100),
        case("every byte value, not UTF-8", [bytes([b]) for b in range(256)],
             [bytes([b, b]) for b in range(0, 256, 15)], n=256, p=0.01),
        case("long items", [bytes(range(256)) * 4, b"\xff" * 2000],
             [bytes(range(256)) * 4 + b"\x00", b"\xff" * 1999], n=2, p=0.05),
        case("a thousand items at 1%", words("k", 1000), words("k", 1010)[1000:] + fresh,
             n=1000, p=0.01),
    ]


def main():
    text = json.dumps({"generated_by": "oracle/tests/golden/make_golden.py", "cases": cases()},
                      indent=1) + "\n"
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
