"""Hank: bob's three checks, sent pipelined as protocol.md allows, with long
items between them: one thread writes every request while another reads the
answers, so that both directions' buffers fill: six rounds, each check
twice, 600 kB in and 1.1 MB out, where a pipe holds 64 kB (thirty rounds
until December 5, 2026, all the same, and a fifth of the protocol class's
time)."""
import os
import subprocess
import threading
import unittest

LONG_ITEM = "ab" * 50000  # 100 kB of hex


class Pipelined(unittest.TestCase):
    ROUNDS = 6

    def test_hashes_and_positions_amid_long_requests(self):
        checks = [("fnv1a64 636174", "ok f5e307190ce4a327"),
                  ("mix64 f5e307190ce4a327", "ok abc55d317f9d6792"),
                  ("positions_for 20 3 636174", "ok 11 14 17")]
        requests = []
        for i in range(self.ROUNDS):
            requests += ["fnv1a64 " + LONG_ITEM, "positions_for 20 65536 %02x" % i]  # 100 kB in, 190 kB out
            requests.append(checks[i % 3][0])
        p = subprocess.Popen(os.environ["TLBF_IMPL"], shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

        def write():
            for r in requests:
                p.stdin.write(r.encode() + b"\n")
            p.stdin.close()

        writer = threading.Thread(target=write)
        writer.start()
        answers = p.stdout.read().decode().splitlines()
        writer.join()
        p.wait()
        self.assertEqual(len(answers), len(requests))
        for i in range(self.ROUNDS):
            self.assertEqual(answers[3 * i + 2], checks[i % 3][1])


if __name__ == "__main__":
    unittest.main()
