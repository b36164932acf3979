"""The contract against the Go module's golden files (contract/golden_test.go writes
them): PCG outputs, IntN draws, persons and links, trades."""

import json
import os
import tempfile
import pathlib
import unittest

from wirebench_worker import contract

TESTDATA = pathlib.Path(__file__).resolve().parents[3] / "contract" / "testdata"


def golden(name):
    return json.loads((TESTDATA / name).read_text())


class DatasetTest(unittest.TestCase):
    def test_datasets_equal_the_go_ones(self):
        for seed, size in [(1, 20), (42, 100), (7, 1), ((1 << 64) - 1, 5)]:
            g = golden(f"dataset-{seed}-{size}.json")
            r = contract.Pcg(seed, contract.DATASET_SEED2)
            for i, want in enumerate(g["pcg_uint64"]):
                self.assertEqual(r.uint64(), int(want, 16), f"seed {seed}: uint64 {i}")
            # One generator draws every case in turn, as the Go test's rand.Rand does.
            r = contract.Pcg(seed, contract.DATASET_SEED2)
            for case in g["intn"]:
                got = [r.int_n(case["n"]) for _ in case["values"]]
                self.assertEqual(got, case["values"], f"seed {seed}: IntN({case['n']})")
            ds = contract.Dataset(seed, size)
            self.assertEqual(ds.persons, g["persons"], f"seed {seed} size {size}: persons")
            for i, links in enumerate(g["links"]):
                got = [[l["p1"]["id"], l["p2"]["id"]] for l in ds.links_of(i + 1)]
                self.assertEqual(got, links, f"seed {seed}: links of {i + 1}")

    def test_trades_equal_the_go_ones(self):
        for t in golden("trades.json")["trades"]:
            got = contract.trade_at(t["id"])
            want = dict(t, side=contract.SELL if t["side"] == 1 else contract.BUY)
            self.assertEqual(got, want)

    def test_sizes_out_of_range_are_refused(self):
        self.assertRaises(ValueError, contract.Dataset, 1, 0)
        self.assertRaises(ValueError, contract.Dataset, 1, 1_000_001)

    def test_payloads_repeat_hello_world(self):
        self.assertEqual(contract.payload(0), "")
        self.assertEqual(contract.payload(5), "Hello")
        self.assertEqual(contract.payload(14), "Hello World He")

    def test_the_reference_refuses_as_the_go_one(self):
        r = contract.Reference(contract.Dataset(1, 20))
        with self.assertRaises(contract.CallError) as e:
            r.get_person(21)
        self.assertEqual(e.exception.kind, contract.NOT_FOUND)
        with self.assertRaises(contract.CallError) as e:
            r.trades(-1)
        self.assertEqual(e.exception.kind, contract.INVALID_ARGUMENT)
        p = dict(r.get_person(1))
        self.assertEqual(r.create_person(p)["id"], 21)  # above the data set's ids
        p["email"] = "x"
        self.assertRaises(contract.CallError, r.create_person, p)
        r.echo("héllo")
        self.assertEqual(r.stats(), {"calls": 1, "last_payload_len": 6})  # UTF-8 bytes
        self.assertEqual(r.increment((1 << 63) - 1), -(1 << 63))  # int64 wraps

    def test_shared_state_is_shared_between_mappings(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "state")
            a = contract.Reference(contract.Dataset(1, 20), contract.SharedState(path, 20, create=True))
            b = contract.Reference(contract.Dataset(1, 20), contract.SharedState(path))
            a.echo("hello")
            self.assertEqual(b.stats(), {"calls": 1, "last_payload_len": 5})
            p = dict(a.get_person(2))
            self.assertEqual([a.create_person(p)["id"], b.create_person(p)["id"]], [21, 22])


if __name__ == "__main__":
    unittest.main()
