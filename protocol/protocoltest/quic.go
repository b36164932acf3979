package protocoltest

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"net"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
)

// speaksQUIC reports whether the stacks run over QUIC (both: a QUIC stack paired
// with a TCP one is a mistake of the test, which fails).
func speaksQUIC(t *testing.T, name, server, client string) bool {
	s, c := stackPair(t, name, server, client)
	if s.QUIC != c.QUIC {
		t.Fatalf("%s: the %s server (QUIC %v) and the %s client (QUIC %v) do not share a transport", name, s.Name, s.QUIC, c.Name, c.QUIC)
	}
	return s.QUIC
}

// quicVersion1 is QUIC's version 1 (RFC 9000, section 15), the one every QUIC server
// of the suite speaks.
const quicVersion1 = 0x00000001

// garbageInitial is a datagram with the header of a QUIC version 1 Initial packet
// (RFC 9000, section 17.2.2: long header, fixed bit, type 0, an 8-byte destination
// connection ID) whose protected payload is garbage, padded to the 1200 bytes a client
// Initial must have, so that a server takes it for a new connection and fails to
// decrypt it.
func garbageInitial(seed byte, version uint32) []byte {
	b := []byte{0xc3} // long header, fixed bit, Initial, 4-byte packet number
	b = binary.BigEndian.AppendUint32(b, version)
	b = append(b, 8)
	b = append(b, bytes.Repeat([]byte{seed}, 8)...) // destination connection ID
	b = append(b, 8)
	b = append(b, bytes.Repeat([]byte{^seed}, 8)...) // source connection ID
	b = append(b, 0)                                 // no token
	rest := 1200 - len(b) - 2
	b = append(b, 0x40|byte(rest>>8), byte(rest)) // length, a 2-byte varint
	for i := range rest {
		b = append(b, byte(i)*31+seed)
	}
	return b
}

// testGarbageDatagrams sends a QUIC server what is not QUIC (garbage datagrams of
// several sizes), QUIC Initials of garbage, and a packet of a version it does not
// speak, which it must answer with a Version Negotiation packet (RFC 9000, section
// 6.1) naming version 1. Then the server must still serve the client of the suite and
// a new one.
func testGarbageDatagrams(t *testing.T, tg *Target, cl protocol.Client) {
	raddr, err := net.ResolveUDPAddr("udp", tg.Addr.Address)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.ListenUDP("udp", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	junk := bytes.Repeat([]byte("\x00\xffgarbage\r\n\x7f\x01wirebench"), 4096)
	for _, n := range []int{1, 20, 1199, 1200, 1500, 9000, 60000} {
		c.WriteTo(junk[:n], raddr) // UDP may drop any of them; the server must not fail
	}
	for i := range 64 {
		c.WriteTo(garbageInitial(byte(i), quicVersion1), raddr)
	}
	c.WriteTo(garbageInitial(0xaa, 0x1a2a3a4a), raddr) // a reserved version (RFC 9000, section 15)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 2048)
	for {
		n, _, err := c.ReadFrom(buf)
		if err != nil {
			t.Fatalf("no Version Negotiation packet for an unknown version within 5s: %v", err)
		}
		// Version Negotiation: a long header with version 0, then the connection IDs
		// and the versions the server supports.
		p := buf[:n]
		if n < 7 || p[0]&0x80 == 0 || binary.BigEndian.Uint32(p[1:5]) != 0 {
			continue
		}
		if !bytes.Contains(p[5:], binary.BigEndian.AppendUint32(nil, quicVersion1)) {
			t.Errorf("Version Negotiation packet % x does not offer version 1", p)
		}
		break
	}
	ctx := Context(t)
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Errorf("GetPerson on the suite's client after garbage datagrams: %v", err)
	}
	if _, err := tg.Client(t, nil).GetPerson(ctx, 2); err != nil {
		t.Errorf("GetPerson on a new client after garbage datagrams: %v", err)
	}
}

// testQUIC checks that the server speaks QUIC with TLS 1.3, its certificate and ALPN
// h3 (RFC 9114, section 3.1), refuses a client offering another application protocol,
// and that the client checks the server's certificate: one trusting another CA fails.
func testQUIC(t *testing.T, tg *Target) {
	ctx := Context(t)
	cfg, err := tg.TLS.ClientConfig("h3")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := quic.DialAddr(ctx, tg.Addr.Address, cfg, nil)
	if err != nil {
		t.Fatalf("QUIC handshake with the server, trusting its CA: %v", err)
	}
	st := conn.ConnectionState().TLS
	if st.Version != tls.VersionTLS13 || st.NegotiatedProtocol != "h3" {
		t.Errorf("TLS version %x, ALPN %q; want TLS 1.3 and h3", st.Version, st.NegotiatedProtocol)
	}
	conn.CloseWithError(0, "")

	h2, err := tg.TLS.ClientConfig("h2")
	if err != nil {
		t.Fatal(err)
	}
	if conn, err := quic.DialAddr(ctx, tg.Addr.Address, h2, nil); err == nil {
		conn.CloseWithError(0, "")
		t.Error("a QUIC client offering only h2 was accepted, want a refusal (no application protocol)")
	}

	other, err := transport.EphemeralTLS()
	if err != nil {
		t.Fatal(err)
	}
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cl, err := tg.ClientStack.NewClient(dctx, protocol.ClientConfig{Address: tg.Addr,
		Packet: transport.PacketListener(nil), TLS: transport.TLS{CAPEM: other.CAPEM}})
	if err == nil {
		defer cl.Close()
		_, err = cl.GetPerson(dctx, 1)
	}
	if err == nil {
		t.Error("a client trusting another CA called the server, want a certificate error")
	}
}
