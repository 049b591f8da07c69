"""The course's module tlbf_impl, bound to the implementation under test.

A learner's test_bloom.py imports this module exactly as it would import a
TLBF v1 implementation written in Python (docs/mutants.md, "Kits": `Bloom`,
`TlbfError`, `fnv1a64`, `mix64`, `optimal_m`, `optimal_k`,
`predicted_fp_rate`, `positions`), but nothing here computes anything: every
call is a request of line protocol v1 (docs/protocol.md) to the
implementation that the environment variable TLBF_IMPL names, a shell command
started once per process, at the first call. tlbf grade serves the course's
reference there, or one of its planted bugs, a correct variant or another
bug, hidden where a suite cannot look: this file is the same bytes in every
run, so reading it says nothing about the subject. Only its answers do.

    TLBF_IMPL='tlbf serve' python3 -m unittest -q test_bloom

What differs from a module that computes in process:

- `err KIND message` becomes `TlbfError` with `.kind`, as the reference raises
  it. An implementation that ends, closes its output, or answers what is not
  an answer to the request raises `ImplementationFailed`, which derives from
  BaseException and not Exception: a test's `except Exception` or
  `assertRaises(Exception)` must not take a dead subject for the error it
  expected. Every later call raises it again.
- `insert` is sent without waiting for its answer, which every correct
  implementation gives as `ok`; the answers are read, in order, before the
  next call that needs one (and at exit). An insert that was not answered
  `ok` raises `ImplementationFailed` at the latest there, or, when no call
  follows, makes the process exit with status 1 after printing why.
- `bits` is read-only, `bytes` (the file after its 32-byte header), fetched
  afresh at each read; `m`, `k` and `n_inserted` are asked of the
  implementation at each read too, and cannot be assigned.
- Arguments must fit the protocol: items are bytes-like, integers whole.
  `Bloom.new` and `Bloom.with_rate` raise `TlbfError("BadParams")` without
  asking for numbers the protocol cannot carry (negative, or past its u64 and
  u32 fields), as the reference does for every number out of its range;
  anything else the protocol refuses is `TlbfError("Protocol")`.
- `Bloom(m, k, n_inserted=0, bits=None)` asks for the filter (`new`, or
  `from_bytes` of the file those values make), so values the reference's
  constructor stored unchecked are refused here. `copy.copy` of a Bloom
  shares its filter, as the reference's shallow copy shared its bits;
  `copy.deepcopy` makes a new one from `to_bytes`.
"""
import atexit
import collections
import itertools
import operator
import os
import select
import subprocess
import sys
import threading

HEADER_LEN = 32
_U64 = 1 << 64
_U32 = 1 << 32


class TlbfError(Exception):
    def __init__(self, kind, message=""):
        super().__init__(message)
        self.kind = kind


class ImplementationFailed(BaseException):
    """The implementation under test ended, or answered what is no answer."""


# What an answer read back must be: the one a caller waits for, or one sent
# ahead whose only right answer is "ok", or one nobody needs (drop).
_WANTED, _MUST_BE_OK, _IGNORED = 0, 1, 2
# Requests sent ahead are written once this many bytes wait, and their
# answers read once this many are outstanding: bounds on memory, not on
# correctness (writing never blocks on a full pipe, see _write_all).
_SEND_AT = 1 << 16
_READ_AT = 1 << 14


class _Subject:
    """One running implementation, its pipes, and the requests it still owes answers to."""

    def __init__(self, command):
        self._process = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, bufsize=0)
        self._in = self._process.stdin.fileno()
        self._out = self._process.stdout.fileno()
        # Non-blocking writes: a long run of inserts must never wait on an
        # implementation that waits for its own answers to be read.
        os.set_blocking(self._in, False)
        self._read = bytearray()
        self._at = 0                   # where the next unread answer starts in _read
        self._unsent = []
        self._unsent_bytes = 0
        self._owed = collections.deque()  # (request, what its answer must be), oldest first
        self._dropped = []                # names of filters no Bloom holds any more
        self._failure = None
        self._lock = threading.Lock()
        self._names = itertools.count(1)
        self.pid = os.getpid()

    def new_name(self):
        return "f%d" % next(self._names)

    def drop_later(self, name):
        # Called from __del__, at any moment, even inside a call: no lock, no I/O.
        self._dropped.append(name)

    def ask(self, request):
        """Sends `request` and returns its answer's words after "ok"; `err` raises TlbfError."""
        with self._lock:
            self._queue(request, _WANTED)
            self._write_all()
            while True:
                line = self._line(request)
                wanted = self._owed.popleft()
                if wanted[1] == _WANTED:
                    break
                self._settle(wanted, line)
        words = line.split(" ")
        if words[0] == "ok":
            return words[1:]
        if words[0] == "err" and len(words) >= 2 and words[1]:
            raise TlbfError(words[1], " ".join(words[2:]))
        raise self._fail("answered %r to %r" % (line[:200], request[:200]))

    def send_ahead(self, request):
        """Sends `request`, whose only right answer is "ok", without waiting for it."""
        with self._lock:
            self._queue(request, _MUST_BE_OK)
            # Written before any answer is awaited: an answer owed to a request still unsent never comes.
            if self._unsent_bytes >= _SEND_AT or len(self._owed) >= _READ_AT:
                self._write_all()
            while len(self._owed) >= _READ_AT:
                self._settle(self._owed[0], self._line(self._owed[0][0]))
                self._owed.popleft()

    def finish(self):
        """At exit: the answers still owed, read and checked; then end of input."""
        with self._lock:
            try:
                if self._failure is not None:
                    return  # raised already, in the call that found it
                self._write_all()
                while self._owed:
                    owed = self._owed[0]
                    self._settle(owed, self._line(owed[0]))
                    self._owed.popleft()
            finally:
                try:
                    self._process.stdin.close()
                except OSError:
                    pass

    def _queue(self, request, wanted):
        if self._failure is not None:
            raise ImplementationFailed(self._failure)
        if self._dropped:
            dropped, self._dropped = self._dropped, []
            for name in dropped:
                line = b"drop " + name.encode() + b"\n"
                self._unsent.append(line)
                self._unsent_bytes += len(line)
                self._owed.append(("drop " + name, _IGNORED))
        line = request.encode("ascii") + b"\n"
        self._unsent.append(line)
        self._unsent_bytes += len(line)
        self._owed.append((request, wanted))

    def _settle(self, owed, line):
        request, wanted = owed
        if wanted == _MUST_BE_OK and line != "ok":
            raise self._fail("answered %r to %r, sent ahead of its answer (only \"ok\" is right)"
                             % (line[:200], request[:200]))

    def _write_all(self):
        data = memoryview(b"".join(self._unsent))
        self._unsent.clear()
        self._unsent_bytes = 0
        while data:
            try:
                data = data[os.write(self._in, data):]
                continue
            except BlockingIOError:
                pass
            except OSError:  # EPIPE: it stopped reading; its output says why
                return
            # The pipe is full: take in what it answered meanwhile, so that
            # an implementation blocked writing its answers reads again.
            readable, _, _ = select.select([self._out], [self._in], [])
            if readable and not self._take():
                raise self._fail("closed its output while requests were still being written (%s)"
                                 % self._how_it_ended())

    def _take(self):
        try:
            chunk = os.read(self._out, 1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            return False
        self._read += chunk
        return True

    def _line(self, request):
        if self._at > (1 << 16):
            del self._read[:self._at]
            self._at = 0
        end = self._read.find(b"\n", self._at)
        while end < 0:
            searched = len(self._read)
            if not self._take():
                raise self._fail("ended without answering %r (%s)" % (request[:200], self._how_it_ended()))
            end = self._read.find(b"\n", searched)
        line = self._read[self._at:end].decode("latin-1")
        self._at = end + 1
        return line

    def _how_it_ended(self):
        try:
            status = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "its output closed, the process still running"
        return "exit status %d" % status if status >= 0 else "killed by signal %d" % -status

    def _fail(self, why):
        self._failure = "the implementation under test (TLBF_IMPL) " + why
        return ImplementationFailed(self._failure)


_subject = None
_subject_lock = threading.Lock()


def _the_subject():
    global _subject
    subject = _subject
    if subject is not None and subject.pid == os.getpid():
        return subject
    with _subject_lock:
        # A forked child must not write into its parent's pipes: it starts its own.
        if _subject is None or _subject.pid != os.getpid():
            command = os.environ.get("TLBF_IMPL")
            if not command:
                raise RuntimeError("TLBF_IMPL is not set: it names the implementation to test "
                                   "(tlbf grade sets it for every run)")
            _subject = _Subject(command)
        return _subject


@atexit.register
def _finish():
    subject = _subject
    if subject is None or subject.pid != os.getpid():
        return
    try:
        subject.finish()
    except ImplementationFailed as e:
        # The last calls were inserts sent ahead, and one of them failed: the
        # run fails, as it would have had insert raised.
        sys.stdout.flush()
        sys.stderr.write("tlbf_impl: %s\n" % e)
        sys.stderr.flush()
        os._exit(1)


# ---- arguments and answers --------------------------------------------------

def _whole(x):
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return operator.index(x)


def _item(data):
    if isinstance(data, (str, int)):
        raise TypeError("an item is bytes, not %s" % type(data).__name__)
    data = bytes(data)
    return data.hex() if data else "-"


def _real(p):
    return repr(float(p))  # shortest round trip; nan, inf and -inf as the protocol spells them


def _number(words, convert, request):
    try:
        (word,) = words
        return convert(word)
    except ValueError:
        raise _the_subject()._fail("answered 'ok %s' to %r" % (" ".join(words)[:200], request))


def _ask_number(request, convert):
    return _number(_the_subject().ask(request), convert, request)


def _count(word):
    if not (word.isascii() and word.isdigit()):
        raise ValueError(word)
    return int(word)


def _hash(word):
    if len(word) != 16:
        raise ValueError(word)
    return int(word, 16)


# ---- the module's functions -------------------------------------------------

def fnv1a64(data):
    return _ask_number("fnv1a64 " + _item(data), _hash)


def mix64(z):
    z = _whole(z)
    return _ask_number("mix64 " + (format(z, "016x") if 0 <= z < _U64 else str(z)), _hash)


def optimal_m(n, p):
    return _ask_number("optimal_m %d %s" % (_whole(n), _real(p)), _count)


def optimal_k(m, n):
    return _ask_number("optimal_k %d %d" % (_whole(m), _whole(n)), _count)


def predicted_fp_rate(m, k, n):
    return _ask_number("predicted_fp_rate %d %d %d" % (_whole(m), _whole(k), _whole(n)), float)


def positions(m, k, item):
    request = "positions_for %d %d %s" % (_whole(m), _whole(k), _item(item))
    return _ints(_the_subject().ask(request), request)


def _ints(words, request):
    try:
        return [_count(w) for w in words]
    except ValueError:
        raise _the_subject()._fail("answered 'ok %s' to %r" % (" ".join(words)[:200], request))


class _Handle:
    """A filter's name in the implementation; dropped there when no Bloom holds it."""

    def __init__(self, subject, name):
        self.subject, self.name = subject, name

    def __del__(self):
        try:
            self.subject.drop_later(self.name)
        except Exception:  # at interpreter exit the module may be half gone
            pass


class Bloom:
    def __init__(self, m, k, n_inserted=0, bits=None):
        # The reference's constructor, which Bloom.new and Bloom.from_bytes
        # call; here a filter the implementation makes from those values.
        if bits is None and n_inserted == 0:
            made = Bloom.new(m, k)
        else:
            m, k, n = _whole(m), _whole(k), _whole(n_inserted)
            body = bytes(bits) if bits is not None else bytes((m + 7) // 8)
            made = Bloom.from_bytes(b"TLBF" + (1).to_bytes(4, "little") + m.to_bytes(8, "little")
                                    + k.to_bytes(4, "little") + bytes(4) + n.to_bytes(8, "little") + body)
        self._handle = made._handle

    @staticmethod
    def _made(request_after_name):
        subject = _the_subject()
        name = subject.new_name()
        subject.ask(request_after_name % name)
        bloom = Bloom.__new__(Bloom)
        bloom._handle = _Handle(subject, name)
        return bloom

    def _ask(self, request):
        handle = self._handle
        if handle.subject is not _the_subject():
            raise RuntimeError("this Bloom was made by another process (before a fork)")
        return handle.subject.ask(request % handle.name)

    @staticmethod
    def new(m, k):
        m, k = _whole(m), _whole(k)
        if not (0 <= m < _U64 and 0 <= k < _U32):
            raise TlbfError("BadParams", "m = %d, k = %d" % (m, k))
        return Bloom._made("new %%s %d %d" % (m, k))

    @staticmethod
    def with_rate(n, p):
        n = _whole(n)
        if not 0 <= n < _U64:
            raise TlbfError("BadParams", "n = %d" % n)
        return Bloom._made("with_rate %%s %d %s" % (n, _real(p)))

    @staticmethod
    def from_bytes(data):
        if isinstance(data, str):
            raise TlbfError("Format", "a str is not bytes")  # the reference's answer, magic first
        return Bloom._made("from_bytes %s " + _item(data))

    def insert(self, item):
        handle = self._handle
        request = "insert %s %s" % (handle.name, _item(item))
        if handle.subject is not _the_subject():
            raise RuntimeError("this Bloom was made by another process (before a fork)")
        handle.subject.send_ahead(request)

    def contains(self, item):
        request = "contains %s " + _item(item)
        words = self._ask(request)
        if words == ["true"]:
            return True
        if words == ["false"]:
            return False
        raise self._handle.subject._fail("answered 'ok %s' to %r" % (" ".join(words)[:200], request))

    def union(self, other):
        if not isinstance(other, Bloom):
            raise TypeError("union of a Bloom with %s" % type(other).__name__)
        self._ask("union %%s %s" % other._handle.name)

    def count_ones(self):
        return _number(self._ask("count_ones %s"), _count, "count_ones")

    def to_bytes(self):
        words = self._ask("to_bytes %s")
        try:
            (word,) = words
            return b"" if word == "-" else bytes.fromhex(word)
        except ValueError:
            raise self._handle.subject._fail("answered 'ok %s' to to_bytes" % " ".join(words)[:200])

    def _info(self):
        words = self._ask("info %s")
        if len(words) == 3:
            try:
                return [_count(w) for w in words]
            except ValueError:
                pass
        raise self._handle.subject._fail("answered 'ok %s' to info" % " ".join(words)[:200])

    @property
    def m(self):
        return self._info()[0]

    @property
    def k(self):
        return self._info()[1]

    @property
    def n_inserted(self):
        return self._info()[2]

    @property
    def bits(self):
        return self.to_bytes()[HEADER_LEN:]

    def __deepcopy__(self, memo):
        return Bloom.from_bytes(self.to_bytes())
