"""An outside client of wirebench's capnp server: pycapnp (Python over the C++ Cap'n
Proto library) loads contract/schema/wirebench.capnp as it is and calls the server.

usage: python3 pycapnp_client.py SCHEMA HOST:PORT PAYLOAD TRADES

Prints one JSON object with the answers; python_test.go checks them against the data
set. Any unexpected failure raises, so the exit status is non-zero.
"""

import asyncio
import json
import os
import sys

import capnp

# wirebench.capnp imports nothing, but its streaming method (-> stream) needs the
# standard /capnp/stream.capnp: pycapnp's wheels ship it in the package directory, a
# pycapnp built from source against the system's library finds it where libcapnp-dev
# puts it.
STD = [os.path.dirname(os.path.dirname(capnp.__file__)), "/usr/local/include", "/usr/include"]


async def main(schema_path, addr, payload, count):
    schema = capnp.load(schema_path, imports=STD)
    host, port = addr.rsplit(":", 1)
    stream = await capnp.AsyncIoStream.create_connection(host=host, port=int(port))
    wb = capnp.TwoPartyClient(stream).bootstrap().cast_as(schema.Wirebench)

    out = {
        "person": (await wb.getPerson(1)).person.to_dict(),
        "echo": (await wb.echo(payload)).payload,
        "increment": (await wb.increment(41)).value,
    }
    try:
        await wb.getPerson(-5)
        out["unknown"] = "answered"
    except capnp.KjException as e:
        out["unknown"] = e.description

    # streamTrades: the server pushes the trades to a capability served by this client.
    received = []

    class Sink(schema.TradeSink.Server):
        async def push(self, trades, **kwargs):
            received.extend(t.to_dict() for t in trades)

        async def done(self, count, **kwargs):
            out["done"] = count

    await wb.streamTrades(count, Sink())
    out["trades"] = received
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(capnp.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))))
