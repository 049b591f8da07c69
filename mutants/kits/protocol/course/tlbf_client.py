"""The course's client for line protocol v1 (docs/protocol.md).

A learner's test_protocol.py sits beside this file. Each test starts the
implementation under test, the shell command line in TLBF_IMPL, and asks it
one request line at a time:

    with Impl() as impl:
        self.assertEqual(impl.ask("fnv1a64 636174"), "ok f5e307190ce4a327")
"""
import os
import subprocess


class Impl:
    """One running implementation; ask() sends a request and returns its response line."""

    def __init__(self):
        command = os.environ.get("TLBF_IMPL")
        if not command:
            raise RuntimeError("TLBF_IMPL is not set: it names the implementation to test "
                               "(tlbf grade sets it for every run)")
        self._process = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, encoding="ascii")

    def ask(self, request):
        self._process.stdin.write(request + "\n")
        self._process.stdin.flush()
        response = self._process.stdout.readline()
        if not response:
            raise ConnectionError(f"the implementation ended without answering {request!r}")
        return response.rstrip("\n")

    def close(self):
        if self._process.stdin and not self._process.stdin.closed:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
