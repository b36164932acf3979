"""The http-json client with aiohttp, as Python services call a JSON API: one
ClientSession per connection of the load model (its pooled, kept-alive HTTP/1.1
connections shared by that connection's callers), JSON bodies with the standard json
module. Refusals are read from the contract's error body, or from the status of another
server's answer; the trade stream is read line by line as it comes.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp

from .. import contract
from ..contract import CallError


def _refusal(status: int, body: bytes) -> CallError:
    try:
        b = json.loads(body)
        if isinstance(b, dict) and b.get("code") in contract.CODES:
            return CallError(b["code"], str(b.get("message", "")))
    except ValueError:
        pass
    text = body[:200].decode(errors="replace")
    code = {404: contract.NOT_FOUND, 400: contract.INVALID_ARGUMENT, 413: contract.RESOURCE_EXHAUSTED,
            500: contract.INTERNAL}.get(status)
    return CallError(code, text) if code else contract.wrong(f"status {status}: {text}")


def _transport(e: Exception) -> CallError:
    if isinstance(e, aiohttp.ClientConnectorError):
        return CallError("refused", str(e))
    if isinstance(e, (aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError, ConnectionResetError)):
        return CallError("reset", str(e) or type(e).__name__)
    if isinstance(e, asyncio.TimeoutError):
        return CallError("timeout", str(e) or "timed out")
    return CallError("other", f"{type(e).__name__}: {e}")


class Client:
    """An aiohttp ClientSession of the target. Safe for concurrent use on its loop."""

    def __init__(self, target: str, limit: int):
        if target.startswith("tcp://"):
            self.base = "http://" + target[len("tcp://"):]
            self._conn = lambda: aiohttp.TCPConnector(limit=0)
        elif target.startswith("unix://"):
            path = target[len("unix://"):]
            self.base = "http://localhost"
            self._conn = lambda: aiohttp.UnixConnector(path=path, limit=0)
        else:
            raise ValueError(f"target {target!r}: want tcp://HOST:PORT or unix:///PATH")
        self.limit = limit
        self.session: aiohttp.ClientSession | None = None

    async def connect(self, timeout: float):
        self.session = aiohttp.ClientSession(connector=self._conn(), read_bufsize=1 << 16,
                                             timeout=aiohttp.ClientTimeout(total=None))
        await self.stats()

    async def close(self):
        if self.session is not None:
            await self.session.close()

    async def _call(self, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body)
        headers = {"content-type": "application/json"} if body is not None else None
        try:
            async with self.session.request(method, self.base + path, data=data, headers=headers) as r:
                n = r.content_length
                if n is not None and n > self.limit:
                    raise CallError(contract.RESOURCE_EXHAUSTED, f"response body of {n} bytes over the client's limit of {self.limit}")
                raw = await r.read()
                if len(raw) > self.limit:
                    raise CallError(contract.RESOURCE_EXHAUSTED, f"response body over the client's limit of {self.limit} bytes")
                if r.status != 200:
                    raise _refusal(r.status, raw)
        except CallError:
            raise
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as e:
            raise _transport(e) from None
        try:
            return json.loads(raw)
        except ValueError as e:
            raise contract.wrong(f"{path}: answer is not the contract's JSON: {e}") from None

    async def list_persons(self):
        return (await self._call("GET", "/persons"))["persons"]

    async def get_person(self, pid):
        return await self._call("GET", f"/persons/{pid}")

    async def get_person_links(self, pid):
        return (await self._call("GET", f"/persons/{pid}/links"))["links"]

    async def create_person(self, p):
        return await self._call("POST", "/persons", p)

    async def echo(self, payload):
        b = await self._call("POST", "/echo", {"payload": payload})
        if "payload" not in b:
            raise contract.wrong('echo answer without "payload"')
        return b["payload"]

    async def stats(self):
        return await self._call("GET", "/stats")

    async def increment(self, n):
        b = await self._call("POST", "/increment", {"value": n})
        if "value" not in b:
            raise contract.wrong('increment answer without "value"')
        return b["value"]

    async def stream_trades(self, count, sink):
        delivered = 0
        try:
            async with self.session.get(f"{self.base}/trades?count={count}") as r:
                if r.status != 200:
                    raise _refusal(r.status, await r.read())
                while True:
                    line = await r.content.readline()
                    if not line:
                        break
                    try:
                        l = json.loads(line)
                    except ValueError as e:
                        raise contract.wrong(f"trade stream line {delivered + 1}: {e}") from None
                    if "error" in l:
                        err = l["error"]
                        raise CallError(err.get("code") if err.get("code") in contract.CODES else contract.INTERNAL,
                                        str(err.get("message", "")))
                    if "end" in l:
                        if l["end"].get("count") != delivered:
                            raise contract.wrong(f"stream ended with count {l['end'].get('count')} after {delivered} trades")
                        return
                    if "id" not in l:
                        raise contract.wrong(f"trade stream line {delivered + 1} is neither a trade nor an end")
                    sink(l)  # raising here leaves the block: aiohttp closes the connection
                    delivered += 1
        except CallError:
            raise
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as e:
            raise _transport(e) from None
        raise CallError("reset", f"the trade stream ended after {delivered} trades without its end line")
