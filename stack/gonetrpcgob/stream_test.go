package gonetrpcgob_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/netrpcgob"
	"github.com/wirebench/wirebench/protocol/protocoltest"
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

// A client that stops a stream calls CancelTrades, and the server's producer stops
// within the pages it had made ahead: it does not make the rest of a
// 10-million-trade stream for a client that dropped it.
func TestStoppedStreamStopsServer(t *testing.T) {
	svc := &counting{Service: contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize)),
		returned: make(chan error, 1)}
	tg := protocoltest.Start(t, netrpcgob.Name, "tcp", svc, protocol.ServerConfig{})
	cl := tg.Client(t, nil)
	ctx := protocoltest.Context(t)
	stop := errors.New("enough")
	n := 0
	err := cl.StreamTrades(ctx, contract.MaxTrades, func(*contract.Trade) error {
		if n++; n == 1500 { // in the second page
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
			t.Errorf("the server's stream ended with %v, want it cancelled", err)
		}
	case <-ctx.Done():
		t.Fatal("the server's stream did not end after the client stopped it")
	}
	// Two pages sent, one waiting, one being filled: at most 4 pages of 1000 made.
	if y := svc.yielded.Load(); y > 4*netrpcgob.DefaultPageSize+1 {
		t.Errorf("the server yielded %d trades of a stream stopped at 1500", y)
	}
	if _, err := cl.GetPerson(ctx, 1); err != nil {
		t.Errorf("GetPerson after a stopped stream: %v", err)
	}
}

// Pages of a stream hold the page size asked for, capped by MaxPageSize and by the
// message limit, and only an empty stream has an empty page.
func TestPageTrades(t *testing.T) {
	for _, c := range []struct {
		asked int32
		count int64
		limit int
		want  int
	}{
		{0, 1 << 20, 16 << 20, 1000},        // the default size
		{50_000, 1 << 20, 16 << 20, 10_000}, // capped at MaxPageSize
		{5000, 1 << 20, 256 << 10, 2048},    // 256 KiB holds 2048 trades of 128 bytes
		{1000, 7, 16 << 20, 7},              // no larger than the stream
		{1000, 0, 16 << 20, 1},              // an empty stream still has its one page
	} {
		if got := netrpcgob.PageTrades(c.asked, c.count, c.limit); got != c.want {
			t.Errorf("PageTrades(%d, %d, %d) = %d, want %d", c.asked, c.count, c.limit, got, c.want)
		}
	}
}
