"""sockbytes.py: the bytes of this process's TCP connections to a target, as the kernel
counts them, and none of its other sockets'."""

import socket
import time
import unittest

from wirebench_worker.sockbytes import Counter


class CounterTest(unittest.TestCase):
    def test_counts_the_connections_to_the_target_only(self):
        with socket.create_server(("127.0.0.1", 0)) as ls:
            port = ls.getsockname()[1]
            counter = Counter(f"tcp://127.0.0.1:{port}")
            self.assertTrue(counter.counts())
            self.assertEqual(counter.read(), (0, 0))
            client = socket.create_connection(("127.0.0.1", port))
            server, _ = ls.accept()  # its peer is the client's port: not counted
            try:
                client.sendall(b"a" * 1000)
                got = b""
                while len(got) < 1000:
                    got += server.recv(4096)
                server.sendall(b"b" * 3000)
                got = b""
                while len(got) < 3000:
                    got += client.recv(4096)
                # bytes_acked moves when the server's ACK arrives: wait for it.
                deadline = time.monotonic() + 5
                while counter.read() != (1000, 3000) and time.monotonic() < deadline:
                    time.sleep(0.01)
                self.assertEqual(counter.read(), (1000, 3000))
            finally:
                client.close()
                server.close()
            # A closed connection keeps its last reading.
            self.assertEqual(counter.read(), (1000, 3000))

    def test_a_unix_target_cannot_be_counted(self):
        counter = Counter("unix:///tmp/nowhere.sock")
        self.assertFalse(counter.counts())
        self.assertIsNone(counter.read())

    def test_a_bad_target_is_refused(self):
        self.assertRaises(ValueError, Counter, "udp://127.0.0.1:1")


if __name__ == "__main__":
    unittest.main()
