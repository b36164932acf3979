"""The Python worker's stacks: names, sides and libraries (stack/python registers the
same on the Go side; a test compares the two lists), and how to start each side."""

from __future__ import annotations

import importlib.metadata as md

SERVER, CLIENT = "server", "client"

# protocol, name, sides
STACKS = [
    ("grpc-proto", "grpcio", (SERVER,)),
    ("grpc-proto", "grpcio-aio", (SERVER, CLIENT)),
    ("http-json", "fastapi-uvicorn", (SERVER,)),
    ("http-json", "fastapi-granian", (SERVER,)),
    ("http-json", "aiohttp", (CLIENT,)),
    # One Connect application serves both Connect protocols (stacks/connect_app.py).
    ("connect-proto", "connect-python", (SERVER,)),
    ("connect-json", "connect-python", (SERVER,)),
]

LIBRARIES = {
    "grpcio": ["grpcio", "grpcio-reflection", "protobuf"],
    "grpcio-aio": ["grpcio", "grpcio-reflection", "protobuf"],
    "fastapi-uvicorn": ["fastapi", "starlette", "pydantic", "uvicorn", "uvloop", "httptools"],
    "fastapi-granian": ["fastapi", "starlette", "pydantic", "granian", "uvloop"],
    "aiohttp": ["aiohttp"],
    "connect-python": ["connectrpc", "protobuf", "granian", "uvloop"],
}


def versions(name: str) -> dict:
    return {lib: md.version(lib) for lib in LIBRARIES[name]}


def lookup(protocol: str, name: str, side: str) -> None:
    for p, n, sides in STACKS:
        if p == protocol and n == name:
            if side not in sides:
                raise ValueError(f"{protocol} stack {name} has no {side} side in the Python worker")
            return
    known = ", ".join(f"{p}/{n}" for p, n, _ in STACKS)
    raise ValueError(f"no {side} stack {name!r} of protocol {protocol!r} in the Python worker (it has: {known})")


# The server options each stack takes (a suite's server_options; any makes the server's
# tier tuned): grpcio's max_workers, the threads of its sync server's pool (grpc_bench's
# python_grpc_bench runs ThreadPoolExecutor(max_workers=1)).
SERVER_OPTIONS = {"grpcio": ("max_workers",)}


def server_options(protocol: str, name: str, options) -> dict:
    """The stack's server options, checked: every name known to the stack, every value
    valid. Raises ValueError naming what is wrong."""
    known = SERVER_OPTIONS.get(name, ())
    out = {}
    for k, v in dict(options).items():
        if k not in known:
            has = ", ".join(known) if known else "none"
            raise ValueError(f"{protocol} stack {name} has no option {k!r} (it has: {has})")
        try:
            n = int(v)
        except ValueError:
            n = 0
        if n < 1 or n > 1024:
            raise ValueError(f"{protocol} stack {name}: option {k}={v!r}, want a whole number of threads from 1 to 1024")
        out[k] = n
    return out


def new_server(protocol: str, name: str, svc, data_seed: int, data_size: int, listen: str, limit: int,
               options=None):
    """An unstarted server of the stack on listen; .address is the bound address.
    options are server_options' (checked)."""
    lookup(protocol, name, SERVER)
    opts = server_options(protocol, name, options or {})
    if protocol == "grpc-proto":
        from . import grpcstacks
        return grpcstacks.Server(svc, listen, limit, aio=name == "grpcio-aio", threads=opts.get("max_workers"))
    from . import httpservers
    return httpservers.ProcessServer(name, data_seed, data_size, listen, limit)


def new_client(protocol: str, name: str, target: str, limit: int):
    """An unconnected client of the stack (connect(timeout) opens it)."""
    lookup(protocol, name, CLIENT)
    if protocol == "grpc-proto":
        from . import grpcstacks
        return grpcstacks.AioClient(target, limit)
    from . import aiohttpclient
    return aiohttpclient.Client(target, limit)
