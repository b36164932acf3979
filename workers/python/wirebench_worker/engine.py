"""Runs a workload against clients under a load model, one phase at a time as the driver
asks (engine/engine.go's Session, as workers/rust/worker/src/engine.rs does it), on one
asyncio event loop. Closed model: `concurrency` callers call back to back, caller i
taking sequence numbers i, i+n, i+2n, ...; open model: arrivals at their scheduled times,
at most `concurrency` in flight, an arrival finding every slot busy waiting for one
(counted in overflow), its response time and lag counted from its scheduled time.

One event loop owns a session: recording needs no lock. Histograms are HdrHistogram's
(1 ns to 60 s, 3 significant digits), encoded in its V2 compressed form, base64, which the
Go driver's hdrhistogram-go decodes.
"""

from __future__ import annotations

import asyncio
import math
import time

from hdrh.histogram import HdrHistogram

from .contract import CallError, Pcg

LOWEST_NS = 1
HIGHEST_NS = 60_000_000_000
SIG_FIGS = 3
DEFAULT_MAX_IN_FLIGHT = 1000


def new_histogram() -> HdrHistogram:
    return HdrHistogram(LOWEST_NS, HIGHEST_NS, SIG_FIGS)


def encode_histogram(h: HdrHistogram) -> str:
    return h.encode().decode("ascii")


class Model:
    """A normalized load model share (load.Model after Normalize and Share)."""

    def __init__(self, kind: str, concurrency: int, connections: int, rate: float, arrival: str, k: int, n: int):
        poisson = False
        if kind == "closed":
            if concurrency < 1:
                raise ValueError(f"closed model: concurrency {concurrency}, want at least 1")
            if rate != 0:
                raise ValueError("closed model: a rate needs the open model")
            is_open = False
        elif kind == "open":
            if not (rate > 0) or math.isinf(rate):
                raise ValueError(f"open model: rate {rate}, want a positive number of ops per second")
            if arrival in ("", "constant"):
                pass
            elif arrival == "poisson":
                poisson = True
            else:
                raise ValueError(f"open model: arrival {arrival!r}, want constant or poisson")
            if concurrency == 0:
                concurrency = DEFAULT_MAX_IN_FLIGHT
            if concurrency < 1:
                raise ValueError(f"open model: max in flight {concurrency}, want at least 1")
            is_open = True
        else:
            raise ValueError(f"load model {kind!r}, want closed or open")
        connections = connections or 1
        if connections < 1 or connections > concurrency:
            raise ValueError(f"connections {connections}, want 1 to {concurrency} (the calls in flight): "
                             "a connection needs a caller")
        if n < 1 or k < 0 or k >= n:
            raise ValueError(f"load share {k} of {n}")
        if n > concurrency:
            raise ValueError(f"{n} load generators for {concurrency} calls in flight: each needs at least one")

        def deal(total):
            return total // n + (1 if k < total % n else 0)

        self.open = is_open
        self.concurrency = deal(concurrency)
        self.connections = min(max(deal(connections), 1), self.concurrency)
        self.rate = rate / n if is_open else 0.0
        self.poisson = poisson


class Pacer:
    """The open model's arrival schedule (load/load.go): offsets in nanoseconds from the
    schedule's start. Constant: offset i is i/rate, from the index so rounding does not
    build up. Poisson: exponential gaps of mean 1/rate by inversion from a PCG seeded as
    the Go pacer's (alike in law to Go's ziggurat draws, not arrival for arrival)."""

    def __init__(self, poisson: bool, rate: float, seed: int):
        self.poisson, self.rate, self.i, self.t = poisson, rate, 0, 0.0
        self.r = Pcg(seed, 0x5851F42D4C957F2D) if poisson else None

    def next(self) -> int:
        if not self.poisson:
            d = int(self.i * 1e9 / self.rate)
            self.i += 1
            return d
        d = int(self.t * 1e9)
        self.t += -math.log(1.0 - self.r.float64()) / self.rate
        return d


class Interval:
    """What a phase measured."""

    def __init__(self, is_open: bool):
        self.start_unix_nanos = 0
        self.end_unix_nanos = 0
        self.ops = 0
        self.clamped = 0
        self.overflow = 0
        self.errors: dict[str, int] = {}
        self.first_errors: dict[str, str] = {}
        self.resp = new_histogram()
        self.service = new_histogram() if is_open else None
        self.lag = new_histogram() if is_open else None

    def record(self, intended: int, start: int, end: int) -> None:
        r = end - intended
        self.ops += 1
        if r > HIGHEST_NS:
            self.clamped += 1
        self.resp.record_value(min(max(r, LOWEST_NS), HIGHEST_NS))
        if self.service is not None:
            self.service.record_value(min(max(end - start, LOWEST_NS), HIGHEST_NS))
            self.lag.record_value(min(max(start - intended, LOWEST_NS), HIGHEST_NS))

    def error(self, e: CallError) -> None:
        # A failed call enters no latency histogram: a fast error is no fast answer.
        self.errors[e.kind] = self.errors.get(e.kind, 0) + 1
        self.first_errors.setdefault(e.kind, str(e))


def classify(e: BaseException) -> CallError:
    """A call's failure as a CallError (the stacks raise CallError; anything else is a
    bug or an unclassified failure of a library, counted as "other")."""
    if isinstance(e, CallError):
        return e
    return CallError("other", f"{type(e).__name__}: {e}")


class Session:
    """A load generator's state across phases. Owned by one event loop."""

    def __init__(self, workload, clients: list, model: Model, call_timeout: float | None,
                 arrival_seed: int, seq_offset: int, seq_stride: int):
        if len(clients) != model.connections or not clients:
            raise ValueError(f"{len(clients)} clients for {model.connections} connections")
        self.workload, self.clients, self.model = workload, clients, model
        self.call_timeout = call_timeout
        self.arrival_seed, self.seq_offset, self.seq_stride = arrival_seed, seq_offset, seq_stride
        self.next = list(range(model.concurrency))
        self.pacer: Pacer | None = None
        self.rate = model.rate
        self.begin = 0
        self.pending: int | None = None
        self.next_seq = 0

    async def phase(self, duration_ns: int | None, ops: int | None, restart: bool = False,
                    rate: float = 0.0) -> Interval:
        if (duration_ns is None) == (ops is None):
            raise ValueError("a phase needs exactly one of a duration and an op count")
        if rate < 0 or math.isinf(rate) or math.isnan(rate):
            raise ValueError(f"phase rate {rate}, want a positive rate (or 0 to keep the model's)")
        if rate > 0 and not self.model.open:
            raise ValueError("a phase rate needs the open model")
        iv = Interval(self.model.open)
        iv.start_unix_nanos = time.time_ns()
        start = time.perf_counter_ns()
        if self.model.open:
            await self._run_open(iv, duration_ns, ops, restart, rate, start)
        else:
            await self._run_closed(iv, duration_ns, ops, start)
        iv.end_unix_nanos = iv.start_unix_nanos + (time.perf_counter_ns() - start)
        return iv

    async def _call(self, iv: Interval, client, seq: int, intended: int | None) -> None:
        start = time.perf_counter_ns()
        try:
            if self.call_timeout is None:
                await self.workload.run(client, seq)
            else:
                await asyncio.wait_for(self.workload.run(client, seq), self.call_timeout)
        except asyncio.TimeoutError:
            iv.error(CallError("timeout", f"call timeout: no answer within {self.call_timeout}s"))
            return
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - every failure of a call is counted by kind
            iv.error(classify(e))
            return
        end = time.perf_counter_ns()
        iv.record(start if intended is None else intended, start, end)

    async def _run_closed(self, iv: Interval, duration_ns, ops, start: int) -> None:
        deadline = None if duration_ns is None else start + duration_ns
        budget = [ops] if ops is not None else None
        n = self.model.concurrency
        clients = self.clients

        async def caller(i: int) -> None:
            client = clients[i % len(clients)]
            k = self.next[i]
            try:
                while True:
                    if deadline is not None and time.perf_counter_ns() >= deadline:
                        break
                    if budget is not None:
                        if budget[0] <= 0:
                            break
                        budget[0] -= 1
                    await self._call(iv, client, self.seq_offset + self.seq_stride * k, None)
                    k += n
            finally:
                self.next[i] = k

        tasks = [asyncio.ensure_future(caller(i)) for i in range(n)]
        try:
            await asyncio.gather(*tasks)
        finally:
            for t in tasks:
                t.cancel()

    async def _run_open(self, iv: Interval, duration_ns, ops, restart: bool, rate: float, start: int) -> None:
        if restart or rate > 0 or self.pacer is None:
            if rate > 0:
                self.rate = rate
            self.pacer = Pacer(self.model.poisson, self.rate, self.arrival_seed)
            self.begin = start
            self.pending = None
        deadline = None if duration_ns is None else start + duration_ns
        slots = asyncio.Semaphore(self.model.concurrency)
        tasks: set[asyncio.Task] = set()
        n = 0
        clients = self.clients
        try:
            while ops is None or n < ops:
                at = self.pending if self.pending is not None else self.begin + self.pacer.next()
                self.pending = None
                if deadline is not None and at >= deadline:
                    self.pending = at  # it belongs to the next phase
                    break
                wait = at - time.perf_counter_ns()
                if wait > 0:
                    await asyncio.sleep(wait / 1e9)
                if slots.locked():
                    iv.overflow += 1
                await slots.acquire()
                seq = self.seq_offset + self.seq_stride * self.next_seq
                self.next_seq += 1

                async def one(seq=seq, at=at):
                    try:
                        await self._call(iv, clients[seq % len(clients)], seq, at)
                    finally:
                        slots.release()

                t = asyncio.ensure_future(one())
                tasks.add(t)
                t.add_done_callback(tasks.discard)
                n += 1
            if tasks:
                await asyncio.gather(*tasks)
        finally:
            for t in list(tasks):
                t.cancel()
