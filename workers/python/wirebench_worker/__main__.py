"""The Python worker's command line: `worker --listen ADDR` (the control API, for the
driver), `serve --protocol P --stack S --listen ADDR` (one server by hand, for outside
clients), `check --protocol P --stack S --address ADDR` (a client stack's own checks
against a server), `list` (the stacks and their library versions). Usage errors exit 2."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys

from . import check, contract, stacks
from .control import runtime, serve_worker, stdin_eof


def parser() -> argparse.ArgumentParser:
    """The command line's parser (main's)."""
    ap = argparse.ArgumentParser(prog="wirebench-python-worker")
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("worker", help="serve the control API")
    w.add_argument("--listen", required=True, help="unix:///PATH or tcp://HOST:PORT")
    s = sub.add_parser("serve", help="serve one stack of the contract until interrupted")
    s.add_argument("--protocol", required=True)
    s.add_argument("--stack", required=True)
    s.add_argument("--listen", default="tcp://127.0.0.1:0")
    s.add_argument("--data-seed", type=int, default=contract.DEFAULT_SEED)
    s.add_argument("--data-size", type=int, default=contract.DEFAULT_SIZE)
    c = sub.add_parser("check", help="check a client stack against a server of the contract")
    c.add_argument("--protocol", required=True)
    c.add_argument("--stack", required=True)
    # --target: --address's name before 2026-11-29, which older drivers pass.
    c.add_argument("--address", "--target", dest="address", required=True, help="tcp://HOST:PORT or unix:///PATH")
    c.add_argument("--data-seed", type=int, default=contract.DEFAULT_SEED)
    c.add_argument("--data-size", type=int, default=contract.DEFAULT_SIZE)
    l = sub.add_parser("list", help="print the stacks: protocol/name, sides (--json: and versions)")
    l.add_argument("--json", action="store_true")
    return ap


def main(argv=None) -> int:
    a = parser().parse_args(argv)
    if a.cmd == "worker":
        return asyncio.run(serve_worker(a.listen))
    if a.cmd == "list":
        if a.json:
            out = [{"protocol": p, "name": n, "sides": list(sides), "libraries": stacks.versions(n)}
                   for p, n, sides in stacks.STACKS]
            print(json.dumps({"runtime": runtime(), "stacks": out}, indent=1))
        else:
            for p, n, sides in stacks.STACKS:
                print(f"{p}/{n}\t{' and '.join(sides)}")
        return 0
    try:
        stacks.lookup(a.protocol, a.stack, stacks.SERVER if a.cmd == "serve" else stacks.CLIENT)
        data = contract.Dataset(a.data_seed, a.data_size)
    except ValueError as e:
        print(f"wirebench-python-worker: {e}", file=sys.stderr)
        return 2
    if a.cmd == "check":
        return asyncio.run(_check(a, data))
    return asyncio.run(_serve(a, data))


async def _check(a, data) -> int:
    client = stacks.new_client(a.protocol, a.stack, a.address, contract.DEFAULT_MAX_MESSAGE_SIZE)
    try:
        await client.connect(10)
        failures = await check.run(client, data)
    except contract.CallError as e:
        print(f"FAIL connecting to {a.address}: {e}")
        return 1
    finally:
        await client.close()
    return 1 if failures else 0


async def _serve(a, data) -> int:
    server = stacks.new_server(a.protocol, a.stack, contract.Reference(data), a.data_seed, a.data_size,
                               a.listen, contract.DEFAULT_MAX_MESSAGE_SIZE)
    await server.start()
    print(f"listening on {server.address}", flush=True)
    # It serves until interrupted or until its standard input reaches end of file.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await asyncio.wait([asyncio.ensure_future(stop.wait()), stdin_eof()], return_when=asyncio.FIRST_COMPLETED)
    await server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
