"""An outside HTTP/3 client of the http-json server: aioquic's QUIC and HTTP/3.

Usage: aioquic_client.py CA_FILE HOST PORT PAYLOAD TRADES

Makes, on one QUIC connection (ALPN h3, the server's certificate checked against
CA_FILE for the name localhost), GET /persons/3, GET /persons/999999 (an unknown id),
POST /echo with PAYLOAD, and GET /trades?count=TRADES, and prints one JSON object
with each answer's status and body (text), keyed person, unknown, echo and trades.
"""

import asyncio
import json
import sys

from aioquic.asyncio.client import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic.configuration import QuicConfiguration


class H3Client(QuicConnectionProtocol):
    """A QUIC connection carrying HTTP/3 requests, each answered on its own stream."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.http = H3Connection(self._quic)
        self.answers = {}  # stream id -> future of (status, body)
        self.parts = {}  # stream id -> [status, bytearray]

    async def request(self, authority, method, path, body=b""):
        stream_id = self._quic.get_next_available_stream_id()
        headers = [
            (b":method", method.encode()),
            (b":scheme", b"https"),
            (b":authority", authority.encode()),
            (b":path", path.encode()),
            (b"user-agent", b"aioquic"),
        ]
        if body:
            headers += [(b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode())]
        self.http.send_headers(stream_id, headers, end_stream=not body)
        if body:
            self.http.send_data(stream_id, body, end_stream=True)
        done = self._loop.create_future()
        self.answers[stream_id] = done
        self.parts[stream_id] = [0, bytearray()]
        self.transmit()
        return await asyncio.wait_for(done, timeout=20)

    def quic_event_received(self, event):
        for ev in self.http.handle_event(event):
            part = self.parts.get(ev.stream_id)
            if part is None:
                continue
            if isinstance(ev, HeadersReceived):
                part[0] = int(dict(ev.headers)[b":status"])
            elif isinstance(ev, DataReceived):
                part[1] += ev.data
            if getattr(ev, "stream_ended", False):
                self.answers.pop(ev.stream_id).set_result((part[0], part[1].decode()))


async def main(ca_file, host, port, payload, trades):
    config = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name="localhost")
    config.load_verify_locations(ca_file)
    authority = f"localhost:{port}"
    out = {}
    async with connect(host, port, configuration=config, create_protocol=H3Client) as client:
        for key, method, path, body in [
            ("person", "GET", "/persons/3", b""),
            ("unknown", "GET", "/persons/999999", b""),
            ("echo", "POST", "/echo", json.dumps({"payload": payload}).encode()),
            ("trades", "GET", f"/trades?count={trades}", b""),
        ]:
            status, text = await client.request(authority, method, path, body)
            out[key] = {"status": status, "body": text}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    ca, host, port, payload, trades = sys.argv[1:6]
    asyncio.run(main(ca, host, int(port), payload, int(trades)))
