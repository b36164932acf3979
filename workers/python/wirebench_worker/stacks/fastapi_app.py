"""The http-json service (docs/protocols.md) as a FastAPI application: Pydantic models
for request bodies, dicts of the contract's model for answers (FastAPI's default JSON
response), a streamed NDJSON answer for trades. Refusals carry the contract's JSON body
{"code": "not_found", "message": "..."} with the status of its code (FastAPI's own 404,
405 and 422 answers are mapped to it; 422 becomes the contract's 400).

`app` is what uvicorn and granian import in each of their worker processes: it reads the
data set and the body limit from the environment the worker sets (WIREBENCH_DATA_SEED,
WIREBENCH_DATA_SIZE, WIREBENCH_MAX_MESSAGE_SIZE) and shares the Echo counters and the
next id between processes through WIREBENCH_STATE (contract.SharedState).
"""

from __future__ import annotations

import json
from typing import Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import contract
from ..contract import CallError


class PersonName(BaseModel):
    title: str = ""
    first: str = ""
    last: str = ""


class Location(BaseModel):
    street: str = ""
    city: str = ""
    state: str = ""
    post_code: str = ""


class Picture(BaseModel):
    large: str = ""
    medium: str = ""
    thumbnail: str = ""


class Person(BaseModel):
    id: int = 0
    name: PersonName = PersonName()
    gender: str = ""
    location: Location = Location()
    email: str = ""
    picture: Optional[Picture] = None


class EchoBody(BaseModel):
    payload: str


class ValueBody(BaseModel):
    value: int


_STATUS = {contract.NOT_FOUND: 404, contract.INVALID_ARGUMENT: 400, contract.RESOURCE_EXHAUSTED: 413,
           contract.INTERNAL: 500}

# Trades per chunk of the stream (one write each), as the Go and Rust servers batch them.
BATCH = 256


def refused(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status or _STATUS.get(code, 500))


class BodyLimit:
    """Refuses a request whose Content-Length is over the limit with the contract's 413,
    before its body is read (a pure ASGI wrapper: no per-request task)."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            for k, v in scope["headers"]:
                if k == b"content-length" and v.isdigit() and int(v) > self.limit:
                    r = refused(contract.RESOURCE_EXHAUSTED, f"request body of {int(v)} bytes over the limit of {self.limit}")
                    await r(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def create_app(svc: contract.Reference) -> FastAPI:
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)

    @app.exception_handler(CallError)
    async def call_error(_: Request, e: CallError):
        return refused(e.kind, e.message)

    @app.exception_handler(RequestValidationError)
    async def bad_body(_: Request, e: RequestValidationError):
        return refused(contract.INVALID_ARGUMENT, f"bad request body: {e.errors()}"[:500])

    @app.exception_handler(StarletteHTTPException)
    async def http_error(req: Request, e: StarletteHTTPException):
        if e.status_code == 404:
            return refused(contract.NOT_FOUND, f"no route {req.url.path}")
        if e.status_code == 405:
            return refused(contract.INVALID_ARGUMENT, f"method {req.method} is not allowed on {req.url.path}", 405)
        return refused(contract.INVALID_ARGUMENT, str(e.detail), e.status_code)

    def person_id(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            # Not an id, so no person: the same answer as an unknown id.
            raise CallError(contract.NOT_FOUND, f"no person with id {text!r}") from None

    @app.get("/persons")
    async def list_persons():
        return {"persons": svc.list_persons()}

    @app.post("/persons")
    async def create_person(p: Person):
        return svc.create_person(p.model_dump(exclude_none=True))

    @app.get("/persons/{pid}")
    async def get_person(pid: str):
        return svc.get_person(person_id(pid))

    @app.get("/persons/{pid}/links")
    async def get_person_links(pid: str):
        return {"links": svc.get_person_links(person_id(pid))}

    @app.post("/echo")
    async def echo(b: EchoBody):
        return {"payload": svc.echo(b.payload)}

    @app.post("/increment")
    async def increment(b: ValueBody):
        return {"value": svc.increment(b.value)}

    @app.get("/stats")
    async def stats():
        return svc.stats()

    @app.get("/trades")
    async def stream_trades(count: Optional[str] = None):
        if count is None:
            raise CallError(contract.INVALID_ARGUMENT, "missing query parameter count, e.g. /trades?count=100")
        try:
            n = int(count)
        except ValueError:
            raise CallError(contract.INVALID_ARGUMENT, f"count {count!r} is not an integer") from None
        trades = svc.trades(n)

        def chunks():
            dumps = json.dumps
            while True:
                lines = [dumps(t, separators=(",", ":")) for _, t in zip(range(BATCH), trades)]
                if len(lines) < BATCH:
                    lines.append(dumps({"end": {"count": n}}, separators=(",", ":")))
                    yield ("\n".join(lines) + "\n").encode()
                    return
                yield ("\n".join(lines) + "\n").encode()

        return StreamingResponse(chunks(), media_type="application/x-ndjson", headers={"cache-control": "no-store"})

    return app


def from_environment():
    reference, limit = contract.served_from_environment()
    return BodyLimit(create_app(reference), limit)


# `app` is built on first access by a server process, not when this module is imported
# elsewhere.
__getattr__ = contract.lazy_app(globals(), from_environment)
