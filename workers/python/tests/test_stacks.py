"""The stacks' server options: grpcio's max_workers (grpc_bench's one-thread pool), and
every other option refused with the stack's name."""

import unittest

from wirebench_worker import stacks


class ServerOptionsTest(unittest.TestCase):
    def test_grpcio_takes_max_workers(self):
        self.assertEqual(stacks.server_options("grpc-proto", "grpcio", {"max_workers": "1"}), {"max_workers": 1})
        self.assertEqual(stacks.server_options("grpc-proto", "grpcio", {}), {})

    def test_bad_options_are_refused(self):
        for name, opts, want in [
            ("grpcio", {"max_workers": "0"}, "from 1 to 1024"),
            ("grpcio", {"max_workers": "many"}, "from 1 to 1024"),
            ("grpcio", {"threads": "1"}, "has no option 'threads' (it has: max_workers)"),
            ("grpcio-aio", {"max_workers": "1"}, "grpcio-aio has no option 'max_workers' (it has: none)"),
        ]:
            with self.assertRaises(ValueError) as cm:
                stacks.server_options("grpc-proto", name, opts)
            self.assertIn(want, str(cm.exception))


if __name__ == "__main__":
    unittest.main()
