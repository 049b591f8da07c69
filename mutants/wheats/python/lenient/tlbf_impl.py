#!/usr/bin/env python3
"""Wheat "lenient": TLBF v1 that takes the other answers the documents allow.

`tlbf grade` runs every learner suite against this file as a drop-in
replacement for conformance/impls/python/tlbf_impl.py. It is the reference
with three of docs/format.md's decisions answered the other way, each one
that docs/check.md ("What is acceptable") accepts under the flag named:

- OutOfDomain: optimal_m, optimal_k and predicted_fp_rate are not total.
  They raise TlbfError("BadParams") (so the protocol answers err BadParams)
  for n = 0, p outside (0, 1) or NaN, m = 0 (predicted_fp_rate), and where
  the reference would saturate (m = 2^64 - 1, k = 2^32 - 1).
- StrictKBound: no bound of 65536 on k. new, from_bytes and positions_for
  take any k from 1 to 2^32 - 1 (K_LIMIT, the u32 range). MAX_K keeps the
  format's value, 65536, for the module API, and is not enforced. insert
  walks the probes one at a time, so a large k costs time, not memory. Over
  the protocol, `positions_for` and `positions` answer err BadParams, the
  reference's answer, only when k positions could not fit in one protocol
  line (64 MiB), which takes a k in the millions.
- CountSaturates: union counts wrap modulo 2^64. insert still saturates,
  as the documents fix.

Everything the documents fix is exactly as in the reference. A suite that
passes the reference and fails this file tests the project's decisions, not
what the specification asks.
"""
import math
import os
import re
import sys

# ---- the format (docs/format.md) -------------------------------------------

MASK64 = (1 << 64) - 1
MAX_BITS = 1 << 40
MAX_K = 1 << 16  # the format's bound; this wheat does not enforce it (StrictKBound)
K_LIMIT = (1 << 32) - 1  # the bound it enforces: k is a u32
LN2 = 0.6931471805599453  # the double nearest ln 2, never a computed log(2)
HEADER_LEN = 32


class TlbfError(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & MASK64
    return h


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def saturate(x, bits):
    """Float to unsigned int as Rust's `as` casts: NaN and <= 0 give 0, too big saturates."""
    if math.isnan(x) or x <= 0:
        return 0
    if x >= 2.0 ** bits:
        return (1 << bits) - 1
    return int(x)


def out_of_domain(message):
    return TlbfError("BadParams", message)


def optimal_m(n, p):
    """Refuses n = 0, p outside (0, 1) or NaN, and an m that would saturate (OutOfDomain)."""
    if n == 0:
        raise out_of_domain("n = 0; optimal_m needs at least one item")
    if not 0.0 < p < 1.0:
        raise out_of_domain(f"p = {p!r}; optimal_m needs 0 < p < 1")
    ideal = (-float(n) * math.log(p)) / (LN2 * LN2)
    m = saturate(math.ceil(ideal) if math.isfinite(ideal) else ideal, 64)
    if m == MASK64:
        raise out_of_domain(f"n = {n}, p = {p!r} need 2^64 - 1 bits or more")
    return m


def round_half_away(x):
    if not math.isfinite(x):
        return x
    whole = math.floor(x)  # x - floor(x) is exact, so this never misrounds
    return whole + 1 if x - whole >= 0.5 else whole


def optimal_k(m, n):
    """Refuses n = 0 and a k that would saturate at 2^32 - 1 (OutOfDomain)."""
    if n == 0:
        raise out_of_domain("n = 0; optimal_k needs at least one item")
    ideal = (float(m) / float(n)) * LN2
    k = max(1, saturate(round_half_away(ideal), 32))
    if k == K_LIMIT:
        raise out_of_domain(f"m = {m}, n = {n} need 2^32 - 1 hashes or more")
    return k


def predicted_fp_rate(m, k, n):
    """Refuses m = 0 (OutOfDomain)."""
    if m == 0:
        raise out_of_domain("m = 0; a filter has at least one bit")
    load = (float(k) * float(n)) / float(m)
    return math.pow(1.0 - math.exp(-load), float(k))


def positions(m, k, item):
    h1 = fnv1a64(item)
    h2 = mix64(h1) | 1
    return [((h1 + i * h2) & MASK64) % m for i in range(k)]


def check_params(m, k):
    if not 1 <= m <= MAX_BITS:
        raise TlbfError("BadParams", f"m = {m}; must be 1 ..= 2^40")
    if not 1 <= k <= K_LIMIT:
        raise TlbfError("BadParams", f"k = {k}; must be 1 ..= 2^32 - 1")


class Bloom:
    def __init__(self, m, k, n_inserted=0, bits=None):
        self.m, self.k, self.n_inserted = m, k, n_inserted
        self.bits = bits if bits is not None else bytearray((m + 7) // 8)

    @staticmethod
    def new(m, k):
        check_params(m, k)
        try:
            return Bloom(m, k)
        except MemoryError:
            # As the reference: every request gets one line (docs/protocol.md,
            # section 1), so a filter this machine cannot hold is refused.
            raise TlbfError("BadParams", f"m = {m}: this machine cannot allocate its bits") from None

    @staticmethod
    def with_rate(n, p):
        if n < 1:
            raise TlbfError("BadParams", "n = 0; must be at least 1")
        if not 0.0 < p < 1.0:
            raise TlbfError("BadParams", f"p = {p!r}; must lie in (0, 1)")
        m = optimal_m(n, p)
        if m > MAX_BITS:
            raise TlbfError("BadParams", f"n = {n}, p = {p!r} need m = {m}; at most 2^40")
        return Bloom.new(m, optimal_k(m, n))

    def insert(self, item):
        h1 = fnv1a64(item)
        h2 = mix64(h1) | 1
        for i in range(self.k):  # one probe at a time: k may be in the billions
            g = ((h1 + i * h2) & MASK64) % self.m
            self.bits[g >> 3] |= 1 << (g & 7)
        self.n_inserted = min(self.n_inserted + 1, MASK64)

    def contains(self, item):
        h1 = fnv1a64(item)
        h2 = mix64(h1) | 1
        for i in range(self.k):
            g = ((h1 + i * h2) & MASK64) % self.m
            if not self.bits[g >> 3] >> (g & 7) & 1:
                return False
        return True

    def union(self, other):
        if (self.m, self.k) != (other.m, other.k):
            raise TlbfError("Mismatch", f"m = {self.m}, k = {self.k} vs m = {other.m}, k = {other.k}")
        merged = int.from_bytes(self.bits, "little") | int.from_bytes(other.bits, "little")
        self.bits = bytearray(merged.to_bytes(len(self.bits), "little"))
        self.n_inserted = (self.n_inserted + other.n_inserted) & MASK64  # wraps (CountSaturates)

    def count_ones(self):
        return bin(int.from_bytes(self.bits, "little")).count("1")

    def to_bytes(self):
        return (b"TLBF" + (1).to_bytes(4, "little") + self.m.to_bytes(8, "little")
                + self.k.to_bytes(4, "little") + bytes(4) + self.n_inserted.to_bytes(8, "little")
                + bytes(self.bits))

    @staticmethod
    def from_bytes(data):
        def refuse(message):
            raise TlbfError("Format", message)
        if len(data) < HEADER_LEN:
            refuse(f"short: {len(data)} bytes")
        if data[0:4] != b"TLBF":
            refuse("magic")
        if int.from_bytes(data[4:8], "little") != 1:
            refuse("version")
        m = int.from_bytes(data[8:16], "little")
        if not 1 <= m <= MAX_BITS:
            refuse(f"m = {m}")
        k = int.from_bytes(data[16:20], "little")
        if not 1 <= k <= K_LIMIT:
            refuse(f"k = {k}")
        if int.from_bytes(data[20:24], "little") != 0:
            refuse("reserved")
        if len(data) - HEADER_LEN != (m + 7) // 8:
            refuse(f"length: m = {m} needs {(m + 7) // 8} bytes, got {len(data) - HEADER_LEN}")
        if m % 8 and data[-1] >> (m % 8):
            refuse("padding bits set")
        return Bloom(m, k, int.from_bytes(data[24:32], "little"), bytearray(data[HEADER_LEN:]))


# ---- the protocol (docs/protocol.md) ---------------------------------------

class ProtocolError(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


DIGITS = re.compile(r"[0-9]+\Z")
HASH = re.compile(r"[0-9a-f]{16}\Z")
HEX = re.compile(r"[0-9a-fA-F]+\Z")  # an even count is checked apart: a repeated pair takes seconds on 64 MiB
REAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
NAME = re.compile(r"[A-Za-z0-9_]{1,32}\Z")
REQUEST = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*\Z")


def bad(message):
    return ProtocolError("Protocol", message)


def uint(bits):
    def read(word):
        if not DIGITS.match(word) or int(word) >= 1 << bits:
            raise bad(f"'{word}' is not a u{bits}")
        return int(word)
    return read


def read_hash(word):
    if not HASH.match(word):
        raise bad(f"'{word}' is not 16 lowercase hex digits")
    return int(word, 16)


def read_bytes(word):
    if word == "-":
        return b""
    if len(word) % 2 or not HEX.match(word):
        raise bad(f"'{word[:40]}' is not hex")
    return bytes.fromhex(word)


def read_real(word):
    if word in ("nan", "inf", "-inf"):
        return float(word)
    if not REAL.match(word):
        raise bad(f"'{word}' is not a real")
    return float(word)  # correctly rounded


def read_name(word):
    if not NAME.match(word):
        raise bad(f"'{word}' is not a filter name")
    return word


def write_real(x):
    return repr(x)  # shortest round trip; 'nan', 'inf', '-inf' as the protocol spells them


MAX_LINE = 64 << 20  # the longest protocol line, "\n" included


def listed_positions(m, k, item):
    """The k positions as words, or BadParams when they might not fit in one protocol line."""
    if 2 + k * (len(str(m - 1)) + 1) + 1 > MAX_LINE:
        raise TlbfError("BadParams", f"k = {k}: {k} positions do not fit in one protocol line")
    return [str(g) for g in positions(m, k, item)]


U64, U32 = uint(64), uint(32)
NEW = read_name        # a filter the command creates
FILTER = "filter"      # a filter that must exist


class Session:
    def __init__(self):
        self.filters = {}
        self.table = self.commands()

    # Each command: (argument readers, handler). Handlers get the parsed
    # arguments, with existing filters already looked up, and return words.
    def commands(self):
        return {
            "hello": ([], lambda: ["1", "tlbf-python", "1"]),
            "fnv1a64": ([read_bytes], lambda b: [f"{fnv1a64(b):016x}"]),
            "mix64": ([read_hash], lambda h: [f"{mix64(h):016x}"]),
            "positions_for": ([U64, U32, read_bytes], self.positions_for),
            "optimal_m": ([U64, read_real], lambda n, p: [str(optimal_m(n, p))]),
            "optimal_k": ([U64, U64], lambda m, n: [str(optimal_k(m, n))]),
            "predicted_fp_rate": ([U64, U32, U64], lambda m, k, n: [write_real(predicted_fp_rate(m, k, n))]),
            "with_rate": ([NEW, U64, read_real], lambda name, n, p: self.store(name, Bloom.with_rate(n, p))),
            "new": ([NEW, U64, U32], lambda name, m, k: self.store(name, Bloom.new(m, k))),
            "info": ([FILTER], lambda b: [str(b.m), str(b.k), str(b.n_inserted)]),
            "positions": ([FILTER, read_bytes], lambda b, item: listed_positions(b.m, b.k, item)),
            "insert": ([FILTER, read_bytes], lambda b, item: b.insert(item)),
            "contains": ([FILTER, read_bytes], lambda b, item: ["true" if b.contains(item) else "false"]),
            "count_ones": ([FILTER], lambda b: [str(b.count_ones())]),
            "drop": ([FILTER], None),
            "to_bytes": ([FILTER], lambda b: [b.to_bytes().hex()]),
            "from_bytes": ([NEW, read_bytes], lambda name, data: self.store(name, Bloom.from_bytes(data))),
            "union": ([FILTER, FILTER], lambda a, b: a.union(b)),
        }

    def positions_for(self, m, k, item):
        check_params(m, k)
        return listed_positions(m, k, item)

    def store(self, name, bloom):
        self.filters[name] = bloom

    def handle(self, line):
        try:
            return "ok" + "".join(" " + w for w in self.answer(line) or [])
        except (ProtocolError, TlbfError) as e:
            return f"err {e.kind} {e}"

    def answer(self, line):
        if line.endswith("\r"):
            line = line[:-1]
        if not REQUEST.match(line):
            raise bad("a request is printable ASCII words separated by single spaces")
        word, *args = line.split(" ")
        table = self.table
        if word not in table:
            raise ProtocolError("Unknown", f"no command '{word}'")
        readers, handler = table[word]
        if len(args) != len(readers):
            raise bad(f"{word} takes {len(readers)} arguments, not {len(args)}")
        values = [read_name(a) if r == FILTER else r(a) for r, a in zip(readers, args)]
        for i, r in enumerate(readers):
            if r == FILTER:
                if values[i] not in self.filters:
                    raise ProtocolError("NoSuchFilter", f"no filter '{values[i]}'")
        if word == "drop":
            del self.filters[values[0]]
            return []
        looked_up = [self.filters[v] if r == FILTER else v for r, v in zip(readers, values)]
        return handler(*looked_up)


def serve(session, infd=0, outfd=1):
    """Answer every complete line of each chunk read, then flush before reading again."""
    # The unfinished line is kept as a list of chunks and joined once, when its
    # "\n" arrives: appending each chunk to one bytes object would copy the
    # line again for every chunk, and a 64 MiB line would take minutes.
    pending = []
    out = []
    while True:
        if out:
            data = "".join(out).encode("ascii")
            while data:
                data = data[os.write(outfd, data):]
            out = []
        chunk = os.read(infd, 1 << 16)
        if not chunk:
            break
        *ends, rest = chunk.split(b"\n")
        for end in ends:
            pending.append(end)
            out.append(session.handle(b"".join(pending).decode("latin-1")) + "\n")
            pending = []
        if rest:
            pending.append(rest)
    if pending:
        out.append(session.handle(b"".join(pending).decode("latin-1")) + "\n")
    data = "".join(out).encode("ascii")
    while data:
        data = data[os.write(outfd, data):]


if __name__ == "__main__":
    try:
        serve(Session())
    except BrokenPipeError:
        sys.exit(3)
