package transport

import (
	"fmt"
	"net"

	"golang.org/x/net/ipv4"
)

// ListenPacket opens the UDP socket of a server on a (a udp address): what a QUIC
// server reads its datagrams from and answers on.
func ListenPacket(a Addr) (*net.UDPConn, error) {
	if a.Network != "udp" {
		return nil, fmt.Errorf("listen on %s: a packet listener needs a udp address", a)
	}
	ua, err := net.ResolveUDPAddr("udp", a.Address)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", a, err)
	}
	c, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", a, err)
	}
	return c, nil
}

// PacketFunc opens one unconnected UDP socket on a free local port, from which a
// QUIC client dials its connections. Each call opens a new socket.
type PacketFunc func() (net.PacketConn, error)

// PacketListener returns a PacketFunc whose sockets count the UDP payloads they send
// and receive in c (nil: no counting). The sockets bind the unspecified address, as
// quic-go's own clients do, so the kernel picks the source address of each route.
func PacketListener(c *Counter) PacketFunc {
	return func() (net.PacketConn, error) {
		u, err := net.ListenUDP("udp", nil)
		if err != nil {
			return nil, fmt.Errorf("opening a UDP socket: %w", err)
		}
		if c == nil {
			return u, nil
		}
		return c.WrapPacket(u), nil
	}
}

// WrapPacket returns u with the payloads of its datagrams counted in c: QUIC's
// packets, header, frames and encryption overhead included, before the kernel adds
// UDP/IP headers (the datagram counterpart of Wrap's count). The result keeps every
// method quic-go looks for on a *net.UDPConn (the OOB reads and writes that carry
// ECN bits and GSO segments, batch reads, the socket options), so a counted client
// runs the same code path as an uncounted one.
func (c *Counter) WrapPacket(u *net.UDPConn) net.PacketConn {
	return &countingUDPConn{UDPConn: u, batch: ipv4.NewPacketConn(u), c: c}
}

// countingUDPConn counts what crosses a UDP socket. Every read and write path that
// quic-go uses is overridden: ReadFrom and WriteTo (its basic path), ReadMsgUDP and
// WriteMsgUDP (its path with control messages), and ReadBatch (recvmmsg).
type countingUDPConn struct {
	*net.UDPConn
	batch *ipv4.PacketConn
	c     *Counter
}

// Writes are counted before the system call and corrected after, as
// countingConn.Write does, so an answer never reaches a caller before its request
// is counted.

func (u *countingUDPConn) WriteTo(p []byte, addr net.Addr) (int, error) {
	u.c.sent.Add(int64(len(p)))
	n, err := u.UDPConn.WriteTo(p, addr)
	u.c.sent.Add(int64(n - len(p)))
	return n, err
}

func (u *countingUDPConn) WriteMsgUDP(b, oob []byte, addr *net.UDPAddr) (n, oobn int, err error) {
	u.c.sent.Add(int64(len(b)))
	n, oobn, err = u.UDPConn.WriteMsgUDP(b, oob, addr)
	u.c.sent.Add(int64(n - len(b)))
	return n, oobn, err
}

func (u *countingUDPConn) ReadFrom(p []byte) (int, net.Addr, error) {
	n, addr, err := u.UDPConn.ReadFrom(p)
	u.c.recv.Add(int64(n))
	return n, addr, err
}

func (u *countingUDPConn) ReadMsgUDP(b, oob []byte) (n, oobn, flags int, addr *net.UDPAddr, err error) {
	n, oobn, flags, addr, err = u.UDPConn.ReadMsgUDP(b, oob)
	u.c.recv.Add(int64(n))
	return n, oobn, flags, addr, err
}

// ReadBatch reads several datagrams in one system call (recvmmsg), as quic-go does
// on Linux with a socket that has it.
func (u *countingUDPConn) ReadBatch(ms []ipv4.Message, flags int) (int, error) {
	k, err := u.batch.ReadBatch(ms, flags)
	var total int
	for i := range k {
		total += ms[i].N
	}
	u.c.recv.Add(int64(total))
	return k, err
}
