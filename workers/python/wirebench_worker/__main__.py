"""The Python worker's command line: `worker --listen ADDR` (the control API, for the
driver), `serve --protocol P --stack S --listen ADDR` (one server by hand, for outside
clients), `list` (the stacks and their library versions). Usage errors exit 2."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys

from . import contract, stacks
from .control import runtime, serve_worker


def main(argv=None) -> int:
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
    sub.add_parser("list", help="print the stacks as JSON")
    a = ap.parse_args(argv)
    if a.cmd == "worker":
        return asyncio.run(serve_worker(a.listen))
    if a.cmd == "list":
        out = [{"protocol": p, "name": n, "sides": list(sides), "libraries": stacks.versions(n)}
               for p, n, sides in stacks.STACKS]
        print(json.dumps({"runtime": runtime(), "stacks": out}, indent=1))
        return 0
    try:
        stacks.lookup(a.protocol, a.stack, stacks.SERVER)
        data = contract.Dataset(a.data_seed, a.data_size)
    except ValueError as e:
        print(f"wirebench-python-worker: {e}", file=sys.stderr)
        return 2
    return asyncio.run(_serve(a, data))


async def _serve(a, data) -> int:
    server = stacks.new_server(a.protocol, a.stack, contract.Reference(data), a.data_seed, a.data_size,
                               a.listen, contract.DEFAULT_MAX_MESSAGE_SIZE)
    await server.start()
    print(f"listening on {server.address}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
