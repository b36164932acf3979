package coderwebsocket_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

// counting is a service whose StreamTrades counts the trades it yields and says
// when it returned.
type counting struct {
	contract.Service
	yielded  atomic.Int64
	returned chan error
}

func (c *counting) StreamTrades(ctx context.Context, count int64, yield func(*contract.Trade) error) error {
	err := c.Service.StreamTrades(ctx, count, func(t *contract.Trade) error {
		c.yielded.Add(1)
		return yield(t)
	})
	c.returned <- err
	return err
}

// A client that stops a stream sends cancel, and the server stops streaming: it does
// not send the rest of a 10-million-trade stream to a client that drops it.
func TestStoppedStreamStopsServer(t *testing.T) {
	svc := &counting{Service: contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)),
		returned: make(chan error, 1)}
	tg := protocoltest.Start(t, websocketproto.Name, "tcp", svc, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	stop := errors.New("enough")
	n := 0
	err := cl.StreamTrades(ctx, contract.MaxTrades, func(*contract.Trade) error {
		if n++; n == 100 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("StreamTrades = %v, want the yield's error", err)
	}
	select {
	case err := <-svc.returned:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the server's stream ended with %v, want its call cancelled", err)
		}
	case <-ctx.Done():
		t.Fatal("the server's stream did not end after the client stopped it")
	}
	if y := svc.yielded.Load(); y >= contract.MaxTrades/10 {
		t.Errorf("the server yielded %d trades of a stream stopped at 100", y)
	}
	// The connection is still in use for other calls.
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Errorf("GetPerson after a stopped stream: %v", err)
	}
}
