"""The client side of the contract: the workloads of contract/workload.go with the same
names, the same ids per sequence number and the same checks of every answer.

A client stack is an object with these coroutine methods (safe for concurrent use by
every caller of one connection; cancelling a call's task cancels the call):
list_persons(), get_person(id), get_person_links(id), create_person(p), echo(s),
stats(), increment(n), stream_trades(count, sink) -- sink is called with each decoded
trade in order and may raise to stop the stream. A refused call raises CallError with
the contract code its protocol carried back; a call that did not complete raises
CallError with a transport kind.
"""

from __future__ import annotations

from . import contract
from .contract import wrong

NAMES = ["person.list", "person.get", "person.links", "person.create", "person.compose",
         "person.program", "echo", "echo+stats", "pingpong", "stream"]


def pick_id(ds: contract.Dataset, seq: int) -> int:
    """The id of op seq: the data set's ids taken in turn."""
    return seq % ds.size + 1


class Workload:
    """A workload bound to its parameters and data set: one op per call of run."""

    def __init__(self, name: str, data: contract.Dataset, payload: int = 0, increments: int = 0, trades: int = 0):
        if name not in NAMES:
            raise ValueError(f"unknown workload {name!r} (known: {', '.join(NAMES)})")
        if name in ("echo", "echo+stats") and not 0 <= payload <= contract.MAX_PAYLOAD:
            raise ValueError(f"{name}: payload {payload} out of range [0, {contract.MAX_PAYLOAD}]")
        if name == "pingpong" and not 1 <= increments <= contract.MAX_INCREMENTS:
            raise ValueError(f"{name}: increments {increments} out of range [1, {contract.MAX_INCREMENTS}]")
        if name == "stream" and not 0 <= trades <= contract.MAX_TRADES:
            raise ValueError(f"{name}: trades {trades} out of range [0, {contract.MAX_TRADES}]")
        self.name = name
        self.data = data
        self.payload = contract.payload(payload) if name in ("echo", "echo+stats") else ""
        self.payload_len = len(self.payload.encode("utf-8"))
        self.increments = increments
        self.trades = trades

    async def run(self, s, seq: int) -> None:
        """Runs op seq once on s, checking every answer; raises CallError."""
        ds = self.data
        n = self.name
        if n == "person.get":
            await check_get(s, ds, pick_id(ds, seq))
        elif n == "person.list":
            await check_list(s, ds)
        elif n == "person.links":
            await check_links(s, ds, pick_id(ds, seq))
        elif n == "person.create":
            await check_create(s, ds, pick_id(ds, seq))
        elif n == "person.compose":
            a, b = pick_id(ds, seq * 2), pick_id(ds, seq * 2 + 1)
            await check_list(s, ds)
            for pid in (a, b):
                await check_get(s, ds, pid)
                await check_links(s, ds, pid)
            await check_create(s, ds, a)
        elif n == "person.program":
            # The metrifier original's programComposition: list, get of four ids, the
            # links of the first and the third, create (eight calls).
            ids = [pick_id(ds, seq * 4 + i) for i in range(4)]
            await check_list(s, ds)
            for pid in ids:
                await check_get(s, ds, pid)
            await check_links(s, ds, ids[0])
            await check_links(s, ds, ids[2])
            await check_create(s, ds, ids[0])
        elif n == "echo":
            await self.check_echo(s)
        elif n == "echo+stats":
            await self.check_echo(s)
            st = await s.stats()
            # Concurrent ops of one benchmark all send payloads of this size, so the
            # latest Echo's length is known even under load.
            if st["calls"] < 1 or st["last_payload_len"] != self.payload_len:
                raise wrong(f"Stats = {st} after Echo of {self.payload_len} bytes")
        elif n == "pingpong":
            x = seq
            for _ in range(self.increments):
                y = await s.increment(x)
                if y != x + 1:
                    raise wrong(f"Increment({x}) = {y}")
                x = y
        else:  # stream
            got = 0

            def sink(t):
                nonlocal got
                want = contract.trade_at(got)
                if t != want:
                    raise wrong(f"trade {got} = {t}, want {want}")
                got += 1

            await s.stream_trades(self.trades, sink)
            if got != self.trades:
                raise wrong(f"stream delivered {got} of {self.trades} trades")

    async def check_echo(self, s) -> None:
        got = await s.echo(self.payload)
        if got != self.payload:
            raise wrong(f"Echo returned {len(got)} characters, want the {len(self.payload)} sent")


async def check_list(s, ds):
    got = await s.list_persons()
    if len(got) != ds.size:
        raise wrong(f"ListPersons returned {len(got)} persons, want {ds.size}")
    for i, (g, w) in enumerate(zip(got, ds.persons)):
        if g != w:
            raise wrong(f"ListPersons[{i}] = {g}, want {w}")


async def check_get(s, ds, pid):
    got = await s.get_person(pid)
    want = ds.person(pid)
    if got != want:
        raise wrong(f"GetPerson({pid}) = {got}, want {want}")


async def check_links(s, ds, pid):
    got = await s.get_person_links(pid)
    want = ds.links_of(pid)
    if len(got) != len(want):
        raise wrong(f"GetPersonLinks({pid}) returned {len(got)} links, want {len(want)}")
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            raise wrong(f"GetPersonLinks({pid})[{i}] = {g}, want {w}")


async def check_create(s, ds, pid):
    p = dict(ds.person(pid))
    p["id"] = 0
    got = await s.create_person(p)
    if got.get("id", 0) <= ds.size:
        raise wrong(f"CreatePerson assigned id {got.get('id')}, inside the data set's ids")
    p["id"] = got["id"]
    if got != p:
        raise wrong(f"CreatePerson = {got}, want {p}")
