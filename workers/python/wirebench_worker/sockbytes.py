"""Bytes on the wire of a client's connections, as the Go worker's counting connection
(protocol/transport's Counter) gives them for its clients: what the client sent and
received over its connections to the target, framing and headers included.

The Python clients' libraries own their sockets (grpcio's C core makes and reads its
own; aiohttp's connector its), so nothing in Python sees their bytes. The kernel does:
TCP_INFO's tcpi_bytes_acked (what the client sent and the server acknowledged, less
the SYN, which the kernel counts as one acknowledged byte) and tcpi_bytes_received, per
connection since it opened. A Counter finds the client's connections among this
process's descriptors by their peer, the target's address (the worker's control API and
a server's accepted connections have other peers), and keeps each connection's last
reading, so a connection that closes keeps what was read of it.

What it cannot see: a connection that closes between two readings takes its bytes since
the last reading with it (readings are taken at each interval's end; the bundled
suites' clients keep their connections for the whole session), and Unix sockets have no
byte counters in the kernel, so a Counter of a unix:// target reads None (the interval
then carries -1, as the control API allows for a client that cannot count).
"""

from __future__ import annotations

import os
import socket
import struct

# struct tcp_info (linux/tcp.h): 8 bytes of flags, 24 __u32 (rto … total_retrans), then
# __u64 pacing_rate, max_pacing_rate, bytes_acked (offset 120), bytes_received (128).
_BYTES = struct.Struct("=QQ")
_BYTES_OFFSET = 120
_INFO_LEN = _BYTES_OFFSET + _BYTES.size


def _peers(target: str) -> set[tuple[str, int]] | None:
    """The (address, port) pairs a TCP target resolves to; None for a Unix target."""
    if target.startswith("unix://"):
        return None
    if not target.startswith("tcp://"):
        raise ValueError(f"target {target!r}: want tcp://HOST:PORT or unix:///PATH")
    host, _, port = target[len("tcp://"):].rpartition(":")
    host = host.strip("[]")
    infos = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
    return {(i[4][0], i[4][1]) for i in infos}


def _unmapped(host: str) -> str:
    """An IPv4 address as an AF_INET6 socket names it (grpcio's C core connects over
    dual-stack sockets: ::ffff:127.0.0.1), as AF_INET names it."""
    return host[len("::ffff:"):] if host.startswith("::ffff:") and "." in host else host


class Counter:
    """The bytes of this process's TCP connections to one target. Owned by one thread."""

    def __init__(self, target: str):
        self.peers = _peers(target)
        self.last: dict[str, tuple[int, int]] = {}  # socket inode -> (sent, received)

    def counts(self) -> bool:
        return self.peers is not None

    def read(self) -> tuple[int, int] | None:
        """Bytes sent and received over the target's connections since each opened
        (summed, closed ones at their last reading); None for a Unix target."""
        if self.peers is None:
            return None
        for fd in os.listdir("/proc/self/fd"):
            try:
                link = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue  # closed since the listing
            if not link.startswith("socket:["):
                continue
            got = self._info(int(fd))
            if got is not None:
                self.last[link] = got
        sent = sum(s for s, _ in self.last.values())
        return sent, sum(r for _, r in self.last.values())

    def _info(self, fd: int) -> tuple[int, int] | None:
        try:
            s = socket.socket(fileno=os.dup(fd))
        except OSError:
            return None
        try:
            if s.family not in (socket.AF_INET, socket.AF_INET6) or s.type != socket.SOCK_STREAM:
                return None
            peer = s.getpeername()
            if (_unmapped(peer[0]), peer[1]) not in self.peers:
                return None
            info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _INFO_LEN)
        except OSError:
            return None  # not connected, or closed meanwhile
        finally:
            s.close()
        if len(info) < _INFO_LEN:
            return None
        acked, received = _BYTES.unpack_from(info, _BYTES_OFFSET)
        # The kernel counts the SYN among the bytes acknowledged: it carried none.
        return max(acked - 1, 0), received
