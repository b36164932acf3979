"""`worker.py check`: a Python client stack's own conformance run against a server of
the contract (the Go interop tests run it against the Go servers), as the Rust worker's
check.rs: every workload with its answers verified, the refusals, edge values, and a
stream stopped by its receiver. One line per check, "ok ..." or "FAIL ...".

It stays in Python for the Python clients: Go cannot make a Python client's calls. The
Python servers are held to the Go side's contract check instead (conform.Check)."""

from __future__ import annotations

from . import contract
from .contract import CallError
from .workload import NAMES, Workload


async def run(s, data: contract.Dataset, out=print) -> int:
    failures = 0

    def report(name, err):
        nonlocal failures
        if err is None:
            out(f"ok {name}")
        else:
            failures += 1
            out(f"FAIL {name}: {err}")

    async def refused(name, code, coro):
        try:
            got = await coro
        except CallError as e:
            report(name, None if e.kind == code else f"{e}, want {code}")
        else:
            report(name, f"answered {got!r:.200}, want {code}")

    for w in NAMES:
        wl = Workload(w, data, payload=100, increments=10, trades=1000)
        for seq in range(3):
            try:
                await wl.run(s, seq)
                report(f"workload {w} op {seq}", None)
            except CallError as e:
                report(f"workload {w} op {seq}", e)
    for pid in (0, -1, data.size + 1, (1 << 63) - 1):
        await refused(f"GetPerson({pid}) refused", contract.NOT_FOUND, s.get_person(pid))
        await refused(f"GetPersonLinks({pid}) refused", contract.NOT_FOUND, s.get_person_links(pid))
    bad = dict(data.person(1), email="no-at-sign")
    await refused("CreatePerson without '@' refused", contract.INVALID_ARGUMENT, s.create_person(bad))
    for p in ("", contract.payload(4 << 20), "héllo wörld ✓ 日本語 🚀 \"quoted\" \\ <tag>"):
        try:
            got = await s.echo(p)
            report(f"Echo of {len(p.encode())} bytes", None if got == p else f"{len(got)} characters back")
        except CallError as e:
            report(f"Echo of {len(p.encode())} bytes", e)
    try:
        st = await s.stats()
        report("Stats counts the echoes", None if st["calls"] >= 1 else st)
    except CallError as e:
        report("Stats counts the echoes", e)
    for n in (-(1 << 63), -1, (1 << 63) - 2):
        try:
            got = await s.increment(n)
            report(f"Increment({n})", None if got == n + 1 else got)
        except CallError as e:
            report(f"Increment({n})", e)
    await refused("StreamTrades(-1) refused", contract.INVALID_ARGUMENT, s.stream_trades(-1, lambda t: None))
    seen = 0

    def stop_at_100(_):
        nonlocal seen
        seen += 1
        if seen == 100:
            raise contract.wrong("enough")

    try:
        await s.stream_trades(contract.MAX_TRADES, stop_at_100)
        report("a stream stopped by its receiver", "the stream ran to its end")
    except CallError as e:
        report("a stream stopped by its receiver", None if e.kind == "wrong_answer" and e.message == "enough" else e)
    try:
        await s.get_person(1)
        report("GetPerson after a stopped stream", None)
    except CallError as e:
        report("GetPerson after a stopped stream", e)
    return failures
