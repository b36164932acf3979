package gonethttpjson_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/gonethttpjson"
)

// The HTTP/3 stack passes the conformance suite over QUIC (its only transport),
// garbage datagrams and QUIC's TLS included.
func TestConformanceH3(t *testing.T) {
	protocoltest.RunStacks(t, httpjson.Name, gonethttpjson.H3Name, gonethttpjson.H3Name)
}

// Both sides refuse to run without TLS, and the server refuses a stream listener: the
// mistakes a caller can make with a stack that runs over QUIC only.
func TestH3Refusals(t *testing.T) {
	svc := contract.NewReference(testData)
	if _, err := gonethttpjson.NewH3Server(svc, protocol.ServerConfig{}); err == nil || !strings.Contains(err.Error(), "TLS 1.3") {
		t.Errorf("NewH3Server without a certificate: %v, want a refusal naming TLS 1.3", err)
	}
	tc, err := transport.EphemeralTLS()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := gonethttpjson.NewH3Server(svc, protocol.ServerConfig{TLS: tc})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ln, err := transport.Listen(transport.Addr{Network: "tcp", Address: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(ln); err == nil || !strings.Contains(err.Error(), "UDP") {
		t.Errorf("Serve on a TCP listener: %v, want a refusal naming UDP", err)
	}

	ctx := protocoltest.Context(t)
	udp := transport.Addr{Network: "udp", Address: "127.0.0.1:9"}
	for _, c := range []struct {
		name string
		cfg  protocol.ClientConfig
		want string
	}{
		{"no CA", protocol.ClientConfig{Address: udp, Packet: transport.PacketListener(nil)}, "TLS 1.3"},
		{"tcp target", protocol.ClientConfig{Address: transport.Addr{Network: "tcp", Address: "127.0.0.1:9"}, TLS: tc}, "udp address"},
	} {
		if _, err := gonethttpjson.NewH3Client(ctx, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewH3Client, %s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A target where nothing listens fails within the context, at the handshake.
	dctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	if _, err := gonethttpjson.NewH3Client(dctx, protocol.ClientConfig{Address: udp, Packet: transport.PacketListener(nil), TLS: tc}); err == nil {
		t.Error("NewH3Client of a dead target succeeded")
	}
}
