"""grpc-proto (docs/protocols.md) with grpcio, as Python services are written with it:
the generated servicers and stubs of contract/schema/wirebench.proto, server reflection
on (so grpcurl and ghz need no proto file). Two servers: `grpcio` (grpc.server on its
thread pool, the sync API grpcio's examples use) and `grpcio-aio` (grpc.aio on the
worker's asyncio loop); one client, `grpcio-aio` (a grpc.aio channel per connection,
each with its own subchannel pool so connections are not shared). Refusals carry the
contract's code as the gRPC status of the Go and Rust stacks.
"""

from __future__ import annotations

from concurrent import futures

import grpc
from grpc_reflection.v1alpha import reflection

from .. import contract
from ..contract import CallError
from ..gen import wirebench_pb2 as pb
from ..gen import wirebench_pb2_grpc as pbg

# ---- model <-> messages


def person_pb(p: dict) -> pb.Person:
    n, l = p["name"], p["location"]
    m = pb.Person(
        id=p["id"],
        name=pb.PersonName(title=n["title"], first=n["first"], last=n["last"]),
        gender=p["gender"],
        location=pb.Location(street=l["street"], city=l["city"], state=l["state"], post_code=l["post_code"]),
        email=p["email"],
    )
    pic = p.get("picture")
    if pic is not None:
        m.picture.CopyFrom(pb.Picture(large=pic["large"], medium=pic["medium"], thumbnail=pic["thumbnail"]))
    return m


def person_of(m: pb.Person) -> dict:
    n, l = m.name, m.location
    p = {
        "id": m.id,
        "name": {"title": n.title, "first": n.first, "last": n.last},
        "gender": m.gender,
        "location": {"street": l.street, "city": l.city, "state": l.state, "post_code": l.post_code},
        "email": m.email,
    }
    if m.HasField("picture"):
        q = m.picture
        p["picture"] = {"large": q.large, "medium": q.medium, "thumbnail": q.thumbnail}
    return p


def trade_pb(t: dict) -> pb.Trade:
    return pb.Trade(id=t["id"], symbol=t["symbol"], price=t["price"], quantity=t["quantity"],
                    timestamp_nanos=t["timestamp_nanos"], side=pb.SELL if t["side"] == contract.SELL else pb.BUY)


def trade_of(m: pb.Trade) -> dict:
    return {"id": m.id, "symbol": m.symbol, "price": m.price, "quantity": m.quantity,
            "timestamp_nanos": m.timestamp_nanos, "side": contract.SELL if m.side == pb.SELL else contract.BUY}


_STATUS = {
    contract.NOT_FOUND: grpc.StatusCode.NOT_FOUND,
    contract.INVALID_ARGUMENT: grpc.StatusCode.INVALID_ARGUMENT,
    contract.RESOURCE_EXHAUSTED: grpc.StatusCode.RESOURCE_EXHAUSTED,
    contract.INTERNAL: grpc.StatusCode.INTERNAL,
}
_CODE = {v: k for k, v in _STATUS.items()}


def status_of(e: CallError) -> grpc.StatusCode:
    return _STATUS.get(e.kind, grpc.StatusCode.INTERNAL)


def error_of(e: grpc.RpcError) -> CallError:
    """The contract error a client sees for a status (the contract's codes come back as
    refusals; the rest are failures in transit)."""
    code, msg = e.code(), e.details() or ""
    if code in _CODE:
        return CallError(_CODE[code], msg)
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return CallError("timeout", msg)
    if code == grpc.StatusCode.CANCELLED:
        return CallError("canceled", msg)
    if code == grpc.StatusCode.UNAVAILABLE:
        low = msg.lower()
        return CallError("refused" if "refused" in low or "no such file" in low else "reset", msg)
    return CallError("other", f"{code.name}: {msg}")


# ---- servers

SERVICE_NAMES = (
    pb.DESCRIPTOR.services_by_name["PersonService"].full_name,
    pb.DESCRIPTOR.services_by_name["EchoService"].full_name,
    pb.DESCRIPTOR.services_by_name["TradeService"].full_name,
    reflection.SERVICE_NAME,
)


def server_options(limit: int) -> list:
    return [("grpc.max_receive_message_length", limit), ("grpc.max_send_message_length", limit)]


class _Answers:
    """The answers of every method, shared by the sync and the asyncio servicers."""

    def __init__(self, svc: contract.Reference):
        self.svc = svc
        # The data set is immutable: its messages are made per call all the same, as a
        # service converting its domain model at each answer does.

    def list_persons(self, _):
        return pb.PersonList(persons=[person_pb(p) for p in self.svc.list_persons()])

    def get_person(self, req):
        return person_pb(self.svc.get_person(req.id))

    def get_person_links(self, req):
        return pb.PersonLinkList(links=[pb.PersonLink(p1=person_pb(l["p1"]), p2=person_pb(l["p2"]))
                                        for l in self.svc.get_person_links(req.id)])

    def create_person(self, req):
        p = person_of(req)
        return person_pb(self.svc.create_person(p))

    def echo(self, req):
        return pb.EchoMessage(payload=self.svc.echo(req.payload))

    def stats(self, _):
        s = self.svc.stats()
        return pb.StatsReply(calls=s["calls"], last_payload_len=s["last_payload_len"])

    def increment(self, req):
        return pb.Number(value=self.svc.increment(req.value))


def _sync_unary(name):
    def method(self, req, ctx):
        try:
            return getattr(self.a, name)(req)
        except CallError as e:
            ctx.abort(status_of(e), e.message)
    return method


def _aio_unary(name):
    async def method(self, req, ctx):
        try:
            return getattr(self.a, name)(req)
        except CallError as e:
            await ctx.abort(status_of(e), e.message)
    return method


def _unary_servicers(wrap):
    """The PersonService and EchoService servicer classes whose methods wrap makes
    (_sync_unary or _aio_unary)."""

    def init(self, a):
        self.a = a

    persons = type("Persons", (pbg.PersonServiceServicer,), {
        "__init__": init, "ListPersons": wrap("list_persons"), "GetPerson": wrap("get_person"),
        "GetPersonLinks": wrap("get_person_links"), "CreatePerson": wrap("create_person")})
    echo = type("Echo", (pbg.EchoServiceServicer,), {
        "__init__": init, "Echo": wrap("echo"), "Stats": wrap("stats"), "Increment": wrap("increment")})
    return persons, echo


SyncPersons, SyncEcho = _unary_servicers(_sync_unary)
AioPersons, AioEcho = _unary_servicers(_aio_unary)


class SyncTrades(pbg.TradeServiceServicer):
    """StreamOriginalTrades is the generated UNIMPLEMENTED: no Python stack carries the
    REST vs gRPC original's trade."""

    def __init__(self, a): self.a = a

    def StreamTrades(self, req, ctx):
        try:
            trades = self.a.svc.trades(req.count)
        except CallError as e:
            ctx.abort(status_of(e), e.message)
        for t in trades:
            yield trade_pb(t)


class AioTrades(pbg.TradeServiceServicer):
    def __init__(self, a): self.a = a

    async def StreamTrades(self, req, ctx):
        try:
            trades = self.a.svc.trades(req.count)
        except CallError as e:
            await ctx.abort(status_of(e), e.message)
            return
        for t in trades:
            yield trade_pb(t)


def grpc_address(addr: str) -> str:
    """A wirebench address (tcp://HOST:PORT, unix:///PATH) as grpcio names it."""
    if addr.startswith("tcp://"):
        return addr[len("tcp://"):]
    if addr.startswith("unix://"):
        return "unix:" + addr[len("unix://"):]
    raise ValueError(f"address {addr!r}: want tcp://HOST:PORT or unix:///PATH")


def bound_address(addr: str, port: int) -> str:
    if addr.startswith("tcp://"):
        host = addr[len("tcp://"):].rsplit(":", 1)[0]
        return f"tcp://{host}:{port}"
    return addr


# Threads of the sync server's pool: what grpcio's examples and its route_guide use
# (futures.ThreadPoolExecutor(max_workers=10)).
SYNC_THREADS = 10


class Server:
    """grpcio's sync server on its thread pool (aio=False), or grpc.aio's on the
    worker's event loop (aio=True): the same services, reflection and limits."""

    def __init__(self, svc, listen: str, limit: int, aio: bool, threads: int | None = None):
        a = _Answers(svc)
        self.aio = aio
        if aio:
            self.server = grpc.aio.server(options=server_options(limit))
            servicers = (AioPersons(a), AioEcho(a), AioTrades(a))
        else:
            # threads: the max_workers option (grpc_bench's 1); SYNC_THREADS without it.
            pool = futures.ThreadPoolExecutor(max_workers=threads or SYNC_THREADS)
            self.server = grpc.server(pool, options=server_options(limit))
            servicers = (SyncPersons(a), SyncEcho(a), SyncTrades(a))
        pbg.add_PersonServiceServicer_to_server(servicers[0], self.server)
        pbg.add_EchoServiceServicer_to_server(servicers[1], self.server)
        pbg.add_TradeServiceServicer_to_server(servicers[2], self.server)
        reflection.enable_server_reflection(SERVICE_NAMES, self.server)
        port = self.server.add_insecure_port(grpc_address(listen))
        if port == 0:
            raise OSError(f"grpcio could not listen on {listen}")
        self.address = bound_address(listen, port)

    async def start(self):
        if self.aio:
            await self.server.start()
        else:
            self.server.start()

    def stopped(self) -> bool:
        return False

    async def stop(self):
        if self.aio:
            await self.server.stop(grace=None)
        else:
            self.server.stop(grace=None)


# ---- client


class AioClient:
    """A grpc.aio channel of its own (one connection: a local subchannel pool) shared by
    its callers. Safe for concurrent use on the loop that made it."""

    def __init__(self, target: str, limit: int):
        opts = server_options(limit) + [("grpc.use_local_subchannel_pool", 1)]
        self.channel = grpc.aio.insecure_channel(grpc_address(target), options=opts)
        self.persons = pbg.PersonServiceStub(self.channel)
        self.echo_ = pbg.EchoServiceStub(self.channel)
        self.trades = pbg.TradeServiceStub(self.channel)

    async def connect(self, timeout: float):
        await self.stats()

    async def close(self):
        await self.channel.close()

    async def list_persons(self):
        try:
            r = await self.persons.ListPersons(pb.ListPersonsRequest())
        except grpc.RpcError as e:
            raise error_of(e) from None
        return [person_of(p) for p in r.persons]

    async def get_person(self, pid):
        try:
            return person_of(await self.persons.GetPerson(pb.PersonId(id=pid)))
        except grpc.RpcError as e:
            raise error_of(e) from None

    async def get_person_links(self, pid):
        try:
            r = await self.persons.GetPersonLinks(pb.PersonId(id=pid))
        except grpc.RpcError as e:
            raise error_of(e) from None
        return [{"p1": person_of(l.p1), "p2": person_of(l.p2)} for l in r.links]

    async def create_person(self, p):
        try:
            return person_of(await self.persons.CreatePerson(person_pb(p)))
        except grpc.RpcError as e:
            raise error_of(e) from None

    async def echo(self, payload):
        try:
            return (await self.echo_.Echo(pb.EchoMessage(payload=payload))).payload
        except grpc.RpcError as e:
            raise error_of(e) from None

    async def stats(self):
        try:
            r = await self.echo_.Stats(pb.StatsRequest())
        except grpc.RpcError as e:
            raise error_of(e) from None
        return {"calls": r.calls, "last_payload_len": r.last_payload_len}

    async def increment(self, n):
        try:
            return (await self.echo_.Increment(pb.Number(value=n))).value
        except grpc.RpcError as e:
            raise error_of(e) from None

    async def stream_trades(self, count, sink):
        call = self.trades.StreamTrades(pb.TradesRequest(count=count))
        try:
            async for t in call:
                sink(trade_of(t))
        except grpc.RpcError as e:
            raise error_of(e) from None
        finally:
            call.cancel()  # a sink that raised stops the stream; after its end, a no-op
