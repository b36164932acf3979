package protocol_test

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
)

// streamOnly is a Server of stream listeners alone, as every TCP protocol's is.
type streamOnly struct{}

func (streamOnly) Serve(ln net.Listener) error        { return ln.Close() }
func (streamOnly) Shutdown(ctx context.Context) error { return nil }
func (streamOnly) Close() error                       { return nil }

// A server that is no PacketServer is refused a udp address, and served a tcp one.
func TestServeAt(t *testing.T) {
	if _, _, err := protocol.ServeAt(streamOnly{}, transport.Addr{Network: "udp", Address: "127.0.0.1:0"}); err == nil || !strings.Contains(err.Error(), "does not serve QUIC") {
		t.Errorf("a stream server on udp: %v, want refused", err)
	}
	bound, served, err := protocol.ServeAt(streamOnly{}, transport.Addr{Network: "tcp", Address: "127.0.0.1:0"})
	if err != nil || bound.Network != "tcp" || strings.HasSuffix(bound.Address, ":0") {
		t.Fatalf("a stream server on tcp: bound %v, %v", bound, err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve returned %v", err)
	}
}
