"""A Bloom filter with the course's API (the seed's section 4) in Python's
spelling, written for the tests of `tlbf check --python-module`: methods m(),
k() and n_inserted(), a BloomError with one subclass per kind, bits in a
Python int. It shares no code with the bundled implementation."""
import math

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MAX_BITS = 1 << 40
MAX_K = 1 << 16
# Its bits are one Python int, which an insert near bit 2^40 would make 128
# GiB: a filter of more bits than this it cannot hold, and refuses
# (BadParams), as docs/format.md allows one that cannot be allocated.
HOLDS_AT_MOST = 1 << 35
HEADER_LEN = 32
U64 = (1 << 64) - 1
LN2 = 0.6931471805599453


class BloomError(Exception):
    pass


class BadParams(BloomError):
    pass


class Mismatch(BloomError):
    pass


class Format(BloomError):
    pass


def fnv1a64(data):
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & U64
    return h


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & U64
    return z ^ (z >> 31)


def _as_unsigned(x, bits):
    """Rust's float-to-int `as`: NaN and negatives give 0, too big saturates."""
    if x != x or x <= 0:
        return 0
    if x >= 2.0 ** bits:
        return (1 << bits) - 1
    return int(x)


def _log(p):
    if p > 0 or p != p:
        return math.log(p)
    return float("-inf") if p == 0 else float("nan")


def optimal_m(n, p):
    ideal = -float(n) * _log(p) / (LN2 * LN2)
    if ideal != ideal or ideal in (float("inf"), float("-inf")):
        return _as_unsigned(ideal, 64)
    return _as_unsigned(math.ceil(ideal), 64)


def optimal_k(m, n):
    if n == 0:
        ideal = float("nan") if m == 0 else float("inf")
    else:
        ideal = float(m) / float(n) * LN2
    if ideal == ideal and ideal not in (float("inf"), float("-inf")):
        ideal = math.floor(ideal + 0.5) if ideal >= 0 else -math.floor(-ideal + 0.5)
    return max(1, _as_unsigned(ideal, 32))


def predicted_fp_rate(m, k, n):
    # -k n / m in IEEE doubles: 0 / 0 is NaN, x / 0 is -inf; NaN ** 0 is 1.
    if m == 0:
        load = float("nan") if k * n == 0 else float("-inf")
    else:
        load = -float(k) * float(n) / float(m)
    return (1.0 - math.exp(load)) ** float(k)


class Bloom:
    def __init__(self, m, k, n_inserted=0, bits=0):
        if not 1 <= m <= MAX_BITS:
            raise BadParams(f"m = {m}")
        if not 1 <= k <= MAX_K:
            raise BadParams(f"k = {k}")
        self._m, self._k, self._n, self._bits = m, k, n_inserted, bits

    @classmethod
    def new(cls, m, k):
        if m > HOLDS_AT_MOST:
            raise BadParams(f"m = {m}: more bits than this filter can hold")
        return cls(m, k)

    @classmethod
    def with_rate(cls, n, p):
        if n == 0 or not 0.0 < p < 1.0:
            raise BadParams(f"n = {n}, p = {p}")
        m = optimal_m(n, p)
        return cls.new(m, optimal_k(m, n))

    def m(self):
        return self._m

    def k(self):
        return self._k

    def n_inserted(self):
        return self._n

    def bit_positions(self, item):
        h1 = fnv1a64(item)
        h2 = mix64(h1) | 1
        return [((h1 + i * h2) & U64) % self._m for i in range(self._k)]

    def insert(self, item):
        for g in self.bit_positions(item):
            self._bits |= 1 << g
        self._n = min(self._n + 1, U64)

    def contains(self, item):
        return all(self._bits >> g & 1 for g in self.bit_positions(item))

    def union(self, other):
        if self._m != other._m or self._k != other._k:
            raise Mismatch("m or k differ")
        self._bits |= other._bits
        self._n = min(self._n + other._n, U64)

    def count_ones(self):
        return self._bits.bit_count()  # bin() of a filter of 2^31 bits is a string of 2 GB

    def to_bytes(self):
        nbytes = (self._m + 7) // 8
        return (b"TLBF" + (1).to_bytes(4, "little") + self._m.to_bytes(8, "little") + self._k.to_bytes(4, "little")
                + bytes(4) + self._n.to_bytes(8, "little") + self._bits.to_bytes(nbytes, "little"))

    @classmethod
    def from_bytes(cls, b):
        if len(b) < HEADER_LEN:
            raise Format("short")
        if b[:4] != b"TLBF" or int.from_bytes(b[4:8], "little") != 1:
            raise Format("magic or version")
        m = int.from_bytes(b[8:16], "little")
        k = int.from_bytes(b[16:20], "little")
        if not 1 <= m <= MAX_BITS or not 1 <= k <= MAX_K:
            raise Format(f"m = {m}, k = {k}")
        if int.from_bytes(b[20:24], "little") != 0:
            raise Format("reserved")
        if len(b) - HEADER_LEN != (m + 7) // 8:
            raise Format("length")
        bits = int.from_bytes(b[HEADER_LEN:], "little")
        if bits >> m:
            raise Format("padding")
        return cls(m, k, int.from_bytes(b[24:32], "little"), bits)
