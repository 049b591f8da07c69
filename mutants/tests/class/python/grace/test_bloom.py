"""Grace's test suite for tlbf_impl.py.

Part 1 checks the spec (docs/format.md) value by value. Part 2 is the use I
actually want the filters for: shipping a filter to another process over a
socket and getting it back with one more item in it. The port is fixed so I
can watch it with `ss -ltn` while the test runs.
"""
import socket
import struct
import threading
import time
import unittest

from tlbf_impl import Bloom, TlbfError, fnv1a64, mix64, optimal_k, optimal_m, positions

PORT = 45117  # fixed port for the round-trip test

WORKED = bytes.fromhex(
    "544c4246" "01000000" "1400000000000000"
    "03000000" "00000000" "0200000000000000"
    "096802"
)


def n_inserted(blob):
    return struct.unpack_from("<Q", blob, 24)[0]


def example_filter():
    f = Bloom.with_rate(4, 0.1)
    f.insert(b"cat")
    f.insert(b"dog")
    return f


class BloomSpecTest(unittest.TestCase):
    # --- section 2: hashes
    def test_fnv1a64(self):
        self.assertEqual(fnv1a64(b""), 0xCBF29CE484222325)
        self.assertEqual(fnv1a64(b"a"), 0xAF63DC4C8601EC8C)
        self.assertEqual(fnv1a64(b"bird"), 0xDEEC1C9BD0D98672)

    def test_mix64(self):
        self.assertEqual(mix64(0x9E3779B97F4A7C15), 0xE220A8397B1DCDAF)
        # h2 of cat is mix64(h1) | 1
        self.assertEqual(mix64(0xF5E307190CE4A327) | 1, 0xABC55D317F9D6793)

    # --- section 3: positions
    def test_positions(self):
        self.assertEqual(positions(20, 3, b"cat"), [11, 14, 17])
        self.assertEqual(positions(20, 3, b"bird"), [14, 7, 16])

    def test_positions_power_of_two(self):
        # odd step => on m = 8, k = 8 every position appears exactly once
        for i in range(50):
            item = ("x" * i).encode()
            self.assertEqual(sorted(positions(8, 8, item)), list(range(8)), item)

    # --- sections 4 and 6: bits
    def test_worked_example(self):
        f = example_filter()
        self.assertEqual(f.to_bytes(), WORKED)
        self.assertEqual(f.count_ones(), 6)
        self.assertFalse(f.contains(b"bird"))

    def test_insert_sets_k_distinct_bits(self):
        f = Bloom.new(1 << 16, 9)
        f.insert(b"grace")
        self.assertEqual(f.count_ones(), 9)

    # --- section 7: sizing
    def test_sizing(self):
        self.assertEqual(optimal_m(4, 0.1), 20)
        self.assertEqual(optimal_m(100, 0.001), 1438)
        self.assertEqual(optimal_k(20, 4), 3)
        self.assertEqual(optimal_k(1438, 100), 10)  # 9.967 rounds to 10

    # --- section 9: union
    def test_union(self):
        a, b = Bloom.with_rate(4, 0.1), Bloom.with_rate(4, 0.1)
        a.insert(b"cat")
        b.insert(b"dog")
        a.union(b)
        self.assertEqual(a.to_bytes(), WORKED)

    def test_union_mismatch(self):
        with self.assertRaises(TlbfError) as cm:
            Bloom.new(20, 3).union(Bloom.new(24, 3))
        self.assertEqual(cm.exception.kind, "Mismatch")

    # --- section 10: from_bytes
    def test_from_bytes_round_trip(self):
        self.assertEqual(Bloom.from_bytes(WORKED).to_bytes(), WORKED)

    def test_from_bytes_bad_length(self):
        for blob in (WORKED + b"\0", WORKED + b"\0\0", WORKED[:-2]):
            with self.assertRaises(TlbfError) as cm:
                Bloom.from_bytes(blob)
            self.assertEqual(cm.exception.kind, "Format")


class SocketRoundTripTest(unittest.TestCase):
    def test_filter_over_tcp(self):
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", PORT))
        srv.listen(1)
        errors = []

        def peer():
            try:
                conn, _ = srv.accept()
                with conn:
                    data = b""
                    while len(data) < len(WORKED):
                        chunk = conn.recv(4096)
                        if not chunk:
                            break
                        data += chunk
                    f = Bloom.from_bytes(data)
                    f.insert(b"bird")
                    conn.sendall(f.to_bytes())
                    # stay connected a while like a real peer, so the client
                    # has to read by length and cannot wait for EOF
                    time.sleep(1.5)
            except Exception as e:  # reported from the main thread
                errors.append(e)

        t = threading.Thread(target=peer)
        t.start()
        try:
            with socket.create_connection(("127.0.0.1", PORT), timeout=5) as c:
                c.sendall(example_filter().to_bytes())
                reply = b""
                while len(reply) < len(WORKED):
                    chunk = c.recv(4096)
                    if not chunk:  # the peer hung up
                        break
                    reply += chunk
        finally:
            t.join()
            srv.close()
        self.assertEqual(errors, [])
        back = Bloom.from_bytes(reply)
        self.assertTrue(back.contains(b"bird"))
        self.assertEqual(n_inserted(reply), 3)
        # bird adds bits 7 and 16 (14 was already set by cat)
        self.assertEqual(reply[32:], bytes([0x89, 0x68, 0x03]))


if __name__ == "__main__":
    unittest.main()
