package capnpgo

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/capnprpc"
	"github.com/wirebench/wirebench/protocol/protocoltest"
)

// A peer that starts a frame and stalls loses its connection after messageReadTimeout,
// while an idle connection (between frames) is kept.
func TestStalledFrameClosed(t *testing.T) {
	old := messageReadTimeout
	messageReadTimeout = 300 * time.Millisecond
	defer func() { messageReadTimeout = old }()

	tg := protocoltest.Start(t, capnprpc.Name, "tcp", nil, protocol.ServerConfig{})
	dial := func() net.Conn {
		c, err := net.DialTimeout("tcp", tg.Addr.Address, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	idle, stalled := dial(), dial()
	hdr := make([]byte, 8+16)
	binary.LittleEndian.PutUint32(hdr[4:], 1024/8) // one 1 KiB segment, of which 16 bytes come
	if _, err := stalled.Write(hdr); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	stalled.SetReadDeadline(start.Add(3 * time.Second))
	_, err := io.Copy(io.Discard, stalled)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("a stalled frame kept its connection open for 3s")
	}
	t.Logf("stalled connection closed after %v", time.Since(start))

	// The idle connection is still open: a read times out on our side, not EOF.
	idle.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if _, err := idle.Read(make([]byte, 1)); !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("idle connection: read returned %v, want our own timeout", err)
	}
	cl := tg.Client(t, nil)
	if _, err := cl.GetPerson(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
}
