#!/usr/bin/env python3
"""The bundled Python implementation, broken on purpose in one way.

Usage: misbehaving_impl.py MODE [TAG]
TAG is ignored: tests put one in the command line to find their processes.
MODE is a planted bug of the specification's pitfall table (an id of
mutants/catalog.json, s01 .. s10: the bundled implementation with that bug's
patch from mutants/patches/python applied, so the bugs are written once), a
bug of another kind (wrong_error_kind, wrong_version, empty_item), an
implementation of fewer capabilities (filter_only), or a way
of misbehaving as a process (crash, signal, hang, garbage, binary_garbage, no_newline,
long_line, stderr_flood, exit_early, double_response, extra_words,
close_stdout, close_stdout_keep_reading, no_newline_then_hang,
grandchild_holds_pipe, ignore_sigterm, no_flush, flush_every_8, hang_every_50,
wrong_after_1000), or a correct but slow one (slow_20ms, slow_start_2s,
slow_past_2_pow_31: 2 s for each insert into state/index_past_2_pow_31's
filter, whose three answers it writes with the rest of the case's).
The conformance
runner's tests check that each is reported, correctly and in bounded time.
"""
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def load_impl(mode):
    """tlbf_impl as bundled, or with the catalog's planted bug `mode` patched in."""
    with open(os.path.join(ROOT, "mutants", "catalog.json")) as f:
        catalog = json.load(f)
    patches = catalog["patch_sets"]["python"]
    if mode not in [m["id"] for m in catalog["mutants"]]:
        sys.path.insert(0, os.path.join(ROOT, patches["workdir"]))
        import tlbf_impl
        return tlbf_impl
    with tempfile.TemporaryDirectory(prefix="misbehaving_impl_") as copy:
        shutil.copy(os.path.join(ROOT, patches["workdir"], patches["file"]), copy)
        subprocess.run(["patch", "-p1", "--batch", "--forward", "--silent", "-i",
                        os.path.join(ROOT, patches["dir"], mode + ".patch")], cwd=copy, check=True, stdout=sys.stderr)
        spec = importlib.util.spec_from_file_location("tlbf_impl", os.path.join(copy, os.path.basename(patches["file"])))
        module = importlib.util.module_from_spec(spec)
        sys.modules["tlbf_impl"] = module
        spec.loader.exec_module(module)  # read whole before the copy goes
        return module


MODE = sys.argv[1]
sys.dont_write_bytecode = True  # neither the bundled folder nor the patched copy gets a __pycache__
impl = load_impl(MODE)
TRIGGER = 60  # the request at which process misbehaviour starts
# With a marker path in this variable, only the first process to get that
# far misbehaves (it creates the marker): the runner must recover after it.
ONCE = os.environ.get("TLBF_MISBEHAVE_ONCE")


def first_time():
    if not ONCE:
        return True
    try:
        os.close(os.open(ONCE, os.O_CREAT | os.O_EXCL))
        return True
    except FileExistsError:
        return False


def patch_bugs():
    B = impl.Bloom
    if MODE == "wrong_error_kind":
        original = B.from_bytes
        def from_bytes(data):
            try:
                return original(data)
            except impl.TlbfError as e:
                raise impl.TlbfError("BadParams", str(e))
        B.from_bytes = staticmethod(from_bytes)
    if MODE == "wrong_version":
        original = B.to_bytes
        B.to_bytes = lambda self: original(self)[:4] + b"\x02" + original(self)[5:]
    if MODE == "empty_item":
        original = impl.read_bytes
        def read_bytes(word):
            if word == "-":
                raise impl.ProtocolError("Protocol", "no empty items here")
            return original(word)
        impl.read_bytes = read_bytes


# Not a bug: a screen that offers only the filter and its bytes.
NOT_OFFERED = ("fnv1a64", "mix64", "positions_for", "optimal_m", "optimal_k", "predicted_fp_rate", "union") \
    if MODE == "filter_only" else ()


class Misbehaving(impl.Session):
    count = 0
    count_without_newline = None

    def render(self, line):
        answer = self.handle(line)
        return answer if self.count == self.count_without_newline else answer + "\n"

    def __init__(self):
        super().__init__()
        for word in NOT_OFFERED:
            del self.table[word]

    def handle(self, line):
        self.count += 1
        answer = super().handle(line)
        if MODE == "slow_20ms":  # correct, but every answer takes 20 ms
            time.sleep(0.02)
        if MODE == "slow_start_2s" and self.count == 1:  # correct, but starts like a cold JIT
            time.sleep(2)
        if MODE == "slow_past_2_pow_31" and line.startswith("insert i31 "):  # bits in one Python int
            time.sleep(2)
        if MODE == "hang_every_50" and self.count % 50 == 0:  # every process, again and again
            time.sleep(3600)
        if MODE == "wrong_after_1000" and self.count > 1000 and answer in ("ok true", "ok false"):
            return "ok false" if answer == "ok true" else "ok true"  # state the process builds up
        if self.count != TRIGGER or not first_time():
            return answer
        if MODE == "crash":
            sys.stdout.flush()
            os._exit(3)
        if MODE == "signal":
            os.kill(os.getpid(), signal.SIGSEGV)
        if MODE in ("hang", "ignore_sigterm"):
            if MODE == "ignore_sigterm":
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
            time.sleep(3600)
        if MODE == "garbage":  # a debugging print to stdout instead of stderr
            return "DEBUG: answering request 60"
        if MODE == "binary_garbage":  # bytes that are not text at all, in place of an answer
            return "\x00\xff\xfe\x80 garbage \x01"
        if MODE == "no_newline":  # this answer runs into the next one
            self.count_without_newline = self.count
        if MODE == "long_line":  # 200 MB written a MiB at a time: the harness, not this process, must bound memory
            os.write(1, b"ok ")
            zeros = b"0" * (1 << 20)
            for _ in range(200):
                os.write(1, zeros)
            return answer
        if MODE == "stderr_flood":
            chunk = "x" * (1 << 20) + "\n"
            for _ in range(200):
                sys.stderr.write(chunk)
            sys.stderr.flush()
        if MODE == "double_response":
            return answer + "\n" + answer
        if MODE == "extra_words":
            return answer + " extra"
        if MODE == "close_stdout":
            os.close(1)
            time.sleep(3600)
        if MODE == "close_stdout_keep_reading":  # stdout closed, but it goes on reading its input
            os.close(1)
            while os.read(0, 1 << 16):
                pass
            time.sleep(3600)
        if MODE == "no_newline_then_hang":  # half an answer, then nothing
            os.write(1, answer.encode("latin-1"))
            time.sleep(3600)
        if MODE == "grandchild_holds_pipe":
            # inherits stdout and stderr; the shell stays, with the tag in its command line
            subprocess.Popen(["sh", "-c", "sleep 3600; :", "grandchild-of-" + (sys.argv[2] if len(sys.argv) > 2 else "")])
            os._exit(0)
        return answer


def main():
    patch_bugs()
    if MODE == "exit_early":
        return 0
    if MODE == "no_flush":  # answers sit in a buffer that is flushed only when full, or at exit
        session, out = Misbehaving(), open(1, "w", buffering=1 << 20, closefd=False)
        for line in sys.stdin:
            out.write(session.render(line.rstrip("\n")))
        out.flush()
        return 0
    if MODE == "flush_every_8":  # answers leave in batches of eight: the last few of a run wait forever
        session, held = Misbehaving(), []
        for line in iter(sys.stdin.readline, ""):
            held.append(session.render(line.rstrip("\n")))
            if len(held) == 8:
                os.write(1, "".join(held).encode("latin-1"))
                held = []
        os.write(1, "".join(held).encode("latin-1"))
        return 0
    # The bundled loop writes ASCII only; this one writes whatever handle() says.
    session, pending = Misbehaving(), b""
    try:
        while chunk := os.read(0, 1 << 16):
            pending += chunk
            if b"\n" not in chunk:  # splitting a long line again at every chunk would be quadratic
                continue
            *lines, pending = pending.split(b"\n")
            os.write(1, "".join(session.render(l.decode("latin-1")) for l in lines).encode("latin-1"))
    except OSError:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
