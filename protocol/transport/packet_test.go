package transport

import (
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/ipv4"
)

// A counted socket keeps every method quic-go looks for on a *net.UDPConn, so that a
// counted client runs quic-go's optimised path (batch reads, control messages, GSO).
var _ interface {
	net.PacketConn
	SyscallConn() (syscall.RawConn, error)
	SetReadBuffer(int) error
	ReadMsgUDP(b, oob []byte) (n, oobn, flags int, addr *net.UDPAddr, err error)
	WriteMsgUDP(b, oob []byte, addr *net.UDPAddr) (n, oobn int, err error)
	ReadBatch(ms []ipv4.Message, flags int) (int, error)
} = (*countingUDPConn)(nil)

// Stream listeners and worker addresses refuse udp; packet listeners refuse the rest.
func TestUDPAddressUses(t *testing.T) {
	udp := Addr{"udp", "127.0.0.1:0"}
	if _, err := Listen(udp); err == nil || !strings.Contains(err.Error(), "ListenPacket") {
		t.Errorf("Listen(udp): %v, want a refusal naming ListenPacket", err)
	}
	if _, err := ListenPacket(Addr{"tcp", "127.0.0.1:0"}); err == nil {
		t.Error("ListenPacket(tcp) succeeded")
	}
	if _, err := ParseStream("udp://127.0.0.1:1"); err == nil {
		t.Error("ParseStream(udp://...) succeeded, want refused")
	}
	if a, err := ParseStream("tcp://127.0.0.1:1"); err != nil || a.Network != "tcp" {
		t.Errorf("ParseStream(tcp://...) = %v, %v", a, err)
	}
}

// Every read and write path of a counted socket counts the datagrams' payloads: 3
// datagrams of 100, 200 and 300 bytes each way, read one by one, with a message
// read and in a batch.
func TestPacketCounting(t *testing.T) {
	srv, err := ListenPacket(Addr{"udp", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var c Counter
	pc, err := PacketListener(&c)()
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	cc := pc.(*countingUDPConn)
	to := srv.LocalAddr().(*net.UDPAddr)
	if _, err := cc.WriteTo(make([]byte, 100), to); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cc.WriteMsgUDP(make([]byte, 200), nil, to); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.WriteTo(make([]byte, 300), to); err != nil {
		t.Fatal(err)
	}
	if c.Sent() != 600 {
		t.Errorf("sent %d bytes, want 600", c.Sent())
	}
	// The server answers each datagram with one of the same size.
	buf := make([]byte, 2048)
	srv.SetDeadline(time.Now().Add(5 * time.Second))
	for range 3 {
		n, from, err := srv.ReadFrom(buf)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := srv.WriteTo(buf[:n], from); err != nil {
			t.Fatal(err)
		}
	}
	cc.SetDeadline(time.Now().Add(5 * time.Second))
	if n, _, err := cc.ReadFrom(buf); err != nil || n != 100 {
		t.Fatalf("ReadFrom: %d, %v", n, err)
	}
	if n, _, _, _, err := cc.ReadMsgUDP(buf, make([]byte, 128)); err != nil || n != 200 {
		t.Fatalf("ReadMsgUDP: %d, %v", n, err)
	}
	ms := []ipv4.Message{{Buffers: [][]byte{make([]byte, 2048)}}, {Buffers: [][]byte{make([]byte, 2048)}}}
	if k, err := cc.ReadBatch(ms, 0); err != nil || k != 1 || ms[0].N != 300 {
		t.Fatalf("ReadBatch: %d messages, %v", k, err)
	}
	if c.Received() != 600 {
		t.Errorf("received %d bytes, want 600", c.Received())
	}
}
