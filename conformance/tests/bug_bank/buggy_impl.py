#!/usr/bin/env python3
"""The bug bank: the bundled Python implementation with one realistic bug.

Usage: buggy_impl.py BUG [TAG]    serve line protocol v1 with bug BUG ("none": no bug)
       buggy_impl.py --catalog    print the catalog as JSON

Each bug is one a programmer porting TLBF v1 from docs/format.md and
docs/protocol.md could make, and each changes an answer those pages fix. The
catalog (BUGS below, the one list of them) gives each bug's family, what it
does, and the `tlbf check` cases expected to catch it; `deterministic: False`
marks a bug that only the random request sequences or the behavioural checks
can catch. CONTROLS are changes that alter no answer the pages fix (or only
answers they call acceptable): `tlbf check` must pass them.
docs/check.md, "The bug bank", says how to add a bug. TAG is ignored.
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "impls", "python"))
import tlbf_impl as impl  # noqa: E402

BUGS = {}
CONTROLS = {}


def bug(bug_id, family, description, caught_by, deterministic=True, model=False, group=None):
    """model: the random request sequences alone (--filter 'model/*') must catch it at every seed.
    group: a glob of cases outside the default check (large/*) that catches it, run with --filter."""
    def register(patch):
        BUGS[bug_id] = {"id": bug_id, "family": family, "description": description,
                        "caught_by": caught_by, "deterministic": deterministic, "model": model, "group": group,
                        "patch": patch}
        return patch
    return register


def control(control_id, description):
    def register(patch):
        CONTROLS[control_id] = {"id": control_id, "description": description, "patch": patch}
        return patch
    return register


B = impl.Bloom
MASK = impl.MASK64
# Switches read by BuggySession and serve() below, set by a patch.
FLAGS = set()


# ---- 1. request parsing and validation --------------------------------------

@bug("hex_uppercase_refused", "request", "items must be lowercase hex; uppercase digits are refused",
     ["protocol/bytes/uppercase_accepted"])
def _():
    impl.HEX = re.compile(r"[0-9a-f]+\Z")


@bug("hex_odd_digits_padded", "request", "an odd number of hex digits is read with a leading 0 added",
     ["protocol/bytes/odd_digits_refused"])
def _():
    original = impl.read_bytes
    impl.read_bytes = lambda w: original("0" + w if w != "-" and len(w) % 2 else w)


@bug("hex_stops_at_non_hex", "request", "hex is decoded pair by pair up to the first non-hex pair (sscanf-style); the rest is ignored",
     ["protocol/bytes/non_hex_refused"])
def _():
    def read_bytes(word):
        if word == "-":
            return b""
        out = bytearray()
        for i in range(0, len(word) - 1, 2):
            if not re.fullmatch(r"[0-9a-fA-F]{2}", word[i:i + 2]):
                break
            out.append(int(word[i:i + 2], 16))
        return bytes(out)
    impl.read_bytes = read_bytes


def set_uint(reader_for_bits):
    impl.U64, impl.U32 = reader_for_bits(64), reader_for_bits(32)


@bug("int_builtin", "request", "integers are read with Python's int(): '+5', '1_000' and ' 5' are accepted",
     ["protocol/integers/plus_sign_refused", "protocol/integers/underscore_refused"])
def _():
    def uint(bits):
        def read(word):
            try:
                value = int(word)
            except ValueError:
                raise impl.bad(f"'{word}' is not an integer")
            if not 0 <= value < 1 << bits:
                raise impl.bad(f"'{word}' out of range")
            return value
        return read
    set_uint(uint)


@bug("int_base_prefix", "request", "integers are read with int(word, 0): '0x14' is accepted and '020' refused",
     ["protocol/integers/hex_prefix_refused", "protocol/integers/leading_zeros_accepted"])
def _():
    def uint(bits):
        def read(word):
            try:
                value = int(word, 0)
            except ValueError:
                raise impl.bad(f"'{word}' is not an integer")
            if not 0 <= value < 1 << bits:
                raise impl.bad(f"'{word}' out of range")
            return value
        return read
    set_uint(uint)


@bug("int_leading_zero_refused", "request", "integers with a leading zero ('007') are refused as not canonical",
     ["protocol/integers/leading_zeros_accepted"])
def _():
    def uint(bits):
        plain = impl.uint(bits)
        def read(word):
            if len(word) > 1 and word[0] == "0":
                raise impl.bad(f"'{word}' has a leading zero")
            return plain(word)
        return read
    set_uint(uint)


@bug("int_via_double", "request", "integers go through a double (JavaScript's Number): '2e1' and '20.0' are accepted, and 2^64 - 1 rounds to 2^64 and is refused",
     ["protocol/integers/exponent_refused", "protocol/integers/u64_max_accepted"])
def _():
    def uint(bits):
        def read(word):
            try:
                value = float(word)
            except ValueError:
                raise impl.bad(f"'{word}' is not a number")
            if not (value == value and 0 <= value < 2.0 ** bits and value == int(value)):
                raise impl.bad(f"'{word}' out of range")
            return int(value)
        return read
    set_uint(uint)


@bug("u64_saturates", "request", "integers above 2^64 - 1 are read as 2^64 - 1 (strtoull)",
     ["protocol/integers/u64_overflow_refused"])
def _():
    def uint(bits):
        def read(word):
            if not impl.DIGITS.match(word):
                raise impl.bad(f"'{word}' is not a u{bits}")
            return min(int(word), (1 << bits) - 1)
        return read
    set_uint(uint)


@bug("u64_wraps", "request", "integers are taken modulo 2^64 (and k modulo 2^32), as a hand-written digit loop wraps",
     ["protocol/integers/u64_overflow_refused"])
def _():
    def uint(bits):
        def read(word):
            if not impl.DIGITS.match(word):
                raise impl.bad(f"'{word}' is not a u{bits}")
            return int(word) % (1 << bits)
        return read
    set_uint(uint)


@bug("int_at_most_20_chars", "request", "an integer of more than 20 characters is refused before it is read, leading zeros or not",
     ["protocol/integers/many_leading_zeros_accepted"])
def _():
    def uint(bits):
        plain = impl.uint(bits)
        def read(word):
            if len(word) > 20:
                raise impl.bad(f"'{word}' is too long for a u{bits}")
            return plain(word)
        return read
    set_uint(uint)


def read_argument_as_u32(command, position):
    """The command's argument at `position` is read as a u32, as if its type were k's."""
    original = impl.Session.commands
    def commands(self):
        table = original(self)
        readers, handler = table[command]
        table[command] = (readers[:position] + [impl.uint(32)] + readers[position + 1:], handler)
        return table
    impl.Session.commands = commands


@bug("new_m_read_as_u32", "request", "new reads m as a u32: m = 2^40 + 1 is Protocol, not BadParams",
     ["protocol/integers/u64_m_and_n_beyond_u32"])
def _():
    read_argument_as_u32("new", 1)


@bug("with_rate_n_read_as_u32", "request", "with_rate reads n as a u32: n = 2^32 is Protocol, not BadParams",
     ["protocol/integers/u64_m_and_n_beyond_u32"])
def _():
    read_argument_as_u32("with_rate", 1)


@bug("k_read_as_u64", "request", "k is read as a u64: k = 2^32 is BadParams (or a rate) instead of Protocol",
     ["protocol/integers/u32_overflow_refused"])
def _():
    impl.U32 = impl.uint(64)


@bug("k_truncated_to_u32", "request", "k is read as a u64 and cast to u32: 2^32 + 1 becomes 1",
     ["protocol/integers/u32_overflow_refused"])
def _():
    wide = impl.uint(64)
    impl.U32 = lambda w: wide(w) & 0xFFFFFFFF


@bug("real_builtin_float", "request", "reals are read with float() alone: '+0.1', 'Infinity', 'NaN' and '1_0' are accepted",
     ["protocol/reals/plus_sign_refused", "protocol/reals/word_spellings_refused"])
def _():
    def read_real(word):
        try:
            return float(word)
        except ValueError:
            raise impl.bad(f"'{word}' is not a real")
    impl.read_real = read_real


@bug("real_prefix", "request", "a real is its longest valid prefix ('0.1x' reads as 0.1), as strtod without checking the end",
     ["protocol/reals/not_a_number_refused"])
def _():
    prefix = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
    def read_real(word):
        if word in ("nan", "inf", "-inf"):
            return float(word)
        found = prefix.match(word)
        if not found:
            raise impl.bad(f"'{word}' is not a real")
        return float(found.group(0))
    impl.read_real = read_real


@bug("real_no_exponent", "request", "reals with an exponent ('1e-06') are refused",
     ["protocol/reals/spellings_accepted"])
def _():
    impl.REAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")


@bug("real_words_refused", "request", "'nan', 'inf' and '-inf' are refused as reals",
     ["protocol/reals/spellings_accepted"])
def _():
    original = impl.read_real
    def read_real(word):
        if word in ("nan", "inf", "-inf"):
            raise impl.bad("no special values")
        return original(word)
    impl.read_real = read_real


@bug("real_uppercase_e_refused", "request", "only a lowercase 'e' starts an exponent ('1E-1' is refused)",
     ["protocol/reals/spellings_accepted"])
def _():
    impl.REAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?\Z")


@bug("cr_kept", "request", "a '\\r' before the '\\n' is not removed, so the request is malformed",
     ["protocol/framing/cr_before_newline_ignored"])
def _():
    FLAGS.add("cr_kept")


@bug("strip_whitespace", "request", "requests are strip()ped: leading and trailing spaces, and two '\\r', are tolerated",
     ["protocol/framing/leading_space_refused", "protocol/framing/trailing_space_refused"])
def _():
    FLAGS.add("strip")


@bug("split_any_whitespace", "request", "words are split with split(): two spaces or a tab between words are tolerated",
     ["protocol/framing/double_space_refused", "protocol/framing/tab_refused"])
def _():
    FLAGS.add("split_any")


@bug("no_printable_check", "request", "bytes outside 0x20..0x7e are not refused as framing, so 'hello\\x01' is Unknown, not Protocol",
     ["protocol/framing/control_byte_refused"])
def _():
    FLAGS.add("any_bytes")


@bug("high_bytes_printable", "request", "bytes 0x80 to 0xff count as printable (Latin-1 text), so 'hell\\xe9' is Unknown, not Protocol",
     ["protocol/framing/high_bytes_refused"])
def _():
    impl.REQUEST = re.compile(r"[\x21-\x7e\x80-\xff]+(?: [\x21-\x7e\x80-\xff]+)*\Z")


@bug("err_message_echoes_request", "request",
     "an error's message quotes the request's first 60 bytes as they came, so it may hold bytes that are not printable ASCII",
     ["protocol/framing/control_byte_refused", "protocol/framing/high_bytes_refused"])
def _():
    FLAGS.add("echo_request")


@bug("last_line_unanswered", "request", "a last line without its '\\n' at the end of input gets no answer",
     ["protocol/framing/last_line_without_newline_answered"])
def _():
    FLAGS.add("drop_last_line")


@bug("empty_line_skipped", "request", "an empty request line gets no response",
     ["protocol/framing/empty_line_is_protocol"])
def _():
    FLAGS.add("skip_empty")


@bug("command_case_insensitive", "request", "command words are lowercased first: 'HELLO' is answered",
     ["protocol/commands/uppercase_word_unknown"])
def _():
    FLAGS.add("lower_command")


@bug("unknown_is_protocol", "request", "an unknown command word is answered err Protocol",
     ["protocol/commands/unknown_word"])
def _():
    FLAGS.add("unknown_protocol")


@bug("unknown_checks_word_count", "request", "a request of more than four words is Protocol before its command is looked up",
     ["protocol/commands/unknown_word"])
def _():
    FLAGS.add("max_words")


@bug("extra_arguments_ignored", "request", "words beyond a command's arguments are ignored",
     ["protocol/arguments/too_many"])
def _():
    FLAGS.add("ignore_extra")


@bug("hello_ignores_arguments", "request", "hello answers ok whatever follows it",
     ["protocol/arguments/too_many"])
def _():
    FLAGS.add("hello_any")


@bug("name_case_insensitive", "request", "filter names are lowercased: F and f are one filter",
     ["protocol/names/case_sensitive"])
def _():
    original = impl.read_name
    impl.read_name = lambda w: original(w).lower()


@bug("name_up_to_64", "request", "filter names of up to 64 characters are accepted",
     ["protocol/names/33_chars_refused"])
def _():
    impl.NAME = re.compile(r"[A-Za-z0-9_]{1,64}\Z")


@bug("name_up_to_31", "request", "filter names are at most 31 characters (a 32-byte buffer with its NUL)",
     ["protocol/names/32_chars_accepted"])
def _():
    impl.NAME = re.compile(r"[A-Za-z0-9_]{1,31}\Z")


@bug("name_is_identifier", "request", "a filter name must start with a letter or '_' ('123' is refused)",
     ["protocol/names/digits_and_underscore_accepted"])
def _():
    impl.NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}\Z")


@bug("name_allows_punctuation", "request", "filter names may contain '-' and '.'",
     ["protocol/names/bad_characters_refused"])
def _():
    impl.NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}\Z")


@bug("hash_case_insensitive", "request", "mix64 accepts uppercase hex digits",
     ["protocol/hash/uppercase_refused"])
def _():
    impl.HASH = re.compile(r"[0-9a-fA-F]{16}\Z")


@bug("hash_any_length", "request", "mix64 accepts 1 to 16 hex digits",
     ["protocol/hash/wrong_length_refused"])
def _():
    impl.HASH = re.compile(r"[0-9a-f]{1,16}\Z")


@bug("hash_not_padded", "request", "hashes are written without leading zeros",
     ["protocol/hash/leading_zeros_written"])
def _():
    FLAGS.add("hash_unpadded")


# ---- the order of checks (docs/protocol.md, section 3) ----------------------

@bug("lookup_while_parsing", "order", "each filter is looked up as its argument is read, so a later bad argument loses to NoSuchFilter",
     ["protocol/errors/order/protocol_before_no_such_filter"])
def _():
    FLAGS.add("lookup_early")


@bug("count_after_lookup", "order", "filters are looked up before the number of arguments is checked",
     ["protocol/errors/order/argument_count_before_no_such_filter"])
def _():
    FLAGS.add("count_late")


@bug("framing_after_command", "order", "the command word is looked up before the framing is checked, so 'frobnicate  x' is Unknown",
     ["protocol/errors/order/framing_before_unknown"])
def _():
    FLAGS.add("framing_late")


@bug("range_while_parsing", "order", "new checks m >= 1 while reading it, so 'new f 0 x' is BadParams, not Protocol",
     ["protocol/errors/order/protocol_before_bad_params"])
def _():
    plain = impl.uint(64)
    def m_reader(word):
        if word == "0":
            raise impl.TlbfError("BadParams", "m = 0")
        return plain(word)
    original = impl.Session.commands
    def commands(self):
        table = original(self)
        readers, handler = table["new"]
        table["new"] = ([readers[0], m_reader, readers[2]], handler)
        return table
    impl.Session.commands = commands


@bug("from_bytes_bad_hex_is_format", "order", "from_bytes answers Format, not Protocol, for a word that is not hex",
     ["protocol/errors/order/syntax_before_format"])
def _():
    original = impl.Session.commands
    def commands(self):
        table = original(self)
        def lenient(word):
            try:
                return impl.read_bytes(word)
            except impl.ProtocolError:
                return None
        def from_bytes(name, data):
            if data is None:
                raise impl.TlbfError("Format", "not hex")
            return self.store(name, B.from_bytes(data))
        table["from_bytes"] = ([impl.NEW, lenient], from_bytes)
        return table
    impl.Session.commands = commands


# ---- 2. the decisions of docs/format.md ------------------------------------

@bug("k_round_half_even", "decision", "optimal_k rounds with Python's round(), halves to even",
     ["format/optimal_k/half_rounds_away_from_zero"])
def _():
    impl.round_half_away = lambda x: round(x) if math.isfinite(x) else x


@bug("k_multiplies_first", "decision", "optimal_k computes (m * LN2) / n",
     ["format/optimal_k/divides_before_multiplying"])
def _():
    original = impl.optimal_k
    def optimal_k(m, n):
        if n == 0:
            return original(m, n)
        return max(1, impl.saturate(impl.round_half_away((float(m) * impl.LN2) / float(n)), 32))
    impl.optimal_k = optimal_k


def set_ideal_m(ideal):
    impl.optimal_m = lambda n, p: impl.saturate(
        math.ceil(ideal(n, p)) if math.isfinite(ideal(n, p)) else ideal(n, p), 64)


@bug("m_divides_twice", "decision", "optimal_m divides by LN2 twice",
     ["format/optimal_m/divides_once"])
def _():
    set_ideal_m(lambda n, p: ((-float(n) * impl.ln(p)) / impl.LN2) / impl.LN2)


@bug("m_reciprocal_constant", "decision", "optimal_m multiplies by a precomputed 1 / (LN2 * LN2)",
     ["format/optimal_m/no_reciprocal"])
def _():
    inverse = 1.0 / (impl.LN2 * impl.LN2)
    set_ideal_m(lambda n, p: (-float(n) * impl.ln(p)) * inverse)


@bug("m_exact_ln2_squared", "decision", "optimal_m divides by the literal 0.48045301391820144, not LN2 * LN2",
     ["format/optimal_m/ln2_squared_is_the_product"])
def _():
    set_ideal_m(lambda n, p: (-float(n) * impl.ln(p)) / 0.48045301391820144)


@bug("m_log2_form", "decision", "optimal_m computes -n * log2(p) / LN2",
     ["format/optimal_m/natural_log"])
def _():
    set_ideal_m(lambda n, p: (-float(n) * (math.log2(p) if p > 0 else impl.ln(p))) / impl.LN2)


@bug("m_floor_plus_one", "decision", "optimal_m is floor(ideal) + 1, so an ideal m that is an integer gains one",
     ["format/optimal_m/exact_integer_kept"])
def _():
    ideal = lambda n, p: (-float(n) * impl.ln(p)) / (impl.LN2 * impl.LN2)
    impl.optimal_m = lambda n, p: impl.saturate(
        math.floor(ideal(n, p)) + 1 if math.isfinite(ideal(n, p)) else ideal(n, p), 64)


@bug("m_ceil_with_tolerance", "decision", "optimal_m takes ceil(ideal - 1e-9) to absorb rounding noise",
     ["format/optimal_m/no_tolerance"])
def _():
    ideal = lambda n, p: (-float(n) * impl.ln(p)) / (impl.LN2 * impl.LN2)
    impl.optimal_m = lambda n, p: impl.saturate(
        math.ceil(ideal(n, p) - 1e-9) if math.isfinite(ideal(n, p)) else ideal(n, p), 64)


@bug("n_signed", "decision", "sizing converts its u64 arguments through i64: 2^63 and above are negative",
     ["format/optimal_m/n_at_least_2_pow_63", "format/optimal_k/m_at_least_2_pow_63"])
def _():
    signed = lambda x: x - (1 << 64) if x >= 1 << 63 else x
    m_of, k_of = impl.optimal_m, impl.optimal_k
    def optimal_m(n, p):
        ideal = (-float(signed(n)) * impl.ln(p)) / (impl.LN2 * impl.LN2)
        return impl.saturate(math.ceil(ideal) if math.isfinite(ideal) else ideal, 64)
    def optimal_k(m, n):
        if n == 0:
            return k_of(m, n)
        return max(1, impl.saturate(impl.round_half_away((float(signed(m)) / float(signed(n))) * impl.LN2), 32))
    impl.optimal_m, impl.optimal_k = optimal_m, optimal_k


@bug("saturates_above_the_bound", "decision", "saturation tests x > 2^bits where x >= 2^bits belongs: an ideal of exactly 2^32 or 2^64 is answered as is",
     ["format/optimal_k/saturates_at_exactly_2_pow_32", "format/optimal_m/saturates_at_exactly_2_pow_64"])
def _():
    def saturate(x, bits):
        if math.isnan(x) or x <= 0:
            return 0
        if x > 2.0 ** bits:
            return (1 << bits) - 1
        return int(x)
    impl.saturate = saturate


@bug("m_saturates_at_i64", "decision", "optimal_m saturates at 2^63 - 1 (an i64 cast), not 2^64 - 1",
     ["format/optimal_m/n_at_least_2_pow_63"])
def _():
    original = impl.optimal_m
    impl.optimal_m = lambda n, p: min(original(n, p), (1 << 63) - 1)


@bug("kn_wraps", "decision", "predicted_fp_rate multiplies k * n in u64, wrapping beyond 2^64",
     ["format/predicted_fp_rate/k_times_n_beyond_2_pow_64"])
def _():
    original = impl.predicted_fp_rate
    def predicted_fp_rate(m, k, n):
        if m == 0:
            return original(m, k, n)
        return math.pow(1.0 - math.exp(-(float((k * n) & MASK) / float(m))), float(k))
    impl.predicted_fp_rate = predicted_fp_rate


@bug("rate_single_precision", "decision", "predicted_fp_rate is computed in single precision",
     ["vectors/sizing/PredictedFpRateTest"])
def _():
    import struct
    original = impl.predicted_fp_rate
    impl.predicted_fp_rate = lambda m, k, n: struct.unpack("f", struct.pack("f", original(m, k, n)))[0]


@bug("reals_with_6_digits", "decision", "reals are written as C's printf %g does, 6 significant digits "
     "('0.0174106'): outside the relative 1e-12 of docs/protocol.md's Reals rule",
     ["vectors/sizing/PredictedFpRateTest/36"])
def _():
    impl.write_real = lambda x: repr(x) if not math.isfinite(x) else f"{x:g}"


@bug("rate_integer_division", "decision", "predicted_fp_rate divides k * n by m in integers",
     ["vectors/sizing/PredictedFpRateTest"])
def _():
    original = impl.predicted_fp_rate
    def predicted_fp_rate(m, k, n):
        if m == 0:
            return original(m, k, n)
        return math.pow(1.0 - math.exp(-float((k * n) // m)), float(k))
    impl.predicted_fp_rate = predicted_fp_rate


@bug("k_may_be_zero", "decision", "optimal_k lacks the max(1, ...): a tiny m / n gives k = 0",
     ["vectors/sizing/OptimalKTest"])
def _():
    original = impl.optimal_k
    impl.optimal_k = lambda m, n: 0 if n and (float(m) / float(n)) * impl.LN2 < 0.5 else original(m, n)


@bug("out_of_domain_refused_as_format", "decision",
     "optimal_m and optimal_k answer err Format outside their domain: a refusal, but not the BadParams the "
     "acceptable answers allow", ["vectors/sizing/OptimalMTest/16", "vectors/sizing/OptimalKTest/34"], model=True)
def _():
    m_of, k_of = impl.optimal_m, impl.optimal_k
    def optimal_m(n, p):
        if n == 0 or not 0.0 < p < 1.0:
            raise impl.TlbfError("Format", "out of domain")
        return m_of(n, p)
    def optimal_k(m, n):
        if n == 0:
            raise impl.TlbfError("Format", "out of domain")
        return k_of(m, n)
    impl.optimal_m, impl.optimal_k = optimal_m, optimal_k


# ---- positions, bits and output --------------------------------------------

@bug("positions_deduplicated", "bits", "positions answers each position once, dropping repeats",
     ["format/positions/repeats_kept"])
def _():
    original = impl.positions
    impl.positions = lambda m, k, item: list(dict.fromkeys(original(m, k, item)))


@bug("positions_sorted", "bits", "positions are answered in ascending order", ["vectors/positions/PositionsForTest"])
def _():
    original = impl.positions
    impl.positions = lambda m, k, item: sorted(original(m, k, item))


@bug("positions_no_wrap", "bits", "h1 + i * h2 is not wrapped at 2^64 before the modulo", ["vectors/positions/PositionsForTest"])
def _():
    def positions(m, k, item):
        h1 = impl.fnv1a64(item)
        h2 = impl.mix64(h1) | 1
        return [(h1 + i * h2) % m for i in range(k)]
    impl.positions = positions
    B.contains = lambda self, item: all(self.bits[g >> 3] >> (g & 7) & 1 for g in positions(self.m, self.k, item))


@bug("k_bound_exclusive", "bits", "k must be below 65536: k = 65536 is refused", ["format/positions/k_bound_inclusive"])
def _():
    impl.MAX_K = 65535


@bug("count_ones_counts_bytes", "bits", "count_ones counts non-zero bytes", ["vectors/filter/FilterTest"])
def _():
    B.count_ones = lambda self: sum(1 for b in self.bits if b)


@bug("to_bytes_uppercase", "bits", "to_bytes writes uppercase hex", ["vectors/filter/FilterTest"])
def _():
    FLAGS.add("upper_bytes")


@bug("info_k_first", "bits", "info answers K M N_INSERTED", ["vectors/filter/FilterTest"])
def _():
    FLAGS.add("info_k_first")


@bug("contains_capitalised", "bits", "contains answers True / False", ["vectors/filter/FilterTest"])
def _():
    FLAGS.add("capital_bool")


@bug("ok_trailing_space", "bits", "a success with no values is written 'ok ' with a trailing space", ["vectors/filter/FilterTest"])
def _():
    FLAGS.add("ok_space")


# ---- 3. items and headers ---------------------------------------------------

def set_header_reader(m_bytes=8, k_bytes=4, n_bytes=8, reserved_bytes=4, version_bytes=4, n_signed=False, n_double=False,
                      padding_shift=0, m_min=1, k_min=1, m_max=impl.MAX_BITS, bit_bytes=lambda m: (m + 7) // 8):
    """from_bytes reading each header field from its first *_bytes bytes, refusing an m above m_max,
    and taking bit_bytes(m) for the length of the bits."""
    def field(data, at, size, wanted):
        return int.from_bytes(data[at:at + min(size, wanted)], "little")
    def from_bytes(data):
        def refuse(message):
            raise impl.TlbfError("Format", message)
        if len(data) < 32:
            refuse("short")
        if data[0:4] != b"TLBF":
            refuse("magic")
        if field(data, 4, 4, version_bytes) != 1:
            refuse("version")
        m = field(data, 8, 8, m_bytes)
        if not m_min <= m <= m_max:
            refuse("m")
        k = field(data, 16, 4, k_bytes)
        if not k_min <= k <= impl.MAX_K:
            refuse("k")
        if field(data, 20, 4, reserved_bytes) != 0:
            refuse("reserved")
        if len(data) - 32 != bit_bytes(m):
            refuse("length")
        if m % 8 and data[-1] >> (m % 8 + padding_shift):
            refuse("padding")
        n = field(data, 24, 8, n_bytes)
        if n_signed and n >= 1 << 63:
            n -= 1 << 64
        if n_double:
            n = int(float(n))
        return B(m, k, n, bytearray(data[32:]))
    B.from_bytes = staticmethod(from_bytes)


@bug("m_zero_accepted", "header", "from_bytes checks only m's upper bound: an m = 0 file, the bare header, is accepted",
     ["format/header/m_zero_with_its_length"])
def _():
    set_header_reader(m_min=0)


@bug("k_zero_accepted", "header", "from_bytes checks only k's upper bound: a k = 0 file is accepted",
     ["format/header/k_zero_with_its_length"])
def _():
    set_header_reader(k_min=0)


@bug("m_read_as_u32", "header", "from_bytes reads m from its low 4 bytes", ["format/header/m_upper_32_bits"])
def _():
    set_header_reader(m_bytes=4)


@bug("k_read_as_u16", "header", "from_bytes reads k from its low 2 bytes", ["format/header/k_above_16_bits"])
def _():
    set_header_reader(k_bytes=2)


@bug("n_read_as_u32", "header", "from_bytes reads n_inserted from its low 4 bytes", ["format/header/n_inserted_upper_bits"])
def _():
    set_header_reader(n_bytes=4)


@bug("n_read_signed", "header", "n_inserted is held as an i64: counts of 2^63 and above are negative", ["format/header/n_inserted_top_bit"])
def _():
    set_header_reader(n_signed=True)


@bug("n_through_double", "header", "n_inserted goes through a double: counts above 2^53 are rounded", ["format/header/n_inserted_top_bit"])
def _():
    set_header_reader(n_double=True)


@bug("reserved_low_byte_only", "header", "only the low byte of the reserved field is checked", ["format/header/reserved_high_bytes"])
def _():
    set_header_reader(reserved_bytes=1)


@bug("version_low_byte_only", "header", "the version is read from its low byte", ["format/header/version_high_bytes"])
def _():
    set_header_reader(version_bytes=1)


@bug("trailing_bytes_accepted", "header", "from_bytes checks only that the bits are not short; bytes after them are ignored",
     ["vectors/from_bytes/FromBytesTest"])
def _():
    original = B.from_bytes
    def from_bytes(data):
        if len(data) >= 32:
            m = int.from_bytes(data[8:16], "little")
            if 1 <= m <= impl.MAX_BITS and len(data) > 32 + (m + 7) // 8:
                data = data[:32 + (m + 7) // 8]
        return original(data)
    B.from_bytes = staticmethod(from_bytes)


# ---- sizes that wrap (issue 38, part 2) --------------------------------------
# A port that leaves m's bound to the length check (a file of 2^37 bytes
# cannot arrive, so why check m?) computes the length in wrapping arithmetic,
# and a bare header claiming a vast m passes it.

@bug("m_bound_left_to_length_u64", "wrap", "from_bytes leaves m's bound to the length check, whose (m + 7) / 8 wraps in u64: m from 2^64 - 7 up needs 0 bytes, and the bare header loads",
     ["format/header/refused_alone/m"])
def _():
    set_header_reader(m_max=MASK, bit_bytes=lambda m: ((m + 7) & MASK) // 8)


@bug("m_bound_left_to_length_u32", "wrap", "from_bytes leaves m's bound to the length check, whose (m + 7) / 8 is kept in a u32: m = 2^43 needs 0 bytes, and the bare header loads",
     ["format/header/refused_alone/m", "format/header/refused_alone/length"])
def _():
    set_header_reader(m_max=MASK, bit_bytes=lambda m: ((m + 7) // 8) & 0xffffffff)


@bug("padding_off_by_one", "header", "the padding check skips the lowest padding bit", ["vectors/from_bytes/FromBytesTest"])
def _():
    set_header_reader(padding_shift=1)


@bug("item_truncated_at_4kib", "items", "items are cut to their first 4096 bytes (a fixed buffer)", ["items/longer_than_4kib"])
def _():
    original = impl.read_bytes
    impl.read_bytes = lambda w: original(w)[:4096]


@bug("item_truncated_at_64kib", "items", "insert and contains use an item's first 65,536 bytes (a fixed buffer); hashing commands see it whole",
     ["items/longer_than_64kib_in_a_filter"])
def _():
    insert, contains = B.insert, B.contains
    B.insert = lambda self, item: insert(self, item[:65536])
    B.contains = lambda self, item: contains(self, item[:65536])


@bug("item_crlf_normalised", "items", "items pass through text-mode conversion: 0d 0a becomes 0a", ["items/containing_0d0a"])
def _():
    original = impl.read_bytes
    impl.read_bytes = lambda w: original(w).replace(b"\r\n", b"\n")


@bug("item_cut_at_nul", "items", "items are C strings: bytes from the first 00 on are lost", ["vectors/hash/Fnv1a64Test"])
def _():
    original = impl.read_bytes
    impl.read_bytes = lambda w: original(w).split(b"\0")[0]


@bug("item_utf8_round_trip", "items", "items are decoded as UTF-8 (with replacement) and encoded again", ["vectors/hash/Fnv1a64Test"])
def _():
    original = impl.read_bytes
    impl.read_bytes = lambda w: original(w).decode("utf-8", "replace").encode("utf-8")


@bug("line_limit_64kib", "items", "request lines over 64 KiB are answered err Protocol", ["protocol/framing/long_line_1mib"])
def _():
    FLAGS.add("limit:65536")


@bug("line_limit_16mib", "items", "request lines over 16 MiB are answered err Protocol", ["protocol/framing/line_above_16mib"])
def _():
    FLAGS.add("limit:16777216")


@bug("line_limit_32mib", "items", "request lines over 32 MiB are answered err Protocol",
     ["large/line_just_under_64mib"], group="large/*")
def _():
    FLAGS.add("limit:33554432")


# ---- 4. state ---------------------------------------------------------------

@bug("at_most_64_filters_evicts", "state", "at most 64 filters are kept; a 65th evicts the oldest", ["state/many_filters_alive"])
def _():
    FLAGS.add("evict64")


@bug("at_most_64_filters_refuses", "state", "at most 64 filters; creating a 65th is BadParams", ["state/many_filters_alive"])
def _():
    FLAGS.add("refuse64")


@bug("at_most_128_filters_evicts", "state", "at most 128 filters are kept; a 129th evicts the oldest", ["state/many_filters_alive"])
def _():
    FLAGS.add("evict128")


@bug("new_same_shape_keeps_bits", "state",
     "new or with_rate over a filter of the same m and k keeps its bit array and only resets the count",
     ["state/new_same_shape_starts_empty", "state/with_rate_same_shape_starts_empty"])
def _():
    FLAGS.add("reuse_same_shape")


@bug("insert_count_wraps", "state", "insert's count wraps at 2^64 instead of saturating at 2^64 - 1", ["state/insert_count_saturates"])
def _():
    insert = B.insert
    def wrapping(self, item):
        before = self.n_inserted
        insert(self, item)
        self.n_inserted = (before + 1) & MASK
    B.insert = wrapping


@bug("insert_count_u32", "state", "insert adds one to the count's low 32 bits only, with no carry into the high ones",
     ["state/insert_count_carries_past_2_pow_32"])
def _():
    insert = B.insert
    def low_word(self, item):
        before = self.n_inserted
        insert(self, item)
        self.n_inserted = (before & ~0xFFFFFFFF) | ((before + 1) & 0xFFFFFFFF)
    B.insert = low_word


@bug("contains_cached_until_insert", "state", "contains remembers its answers per filter and forgets them only on insert, not on union",
     ["state/answers_follow_union"])
def _():
    insert, contains = B.insert, B.contains
    def forgetting(self, item):
        self.__dict__.pop("remembered", None)
        insert(self, item)
    def remembering(self, item):
        remembered = self.__dict__.setdefault("remembered", {})
        if item not in remembered:
            remembered[item] = contains(self, item)
        return remembered[item]
    B.insert, B.contains = forgetting, remembering


@bug("count_ones_cached_until_insert", "state", "count_ones remembers its answer per filter and forgets it only on insert, not on union",
     ["state/answers_follow_union"])
def _():
    insert, count_ones = B.insert, B.count_ones
    def forgetting(self, item):
        self.__dict__.pop("ones", None)
        insert(self, item)
    B.insert = forgetting
    B.count_ones = lambda self: self.__dict__.setdefault("ones", count_ones(self))


@bug("to_bytes_cached_until_insert", "state", "to_bytes remembers its answer per filter and forgets it only on insert, not on union",
     ["state/to_bytes_follows_union"])
def _():
    insert, to_bytes = B.insert, B.to_bytes
    def forgetting(self, item):
        self.__dict__.pop("file", None)
        insert(self, item)
    B.insert = forgetting
    B.to_bytes = lambda self: self.__dict__.setdefault("file", to_bytes(self))


@bug("contains_cached_by_name", "state",
     "contains remembers its answers by filter name and forgets them only on insert: a replaced or re-created filter answers as the old one",
     ["state/answers_follow_replacement", "state/answers_follow_from_bytes"])
def _():
    FLAGS.add("contains_by_name")


@bug("union_shares_bits_when_empty", "state", "a union into a filter with no bits set takes the other's bit array itself",
     ["state/union_does_not_alias"])
def _():
    original = B.union
    def union(self, other):
        if (self.m, self.k) == (other.m, other.k) and not any(self.bits):
            self.bits = other.bits
            self.n_inserted = min(self.n_inserted + other.n_inserted, MASK)
            return
        original(self, other)
    B.union = union


@bug("union_counts_before_check", "state", "union adds the counts before checking m and k", ["state/refused_union_changes_neither"])
def _():
    def union(self, other):
        self.n_inserted = min(self.n_inserted + other.n_inserted, MASK)
        if (self.m, self.k) != (other.m, other.k):
            raise impl.TlbfError("Mismatch", "m or k differ")
        merged = int.from_bytes(self.bits, "little") | int.from_bytes(other.bits, "little")
        self.bits = bytearray(merged.to_bytes(len(self.bits), "little"))
    B.union = union


@bug("union_ors_before_check_of_k", "state", "union ORs the bits when m matches, then refuses a different k", ["state/refused_union_changes_neither"])
def _():
    original = B.union
    def union(self, other):
        if self.m == other.m:
            merged = int.from_bytes(self.bits, "little") | int.from_bytes(other.bits, "little")
            self.bits = bytearray(merged.to_bytes(len(self.bits), "little"))
        original(self, other)
    B.union = union


@bug("union_probe_declined", "capabilities",
     "a union of a filter with itself is answered err Unknown (the author never thought of it); every other union works",
     ["capabilities/union", "state/union_self_doubles_count"])
def _():
    FLAGS.add("self_union_unknown")


@bug("union_self_counts_once", "state", "union F F returns early: the count does not double", ["state/union_self_doubles_count"])
def _():
    original = B.union
    B.union = lambda self, other: None if self is other else original(self, other)


@bug("union_compares_byte_length", "state", "union compares the bit arrays' byte lengths and k, not m", ["state/union_mismatch_same_byte_length"])
def _():
    def union(self, other):
        if (len(self.bits), self.k) != (len(other.bits), other.k):
            raise impl.TlbfError("Mismatch", "sizes differ")
        merged = int.from_bytes(self.bits, "little") | int.from_bytes(other.bits, "little")
        self.bits = bytearray(merged.to_bytes(len(self.bits), "little"))
        self.n_inserted = min(self.n_inserted + other.n_inserted, MASK)
    B.union = union


@bug("union_writes_both", "state", "union ORs the bits into both filters", ["state/union_leaves_the_right_filter"])
def _():
    original = B.union
    def union(self, other):
        original(self, other)
        other.bits = bytearray(self.bits)
    B.union = union


@bug("drop_missing_is_ok", "state", "drop of a name that does not exist answers ok", ["state/drop_missing_is_no_such_filter"])
def _():
    FLAGS.add("drop_missing_ok")


@bug("drop_keeps_filter", "state", "drop answers ok and keeps the filter", ["state/dropped_filter_is_gone"])
def _():
    FLAGS.add("drop_noop")


@bug("new_keeps_existing", "state", "new F on an existing name keeps the old filter", ["state/new_replaces_existing"])
def _():
    def store(self, name, bloom):
        self.filters.setdefault(name, bloom)
    impl.Session.store = store


@bug("failed_new_drops_name", "state", "a new or with_rate that fails removes an existing filter of that name",
     ["state/failed_commands_change_nothing"])
def _():
    FLAGS.add("failed_create_drops")


@bug("failed_from_bytes_drops_name", "state", "a from_bytes that fails removes an existing filter of that name",
     ["state/failed_commands_change_nothing"])
def _():
    FLAGS.add("failed_load_drops")


@bug("failed_new_leaves_placeholder", "state", "new stores the filter before checking m and k, so a refused new leaves one behind",
     ["state/failed_create_does_not_create"])
def _():
    FLAGS.add("placeholder")


@bug("with_rate_keeps_existing", "state", "with_rate F on an existing name keeps the old filter", ["state/with_rate_replaces_existing"])
def _():
    FLAGS.add("with_rate_setdefault")


def with_rate_taking_k(k_of):
    """with_rate as bundled (its checks, its m), with its k from k_of(m, n)
    in place of optimal_k: a porter who computes k inline, wrongly."""
    original = B.with_rate

    def with_rate(n, p):
        m = original(n, p).m
        return B.new(m, k_of(m, n))
    B.with_rate = staticmethod(with_rate)


# ---- found by an adversary's ports, passed by every earlier case ------------

@bug("contains_shortcut_when_count_zero", "state", "contains answers false for a filter whose count is 0, without reading the bits (a loaded file may say 0 and have bits set)",
     ["state/bits_not_the_count_decide"])
def _():
    original = B.contains
    B.contains = lambda self, item: False if self.n_inserted == 0 else original(self, item)


@bug("count_ones_shortcut_when_count_zero", "state", "count_ones answers 0 for a filter whose count is 0, without counting the bits",
     ["state/bits_not_the_count_decide", "format/count_ones/above_16_bits"])
def _():
    original = B.count_ones
    B.count_ones = lambda self: 0 if self.n_inserted == 0 else original(self)


@bug("hello_starts_afresh", "state", "hello is taken as a handshake that starts a new session: every filter is forgotten",
     ["state/hello_forgets_nothing"])
def _():
    original = BuggySession.answer  # defined below; patches run after it is

    def answer(self, line):
        if line.rstrip("\r") == "hello":
            self.filters.clear()
        return original(self, line)
    BuggySession.answer = answer


@bug("contains_reads_32_probes", "bits", "contains looks at no more than 32 probes (a 32-bit mask of them); insert sets all k",
     ["items/contains_reads_every_probe"])
def _():
    def contains(self, item):
        return all(self.bits[g >> 3] >> (g & 7) & 1 for g in impl.positions(self.m, min(self.k, 32), item))
    B.contains = contains


@bug("probes_capped_at_1024", "bits", "insert and contains use at most 1024 probes (a buffer sized for with_rate's usual k)",
     ["items/k_above_1024_probes_all"])
def _():
    def insert(self, item):
        for g in impl.positions(self.m, min(self.k, 1024), item):
            self.bits[g >> 3] |= 1 << (g & 7)
        self.n_inserted = min(self.n_inserted + 1, MASK)
    B.insert = insert
    B.contains = lambda self, item: all(self.bits[g >> 3] >> (g & 7) & 1
                                        for g in impl.positions(self.m, min(self.k, 1024), item))


@bug("with_rate_k_half_to_even", "decision", "with_rate rounds its k with Python's round() (half to even); optimal_k itself is right",
     ["format/with_rate/k_half_rounds_away_from_zero"])
def _():
    with_rate_taking_k(lambda m, n: max(1, round((float(m) / float(n)) * impl.LN2)))


@bug("rate_k_as_i32", "decision", "predicted_fp_rate raises f to k as an i32 (Rust's powi(k as i32)): k of 2^31 and above turns negative",
     ["format/predicted_fp_rate/k_beyond_i32"])
def _():
    original = impl.predicted_fp_rate

    def predicted_fp_rate(m, k, n):
        if k < 1 << 31 or m == 0:
            return original(m, k, n)
        f = 1.0 - math.exp(-(float(k) * float(n)) / float(m))
        try:
            return math.pow(f, float(k - (1 << 32)))
        except (ZeroDivisionError, OverflowError):
            return math.inf
    impl.predicted_fp_rate = predicted_fp_rate


@bug("rate_zero_without_items", "decision", "predicted_fp_rate answers 0 when n is 0, even with k = 0, where pow(0, 0) = 1",
     ["format/predicted_fp_rate/k_and_n_zero"])
def _():
    original = impl.predicted_fp_rate
    impl.predicted_fp_rate = lambda m, k, n: 0.0 if n == 0 and m != 0 else original(m, k, n)


@bug("rate_always_infinite", "decision", "predicted_fp_rate answers inf to everything (a judge that compares reals by relative difference alone passes it)",
     ["vectors/sizing/PredictedFpRateTest"])
def _():
    impl.predicted_fp_rate = lambda m, k, n: math.inf


@bug("positions_cached_past_from_bytes", "state", "positions answers are cached by filter and item; new, with_rate and drop clear the cache, from_bytes does not",
     ["state/positions_follow_from_bytes"])
def _():
    cache = {}
    original = BuggySession.answer  # defined below; patches run after it is

    def answer(self, line):
        w = line.rstrip("\r").split(" ")
        if w[0] == "positions" and len(w) == 3 and w[1] in self.filters:
            if (w[1], w[2]) not in cache:
                cache[(w[1], w[2])] = original(self, line)
            return cache[(w[1], w[2])]
        if w[0] in ("new", "with_rate", "drop") and len(w) > 1:
            for key in [key for key in cache if key[0] == w[1]]:
                del cache[key]
        return original(self, line)
    BuggySession.answer = answer


@bug("names_cut_at_15", "request", "names are kept in a 16-byte buffer: only their first 15 characters tell them apart",
     ["protocol/names/long_names_told_apart"])
def _():
    original = impl.read_name
    impl.read_name = lambda w: original(w)[:15]
    impl.NEW = impl.read_name


@bug("file_hex_lowercase_only", "request", "from_bytes decodes its file with a hex reader of its own that takes lowercase only",
     ["protocol/bytes/uppercase_file_accepted"])
def _():
    original = impl.Session.commands

    def commands(self):
        table = original(self)

        def lowercase_only(word):
            if word != word.lower():
                raise impl.bad("bytes must be lowercase hex")
            return impl.read_bytes(word)
        table["from_bytes"] = ([impl.NEW, lowercase_only], table["from_bytes"][1])
        return table
    impl.Session.commands = commands


@bug("from_bytes_takes_any_name", "request", "from_bytes has an argument table of its own and takes any word as the filter's name",
     ["protocol/names/checked_by_every_command"])
def _():
    original = impl.Session.commands

    def commands(self):
        table = original(self)
        table["from_bytes"] = ([lambda w: w, impl.read_bytes], table["from_bytes"][1])
        return table
    impl.Session.commands = commands


@bug("evict_beyond_1024", "state", "at most 1024 filters are kept: the 1025th evicts the oldest",
     ["state/many_filters_alive"])
def _():
    original = impl.Session.store

    def store(self, name, bloom):
        if name not in self.filters and len(self.filters) >= 1024:
            del self.filters[next(iter(self.filters))]
        original(self, name, bloom)
    impl.Session.store = store


@bug("items_cut_at_1mib", "items", "items are cut to their first 1 MiB",
     ["protocol/framing/long_line_1mib"])
def _():
    original = impl.read_bytes
    impl.read_bytes = lambda word: original(word)[: 1 << 20]


@bug("files_above_64kib_refused", "items", "from_bytes refuses a file above 64 KiB as Format",
     ["items/file_above_64kib_loads"])
def _():
    original = B.from_bytes

    def from_bytes(data):
        if len(data) > 1 << 16:
            raise impl.TlbfError("Format", "file too large")
        return original(data)
    B.from_bytes = staticmethod(from_bytes)


@bug("optimal_k_saturates_at_u64", "decision", "optimal_k keeps k in a u64 and saturates it at 2^64 - 1 (a k is a u32 in every answer)",
     ["vectors/sizing/OptimalKTest"])
def _():
    def optimal_k(m, n):
        ideal = (math.nan if m == 0 else math.inf) if n == 0 else (float(m) / float(n)) * impl.LN2
        return max(1, impl.saturate(impl.round_half_away(ideal), 64))
    impl.optimal_k = optimal_k


@bug("fair_only_after_hello", "state", "games the grader: a process whose first request was not hello keeps an exact set of its items (no false positives), as if tlbf check always greeted first",
     ["protocol/session/hello_not_needed"])
def _():
    first = []
    original = BuggySession.answer  # defined below; patches run after it is

    def answer(self, line):
        if not first:
            first.append(line.rstrip("\r"))
        return original(self, line)
    BuggySession.answer = answer
    insert, contains = B.insert, B.contains

    def remembering_insert(self, item):
        self.__dict__.setdefault("exact", set()).add(bytes(item))
        insert(self, item)
    B.insert = remembering_insert
    B.contains = lambda self, item: contains(self, item) if first[0] == "hello" else bytes(item) in self.__dict__.get("exact", set())


@bug("with_rate_k_may_be_zero", "decision", "with_rate leaves out max(1, ...) around its k, so a k that rounds to 0 is refused as BadParams",
     ["format/with_rate/k_at_least_1"])
def _():
    with_rate_taking_k(lambda m, n: impl.saturate(impl.round_half_away((float(m) / float(n)) * impl.LN2), 32))


@bug("count_ones_in_16_bits", "bits", "count_ones counts in 16 bits",
     ["format/count_ones/above_16_bits"])
def _():
    original = B.count_ones
    B.count_ones = lambda self: original(self) & 0xFFFF


# ---- round 3: one member of each family of the described cases -------------
# (conformance/src/described_cases.cpp: grammars, widths, identity, header
# edges, error order, NaN). Each is how a port in another language goes wrong.

@bug("bytes_pair_parsed_signed", "grammar", "each hex pair is read with Integer.parseInt(pair, 16), which takes a sign: '+f' is 15",
     ["protocol/grammar/bytes/first"])
def _():
    def read_bytes(word):
        if word == "-":
            return b""
        if len(word) % 2 or not word:
            raise impl.bad("odd")
        out = bytearray()
        for i in range(0, len(word), 2):
            pair = word[i:i + 2]
            if not re.fullmatch(r"[+-]?[0-9a-fA-F]+", pair):
                raise impl.bad("not hex")
            out.append(int(pair, 16) & 0xff)
        return bytes(out)
    impl.read_bytes = read_bytes


@bug("hash_parsed_unsigned_long", "grammar", "a hash of 16 characters is read with Long.parseUnsignedLong(word, 16), which takes a leading '+'",
     ["protocol/grammar/hash/first"])
def _():
    def read_hash(word):
        if len(word) != 16 or not re.fullmatch(r"\+?[0-9a-f]+", word):
            raise impl.bad("not a hash")
        return int(word, 16)
    impl.read_hash = read_hash


@bug("real_needs_fraction_digits", "grammar", "a hand-written real pattern wants a digit after the dot: '25.' and '25.E-1' are refused",
     ["protocol/grammar/real/forms"])
def _():
    impl.REAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


@bug("name_java_identifier", "grammar", "names are checked with Character.isJavaIdentifierPart: '$' is a name character",
     ["protocol/grammar/name/first"])
def _():
    impl.NAME = re.compile(r"[A-Za-z0-9_$]{1,32}\Z")


@bug("k_int32_at_least_one", "width", "k goes through an int with max(1, k): a k from 2^31 to 2^32 - 1 wraps negative and becomes 1",
     ["protocol/integers/widths/k"])
def _():
    plain = impl.uint(32)
    def read(word):
        k = plain(word)
        if k >= 1 << 31:
            k = max(1, k - (1 << 32))
        return k
    impl.U32 = read


@bug("optimal_k_saturates_at_i32", "width", "optimal_k saturates at Integer.MAX_VALUE, 2^31 - 1, not at 2^32 - 1",
     ["protocol/integers/widths/answers"])
def _():
    original = impl.optimal_k
    impl.optimal_k = lambda m, n: min(original(m, n), (1 << 31) - 1)


@bug("n_halved_to_double", "width", "an unsigned n at or above 2^63 becomes a double as (n >>> 1) * 2.0, which drops its last bit before rounding",
     ["protocol/integers/widths/n"])
def _():
    original = impl.optimal_m
    def optimal_m(n, p):
        if n >= 1 << 63:
            return original(int(float(n >> 1)) * 2, p)
        return original(n, p)
    impl.optimal_m = optimal_m


@bug("nan_written_capitalized", "nan", "a NaN rate is written as Java's Double.toString writes it, 'NaN'",
     ["format/predicted_fp_rate/nan_spelled_as_a_real"])
def _():
    original = impl.write_real
    impl.write_real = lambda x: "NaN" if math.isnan(x) else original(x)


@bug("filters_keyed_by_hashcode", "identity", "the filter table is keyed by the name's Java hashCode, so 'Aa' and 'BB' are one filter",
     ["state/identity/names_colliding_in_java_hashcode"])
def _():
    FLAGS.add("key_by_hashcode")


@bug("union_same_by_contents", "identity", "union treats filters with equal contents as the same filter and skips them, adding no count",
     ["state/identity/union_of_equal_contents"])
def _():
    original = B.union
    def union(self, other):
        if self is not other and (self.m, self.k, self.n_inserted, bytes(self.bits)) == \
                (other.m, other.k, other.n_inserted, bytes(other.bits)):
            return None
        return original(self, other)
    B.union = union


@bug("k_compared_by_reference", "identity", "union compares k as boxed Integers by reference: equal only from -128 to 127, so larger equal k are Mismatch",
     ["state/identity/large_k_everywhere"])
def _():
    original = B.union
    def union(self, other):
        if self.k == other.k and self.k > 127:
            raise impl.TlbfError("Mismatch", "k differs")
        return original(self, other)
    B.union = union


@bug("magic_case_insensitive", "header", "the magic is compared ignoring case: a file starting 'tLBF' loads",
     ["format/header/refused_alone/magic"])
def _():
    original = B.from_bytes
    B.from_bytes = staticmethod(lambda data: original(data[:4].upper() + data[4:] if data[:4].upper() == b"TLBF" else data))


@bug("padding_top_bit_only", "header", "only the last byte's top bit is checked for padding",
     ["format/header/refused_alone/padding"])
def _():
    original = B.from_bytes
    def from_bytes(data):
        if len(data) > 32:
            m = int.from_bytes(data[8:16], "little")
            if m % 8 and not data[-1] & 0x80 and data[-1] >> (m % 8):
                data = data[:-1] + bytes([data[-1] & ((1 << (m % 8)) - 1)])
        return original(data)
    B.from_bytes = staticmethod(from_bytes)


@bug("values_checked_as_read", "order", "each integer is range-checked for a filter as soon as it is read: 'new f 0 +3' is BadParams, not Protocol",
     ["protocol/errors/pairs/new", "protocol/errors/pairs/positions_for"])
def _():
    FLAGS.add("check_as_read")


@bug("from_bytes_file_before_name", "order", "from_bytes decodes the file before it checks the name: 'from_bytes a-b 00' is Format",
     ["protocol/errors/pairs/from_bytes"])
def _():
    FLAGS.add("file_before_name")


@bug("real_exponent_int32", "width", "a real's exponent is kept in an int32: 1e-4294967297 reads as 1e-1",
     ["protocol/grammar/real/forms"])
def _():
    original = impl.read_real
    def read_real(word):
        m = re.fullmatch(r"(.*[0-9.])[eE]([+-]?)([0-9]+)", word)
        if m and impl.REAL.match(word):
            e = int(m.group(2) + m.group(3))
            e = (e + (1 << 31)) % (1 << 32) - (1 << 31)
            word = f"{m.group(1)}e{e}"
        return original(word)
    impl.read_real = read_real


@bug("real_nan_payload", "grammar", "reals are read with C's strtod, which takes 'nan(1)' and 'nan()'",
     ["protocol/grammar/real/forms"])
def _():
    original = impl.read_real
    impl.read_real = lambda word: math.nan if re.fullmatch(r"nan\([0-9A-Za-z_]*\)", word) else original(word)


@bug("union_count_halves_no_carry", "width", "union adds counts as two 32-bit halves and loses the carry between them",
     ["protocol/integers/widths/n_inserted"])
def _():
    original = B.union
    def union(self, other):
        a, b = self.n_inserted, other.n_inserted
        original(self, other)
        if self.n_inserted != MASK:
            low = (a & 0xffffffff) + (b & 0xffffffff)
            self.n_inserted = ((a >> 32) + (b >> 32) << 32 | low & 0xffffffff) & MASK
    B.union = union


@bug("byte_index_u16", "width", "from_bytes keeps the bit array's byte index g / 8 in 16 bits when it reads bits",
     ["protocol/integers/widths/positions"])
def _():
    def contains(self, item):
        h1 = impl.fnv1a64(item)
        h2 = impl.mix64(h1) | 1
        for i in range(self.k):
            g = ((h1 + i * h2) & MASK) % self.m
            if not self.bits[(g >> 3) & 0xffff] >> (g & 7) & 1:
                return False
        return True
    B.contains = contains


@bug("length_in_u32", "header", "from_bytes computes ceil(m / 8) in 32 bits: the bare header with m = 2^35 loads",
     ["format/header/refused_alone/length"])
def _():
    original = B.from_bytes
    def from_bytes(data):
        if len(data) >= 32:
            m = int.from_bytes(data[8:16], "little")
            if 1 <= m <= impl.MAX_BITS and ((m + 7) // 8) & 0xffffffff == len(data) - 32 != (m + 7) // 8:
                return B(m, max(1, int.from_bytes(data[16:20], "little")), 0, bytearray((m + 7) // 8))
        return original(data)
    B.from_bytes = staticmethod(from_bytes)


@bug("drop_looks_up_before_counting", "order", "drop looks its filter up before it counts its arguments: 'drop absent 1' is NoSuchFilter",
     ["protocol/errors/pairs/drop"])
def _():
    FLAGS.add("drop_lookup_first")


@bug("bit_index_u32", "width", "bit indexes are kept in 32 bits: in a filter of 2^33 bits, two items 2^32 apart share a bit",
     ["large/index_keeps_64_bits"], group="large/*")
def _():
    def index(self, item):
        h1 = impl.fnv1a64(item)
        h2 = impl.mix64(h1) | 1
        return [((h1 + i * h2) & MASK) % self.m & 0xffffffff for i in range(self.k)]
    def insert(self, item):
        for g in index(self, item):
            self.bits[g >> 3] |= 1 << (g & 7)
        self.n_inserted = min(self.n_inserted + 1, MASK)
    def contains(self, item):
        return all(self.bits[g >> 3] >> (g & 7) & 1 for g in index(self, item))
    B.insert, B.contains = insert, contains


# ---- the int32 bit index (issue 38, part 4) ---------------------------------
# A JVM port keeps the bit index in an int: (int) of a position at or above
# 2^31 is negative, and the array access throws. The default check's filter
# of 2^31 + 64 bits has items on both sides of 2^31.

@bug("bit_index_int32", "width",
     "bit indexes are Java ints ((int) of the u64 position): at 2^31 and above the index is negative "
     "and the array access throws, which ends the process",
     ["state/index_past_2_pow_31"])
def _():
    def index(self, g):
        i = (g & 0xffffffff) - (1 << 32 if g & 0x80000000 else 0)
        if i < 0:
            raise IndexError(f"Index {i >> 3} out of bounds for length {len(self.bits)}")
        return i
    def insert(self, item):
        for g in impl.positions(self.m, self.k, item):
            i = index(self, g)
            self.bits[i >> 3] |= 1 << (i & 7)
        self.n_inserted = min(self.n_inserted + 1, MASK)
    def contains(self, item):
        return all(self.bits[index(self, g) >> 3] >> (g & 7) & 1 for g in impl.positions(self.m, self.k, item))
    B.insert, B.contains = insert, contains


# ---- ln p by another formula (issue 38, part 5) ------------------------------
# Each is within one ulp of the correctly rounded ln p almost always, which
# LogLastBit accepts, but two ulps off now and then, where m is none of the
# acceptable ones: the sizing vectors' second OptimalMTest group holds such p.

def ln_by(formula):
    original = impl.ln
    impl.ln = lambda x: formula(x) if 0.0 < x < 1.0 else original(x)


LOG_FORMULA_CASES = ["vectors/sizing/OptimalMTest/" + str(tc) for tc in range(58, 67)]


@bug("ln_as_log2_times_ln2", "log", "ln p computed as log2(p) * LN2 (two ulps off for about one p in 20 million)",
     [c for c in LOG_FORMULA_CASES if c.endswith(("/58", "/59", "/60", "/61"))])
def _():
    ln_by(lambda x: math.log2(x) * impl.LN2)


@bug("ln_as_log10_times_ln10", "log", "ln p computed as log10(p) * LN10, LN10 the double nearest ln 10",
     [c for c in LOG_FORMULA_CASES if c.endswith(("/62", "/63", "/64"))])
def _():
    ln_by(lambda x: math.log10(x) * 2.302585092994046)


@bug("ln_as_log1p", "log", "ln p computed as log1p(-(1 - p)), where 1 - p is rounded for p below 1/2",
     [c for c in LOG_FORMULA_CASES if c.endswith(("/64", "/65", "/66"))])
def _():
    ln_by(lambda x: math.log1p(-(1.0 - x)))


# ---- an answer for every request (issue 38, part 3) --------------------------
# A port that allocates its bits eagerly and dies when the allocation fails
# leaves `new` of 2^40 bits (128 GiB) unanswered, where ok or err BadParams is
# right. Simulated without the memory: a filter above 2^36 bits "fails".

def die_when_large(die):
    original = B.new
    def new(m, k):
        if 1 <= m <= impl.MAX_BITS and 1 <= k <= impl.MAX_K and m > 1 << 36:
            sys.stderr.write(f"memory allocation of {(m + 7) // 8} bytes failed\n")
            sys.stderr.flush()
            die()
        return original(m, k)
    B.new = staticmethod(new)


@bug("exits_when_it_cannot_allocate", "allocation", "a filter whose bits cannot be allocated ends the process (exit status 1, like an uncaught MemoryError): new and with_rate of 2^40 bits get no answer",
     ["protocol/session/largest_new_answered", "protocol/session/largest_with_rate_answered"])
def _():
    die_when_large(lambda: os._exit(1))


@bug("aborts_when_it_cannot_allocate", "allocation", "a filter whose bits cannot be allocated aborts the process (SIGABRT, like Rust's vec! on a failed allocation): new and with_rate of 2^40 bits get no answer",
     ["protocol/session/largest_new_answered", "protocol/session/largest_with_rate_answered"])
def _():
    die_when_large(os.abort)


# ---- an acceptable answer opens only the fields it leaves undecided ---------
# (docs/check.md, "What is acceptable"): one member for each flag whose answer
# leaves a filter open. Each takes the acceptable answer, then gets a field
# that answer leaves decided wrong; the judge used to open the whole filter.

@bug("union_overflow_keeps_bits", "decision", "a union whose counts pass 2^64 - 1 saturates the count and returns before it ORs the bits (CountSaturates leaves only the count open)",
     ["state/open_by_field/union_past_the_count_still_ors"])
def _():
    original = B.union
    def union(self, other):
        if (self.m, self.k) == (other.m, other.k) and self.n_inserted + other.n_inserted > MASK:
            self.n_inserted = MASK
            return
        original(self, other)
    B.union = union


def m_of_lower_log(n, p):
    """optimal_m with log(p) one ulp lower, as another platform's libm may give it (LogLastBit)."""
    ideal = (-float(n) * math.nextafter(impl.ln(p), -math.inf)) / (impl.LN2 * impl.LN2)
    return impl.saturate(math.ceil(ideal) if math.isfinite(ideal) else ideal, 64)


def with_rate_sized_by(m_of, k_of):
    def with_rate(n, p):
        if n < 1 or not 0.0 < p < 1.0:
            raise impl.TlbfError("BadParams", "n or p")
        m = m_of(n, p)
        if m > impl.MAX_BITS:
            raise impl.TlbfError("BadParams", "m")
        return B.new(m, k_of(m, n, p))
    B.with_rate = staticmethod(with_rate)


@bug("with_rate_k_of_another_log", "decision", "with_rate takes m from a log one ulp lower (acceptable alone, LogLastBit) but k from the library's m: k does not follow the m it reports",
     ["state/open_by_field/with_rate_k_and_bits_follow_m"])
def _():
    with_rate_sized_by(m_of_lower_log, lambda m, n, p: impl.optimal_k(impl.optimal_m(n, p), n))


@bug("k_above_max_k_clamped", "decision", "new and from_bytes accept a k above 65536 but keep 65536 (StrictKBound allows accepting the k, not changing it)",
     ["state/open_by_field/k_above_max_k_kept_as_given"])
def _():
    impl.MAX_K = (1 << 32) - 1
    new, load = B.new, B.from_bytes
    B.new = staticmethod(lambda m, k: new(m, min(k, 1 << 16)))
    def from_bytes(data):
        loaded = load(data)
        loaded.k = min(loaded.k, 1 << 16)
        return loaded
    B.from_bytes = staticmethod(from_bytes)


# ---- controls: tlbf check must pass these -----------------------------------

@control("k_round_floor_plus_half", "optimal_k rounds with floor(x + 0.5): differs from half away from zero only below 1 and above 2^52, where max(1, ...) and saturation hide it")
def _():
    impl.round_half_away = lambda x: math.floor(x + 0.5) if math.isfinite(x) else x


@control("ln2_from_log", "LN2 is math.log(2), which is the same double as the literal")
def _():
    impl.LN2 = math.log(2)


@control("with_rate_without_max_bits", "with_rate leaves out its own m <= 2^40 check: create refuses such m with the same BadParams")
def _():
    def with_rate(n, p):
        if n < 1 or not 0.0 < p < 1.0:
            raise impl.TlbfError("BadParams", "n or p")
        m = impl.optimal_m(n, p)
        return B.new(m, impl.optimal_k(m, n) if m else 1)
    B.with_rate = staticmethod(with_rate)


@control("with_rate_nan_slips_through", "with_rate tests p <= 0 or p >= 1, which NaN passes; optimal_m(n, NaN) = 0 then makes create refuse it")
def _():
    def with_rate(n, p):
        if n < 1 or p <= 0.0 or p >= 1.0:
            raise impl.TlbfError("BadParams", "n or p")
        m = impl.optimal_m(n, p)
        if m > impl.MAX_BITS:
            raise impl.TlbfError("BadParams", "m")
        return B.new(m, impl.optimal_k(m, n) if m else 1)
    B.with_rate = staticmethod(with_rate)


@control("reals_with_exponent", "reals are written as '1.7410586496326586e-02' (the protocol takes any decimal that reads back)")
def _():
    impl.write_real = lambda x: repr(x) if not math.isfinite(x) else f"{x:.16e}"


@control("reals_with_13_digits", "reals are written with 13 significant digits ('1.741058649633e-02'), within "
         "the relative 1e-12 that docs/protocol.md's Reals rule allows")
def _():
    impl.write_real = lambda x: repr(x) if not math.isfinite(x) else f"{x:.12e}"


@control("flush_every_line", "answers are flushed after every line, not when input runs dry")
def _():
    FLAGS.add("flush_each")


@control("with_rate_log_one_ulp_low", "with_rate's log(p) is one ulp lower, as another platform's libm may give it: m differs where the vectors flag LogLastBit, and k and the bits follow from that m")
def _():
    with_rate_sized_by(m_of_lower_log, lambda m, n, p: impl.optimal_k(m, n))


@control("union_count_wraps", "union counts wrap at 2^64 (the vectors call wrapping acceptable, flag CountSaturates)")
def _():
    original = B.union
    def union(self, other):
        total = self.n_inserted + other.n_inserted
        original(self, other)
        self.n_inserted = total & MASK
    B.union = union


@control("k_above_max_k_accepted", "k above 65536 is accepted (the vectors call that acceptable, flag StrictKBound)")
def _():
    impl.MAX_K = (1 << 32) - 1


@control("out_of_domain_sizing_refused", "optimal_m and optimal_k answer BadParams for n = 0 or p outside (0, 1) (the vectors call that acceptable, flag OutOfDomain)")
def _():
    m_of, k_of = impl.optimal_m, impl.optimal_k
    def optimal_m(n, p):
        if n == 0 or not 0.0 < p < 1.0:
            raise impl.TlbfError("BadParams", "out of domain")
        return m_of(n, p)
    def optimal_k(m, n):
        if n == 0:
            raise impl.TlbfError("BadParams", "out of domain")
        return k_of(m, n)
    impl.optimal_m, impl.optimal_k = optimal_m, optimal_k


# ---- the session and the loop, with the switches above ---------------------

def java_hashcode(name):
    h = 0
    for c in name:
        h = (31 * h + ord(c)) & 0xffffffff
    return h


class BuggySession(impl.Session):
    def __init__(self):
        super().__init__()
        self.order = []  # names in creation order, for the 64-filter table
        self.current = None  # the command being answered
        self.by_name = {}  # contains answers remembered by filter name, for one bug

    def store(self, name, bloom):
        if "with_rate_setdefault" in FLAGS and self.current == "with_rate" and name in self.filters:
            return
        if name not in self.filters:
            if "refuse64" in FLAGS and len(self.filters) >= 64:
                raise impl.TlbfError("BadParams", "the table holds 64 filters")
            for flag, most in (("evict64", 64), ("evict128", 128)):
                if flag in FLAGS and len(self.filters) >= most:
                    oldest = next(n for n in self.order if n in self.filters)
                    del self.filters[oldest]
            self.order.append(name)
        old = self.filters.get(name)
        if "reuse_same_shape" in FLAGS and old is not None and (old.m, old.k) == (bloom.m, bloom.k) and not any(bloom.bits):
            old.n_inserted = bloom.n_inserted
            return
        impl.Session.store(self, name, bloom)

    def answer(self, line):
        if line.endswith("\r") and "cr_kept" not in FLAGS:
            line = line[:-1]
        if "strip" in FLAGS:
            line = line.strip()
        if "framing_late" in FLAGS:
            word = line.split(" ")[0]
            if word and word not in self.table:
                raise impl.ProtocolError("Unknown", word)
        if "drop_lookup_first" in FLAGS and line.startswith("drop ") and len(line.split(" ")) > 2 \
                and line.split(" ")[1] not in self.filters:
            raise impl.ProtocolError("NoSuchFilter", line.split(" ")[1])
        if "max_words" in FLAGS and len(line.split(" ")) > 4:
            raise impl.bad("too many words")
        if "split_any" in FLAGS:
            if not line.strip() or not all(0x20 <= ord(c) <= 0x7e or c == "\t" for c in line):
                raise impl.bad("framing")
            word, *args = line.split()
        elif "any_bytes" in FLAGS:
            if not line or "" in line.split(" "):
                raise impl.bad("framing")
            word, *args = line.split(" ")
        else:
            if not impl.REQUEST.match(line):
                raise impl.bad("framing")
            word, *args = line.split(" ")
        if "lower_command" in FLAGS:
            word = word.lower()
        if word not in self.table:
            raise impl.ProtocolError("Protocol" if "unknown_protocol" in FLAGS else "Unknown", word)
        if "self_union_unknown" in FLAGS and word == "union" and len(args) == 2 and args[0] == args[1]:
            raise impl.ProtocolError("Unknown", "union of a filter with itself")
        if word == "hello" and "hello_any" in FLAGS:
            args = []
        readers, handler = self.table[word]
        if "ignore_extra" in FLAGS:
            args = args[:len(readers)]
        if "count_late" in FLAGS:
            for r, a in zip(readers, args):
                if r == impl.FILTER and impl.NAME.match(a) and impl.read_name(a) not in self.filters:
                    raise impl.ProtocolError("NoSuchFilter", a)
        if len(args) != len(readers):
            raise impl.bad("argument count")
        if "file_before_name" in FLAGS and word == "from_bytes" and len(args) == 2:
            data = impl.read_bytes(args[1])
            B.from_bytes(data)
        values = []
        for r, a in zip(readers, args):
            values.append(impl.read_name(a) if r == impl.FILTER else r(a))
            if "check_as_read" in FLAGS and word in ("new", "positions_for") and r in (impl.U64, impl.U32) \
                    and values[-1] == 0:
                raise impl.TlbfError("BadParams", "zero")
            if "lookup_early" in FLAGS and r == impl.FILTER and values[-1] not in self.filters:
                raise impl.ProtocolError("NoSuchFilter", a)
        if "key_by_hashcode" in FLAGS:
            values = [java_hashcode(v) if r in (impl.FILTER, impl.NEW) else v for r, v in zip(readers, values)]
        for r, v in zip(readers, values):
            if r == impl.FILTER and v not in self.filters:
                raise impl.ProtocolError("NoSuchFilter", v)
        if word == "drop":
            if "drop_noop" not in FLAGS:
                del self.filters[values[0]]
            return []
        self.current = word
        if "contains_by_name" in FLAGS and word in ("insert", "contains"):
            remembered = self.by_name.setdefault(values[0], {})
            if word == "insert":
                remembered.clear()
            elif values[1] not in remembered:
                remembered[values[1]] = handler(self.filters[values[0]], values[1])
            if word == "contains":
                return remembered[values[1]]
        looked_up = [self.filters[v] if r == impl.FILTER else v for r, v in zip(readers, values)]
        try:
            result = handler(*looked_up)
        except impl.TlbfError:
            if word in ("new", "with_rate") and "failed_create_drops" in FLAGS:
                self.filters.pop(values[0], None)
            if word == "from_bytes" and "failed_load_drops" in FLAGS:
                self.filters.pop(values[0], None)
            if word == "new" and "placeholder" in FLAGS:
                self.filters[values[0]] = B(values[1], values[2], 0, bytearray(min((values[1] + 7) // 8, 1 << 20)))
            raise
        return self.rewrite(word, result)

    def rewrite(self, word, result):
        if result is None:
            return result
        if word in ("fnv1a64", "mix64") and "hash_unpadded" in FLAGS:
            return [format(int(result[0], 16), "x")]
        if word == "to_bytes" and "upper_bytes" in FLAGS:
            return [result[0].upper()]
        if word == "info" and "info_k_first" in FLAGS:
            return [result[1], result[0], result[2]]
        if word == "contains" and "capital_bool" in FLAGS:
            return [result[0].capitalize()]
        return result

    def handle(self, line):
        if "drop_missing_ok" in FLAGS and re.fullmatch(r"drop [A-Za-z0-9_]{1,32}\r?", line) \
                and line.split(" ")[1].rstrip("\r") not in self.filters:
            return "ok"
        answer = super().handle(line)
        if answer.startswith("err ") and "echo_request" in FLAGS:
            answer += " in " + line[:60]
        return "ok " if answer == "ok" and "ok_space" in FLAGS else answer


def serve(session):
    """impl.serve's loop, with the line-length limits and the skipped empty lines of some bugs."""
    limit = next((int(f.split(":")[1]) for f in FLAGS if f.startswith("limit:")), None)
    pending, out = [], []

    def answer(raw):
        if limit is not None and len(raw) + 1 > limit:
            out.append("err Protocol line too long\n")
        elif not (raw == b"" and "skip_empty" in FLAGS):
            out.append(session.handle(raw.decode("latin-1")) + "\n")

    while True:
        if out:
            data = "".join(out).encode("latin-1")
            while data:
                data = data[os.write(1, data):]
            out = []
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        *ends, rest = chunk.split(b"\n")
        for end in ends:
            pending.append(end)
            answer(b"".join(pending))
            pending = []
            if "flush_each" in FLAGS:
                data = "".join(out).encode("latin-1")
                while data:
                    data = data[os.write(1, data):]
                out = []
        if rest:
            pending.append(rest)
    if pending and "drop_last_line" not in FLAGS:
        answer(b"".join(pending))
    data = "".join(out).encode("latin-1")
    while data:
        data = data[os.write(1, data):]


def catalog():
    strip = lambda entry: {k: v for k, v in entry.items() if k != "patch"}
    return {"bugs": [strip(b) for b in BUGS.values()], "controls": [strip(c) for c in CONTROLS.values()]}


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    if argv[1] == "--catalog":
        print(json.dumps(catalog(), indent=1))
        return 0
    name = argv[1]
    if name != "none":
        entry = BUGS.get(name) or CONTROLS.get(name)
        if entry is None:
            sys.exit(f"buggy_impl.py: no bug or control named '{name}'")
        entry["patch"]()
    try:
        serve(BuggySession())
    except BrokenPipeError:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
