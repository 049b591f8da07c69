#!/usr/bin/env python3
"""A Bloom filter of another design, speaking line protocol v1.

Not TLBF: the design of the second seed document (a dictionary library's
filter): k = 3 fixed, three FxHash evaluations with distinct seeds, about
10 bits per item, bits kept in 64-bit words, and a byte layout of its own.
It offers only the filter, bytes and union commands (hashing and sizing are
TLBF's, so it answers err Unknown to them). `tlbf check --profile
behavioural` passes it; `tlbf check` (the TLBF profile) must not.
Standard library only.
"""
import os
import re
import sys

MASK = (1 << 64) - 1
FX_K = 0x517CC1B727220A95
SEEDS = (0x0123456789ABCDEF, 0xFEDCBA9876543210, 0x0F1E2D3C4B5A6978)
K = 3
BITS_PER_ITEM = 10


def fx_hash(seed, data):
    """rustc's FxHasher, started from a seed: 8, 4, 2, then 1 byte at a time."""
    h = seed
    i = 0
    for width in (8, 4, 2, 1):
        while len(data) - i >= width:
            word = int.from_bytes(data[i:i + width], "little")
            h = ((((h << 5) | (h >> 59)) & MASK) ^ word) * FX_K & MASK
            i += width
            if width < 8:
                break
    return h


class Failure(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


class FxBloom:
    def __init__(self, m, n=0, words=None):
        self.m, self.n = m, n
        self.words = words if words is not None else [0] * ((m + 63) // 64)

    def positions(self, item):
        return [fx_hash(seed, item) % self.m for seed in SEEDS]

    def insert(self, item):
        for g in self.positions(item):
            self.words[g >> 6] |= 1 << (g & 63)
        self.n += 1

    def contains(self, item):
        return all(self.words[g >> 6] >> (g & 63) & 1 for g in self.positions(item))

    def to_bytes(self):
        return b"FXBF" + self.m.to_bytes(8, "little") + self.n.to_bytes(8, "little") + \
            b"".join(w.to_bytes(8, "little") for w in self.words)

    @staticmethod
    def from_bytes(data):
        if len(data) < 20 or data[:4] != b"FXBF":
            raise Failure("Format", "not an FXBF filter")
        m = int.from_bytes(data[4:12], "little")
        if m < 1 or len(data) != 20 + 8 * ((m + 63) // 64):
            raise Failure("Format", "length does not fit m")
        words = [int.from_bytes(data[i:i + 8], "little") for i in range(20, len(data), 8)]
        return FxBloom(m, int.from_bytes(data[12:20], "little"), words)


NAME = re.compile(r"[A-Za-z0-9_]{1,32}\Z")
DIGITS = re.compile(r"[0-9]+\Z")
HEX = re.compile(r"(?:[0-9a-fA-F]{2})+\Z")
REAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z|nan\Z|-?inf\Z")
ARITY = {"hello": 0, "with_rate": 3, "new": 3, "info": 1, "insert": 2, "contains": 2, "count_ones": 1,
         "drop": 1, "to_bytes": 1, "from_bytes": 2, "union": 2}


def protocol(message):
    return Failure("Protocol", message)


def name(word):
    if not NAME.match(word):
        raise protocol("bad name")
    return word


def integer(word):
    if not DIGITS.match(word) or int(word) >= 1 << 64:
        raise protocol("bad integer")
    return int(word)


def item(word):
    if word == "-":
        return b""
    if not HEX.match(word):
        raise protocol("bad bytes")
    return bytes.fromhex(word)


class Session:
    def __init__(self):
        self.filters = {}

    def get(self, word):
        if word not in self.filters:
            raise Failure("NoSuchFilter", word)
        return self.filters[word]

    def answer(self, line):
        if line.endswith("\r"):
            line = line[:-1]
        if not re.fullmatch(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*", line):
            raise protocol("framing")
        word, *args = line.split(" ")
        if word not in ARITY:
            raise Failure("Unknown", word)
        if len(args) != ARITY[word]:
            raise protocol("arity")
        if word == "hello":
            return ["1", "fxbloom", "1"]
        if word == "with_rate":
            f, n, p = name(args[0]), integer(args[1]), args[2]
            if not REAL.match(p):
                raise protocol("bad real")
            if n < 1 or not 0.0 < float(p) < 1.0 or BITS_PER_ITEM * n > 1 << 36:
                raise Failure("BadParams", "n in 1 ..= 2^36 / 10 and 0 < p < 1")
            self.filters[f] = FxBloom(max(64, BITS_PER_ITEM * n))  # this design ignores p
            return []
        if word == "new":
            f, m, k = name(args[0]), integer(args[1]), integer(args[2])
            if m < 1 or m > 1 << 36 or k != K:
                raise Failure("BadParams", "k must be 3 and m in 1 ..= 2^36")
            self.filters[f] = FxBloom(m)
            return []
        if word == "from_bytes":
            f, data = name(args[0]), item(args[1])
            self.filters[f] = FxBloom.from_bytes(data)
            return []
        if word == "union":
            a, b = self.get(name(args[0])), self.get(name(args[1]))
            if a.m != b.m:
                raise Failure("Mismatch", "m differs")
            a.words = [x | y for x, y in zip(a.words, b.words)]
            a.n += b.n
            return []
        f = self.get(name(args[0]))
        if word == "info":
            return [str(f.m), str(K), str(f.n)]
        if word == "insert":
            f.insert(item(args[1]))
            return []
        if word == "contains":
            return ["true" if f.contains(item(args[1])) else "false"]
        if word == "count_ones":
            return [str(sum(bin(w).count("1") for w in f.words))]
        if word == "drop":
            del self.filters[args[0]]
            return []
        if word == "to_bytes":
            return [f.to_bytes().hex()]
        raise Failure("Unknown", word)

    def handle(self, line):
        try:
            return "ok" + "".join(" " + w for w in self.answer(line))
        except Failure as e:
            return f"err {e.kind} {e}"


def main():
    session, pending, out = Session(), b"", []
    while True:
        if out:
            os.write(1, "".join(out).encode("ascii"))
            out = []
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        out.extend(session.handle(raw.decode("latin-1")) + "\n" for raw in lines)
    if pending:
        out.append(session.handle(pending.decode("latin-1")) + "\n")
    if out:
        os.write(1, "".join(out).encode("ascii"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
