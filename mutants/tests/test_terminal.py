"""A suite that reaches for the terminal the grader started tlbf from
(docs/mutants.md, "A session of its own"): it opens /dev/tty, writes a line
to it, and pushes a command into its input with TIOCSTI, then passes. Run
under a real pseudo-terminal whose shell, after tlbf returns, reads and
evaluates whatever input is waiting, as a course author's shell would. The
command must never run and nothing may reach the terminal: every run of a
suite is in a session of its own with no controlling terminal and standard
input from /dev/null, sandboxed or not, in tlbf mutate and tlbf grade.

The control row runs the same suite straight from the terminal and shows the
push works on this kernel (dev.tty.legacy_tiocsti); where it does not, the
rows have nothing to show and are skipped. Each row runs as root and, through
setpriv, as nobody, from an installed prefix that nobody can read. (Run as
root, tlbf runs each suite as nobody too: "Who a suite runs as".) The Rust
kind's rows are a test of their own: its build is what they cost, so one
learner, no chaffs, one run a mutant; a row run as nobody is shown rustup's
toolchain through root's closed home by a bwrap of the test's, as a grader
would have to.

    TLBF_BUILD_DIR=build/release CMAKE=cmake TLBF_SOURCE_DIR=. python3 mutants/tests/test_terminal.py
"""
import os
import pty
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

from scratch_root import scratch_root

BUILD = os.environ["TLBF_BUILD_DIR"]
CMAKE = os.environ.get("CMAKE", "cmake")
SOURCE = os.environ["TLBF_SOURCE_DIR"]

# The suite: module-level code, so it runs in every kind's run, then one test that passes.
INJECTOR = r'''
import fcntl, os, termios, unittest
from unittest import TestCase as Case

PUSHED = {pushed!r}
WROTE = {wrote!r}


def reach_the_terminal():
    try:
        tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        tty = None
    if tty is not None:
        try:
            os.write(tty, (WROTE + "\n").encode())
        except OSError:
            pass
    for fd in ([tty] if tty is not None else []) + [0, 1, 2]:
        try:
            for byte in ("touch " + PUSHED + "\n").encode():
                fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
        except OSError:
            pass


reach_the_terminal()


class TestBloom(Case):
    def test_nothing(self):
        pass


if __name__ == "__main__":
    unittest.main()
'''

# The Rust kind's suite: the learner's tests/ds08_bloom.rs, a test binary with
# one #[test] that does the same through libc's ioctl (std links libc; the
# course crate has no libc crate to use), then passes.
RUST_INJECTOR = r'''
use std::io::Write;
use std::os::unix::io::AsRawFd;

extern "C" {
    fn ioctl(fd: i32, request: std::os::raw::c_ulong, ...) -> i32;
}
const TIOCSTI: std::os::raw::c_ulong = 0x5412;

fn push(fd: i32, text: &str) {
    for byte in text.bytes() {
        unsafe { ioctl(fd, TIOCSTI, &byte as *const u8) };
    }
}

#[test]
fn reaches_the_terminal() {
    let command = "touch {pushed}\n";
    let tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty");
    if let Ok(mut tty) = tty {
        let _ = tty.write_all(b"{wrote}\n");
        push(tty.as_raw_fd(), command);
    }
    for fd in 0..3 {
        push(fd, command);
    }
}
'''


def cargo():
    found = shutil.which("cargo")
    home = os.path.join(os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")), "bin/cargo")
    return found or (home if os.access(home, os.X_OK) else None)


def closed_to_others(path):
    """The outermost folder above `path` that other users may not pass through, or None."""
    above = "/"
    for part in os.path.normpath(path).split("/")[1:-1]:
        above = os.path.join(above, part)
        if not os.stat(above).st_mode & 0o001:
            return above
    return None


def in_a_terminal(command):
    """Runs `command` (a shell line) in a new pseudo-terminal as its controlling terminal,
    then, in the same terminal, a shell loop that evaluates each line of input waiting
    there. Returns everything the terminal showed."""
    line = command + ' ; while read -t 2 line; do eval "$line"; done; echo TERMINAL-DONE'
    pid, master = pty.fork()
    if pid == 0:
        os.execv("/bin/bash", ["bash", "-c", line])
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last holder is gone
            break
        if not chunk:
            break
        shown += chunk
    os.waitpid(pid, 0)
    os.close(master)
    return shown.decode(errors="replace")


class Terminal(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tlbf_terminal_", dir=scratch_root())
        os.chmod(self.dir, 0o777)
        self.prefix = os.path.join(self.dir, "prefix")
        subprocess.run([CMAKE, "--install", BUILD, "--prefix", self.prefix], check=True, capture_output=True)
        self.tlbf = os.path.join(self.prefix, "bin", "tlbf")
        self.users = [("root" if os.getuid() == 0 else "self", "")]
        if os.getuid() == 0 and subprocess.run(["id", "nobody"], capture_output=True).returncode == 0:
            group = subprocess.run(["id", "-gn", "nobody"], capture_output=True, text=True).stdout.strip()
            self.users.append(("nobody", "setpriv --reuid=nobody --regid=%s --clear-groups " % group))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def folder(self, name):
        path = os.path.join(self.dir, name)
        os.mkdir(path)
        os.chmod(path, 0o777)
        return path

    def suite(self, folder, file_name, row):
        """Writes the injector as folder/file_name; returns the file the pushed command would
        make and the text the suite writes to the terminal."""
        pushed = os.path.join(self.dir, "pushed-" + row)
        wrote = "TLBF-SUITE-WROTE-" + row
        with open(os.path.join(folder, file_name), "w") as f:
            f.write(INJECTOR.format(pushed=pushed, wrote=wrote))
        os.chmod(os.path.join(folder, file_name), 0o644)
        return pushed, wrote

    def as_user(self, as_prefix, line):
        # Debian's python3 first: nobody cannot use root's pyenv. TMPDIR inside the 0777 folder.
        return "%senv PATH=/usr/bin:/bin TMPDIR=%s HOME=%s %s" % (
            as_prefix, shlex.quote(self.dir), shlex.quote(self.dir), line)

    def assert_reaches_no_terminal(self, row, shown, pushed, wrote, log):
        self.assertIn("TERMINAL-DONE", shown, row)
        self.assertNotIn(wrote, shown, "%s: the suite wrote to the grader's terminal\n%s" % (row, shown))
        self.assertFalse(os.path.exists(pushed), "%s: a command the suite pushed ran in the grader's shell" % row)
        self.assertNotIn("touch " + pushed, shown, "%s: the suite pushed input into the grader's terminal" % row)
        # The suite ran: tlbf's output names a verdict, not a failure to start.
        self.assertTrue(os.path.exists(log) and os.path.getsize(log) > 0, row)

    def test_the_push_works_from_a_terminal_without_tlbf(self):
        """The control: run straight from the terminal, the suite's line shows and its command runs."""
        for user, as_prefix in self.users:
            folder = self.folder("control-" + user)
            pushed, wrote = self.suite(folder, "suite.py", "control-" + user)
            shown = in_a_terminal(self.as_user(as_prefix, "/usr/bin/python3 " + shlex.quote(folder + "/suite.py")))
            if not os.path.exists(pushed):
                self.skipTest("this kernel refuses TIOCSTI (dev.tty.legacy_tiocsti = 0): nothing to show")
            self.assertIn(wrote, shown, user)

    def test_mutate_runs_reach_no_terminal(self):
        for user, as_prefix in self.users:
            for sandbox in ("--sandbox", "--no-sandbox"):
                row = "mutate-%s%s" % (user, sandbox)
                folder = self.folder(row)
                pushed, wrote = self.suite(folder, "suite.py", row)
                log = os.path.join(folder, "log")
                line = "%s mutate %s --mutants s01 --baseline-runs 1 --control-runs 1 --confirm-runs 1 -j 1 -- " \
                       "/usr/bin/python3 %s >%s 2>&1" % (self.tlbf, sandbox, shlex.quote(folder + "/suite.py"), log)
                shown = in_a_terminal(self.as_user(as_prefix, line))
                self.assert_reaches_no_terminal(row, shown, pushed, wrote, log)

    def rust_toolchain(self):
        """The environment that finds cargo and rustup's toolchains whatever HOME is, and for
        a row run as nobody the bwrap that shows them through a home closed to nobody (as a
        grader would have to: docs/mutants.md, "Who a suite runs as"); skips without cargo."""
        found = cargo()
        if not found:
            self.skipTest("cargo is missing")
        bin_dir = os.path.dirname(found)
        # rustup's cargo is a proxy in CARGO_HOME/bin; Debian's /usr/bin/cargo has no home to name.
        homes = {"CARGO_HOME": os.path.dirname(bin_dir)} if bin_dir.endswith("/.cargo/bin") else {}
        rustup = os.environ.get("RUSTUP_HOME", os.path.expanduser("~/.rustup"))
        if os.path.isdir(rustup):
            homes["RUSTUP_HOME"] = rustup
        env = "PATH=%s:/usr/bin:/bin %s" % (shlex.quote(bin_dir), " ".join(
            "%s=%s" % (k, shlex.quote(v)) for k, v in homes.items()))
        covers = {closed_to_others(h) for h in homes.values()} - {None}
        reach = ""
        if covers:
            reach = "bwrap --dev-bind / / %s %s -- " % (
                " ".join("--tmpfs " + shlex.quote(c) for c in sorted(covers)),
                " ".join("--ro-bind %s %s" % (shlex.quote(h), shlex.quote(h)) for h in homes.values()))
        return env, reach

    def test_rust_grade_runs_reach_no_terminal(self):
        """The Rust kind: the injector is a #[test] of the learner's test binary, built once
        per grading (the cost: one learner, no chaffs, one run a mutant)."""
        env, reach = self.rust_toolchain()
        for user, as_prefix in self.users:
            for sandbox in ("", "--no-sandbox"):
                row = "grade-%s-rust%s" % (user, sandbox)
                class_dir = self.folder(row + "-class")
                learner = os.path.join(class_dir, "mallory")
                os.makedirs(os.path.join(learner, "tests"))
                for folder in (learner, os.path.join(learner, "tests")):
                    os.chmod(folder, 0o777)
                pushed = os.path.join(self.dir, "pushed-" + row)
                wrote = "TLBF-SUITE-WROTE-" + row
                with open(os.path.join(learner, "tests", "ds08_bloom.rs"), "w") as f:
                    f.write(RUST_INJECTOR.replace("{pushed}", pushed).replace("{wrote}", wrote))
                out = os.path.join(self.dir, row + "-out")
                log = os.path.join(self.dir, row + "-log")
                line = "env %s %s grade --kind rust %s --chaffs none --confirm-runs 1 -j 1 %s -o %s >%s 2>&1" % (
                    env, self.tlbf, sandbox, shlex.quote(class_dir), shlex.quote(out), log)
                shown = in_a_terminal((reach if as_prefix else "") + self.as_user(as_prefix, line))
                self.assert_reaches_no_terminal(row, shown, pushed, wrote, log)
                # It built and ran: a suite that passes everything passes the broken implementation too.
                self.assertRegex(open(log).read(), r"(?m)^mallory +passes-broken\b", row)

    def test_grade_runs_reach_no_terminal(self):
        for user, as_prefix in self.users:
            for kind, file_name in (("python", "test_bloom.py"), ("protocol", "test_protocol.py")):
                for sandbox in ("", "--no-sandbox"):
                    row = "grade-%s-%s%s" % (user, kind, sandbox)
                    class_dir = self.folder(row + "-class")
                    learner = os.path.join(class_dir, "mallory")
                    os.mkdir(learner)
                    os.chmod(learner, 0o777)
                    pushed, wrote = self.suite(learner, file_name, row)
                    out = os.path.join(self.dir, row + "-out")
                    log = os.path.join(self.dir, row + "-log")
                    line = "%s grade --kind %s %s --chaffs none --confirm-runs 1 -j 1 %s -o %s >%s 2>&1" % (
                        self.tlbf, kind, sandbox, shlex.quote(class_dir), shlex.quote(out), log)
                    shown = in_a_terminal(self.as_user(as_prefix, line))
                    self.assert_reaches_no_terminal(row, shown, pushed, wrote, log)


if __name__ == "__main__":
    cases = sys.argv[1:] or ["Terminal"]
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromName(c, sys.modules[__name__]) for c in cases)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if result.wasSuccessful() and result.skipped and result.testsRun == len(result.skipped):
        sys.exit(77)
    sys.exit(0 if result.wasSuccessful() else 1)
