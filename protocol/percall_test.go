package protocol_test

import (
	"context"
	"net"
	"sync/atomic"
	"testing"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	_ "github.com/wirebench/wirebench/stack/all"
)

// PerCall opens exactly one connection per call (the stacks' own checks of the target
// included), over TLS too, and closes it: what the connect workload measures.
func TestPerCallOpensAConnectionPerCall(t *testing.T) {
	for _, c := range []struct{ proto, network string }{
		{"http-json", "tcp"}, {"http-json", protocoltest.TLSNetwork}, {"grpc-proto", protocoltest.TLSNetwork}, {"capnp", "unix"},
	} {
		t.Run(c.proto+"/"+c.network, func(t *testing.T) {
			tg := protocoltest.Start(t, c.proto, c.network, nil, protocol.ServerConfig{})
			var dials, open atomic.Int64
			base := transport.Dialer(tg.Addr, nil)
			svc := protocol.PerCall(tg.ClientStack, protocol.ClientConfig{Address: tg.Addr, TLS: tg.TLS,
				Dial: func(ctx context.Context) (net.Conn, error) {
					nc, err := base(ctx)
					if err == nil {
						dials.Add(1)
						open.Add(1)
						nc = &closeCounted{Conn: nc, open: &open}
					}
					return nc, err
				}})
			ctx := protocoltest.Context(t)
			const calls = 3
			for id := int64(1); id <= calls; id++ {
				p, err := svc.GetPerson(ctx, id)
				if want, _ := tg.Dataset.Person(id); err != nil || !p.Equal(want) {
					t.Fatalf("GetPerson(%d) = %+v, %v", id, p, err)
				}
			}
			if dials.Load() != calls {
				t.Errorf("%d calls opened %d connections, want one each", calls, dials.Load())
			}
			if open.Load() != 0 {
				t.Errorf("%d connections left open after the calls returned", open.Load())
			}
		})
	}
}

type closeCounted struct {
	net.Conn
	open   *atomic.Int64
	closed atomic.Bool
}

func (c *closeCounted) Close() error {
	if !c.closed.Swap(true) {
		c.open.Add(-1)
	}
	return c.Conn.Close()
}
