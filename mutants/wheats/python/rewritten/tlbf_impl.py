#!/usr/bin/env python3
"""Wheat "rewritten": TLBF v1 and line protocol v1, written a second time.

`tlbf grade` runs every learner suite against this file as a drop-in
replacement for conformance/impls/python/tlbf_impl.py. It gives exactly the
reference's answers, through its public module API and over the protocol,
but shares none of its text: a suite that passes the reference and fails
this file depends on how the reference is written (its source bytes, line
numbers, private helpers, internal representation), not on what it does.

How it differs inside, with the same behaviour outside:

- The bits live in a sparse dict of 64-bit words (word index -> nonzero
  word), not a bytearray; `Bloom.bits` is a read-only view built on demand
  (bytes of length ceil(m / 8)). So `new` allocates nothing, even for m = 2^40.
- Positions come from a running sum `h = (h + h2) mod 2^64`, not from
  `h1 + i * h2`; union ORs word by word in a loop; popcount is per word.
- The header is packed and unpacked with `struct`.
- The protocol is parsed by hand-written scanners (no regular expressions),
  dispatched through a table of argument signatures to `_cmd_*` methods, and
  read with a growing bytearray instead of a list of chunks.
- Error messages are worded differently; error kinds are the same.
- Only the documented module API is kept (constants, TlbfError, fnv1a64,
  mix64, optimal_m, optimal_k, predicted_fp_rate, positions, check_params,
  Bloom). The reference's private helpers and its Session class are absent.
"""
import math
import os
import struct
import sys

MASK64 = (1 << 64) - 1
MAX_BITS = 1 << 40
MAX_K = 1 << 16
LN2 = 0.6931471805599453  # literal: the double closest to ln 2 (docs/format.md, section 7)
HEADER_LEN = 32

_U32_TOP = (1 << 32) - 1
_TWO64 = 1 << 64
_FNV_BASIS = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MIX_ROUNDS = ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB))
_HEADER = struct.Struct("<4sIQIIQ")  # magic, version, m, k, reserved, n_inserted
_MAGIC = b"TLBF"


class TlbfError(Exception):
    """A refusal from the format: kind is BadParams, Mismatch or Format."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


# ---------------------------------------------------------------- hashing

def fnv1a64(data):
    """FNV-1a, 64 bits: xor each octet in, then multiply, modulo 2^64."""
    acc = _FNV_BASIS
    for octet in data:
        acc ^= octet
        acc = acc * _FNV_PRIME % _TWO64
    return acc


def mix64(z):
    """The SplitMix64 finalizer (no increment): two xor-shift-multiply rounds, one xor-shift."""
    for shift, factor in _MIX_ROUNDS:
        z = ((z ^ (z >> shift)) * factor) & MASK64
    return z ^ (z >> 31)


def _probe_start(item):
    first = fnv1a64(item)
    return first, mix64(first) | 1


def _probes(m, k, item):
    """Yields g_0 .. g_(k-1), keeping the sum in a wrapping 64-bit register."""
    h, step = _probe_start(item)
    for _ in range(k):
        yield h % m
        h = (h + step) & MASK64


def positions(m, k, item):
    return list(_probes(m, k, item))


# ---------------------------------------------------------------- sizing

def _natural_log(x):
    # IEEE answers where math.log would raise.
    if x > 0 or x != x:
        return math.log(x)
    return -math.inf if x == 0 else math.nan


def _to_unsigned(x, width):
    """A double to an unsigned integer of `width` bits, the way Rust's `as` casts."""
    if not x > 0:  # NaN, zero and negatives
        return 0
    top = (1 << width) - 1
    if x >= top + 1:
        return top
    return int(x)


def optimal_m(n, p):
    ideal = -(float(n) * _natural_log(p)) / (LN2 * LN2)
    if math.isfinite(ideal):
        ideal = math.ceil(ideal)
    return _to_unsigned(ideal, 64)


def optimal_k(m, n):
    if n == 0:
        # m / 0 is +inf (k saturates), except 0 / 0, which is NaN (k is 0, then 1).
        return 1 if m == 0 else _U32_TOP
    ideal = (float(m) / float(n)) * LN2
    fraction, whole = math.modf(ideal)  # both exact
    rounded = int(whole) + (1 if fraction >= 0.5 else 0)
    return max(1, _to_unsigned(rounded, 32))


def predicted_fp_rate(m, k, n):
    if m != 0:
        load = (float(k) * float(n)) / float(m)
    elif k == 0 or n == 0:
        load = math.nan  # 0 / 0
    else:
        load = math.inf
    return math.pow(1.0 - math.exp(-load), float(k))


def check_params(m, k):
    if m < 1 or m > MAX_BITS:
        raise TlbfError("BadParams", "bits %d out of range 1..2^40" % m)
    if k < 1 or k > MAX_K:
        raise TlbfError("BadParams", "hash count %d out of range 1..65536" % k)


# ---------------------------------------------------------------- the filter

class Bloom:
    """A TLBF v1 filter; the bits are a sparse map of 64-bit words."""

    def __init__(self, m, k, n_inserted=0, bits=None):
        self.m = m
        self.k = k
        self.n_inserted = n_inserted
        self._words = {}
        if bits is not None:
            self.bits = bits

    # -- the bits as bytes, bit g at byte g // 8, bit g % 8

    @property
    def bits(self):
        size = (self.m + 7) // 8
        out = bytearray(((size + 7) // 8) * 8)
        for index, word in self._words.items():
            out[index * 8:index * 8 + 8] = word.to_bytes(8, "little")
        return bytes(out[:size])

    @bits.setter
    def bits(self, raw):
        raw = bytes(raw)
        raw += bytes(-len(raw) % 8)
        self._words = {i: w for i, (w,) in enumerate(struct.iter_unpack("<Q", raw)) if w}

    # -- constructors

    @classmethod
    def new(cls, m, k):
        check_params(m, k)
        return cls(m, k)

    @classmethod
    def with_rate(cls, n, p):
        if not n >= 1:
            raise TlbfError("BadParams", "need at least one item, got n = %d" % n)
        if not (p > 0.0 and p < 1.0):
            raise TlbfError("BadParams", "rate %r is not strictly between 0 and 1" % p)
        m = optimal_m(n, p)
        if m > MAX_BITS:
            raise TlbfError("BadParams", "%d bits needed, more than 2^40" % m)
        return cls.new(m, optimal_k(m, n))

    @staticmethod
    def from_bytes(data):
        data = bytes(data)
        if len(data) < HEADER_LEN:
            raise TlbfError("Format", "only %d bytes, no header" % len(data))
        magic, version, m, k, reserved, count = _HEADER.unpack_from(data)
        problem = None
        if magic != _MAGIC:
            problem = "not a TLBF file"
        elif version != 1:
            problem = "version %d" % version
        elif m < 1 or m > MAX_BITS:
            problem = "header m %d" % m
        elif k < 1 or k > MAX_K:
            problem = "header k %d" % k
        elif reserved:
            problem = "reserved field %d" % reserved
        elif len(data) != HEADER_LEN + (m + 7) // 8:
            problem = "%d bit bytes where m needs %d" % (len(data) - HEADER_LEN, (m + 7) // 8)
        elif m % 8 and data[-1] >> (m % 8):
            problem = "bits past m are set"
        if problem:
            raise TlbfError("Format", problem)
        return Bloom(m, k, count, data[HEADER_LEN:])

    # -- operations

    def insert(self, item):
        words = self._words
        for g in _probes(self.m, self.k, item):
            words[g >> 6] = words.get(g >> 6, 0) | (1 << (g & 63))
        self.n_inserted = min(MASK64, self.n_inserted + 1)

    def contains(self, item):
        words = self._words
        return all(words.get(g >> 6, 0) >> (g & 63) & 1 for g in _probes(self.m, self.k, item))

    def union(self, other):
        if self.m != other.m or self.k != other.k:
            raise TlbfError("Mismatch", "(%d, %d) against (%d, %d)" % (self.m, self.k, other.m, other.k))
        mine = self._words
        for index, word in list(other._words.items()):
            mine[index] = mine.get(index, 0) | word
        self.n_inserted = min(MASK64, self.n_inserted + other.n_inserted)

    def count_ones(self):
        return sum(word.bit_count() for word in self._words.values())

    def to_bytes(self):
        return _HEADER.pack(_MAGIC, 1, self.m, self.k, 0, self.n_inserted) + self.bits


# ---------------------------------------------------------------- protocol v1

class _Refused(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def _malformed(message):
    return _Refused("Protocol", message)


_DECIMAL = frozenset("0123456789")
_LOWER_HEX = frozenset("0123456789abcdef")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_PRINTABLE = bytes(range(0x20, 0x7F))


def _shown(word):
    return word if len(word) <= 40 else word[:40] + "..."


def _parse_unsigned(word, width):
    if not word or not _DECIMAL.issuperset(word):
        raise _malformed("%s: want decimal digits" % _shown(word))
    digits = word.lstrip("0")
    if len(digits) > 20 or int(digits or "0") >> width:
        raise _malformed("%s: too big for %d bits" % (_shown(word), width))
    return int(digits or "0")


def _count_digits(word, at):
    end = at
    while end < len(word) and word[end] in _DECIMAL:
        end += 1
    return end


def _parse_real(word):
    """`-`? digits [`.` digits] | `-`? `.` digits, then an optional exponent; or nan, inf, -inf."""
    if word in ("nan", "inf", "-inf"):
        return float(word)
    at = 1 if word[:1] == "-" else 0
    after_int = _count_digits(word, at)
    mantissa_digits = after_int - at
    at = after_int
    if word[at:at + 1] == ".":
        after_frac = _count_digits(word, at + 1)
        mantissa_digits += after_frac - at - 1
        at = after_frac
    if mantissa_digits == 0:
        raise _malformed("%s: not a decimal number" % _shown(word))
    if word[at:at + 1] in ("e", "E"):
        at += 1
        if word[at:at + 1] in ("+", "-"):
            at += 1
        after_exp = _count_digits(word, at)
        if after_exp == at:
            raise _malformed("%s: exponent without digits" % _shown(word))
        at = after_exp
    if at != len(word):
        raise _malformed("%s: not a decimal number" % _shown(word))
    return float(word)


def _parse_hash(word):
    if len(word) != 16 or not _LOWER_HEX.issuperset(word):
        raise _malformed("%s: want 16 lowercase hex digits" % _shown(word))
    return int(word, 16)


def _parse_bytes(word):
    if word == "-":
        return b""
    if len(word) % 2 == 0:
        try:
            return bytes.fromhex(word)  # the word holds no whitespace, so only hex digits pass
        except ValueError:
            pass
    raise _malformed("%s: want pairs of hex digits" % _shown(word))


def _parse_name(word):
    if not 1 <= len(word) <= 32 or not _NAME_CHARS.issuperset(word):
        raise _malformed("%s: filter names are 1 to 32 of A-Z a-z 0-9 _" % _shown(word))
    return word


# One letter per argument: u = u64, w = u32, h = hash, b = bytes, r = real,
# c = the name of a filter the command creates, f = a filter that must exist.
_PARSERS = {
    "u": lambda w: _parse_unsigned(w, 64),
    "w": lambda w: _parse_unsigned(w, 32),
    "h": _parse_hash,
    "b": _parse_bytes,
    "r": _parse_real,
    "c": _parse_name,
    "f": _parse_name,
}

_SIGNATURES = {
    "hello": "", "fnv1a64": "b", "mix64": "h", "positions_for": "uwb",
    "optimal_m": "ur", "optimal_k": "uu", "predicted_fp_rate": "uwu",
    "with_rate": "cur", "new": "cuw", "from_bytes": "cb",
    "info": "f", "positions": "fb", "insert": "fb", "contains": "fb",
    "count_ones": "f", "drop": "f", "to_bytes": "f", "union": "ff",
}


class Server:
    """One protocol session: a line in, a line out, filters kept by name."""

    def __init__(self):
        self._filters = {}

    def reply(self, raw):
        """The response line (without its newline) to one request line, given as bytes."""
        try:
            values = self._execute(raw)
        except (_Refused, TlbfError) as refusal:
            return "err %s %s" % (refusal.kind, refusal)
        return " ".join(["ok"] + [str(v) for v in values])

    def _execute(self, raw):
        if raw[-1:] == b"\r":
            raw = raw[:-1]
        if raw.translate(None, _PRINTABLE):
            raise _malformed("request has a byte outside printable ASCII")
        words = raw.decode("ascii").split(" ")
        if "" in words:
            raise _malformed("request must be words separated by single spaces")
        command, arguments = words[0], words[1:]
        signature = _SIGNATURES.get(command)
        if signature is None:
            raise _Refused("Unknown", "unknown command %s" % _shown(command))
        if len(arguments) != len(signature):
            raise _malformed("%s wants %d arguments, got %d" % (command, len(signature), len(arguments)))
        parsed = [_PARSERS[letter](word) for letter, word in zip(signature, arguments)]
        for letter, value in zip(signature, parsed):
            if letter == "f" and value not in self._filters:
                raise _Refused("NoSuchFilter", "%s does not exist" % value)
        parsed = [self._filters[v] if letter == "f" else v for letter, v in zip(signature, parsed)]
        if command == "drop":
            del self._filters[arguments[0]]
            return []
        return getattr(self, "_cmd_" + command)(*parsed) or []

    # -- hashing
    def _cmd_hello(self):
        return [1, "tlbf-python", 1]

    def _cmd_fnv1a64(self, item):
        return ["%016x" % fnv1a64(item)]

    def _cmd_mix64(self, value):
        return ["%016x" % mix64(value)]

    def _cmd_positions_for(self, m, k, item):
        check_params(m, k)
        return positions(m, k, item)

    # -- sizing
    def _cmd_optimal_m(self, n, p):
        return [optimal_m(n, p)]

    def _cmd_optimal_k(self, m, n):
        return [optimal_k(m, n)]

    def _cmd_predicted_fp_rate(self, m, k, n):
        return [repr(predicted_fp_rate(m, k, n))]  # repr: the shortest decimal that reads back

    # -- filters
    def _cmd_with_rate(self, name, n, p):
        self._filters[name] = Bloom.with_rate(n, p)

    def _cmd_new(self, name, m, k):
        self._filters[name] = Bloom.new(m, k)

    def _cmd_from_bytes(self, name, data):
        self._filters[name] = Bloom.from_bytes(data)

    def _cmd_info(self, bloom):
        return [bloom.m, bloom.k, bloom.n_inserted]

    def _cmd_positions(self, bloom, item):
        return positions(bloom.m, bloom.k, item)

    def _cmd_insert(self, bloom, item):
        bloom.insert(item)

    def _cmd_contains(self, bloom, item):
        return ["true" if bloom.contains(item) else "false"]

    def _cmd_count_ones(self, bloom):
        return [bloom.count_ones()]

    def _cmd_to_bytes(self, bloom):
        return [bloom.to_bytes().hex()]

    def _cmd_union(self, left, right):
        left.union(right)


def _write_all(fd, text):
    data = text.encode("ascii")
    while data:
        data = data[os.write(fd, data):]


def run(server, source=None, fd_out=1):
    """Reads whatever input is there, answers every whole line, writes the answers, reads on."""
    source = source or sys.stdin.buffer
    pending = bytearray()
    searched = 0  # no newline in pending[:searched]
    while True:
        chunk = source.read1(1 << 16)
        if not chunk:
            break
        pending += chunk
        answers = []
        start = 0
        while True:
            end = pending.find(b"\n", max(start, searched))
            if end < 0:
                break
            answers.append(server.reply(bytes(pending[start:end])) + "\n")
            start = end + 1
        if start:
            del pending[:start]
        searched = len(pending)
        if answers:
            _write_all(fd_out, "".join(answers))
    if pending:  # a last line without its newline is still a request
        _write_all(fd_out, server.reply(bytes(pending)) + "\n")


def main():
    try:
        run(Server())
    except BrokenPipeError:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
