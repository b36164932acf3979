"""The load model's share and the open model's schedule (engine.py), as the Go and Rust
engines compute them, and a closed phase over a real grpc.aio server and client on a
Unix socket that counts exactly its op budget."""

import asyncio
import os
import tempfile
import unittest

from hdrh.histogram import HdrHistogram

from wirebench_worker import contract
from wirebench_worker.engine import Model, Pacer, Session, encode_histogram
from wirebench_worker.stacks.grpcstacks import AioClient, Server
from wirebench_worker.workload import Workload


class ModelTest(unittest.TestCase):
    def test_share_deals_calls_and_connections(self):
        # 10 calls over 3 generators: 4, 3, 3; 2 connections: 1, 1, and at least 1.
        m = Model("closed", 10, 2, 0, "", 0, 3)
        self.assertEqual((m.concurrency, m.connections), (4, 1))
        m = Model("closed", 10, 2, 0, "", 2, 3)
        self.assertEqual((m.concurrency, m.connections), (3, 1))
        # An open model's rate is split evenly; max in flight defaults to 1000.
        m = Model("open", 0, 0, 900.0, "poisson", 1, 3)
        self.assertEqual((m.concurrency, m.rate, m.poisson), (333, 300.0, True))

    def test_bad_models_are_refused(self):
        for args in [("closed", 0, 0, 0, "", 0, 1),
                     ("closed", 4, 5, 0, "", 0, 1),  # a connection needs a caller
                     ("open", 4, 1, 0, "", 0, 1),
                     ("open", 4, 1, 10, "bursty", 0, 1),
                     ("spiral", 4, 1, 0, "", 0, 1),
                     ("closed", 2, 1, 0, "", 0, 3)]:  # 3 generators, 2 calls
            self.assertRaises(ValueError, Model, *args)

    def test_constant_pacer_offsets_come_from_the_index(self):
        # 3 per second: 0, 1/3 s, 2/3 s, 1 s.
        p = Pacer(False, 3.0, 1)
        self.assertEqual([p.next() for _ in range(4)], [0, 333_333_333, 666_666_666, 1_000_000_000])

    def test_poisson_pacer_has_the_rate_on_average(self):
        p = Pacer(True, 1000.0, 7)
        offsets = [p.next() for _ in range(20001)]
        self.assertEqual(offsets, sorted(offsets))
        self.assertAlmostEqual(offsets[-1] / 1e9, 20.0, delta=0.6)  # 20000 gaps of 1 ms, sd 0.14 s


class PhaseTest(unittest.TestCase):
    def test_a_closed_phase_counts_its_op_budget(self):
        async def run():
            data = contract.Dataset(1, 20)
            with tempfile.TemporaryDirectory() as d:
                listen = "unix://" + os.path.join(d, "s.sock")
                server = Server(contract.Reference(data), listen, 1 << 20, aio=True)
                await server.start()
                clients = [AioClient(listen, 1 << 20) for _ in range(2)]
                try:
                    for c in clients:
                        await c.connect(5)
                    s = Session(Workload("person.get", data), clients, Model("closed", 4, 2, 0, "", 0, 1), 5.0, 1, 0, 1)
                    iv = await s.phase(None, 123)
                    self.assertEqual((iv.ops, iv.errors), (123, {}))
                    h = HdrHistogram.decode(encode_histogram(iv.resp))
                    self.assertEqual(h.get_total_count(), 123)
                    iv = await s.phase(200_000_000, None)  # 0.2 s
                    self.assertGreater(iv.ops, 0)
                    self.assertGreaterEqual(iv.end_unix_nanos - iv.start_unix_nanos, 200_000_000)
                finally:
                    for c in clients:
                        await c.close()
                    await server.stop()

        asyncio.run(run())


if __name__ == "__main__":
    unittest.main()
