"""The servers of worker processes: the FastAPI application (fastapi_app, http-json)
served by uvicorn and by granian, the two ways Python users deploy it, and the Connect
application (connect_app, connect-proto and connect-json) on granian, each as its docs
advise for production:
one worker process per CPU the server may use (uvicorn --workers, granian --workers),
uvicorn with uvloop and httptools, granian's ASGI interface with uvloop. The server runs
as a child process group of the worker (the server's CPU and RSS are the worker's plus
its children's: proc.py), stopped with the benchmark.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile

import aiohttp

from .. import contract, proc


def worker_count() -> int:
    """Worker processes: one per CPU the process may run on (the driver's pinning)."""
    return max(1, len(os.sched_getaffinity(0)))


def _free_port(host: str) -> int:
    # The servers bind their own sockets (uvicorn's --fd would do, but it wraps the
    # descriptor as a Unix socket, so uvloop leaves TCP_NODELAY off and every small
    # answer waits for a delayed ACK: 40 ms a call). The port is chosen here, on the
    # listen address, and the server is checked to answer on it before use.
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


# The Connect server (connect_app) is served as the FastAPI application is on granian.
CONNECT = "connect-python"


def _probe(stack: str, base: str):
    """The request that answers 200 once the server serves: the contract's Stats, over
    the server's own protocol (Connect's unary POST of an empty message)."""
    if stack == CONNECT:
        return "POST", base + "/wirebench.v1.EchoService/Stats", {"data": b"", "headers": {"content-type": "application/proto"}}
    return "GET", base + "/stats", {}


class ProcessServer:
    """uvicorn or granian serving the FastAPI app in child processes."""

    def __init__(self, stack: str, data_seed: int, data_size: int, listen: str, limit: int):
        self.stack = stack
        self.workers = worker_count()
        self.dir = tempfile.mkdtemp(prefix="wirebench-py-")
        state = os.path.join(self.dir, "state")
        contract.SharedState(state, data_size, create=True)
        pkg = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.env = dict(os.environ, PYTHONPATH=pkg, WIREBENCH_DATA_SEED=str(data_seed), WIREBENCH_DATA_SIZE=str(data_size),
                        WIREBENCH_MAX_MESSAGE_SIZE=str(limit), WIREBENCH_STATE=state)
        app = "wirebench_worker.stacks.connect_app:app" if stack == CONNECT else "wirebench_worker.stacks.fastapi_app:app"
        if listen.startswith("tcp://"):
            host, port = listen[len("tcp://"):].rsplit(":", 1)
            host = host.strip("[]")
            self.unix = None
        elif listen.startswith("unix://"):
            self.unix = listen[len("unix://"):]
        else:
            raise ValueError(f"listen address {listen!r}: want tcp://HOST:PORT or unix:///PATH")
        if stack == "fastapi-uvicorn":
            args = [sys.executable, "-m", "uvicorn", app, "--workers", str(self.workers), "--loop", "uvloop",
                    "--http", "httptools", "--no-access-log", "--log-level", "warning", "--lifespan", "off"]
        elif stack in ("fastapi-granian", CONNECT):
            args = [sys.executable, "-m", "granian", "--interface", "asgi", "--workers", str(self.workers),
                    "--loop", "uvloop", "--no-ws", "--log-level", "warning", "--no-access-log", app]
        else:
            raise ValueError(f"no Python server stack {stack!r} served in processes")
        # Both take the same address options.
        if self.unix:
            args += ["--uds", self.unix]
        else:
            if int(port) == 0:
                port = _free_port(host)
            args += ["--host", host, "--port", str(port)]
        self.args = args
        self.address = listen if self.unix else f"tcp://{'[' + host + ']' if ':' in host else host}:{port}"
        self.p: subprocess.Popen | None = None

    async def start(self, timeout: float = 30.0):
        log = open(os.path.join(self.dir, "server.log"), "wb")
        args = [sys.executable, "-m", "wirebench_worker.stacks.dieexec", str(os.getpid())] + self.args
        self.p = subprocess.Popen(args, env=self.env, stdin=subprocess.DEVNULL,
                                  stdout=log, stderr=log, start_new_session=True)
        proc.SUPERVISORS.add(self.p.pid)
        # Ready when every worker could have taken the socket: an answer to /stats.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        conn = aiohttp.UnixConnector(path=self.unix) if self.unix else aiohttp.TCPConnector()
        base = "http://localhost" if self.unix else "http://" + self.address[len("tcp://"):]
        async with aiohttp.ClientSession(connector=conn) as s:
            while True:
                if self.p.poll() is not None:
                    raise OSError(f"{self.stack} exited with {self.p.returncode}: {self.log_tail()}")
                try:
                    method, url, kw = _probe(self.stack, base)
                    async with s.request(method, url, **kw) as r:
                        if r.status == 200:
                            return
                except (aiohttp.ClientError, OSError):
                    pass
                if loop.time() > deadline:
                    await self.stop()
                    raise OSError(f"{self.stack} did not answer within {timeout:.0f}s: {self.log_tail()}")
                await asyncio.sleep(0.05)

    def log_tail(self) -> str:
        try:
            with open(os.path.join(self.dir, "server.log"), "rb") as f:
                return f.read()[-800:].decode(errors="replace").strip()
        except OSError:
            return ""

    def stopped(self) -> bool:
        return self.p is None or self.p.poll() is not None

    async def stop(self):
        if self.p is not None and self.p.poll() is None:
            # The supervisor kills the group (SIGKILL) on SIGTERM.
            try:
                os.killpg(self.p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            for _ in range(100):
                if self.p.poll() is not None:
                    break
                await asyncio.sleep(0.05)
            else:
                try:
                    os.killpg(self.p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.p.wait()
        if self.unix:
            try:
                os.unlink(self.unix)
            except FileNotFoundError:
                pass
