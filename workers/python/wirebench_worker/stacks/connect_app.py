"""connect-proto and connect-json (docs/protocols.md) with Connect for Python
(connectrpc), as its users serve it: the generated ASGI applications of
contract/schema/wirebench.proto (protoc-gen-connectrpc with protobuf=google, so the
messages are grpcio's generated ones and the codecs connectrpc's google.protobuf ones:
binary for connect-proto, JSON for connect-json, one application serving both), mounted
side by side, served by granian in worker processes as the FastAPI application is
(httpservers.ProcessServer). Refusals carry the contract's code as the Connect error
code of the Go and Node stacks.

`app` is what granian imports in each worker process: the data set, the message limit
and the shared state come from the environment, as fastapi_app's.
"""

from __future__ import annotations

import asyncio

from connectrpc.code import Code
from connectrpc.compat import google_protobuf_codecs
from connectrpc.errors import ConnectError

from .. import contract
from ..contract import CallError
from ..gen import wirebench_connect as wc
from ..gen import wirebench_pb2 as pb
from .grpcstacks import _Answers, trade_pb

# Trades streamed between two turns given to the event loop (stream_trades).
_YIELD_EVERY = 64

_CODE = {
    contract.NOT_FOUND: Code.NOT_FOUND,
    contract.INVALID_ARGUMENT: Code.INVALID_ARGUMENT,
    contract.RESOURCE_EXHAUSTED: Code.RESOURCE_EXHAUSTED,
    contract.INTERNAL: Code.INTERNAL,
}


def _refused(e: CallError) -> ConnectError:
    return ConnectError(_CODE.get(e.kind, Code.INTERNAL), e.message)


class _Unary:
    """Each unary method answers through _Answers (the gRPC servers' conversions)."""

    def __init__(self, a: _Answers):
        self.a = a

    def _call(self, name, req):
        try:
            return getattr(self.a, name)(req)
        except CallError as e:
            raise _refused(e) from None


class Persons(_Unary, wc.PersonService):
    async def list_persons(self, req, ctx):
        return self._call("list_persons", req)

    async def get_person(self, req, ctx):
        return self._call("get_person", req)

    async def get_person_links(self, req, ctx):
        return self._call("get_person_links", req)

    async def create_person(self, req, ctx):
        return self._call("create_person", req)


class Echo(_Unary, wc.EchoService):
    async def echo(self, req, ctx):
        return self._call("echo", req)

    async def stats(self, req, ctx):
        return self._call("stats", req)

    async def increment(self, req, ctx):
        return self._call("increment", req)


class Trades(_Unary, wc.TradeService):
    """StreamOriginalTrades is left to the generated UNIMPLEMENTED: no Python stack
    carries the REST vs gRPC original's trade."""

    async def stream_trades(self, req: pb.TradesRequest, ctx):
        try:
            trades = self.a.svc.trades(req.count)
        except CallError as e:
            raise _refused(e) from None
        for i, t in enumerate(trades):
            yield trade_pb(t)
            if i % _YIELD_EVERY == _YIELD_EVERY - 1:
                # granian takes a message without giving the loop a turn, so without
                # this a long stream holds the process's loop to its end: the other
                # calls of its connection wait, and connectrpc's watch for the client's
                # disconnect (a receiver that stopped) never runs to cancel it.
                await asyncio.sleep(0)


class Mounts:
    """The three services' applications on one server, each at its path (as several
    Connect applications are mounted in one ASGI server); any other path is a 404."""

    def __init__(self, apps):
        self.apps = [(a.path + "/", a) for a in apps]

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            for prefix, a in self.apps:
                if scope["path"].startswith(prefix):
                    await a(scope, receive, send)
                    return
            await send({"type": "http.response.start", "status": 404, "headers": [(b"content-length", b"0")]})
            await send({"type": "http.response.body", "body": b""})
        elif scope["type"] == "lifespan":
            while True:
                m = await receive()
                if m["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif m["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return


def create_app(svc: contract.Reference, limit: int) -> Mounts:
    a = _Answers(svc)
    opts = {"read_max_bytes": limit, "codecs": google_protobuf_codecs()}
    return Mounts([wc.PersonServiceASGIApplication(Persons(a), **opts),
                   wc.EchoServiceASGIApplication(Echo(a), **opts),
                   wc.TradeServiceASGIApplication(Trades(a), **opts)])


def from_environment() -> Mounts:
    reference, limit = contract.served_from_environment()
    return create_app(reference, limit)


# `app` is built on first access by a server process, not when this module is imported
# elsewhere.
__getattr__ = contract.lazy_app(globals(), from_environment)
