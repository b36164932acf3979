package coderwebsocket_test

import (
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

// BenchmarkStreamTrades receives 10,000 trades per op, the stream workload's default.
func BenchmarkStreamTrades(b *testing.B) {
	tg := protocoltest.Start(b, websocketproto.Name, "tcp", nil, protocol.ServerConfig{})
	cl := tg.Client(b, nil)
	ctx := protocoltest.Context(b)
	for b.Loop() {
		if err := cl.StreamTrades(ctx, 10000, func(*contract.Trade) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
