"""Hostile implementations that try to outlive `tlbf check` (docs/check.md,
"No process outlives the run"). Each wraps the oracle (`tlbf serve`) with a
trick, and leaves a process whose command line holds a marker unique to the
row; tlbf is then killed mid-run with SIGKILL, SIGTERM or SIGINT, or let
end, in the default check and replaying a transcript. No process with the
marker may be left 2 s after tlbf ends. Leftovers are found by the marker in
/proc, not by anything tlbf counts.

    TLBF_BINARY=build/release/cli/tlbf TLBF_SOURCE_DIR=. python3 conformance/tests/test_process_tree.py
"""
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import unittest

TLBF = os.environ["TLBF_BINARY"]
SOURCE = os.environ["TLBF_SOURCE_DIR"]
TRANSCRIPT = os.path.join(SOURCE, "conformance/transcripts/filter.txt")
PY = "/usr/bin/python3"

# A process that sleeps an hour with MARK in its command line.
SLEEPER = PY + " -c 'import time; time.sleep(3599)' MARK"

# Each trick as Python run by the implementation's shell before it serves:
# MARK is replaced by the row's marker, SLEEPER by the line above.
TRICKS = {
    # A daemon in a session of its own, out of reach of any group's kill.
    "setsid_daemon": "setsid SLEEPER </dev/null >/dev/null 2>&1 &",
    # A grandchild that leaves the implementation's process group.
    "group_leaving_grandchild": PY + " -c 'import os, time; os.setpgid(0, 0); time.sleep(3599)' MARK &",
    # A double fork: the middle process exits at once, the daemon holds standard output.
    "double_fork": "( setsid SLEEPER & ) ;",
    # A background process that tries to join tlbf's own process group, then the watchdog's
    # (each refused: they sit in another session), and stays.
    "joins_tlbf_or_the_watchdogs_group": PY + " -c '" + (
        "import os, time\n"
        "me = os.getppid()\n"
        "tlbf = int(open(\"/proc/%d/stat\" % me).read().rsplit(\")\", 1)[1].split()[1])\n"
        "targets = [tlbf] + [int(p) for t in os.listdir(\"/proc/%d/task\" % tlbf)"
        " for p in open(\"/proc/%d/task/%s/children\" % (tlbf, t)).read().split() if int(p) != me]\n"
        "for target in targets:\n"
        "    try: os.setpgid(0, os.getpgid(target))\n"
        "    except OSError: pass\n"
        "time.sleep(3599)\n") + "' MARK &",
    # Stops tlbf's watchdog (SIGSTOP) rather than killing it, then leaves a daemon. A stopped
    # watchdog would never act, and would itself be left; its command line is tlbf's, which
    # holds the marker, so a leftover watchdog is counted too.
    "stops_the_watchdog": PY + " -c '" + (
        "import os, signal\n"
        "me = os.getppid()\n"
        "tlbf = int(open(\"/proc/%d/stat\" % me).read().rsplit(\")\", 1)[1].split()[1])\n"
        "for task in os.listdir(\"/proc/%d/task\" % tlbf):\n"
        "    for pid in open(\"/proc/%d/task/%s/children\" % (tlbf, task)).read().split():\n"
        "        if int(pid) != me:\n"
        "            try: os.kill(int(pid), signal.SIGSTOP)\n"
        "            except OSError: pass\n") + "' ; setsid SLEEPER </dev/null >/dev/null 2>&1 &",
    # Kills tlbf's watchdog (the child of tlbf that is not this process), then leaves a daemon.
    "kills_the_watchdog": PY + " -c '" + (
        "import os, signal\n"
        "me = os.getppid()\n"
        "tlbf = int(open(\"/proc/%d/stat\" % me).read().rsplit(\")\", 1)[1].split()[1])\n"
        "for task in os.listdir(\"/proc/%d/task\" % tlbf):\n"
        "    for pid in open(\"/proc/%d/task/%s/children\" % (tlbf, task)).read().split():\n"
        "        if int(pid) != me:\n"
        "            try: os.kill(int(pid), signal.SIGKILL)\n"
        "            except OSError: pass\n") + "' ; setsid SLEEPER </dev/null >/dev/null 2>&1 &",
}

# An implementation whose main process tries to move into another process group,
# tlbf's or the watchdog's, then answers nothing: the budget must still end it.
MOVERS = {
    "into_tlbf_group": "target = os.getpgid(os.getppid())",
    "into_the_watchdogs_group": (
        "tlbf = os.getppid()\n"
        "kids = [int(p) for t in os.listdir('/proc/%d/task' % tlbf)"
        " for p in open('/proc/%d/task/%s/children' % (tlbf, t)).read().split()]\n"
        "target = os.getpgid([k for k in kids if k != os.getpid()][0])"),
}


def marked(mark):
    """Pids of live processes (zombies aside) whose command line holds `mark`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmdline = open("/proc/%s/cmdline" % pid, "rb").read().replace(b"\0", b" ").decode(errors="replace")
            state = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if mark in cmdline and state not in ("Z", "X"):
            found.append((pid, cmdline))
    return found


def children_of(pid):
    out = []
    for task in os.listdir("/proc/%d/task" % pid):
        out += [int(p) for p in open("/proc/%d/task/%s/children" % (pid, task)).read().split()]
    return out


def comm_of(pid):
    try:
        return open("/proc/%d/comm" % pid).read().strip()
    except OSError:
        return ""


def trick_ran(mark):
    """A marked process that is not tlbf itself or its watchdog (their command line holds
    the implementation's, and so the marker, too)."""
    return any(not cmdline.startswith(TLBF + " ") for _, cmdline in marked(mark))


def end_marked(mark):
    for pid, _ in marked(mark):
        try:
            os.kill(int(pid), signal.SIGKILL)
        except OSError:
            pass


class ProcessTree(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tlbf_tree_")
        self.marks = []

    def tearDown(self):
        for mark in self.marks:
            end_marked(mark)  # so that a failing row leaves nothing either
        subprocess.run(["rm", "-rf", self.dir])

    def mark(self, row):
        mark = "tlbf-tree-%d-%s" % (os.getpid(), row)
        self.marks.append(mark)
        return mark

    def implementation(self, trick, mark, wait_first=False):
        line = TRICKS[trick].replace("SLEEPER", SLEEPER).replace("MARK", mark)
        # A check of the oracle is over in a moment: to be killed mid-run, the
        # implementation waits before it serves (within the first answer's budget).
        serve = ("sleep 8; " if wait_first else "") + "exec " + shlex.quote(TLBF) + " serve"
        return line + " " + serve

    def assert_nothing_left(self, row, mark):
        deadline = time.monotonic() + 2
        while marked(mark) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = marked(mark)
        self.assertEqual(left, [], "%s: left running after tlbf ended" % row)

    def kill_mid_run(self, trick, how, transcript):
        row = "%s-%s%s" % (trick, how, "-transcript" if transcript else "")
        mark = self.mark(row)
        impl = self.implementation(trick, mark, wait_first=True)
        command = [TLBF, "check", "--impl", impl] + (["--transcript", TRANSCRIPT] if transcript else [])
        with open(os.path.join(self.dir, row + ".out"), "w") as out:
            tlbf = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
            # Until the trick has made its process (or at most 20 s), then a moment more.
            deadline = time.monotonic() + 20
            while not trick_ran(mark) and time.monotonic() < deadline and tlbf.poll() is None:
                time.sleep(0.05)
            self.assertTrue(trick_ran(mark), row + ": the trick never ran")
            time.sleep(0.5)
            self.assertIsNone(tlbf.poll(), "%s: tlbf ended before it was killed" % row)
            if how != "end":
                tlbf.send_signal({"SIGKILL": signal.SIGKILL, "SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT}[how])
            rc = tlbf.wait(timeout=600)
        if how in ("SIGTERM", "SIGINT"):
            # It died of the signal, as a shell expects (128 + n), after ending what it started.
            self.assertEqual(rc, -getattr(signal, how), row)
        self.assert_nothing_left(row, mark)

    def each_way(self, trick):
        for transcript in (False, True):
            for how in ("SIGKILL", "SIGTERM", "SIGINT"):
                self.kill_mid_run(trick, how, transcript)

    def test_a_setsid_daemon(self):
        self.each_way("setsid_daemon")

    def test_a_group_leaving_grandchild(self):
        self.each_way("group_leaving_grandchild")

    def test_a_double_fork_holding_standard_output(self):
        self.each_way("double_fork")

    def test_an_implementation_that_kills_the_watchdog_first(self):
        self.each_way("kills_the_watchdog")

    def test_an_implementation_that_stops_the_watchdog(self):
        self.each_way("stops_the_watchdog")

    def test_a_process_that_tries_to_join_tlbfs_or_the_watchdogs_group(self):
        self.each_way("joins_tlbf_or_the_watchdogs_group")

    def test_each_trick_is_ended_at_a_normal_end_too(self):
        for trick in TRICKS:
            row = trick + "-normal-end"
            mark = self.mark(row)
            impl = self.implementation(trick, mark)
            r = subprocess.run([TLBF, "check", "--impl", impl, "--transcript", TRANSCRIPT],
                               capture_output=True, text=True, timeout=600)
            self.assertIn(r.returncode, (0, 1), row + ": " + r.stdout + r.stderr)
            self.assert_nothing_left(row, mark)

    def test_with_sandbox_nothing_is_left_even_when_the_watchdog_dies_with_tlbf(self):
        """What the watchdog cannot cover: it and tlbf killed at once, before tlbf can start
        another. In a PID namespace of its own the implementation's daemons end anyway."""
        for trick in ("setsid_daemon", "double_fork", "group_leaving_grandchild"):
            row = trick + "-sandboxed"
            mark = self.mark(row)
            impl = self.implementation(trick, mark, wait_first=True)
            tlbf = subprocess.Popen([TLBF, "check", "--sandbox", "--impl", impl],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 20
            while not trick_ran(mark) and time.monotonic() < deadline and tlbf.poll() is None:
                time.sleep(0.05)
            self.assertTrue(trick_ran(mark), row + ": the trick never ran")
            watchdogs = [pid for pid in children_of(tlbf.pid) if comm_of(pid) == "tlbf"]
            self.assertTrue(watchdogs, row + ": no watchdog to kill")
            for pid in watchdogs + [tlbf.pid]:
                os.kill(pid, signal.SIGKILL)
            tlbf.wait(timeout=600)
            self.assert_nothing_left(row, mark)

    def test_with_sandbox_every_start_of_the_implementation_is_in_a_namespace_of_its_own(self):
        """The Session's processes, the case that runs a process of its own (a last line
        without its newline), and --python-module's first try of the learner's module: each
        logs its PID namespace, and none may be tlbf's."""
        host = os.readlink("/proc/self/ns/pid")
        log = os.path.join(self.dir, "namespaces")
        impl = "readlink /proc/self/ns/pid >> %s; exec %s serve" % (shlex.quote(log), shlex.quote(TLBF))
        r = subprocess.run([TLBF, "check", "--sandbox", "--impl", impl], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        module = os.path.join(self.dir, "logging_module.py")
        with open(module, "w") as f:
            f.write("import os, sys\n"
                    "open(%r, 'a').write(os.readlink('/proc/self/ns/pid') + '\\n')\n"
                    "sys.path.insert(0, %r)\n"
                    "from tlbf_impl import *\n" % (log, os.path.join(SOURCE, "conformance/impls/python")))
        r = subprocess.run([TLBF, "check", "--sandbox", "--python-module", module, "--filter", "vectors/hash/*"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        starts = open(log).read().split()
        self.assertGreaterEqual(len(starts), 4, starts)  # two of each check at least
        self.assertNotIn(host, starts, "a start of the implementation ran outside --sandbox's namespace")

    def test_a_process_that_moves_groups_and_hangs_is_ended_by_the_budget(self):
        for name, find_target in MOVERS.items():
            mark = self.mark(name)
            program = ("import os, sys, time\n" + find_target + "\n"
                       "try: os.setpgid(0, target)\n"
                       "except OSError: pass\n"
                       "time.sleep(3599)\n")
            impl = "exec %s -c %s %s" % (PY, shlex.quote(program), mark)
            # No time limit in the test: a check that hangs fails by the ctest timeout.
            r = subprocess.run([TLBF, "check", "--timeout", "1000", "--time-budget", "1", "--impl", impl],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, name + ": " + r.stdout + r.stderr)
            self.assertIn("does NOT conform", r.stdout + r.stderr, name)
            self.assert_nothing_left(name, mark)


if __name__ == "__main__":
    cases = sys.argv[1:] or ["ProcessTree"]
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromName(c, sys.modules[__name__]) for c in cases)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
