"""An outside client of wirebench's thrift servers: Python's thrift library with the
code `thrift --gen py` generates from contract/schema/wirebench.thrift (on the
PYTHONPATH, in the package wirebench_thrift), over the framed transport.

usage: python3 thrift_client.py binary|compact HOST:PORT|unix:PATH PAYLOAD TRADES [CAFILE]

With CAFILE, the connection is TLS, trusting that CA alone, for the host "localhost".
Prints one JSON object with the answers; python_test.go checks them against the data
set. Any unexpected failure raises, so the exit status is non-zero.
"""

import json
import ssl
import sys

from thrift.protocol import TBinaryProtocol, TCompactProtocol
from thrift.transport import TSocket, TSSLSocket, TTransport

from wirebench_thrift import Wirebench
from wirebench_thrift.ttypes import ErrorCode, ServiceError, Side


def connect(encoding, addr, cafile):
    if addr.startswith("unix:"):
        sock = TSocket.TSocket(unix_socket=addr[len("unix:"):])
    else:
        host, port = addr.rsplit(":", 1)
        if cafile:
            ctx = ssl.create_default_context(cafile=cafile)
            ctx.minimum_version = ssl.TLSVersion.TLSv1_3
            sock = TSSLSocket.TSSLSocket(host, int(port), ssl_context=ctx, server_hostname="localhost")
        else:
            sock = TSocket.TSocket(host, int(port))
    sock.setTimeout(20000)
    transport = TTransport.TFramedTransport(sock)
    if encoding == "compact":
        proto = TCompactProtocol.TCompactProtocol(transport)
    else:
        proto = TBinaryProtocol.TBinaryProtocol(transport)
    transport.open()
    return transport, Wirebench.Client(proto)


def person(p):
    out = {
        "id": p.id,
        "name": {"title": p.name.title, "first": p.name.first, "last": p.name.last},
        "gender": p.gender,
        "location": {"street": p.location.street, "city": p.location.city,
                     "state": p.location.state, "post_code": p.location.post_code},
        "email": p.email,
    }
    if p.picture is not None:
        out["picture"] = {"large": p.picture.large, "medium": p.picture.medium,
                          "thumbnail": p.picture.thumbnail}
    return out


def main(encoding, addr, payload, count, cafile=None):
    transport, wb = connect(encoding, addr, cafile)
    out = {
        "person": person(wb.getPerson(1)),
        "echo": wb.echo(payload),
        "increment": wb.increment(41),
    }
    try:
        wb.getPerson(-5)
        out["unknown"] = "no exception"
    except ServiceError as e:
        out["unknown"] = ErrorCode._VALUES_TO_NAMES[e.code] + ": " + e.message

    trades, pages = [], 0
    page = wb.streamTrades(count, 0)
    while True:
        pages += 1
        for t in page.trades:
            trades.append({"id": t.id, "symbol": t.symbol, "price": t.price, "quantity": t.quantity,
                           "timestamp_nanos": t.timestamp_nanos, "side": Side._VALUES_TO_NAMES[t.side]})
        if page.last:
            break
        page = wb.nextTrades()
    out["trades"], out["pages"] = trades, pages
    # The connection serves on after a stream.
    out["after_stream"] = wb.increment(1)
    transport.close()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), *sys.argv[5:])
