"""The command line: check takes the server's address as --address, and under its
name before 2026-11-29, --target, which older drivers pass."""

import contextlib
import io
import unittest

from wirebench_worker.__main__ import parser


class CheckAddressTest(unittest.TestCase):
    def test_address_and_its_former_name(self):
        for flag in ("--address", "--target"):
            a = parser().parse_args(["check", "--protocol", "grpc-proto", "--stack", "grpcio-aio", flag, "tcp://127.0.0.1:9"])
            self.assertEqual(a.address, "tcp://127.0.0.1:9", flag)
        a = parser().parse_args(["check", "--protocol", "grpc-proto", "--stack", "grpcio-aio", "--target=unix:///tmp/x.sock"])
        self.assertEqual(a.address, "unix:///tmp/x.sock")

    def test_the_address_is_required(self):
        err = io.StringIO()
        with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(err):
            parser().parse_args(["check", "--protocol", "grpc-proto", "--stack", "grpcio"])
        self.assertEqual(cm.exception.code, 2)
        self.assertIn("--address", err.getvalue())


if __name__ == "__main__":
    unittest.main()
