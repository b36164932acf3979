"""The benchmark contract (contract/ in the Go module) in Python: the seeded data set
(byte for byte the Go one, checked against contract/testdata), trades, payloads, the
reference service every server stack serves, and the errors a service refuses calls
with. Model values are plain dicts shaped as the http-json mapping's JSON (a person
without a picture has no "picture" key), so comparing two persons is ``==``.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import struct
import threading

DEFAULT_SEED = 1
DEFAULT_SIZE = 20
LINKS_PER_PERSON = 3
MAX_TRADES = 10_000_000
MAX_PAYLOAD = 64 << 20
MAX_INCREMENTS = 1_000_000
DEFAULT_MAX_MESSAGE_SIZE = 16 << 20

# The contract's error codes as they travel (contract/errors.go).
NOT_FOUND = "not_found"
INVALID_ARGUMENT = "invalid_argument"
RESOURCE_EXHAUSTED = "resource_exhausted"
INTERNAL = "internal"
CODES = (NOT_FOUND, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL)


class CallError(Exception):
    """Why a call failed, whatever the protocol: kind is a contract code (a refusal),
    "wrong_answer", or a transport kind of record/errors.go ("timeout", "canceled",
    "refused", "reset", "other")."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message

    def __str__(self) -> str:
        if self.kind == "wrong_answer":
            return f"wrong answer: {self.message}"
        return f"{self.kind}: {self.message}"


def refusal(code: str, message: str) -> CallError:
    return CallError(code, message)


def wrong(message: str) -> CallError:
    return CallError("wrong_answer", message)


_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1


class Pcg:
    """Go's math/rand/v2 PCG (128-bit LCG, DXSM output) and the parts of rand.Rand the
    data set draws with, bit for bit. Owned by one thread."""

    MUL = (2549297995355413924 << 64) | 4865540595714422341
    INC = (6364136223846793005 << 64) | 1442695040888963407
    CHEAP_MUL = 0xDA942042E4DD58B5

    def __init__(self, seed1: int, seed2: int):
        self.state = ((seed1 & _M64) << 64) | (seed2 & _M64)

    def uint64(self) -> int:
        self.state = (self.state * self.MUL + self.INC) & _M128
        hi = self.state >> 64
        lo = self.state & _M64
        hi ^= hi >> 32
        hi = (hi * self.CHEAP_MUL) & _M64
        hi ^= hi >> 48
        return (hi * (lo | 1)) & _M64

    def int_n(self, n: int) -> int:
        """Go's rand.Rand.IntN for n > 0 on a 64-bit machine (Lemire's method)."""
        if n <= 0:
            raise ValueError(f"int_n of {n}")
        if n & (n - 1) == 0:
            return self.uint64() & (n - 1)
        prod = self.uint64() * n
        if prod & _M64 < n:
            thresh = ((-n) & _M64) % n
            while prod & _M64 < thresh:
                prod = self.uint64() * n
        return prod >> 64

    def float64(self) -> float:
        return (self.uint64() & ((1 << 53) - 1)) / float(1 << 53)


TITLES = ["mr", "ms", "mrs", "miss", "dr"]
FIRST_NAMES = ["Amelia", "Bruno", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ingrid",
               "Jonas", "Kofi", "Lucía", "Mateo", "Nadia", "Oskar", "Priya"]
LAST_NAMES = ["Almeida", "Berg", "Castro", "Dubois", "Eriksen", "Fischer", "García", "Hansen", "Ivanova",
              "Jensen", "Kowalski", "Laurent", "Moreau", "Nakamura", "Olsen"]
STREETS = ["Maple Street", "High Street", "Station Road", "Church Lane", "Mill Road", "Park Avenue",
           "Victoria Road", "Green Lane"]
CITIES = ["Aberdeen", "Bergen", "Coimbra", "Dresden", "Eindhoven", "Florence", "Gdańsk", "Helsinki",
          "Innsbruck", "Lyon"]
STATES = ["Aberdeenshire", "Vestland", "Centro", "Saxony", "North Brabant", "Tuscany", "Pomerania",
          "Uusimaa", "Tyrol", "Rhône"]
DATASET_SEED2 = 0x9E3779B97F4A7C15


def _pick(r: Pcg, s: list) -> str:
    return s[r.int_n(len(s))]


def _new_person(r: Pcg, pid: int) -> dict:
    # The draws happen in exactly the order of contract.newPerson: gender, first, last,
    # city, title, street number, street, post code, then the picture number.
    if r.int_n(2) == 0:
        gender, folder = "male", "men"
    else:
        gender, folder = "female", "women"
    first = _pick(r, FIRST_NAMES)
    last = _pick(r, LAST_NAMES)
    city = r.int_n(len(CITIES))
    title = _pick(r, TITLES)
    number = 1 + r.int_n(9999)
    street = f"{number} {_pick(r, STREETS)}"
    post_code = f"{r.int_n(100000):05d}"
    email = f"{first}.{last}.{pid}@example.com".lower()
    p = {
        "id": pid,
        "name": {"title": title, "first": first, "last": last},
        "gender": gender,
        "location": {"street": street, "city": CITIES[city], "state": STATES[city], "post_code": post_code},
        "email": email,
    }
    # One person in four has no picture, so every protocol must carry "absent".
    if pid % 4 != 0:
        n = r.int_n(100)
        p["picture"] = {
            "large": f"https://randomuser.me/api/portraits/{folder}/{n}.jpg",
            "medium": f"https://randomuser.me/api/portraits/med/{folder}/{n}.jpg",
            "thumbnail": f"https://randomuser.me/api/portraits/thumb/{folder}/{n}.jpg",
        }
    return p


class Dataset:
    """The deterministic person store of contract/dataset.go. Immutable."""

    def __init__(self, seed: int, size: int):
        if not 1 <= size <= 1_000_000:
            raise ValueError(f"data set size {size} out of range [1, 1000000]")
        r = Pcg(seed, DATASET_SEED2)
        self.persons = [_new_person(r, i + 1) for i in range(size)]
        self.links = [
            [{"p1": self.persons[i], "p2": self.persons[(i + k) % size]}
             for k in range(1, LINKS_PER_PERSON + 1) if k < size]
            for i in range(size)
        ]

    @property
    def size(self) -> int:
        return len(self.persons)

    def person(self, pid: int):
        return self.persons[pid - 1] if 1 <= pid <= len(self.persons) else None

    def links_of(self, pid: int):
        return self.links[pid - 1] if 1 <= pid <= len(self.links) else None


SYMBOLS = ["AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "ASML", "SAP", "TSM"]
TRADE_EPOCH = 1_767_225_600_000_000_000  # 2026-01-01T00:00:00Z in Unix nanoseconds
BUY, SELL = "BUY", "SELL"


def trade_at(i: int) -> dict:
    """Trade i of a StreamTrades stream: every field depends on i only."""
    return {
        "id": i,
        "symbol": SYMBOLS[i % len(SYMBOLS)],
        "price": (10000 + i % 90000) / 100.0,
        "quantity": 1 + i % 500,
        "timestamp_nanos": TRADE_EPOCH + i * 1_000_000,
        "side": SELL if i % 2 == 1 else BUY,
    }


def payload(size: int) -> str:
    """A deterministic payload of size bytes: "Hello World " repeated and cut to size."""
    return ("Hello World " * (size // 12 + 1))[:size]


def validate_new_person(p: dict) -> None:
    """contract.ValidateNewPerson: a first and last name, an email with '@'."""
    name = p.get("name") or {}
    if not name.get("first") or not name.get("last"):
        raise refusal(INVALID_ARGUMENT, "person needs a first and a last name")
    email = p.get("email", "")
    if "@" not in email:
        raise refusal(INVALID_ARGUMENT, f"person email {email!r} has no '@'")


class LocalState:
    """The reference service's mutable state in one process: the next id and the Echo
    counters, under a lock (the sync gRPC server calls from its thread pool)."""

    def __init__(self, first_id: int):
        self._lock = threading.Lock()
        self._next_id = first_id
        self._calls = 0
        self._last_len = 0

    def new_id(self) -> int:
        with self._lock:
            self._next_id += 1
            return self._next_id

    def echoed(self, n: int) -> None:
        with self._lock:
            self._calls += 1
            self._last_len = n

    def stats(self) -> dict:
        with self._lock:
            return {"calls": self._calls, "last_payload_len": self._last_len}


class SharedState:
    """The same state shared by the processes of one server (uvicorn's and granian's
    workers): three int64 in a file every process maps, updated under an flock of it,
    as a multi-process service keeps shared state outside any one process. The creator
    makes the file (create=True); the server's workers open it by path."""

    _FMT = struct.Struct("<qqq")  # next id, calls, last payload length

    def __init__(self, path: str, first_id: int = 0, create: bool = False):
        if create:
            with open(path, "wb") as f:
                f.write(self._FMT.pack(first_id, 0, 0))
        self._fd = os.open(path, os.O_RDWR)
        self._map = mmap.mmap(self._fd, self._FMT.size)

    def _update(self, fn):
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        try:
            vals = list(self._FMT.unpack_from(self._map))
            out = fn(vals)
            self._FMT.pack_into(self._map, 0, *vals)
            return out
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)

    def new_id(self) -> int:
        def bump(v):
            v[0] += 1
            return v[0]
        return self._update(bump)

    def echoed(self, n: int) -> None:
        def count(v):
            v[1] += 1
            v[2] = n
        self._update(count)

    def stats(self) -> dict:
        _, calls, last = self._update(lambda v: tuple(v))
        return {"calls": calls, "last_payload_len": last}


class Reference:
    """The in-memory service every server stack serves (contract/reference.go): the same
    answers and refusals as the Go reference. Safe for concurrent use; state is a
    LocalState (one process) or a SharedState (a server of several processes)."""

    def __init__(self, data: Dataset, state=None):
        self.data = data
        self.state = state if state is not None else LocalState(data.size)

    def list_persons(self) -> list:
        return self.data.persons

    def get_person(self, pid: int) -> dict:
        p = self.data.person(pid)
        if p is None:
            raise refusal(NOT_FOUND, f"no person with id {pid}")
        return p

    def get_person_links(self, pid: int) -> list:
        l = self.data.links_of(pid)
        if l is None:
            raise refusal(NOT_FOUND, f"no person with id {pid}")
        return l

    def create_person(self, p: dict) -> dict:
        validate_new_person(p)
        out = dict(p)
        out["id"] = self.state.new_id()
        return out

    def echo(self, payload: str) -> str:
        self.state.echoed(len(payload) if payload.isascii() else len(payload.encode("utf-8")))
        return payload

    def stats(self) -> dict:
        return self.state.stats()

    def increment(self, n: int) -> int:
        v = n + 1
        return v - (1 << 64) if v >= (1 << 63) else v  # wraps as Go's int64 does

    def trades(self, count: int):
        """The trades of a StreamTrades call, made one at a time; refuses a count outside
        [0, MAX_TRADES] before any trade."""
        if not 0 <= count <= MAX_TRADES:
            raise refusal(INVALID_ARGUMENT, f"trade count {count} out of range [0, {MAX_TRADES}]")
        return (trade_at(i) for i in range(count))


def served_from_environment() -> tuple[Reference, int]:
    """The service and the body limit of an app a server process builds on its own
    (uvicorn's and granian's worker processes import it): what stacks/httpservers.py put
    in their environment, WIREBENCH_DATA_SEED, WIREBENCH_DATA_SIZE,
    WIREBENCH_MAX_MESSAGE_SIZE and WIREBENCH_STATE (the next id shared between
    processes, SharedState)."""
    data = Dataset(int(os.environ.get("WIREBENCH_DATA_SEED", DEFAULT_SEED)),
                   int(os.environ.get("WIREBENCH_DATA_SIZE", DEFAULT_SIZE)))
    limit = int(os.environ.get("WIREBENCH_MAX_MESSAGE_SIZE", DEFAULT_MAX_MESSAGE_SIZE))
    path = os.environ.get("WIREBENCH_STATE")
    return Reference(data, SharedState(path) if path else None), limit


def lazy_app(module_globals: dict, build):
    """A module's __getattr__ that builds its `app` with build() on first access: an
    app module is imported by the worker, which only names it, and by a server's
    worker processes, which build it from served_from_environment()."""

    def getattr_(name):
        if name == "app":
            module_globals["app"] = build()
            return module_globals["app"]
        raise AttributeError(name)

    return getattr_
