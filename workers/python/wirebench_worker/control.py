"""The control API (control/controlpb/control.proto) served with grpc.aio, as the Go
worker (worker/worker.go) and the Rust and JVM workers serve it: Info, RunServer (setup,
then a process reading per mark), RunClient (setup, contract check, Ready, then one
Interval per Phase the driver asks for), Quit. Everything runs on one asyncio loop: the
control API, the grpc.aio server stack and the load generator's calls (the sync grpcio
server has its own threads; uvicorn and granian their own processes)."""

from __future__ import annotations

import asyncio
import os
import platform
import sys
import threading

import grpc

from . import VERSION, contract, proc, sockbytes, stacks
from .engine import Model, Session, encode_histogram
from .gen import control_pb2 as cpb
from .gen import control_pb2_grpc as cpbg
from .workload import Workload


def runtime() -> str:
    """InfoReply.runtime: the interpreter and its version."""
    return f"{platform.python_implementation()} {platform.python_version()} (asyncio, grpcio {stacks.md.version('grpcio')})"


def stack_names() -> list[str]:
    return [f"{p}/{n}" for p, n, _ in stacks.STACKS]


def check_benchmark(b, server: bool):
    """What both sides check of a setup's benchmark once: the data set and the limit."""
    name = b.server_stack if server else b.client_stack
    options = b.server_options if server else b.client_options
    stacks.lookup(b.protocol, name, stacks.SERVER if server else stacks.CLIENT)
    if server:
        stacks.server_options(b.protocol, name, options)
    else:
        for k in options:
            raise ValueError(f"{b.protocol} stack {name} has no option {k!r} (it has none)")
    if b.transport not in ("", "tcp", "unix"):
        raise ValueError(f"transport {b.transport!r}: the Python worker's stacks speak tcp and unix")
    if b.trade == "original":
        raise ValueError(f"the {name} {'server' if server else 'client'} stack of {b.protocol} "
                         "does not carry the original trade shape (trade: original)")
    if b.max_message_size < 0:
        raise ValueError(f"max message size {b.max_message_size}, want 0 (the default) or more")
    limit = b.max_message_size or contract.DEFAULT_MAX_MESSAGE_SIZE
    return contract.Dataset(b.data_seed, b.data_size), limit


def proc_stats(tree: bool = False) -> cpb.ProcStats:
    return cpb.ProcStats(**proc.read(tree))


class Worker(cpbg.WorkerServicer):
    def __init__(self, quit_event: asyncio.Event):
        self.quit_event = quit_event

    async def Info(self, request, context):
        return cpb.InfoReply(version=VERSION, stacks=stack_names(), cpus=len(proc.affinity()), runtime=runtime(),
                             pid=os.getpid(), host=cpb.Host(**proc.host()), features=[])

    async def Quit(self, request, context):
        self.quit_event.set()
        return cpb.QuitReply()

    async def RunServer(self, request_iterator, context):
        it = request_iterator.__aiter__()
        first = await anext(it, None)
        if first is None or not first.HasField("setup"):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "RunServer: the first message must be a setup")
        b = first.setup.benchmark
        try:
            data, limit = check_benchmark(b, True)
            if first.setup.tls_cert_pem:
                raise ValueError("the Python worker's servers do not speak TLS")
            svc = contract.Reference(data)
            server = stacks.new_server(b.protocol, b.server_stack, svc, b.data_seed, b.data_size,
                                       first.setup.listen, limit, b.server_options)
        except ValueError as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        except OSError as e:
            await context.abort(grpc.StatusCode.UNAVAILABLE, f"listen on {first.setup.listen}: {e}")
        try:
            await server.start()
        except OSError as e:
            await context.abort(grpc.StatusCode.UNAVAILABLE, f"starting {b.server_stack}: {e}")
        try:
            yield cpb.ServerStatus(address=server.address, proc=proc_stats(True))
            # Each mark is answered with a reading; the end of the stream (or its
            # failure: the driver went away) stops the server.
            async for m in it:
                if not m.HasField("mark"):
                    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "RunServer: want a mark")
                if server.stopped():
                    await context.abort(grpc.StatusCode.INTERNAL, f"{b.server_stack} server stopped")
                yield cpb.ServerStatus(proc=proc_stats(True))
        finally:
            await server.stop()

    async def RunClient(self, request_iterator, context):
        it = request_iterator.__aiter__()
        first = await anext(it, None)
        if first is None or not first.HasField("setup"):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "RunClient: the first message must be a setup")
        setup = first.setup
        b = setup.benchmark
        try:
            data, limit = check_benchmark(b, False)
            if setup.HasField("link"):
                raise ValueError("the Python worker does not implement links (ClientSetup.link)")
            if setup.tls_ca_pem:
                raise ValueError("the Python worker's clients do not speak TLS")
            share, count = setup.share_index, max(setup.share_count, 1)
            l = b.load
            model = Model(l.kind, l.concurrency, l.connections, l.rate, l.arrival, share, count)
            workload = Workload(b.workload, data, b.payload, b.increments, b.trades)
            counter = sockbytes.Counter(setup.address)
            clients = [stacks.new_client(b.protocol, b.client_stack, setup.address, limit)
                       for _ in range(model.connections)]
        except (ValueError, OSError) as e:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        try:
            async for status in self._run_client(context, it, b, setup, model, workload, clients, share, count,
                                                 counter):
                yield status
        finally:
            for c in clients:
                await c.close()

    async def _run_client(self, context, it, b, setup, model, workload, clients, share, count, counter):
        for c in clients:
            try:
                await asyncio.wait_for(c.connect(10), 10)
            except (contract.CallError, OSError, asyncio.TimeoutError) as e:
                await context.abort(grpc.StatusCode.UNAVAILABLE,
                                    f"connecting to {setup.address} over {b.protocol} with {b.client_stack}: {e}")
        call_timeout = b.call_timeout_nanos / 1e9 if b.call_timeout_nanos > 0 else None
        # The contract check: the op once per connection, answers verified, with a limit
        # long enough for a cold server.
        check_limit = max(call_timeout or 0, 30)
        for i, c in enumerate(clients):
            try:
                await asyncio.wait_for(workload.run(c, i), check_limit)
            except asyncio.TimeoutError:
                fail = f"no answer within {check_limit}s"
            except contract.CallError as e:
                fail = str(e)
            else:
                continue
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                                f"the target failed the contract check (connection {i + 1}): {fail}")
        session = Session(workload, clients, model, call_timeout, (b.arrival_seed + share) & ((1 << 64) - 1),
                          share, count)
        yield cpb.ClientStatus(ready=cpb.Ready(proc=proc_stats()))
        # Bytes are counted from the connections' start, as the Go worker's counter
        # does: the first interval carries the connect and the contract check too.
        last_sent = last_recv = 0
        async for m in it:
            if not m.HasField("phase"):
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "RunClient: want a phase")
            ph = m.phase
            before = proc.cpu_nanos()
            try:
                iv = await session.phase(ph.duration_nanos if ph.duration_nanos > 0 else None,
                                         ph.ops if ph.ops > 0 else None, ph.restart_schedule, ph.rate / count)
            except ValueError as e:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
            after = proc.cpu_nanos()
            # Read after the phase's CPU: the descriptor walk is not the load's cost.
            wire = counter.read()
            if wire is None:
                sent = recv = -1  # a Unix socket: the kernel counts no bytes
            else:
                (sent, recv), last_sent, last_recv = (wire[0] - last_sent, wire[1] - last_recv), wire[0], wire[1]
            closed = iv.lag is None
            yield cpb.ClientStatus(interval=cpb.Interval(
                phase=ph.kind, index=ph.index, start_unix_nanos=iv.start_unix_nanos, end_unix_nanos=iv.end_unix_nanos,
                ops=iv.ops, errors=iv.errors, first_errors=iv.first_errors,
                response_histogram=encode_histogram(iv.resp),
                # A closed model's service time is its response time: left empty, as
                # the control API allows.
                service_histogram="" if closed else encode_histogram(iv.service),
                lag_histogram="" if closed else encode_histogram(iv.lag),
                clamped=iv.clamped, overflow=iv.overflow,
                # Neither grpcio (its C core owns the sockets) nor aiohttp counts bytes:
                # the kernel's counts of their TCP connections (sockbytes.py).
                bytes_sent=sent, bytes_received=recv,
                cpu_nanos=after - before, proc=proc_stats()))


async def serve_worker(listen: str) -> int:
    """Serves the control API on listen (unix:///PATH or tcp://HOST:PORT) until Quit or
    the end of standard input (the driver holds the pipe)."""
    quit_event = asyncio.Event()
    server = grpc.aio.server(options=[("grpc.max_receive_message_length", 64 << 20),
                                      ("grpc.max_send_message_length", 64 << 20)])
    cpbg.add_WorkerServicer_to_server(Worker(quit_event), server)
    from .stacks.grpcstacks import bound_address, grpc_address
    port = server.add_insecure_port(grpc_address(listen))
    if port == 0:
        print(f"wirebench-python-worker: cannot listen on {listen}", file=sys.stderr)
        return 1
    await server.start()
    print(f"listening on {bound_address(listen, port)}", flush=True)
    await asyncio.wait([asyncio.ensure_future(quit_event.wait()), stdin_eof()],
                       return_when=asyncio.FIRST_COMPLETED)
    await server.stop(grace=1)
    return 0


def stdin_eof() -> asyncio.Future:
    """A future done when standard input reaches end of file, read by a daemon thread
    (an executor's thread would hold the interpreter's exit while it reads)."""
    loop = asyncio.get_running_loop()
    fut = loop.create_future()

    def read():
        try:
            while os.read(0, 4096):
                pass
        except OSError:
            pass
        loop.call_soon_threadsafe(lambda: fut.done() or fut.set_result(None))

    threading.Thread(target=read, daemon=True, name="stdin-eof").start()
    return fut
