package thriftgo

import (
	"context"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/thriftwire"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
)

// Pages of a trade stream (the IDL's streamTrades): the client asks for a page size,
// 0 meaning DefaultPageSize, and the server caps it at MaxPageSize, and so that a page
// stays far below the frame limit at maxTradeBytes per trade.
const (
	DefaultPageSize = 1000
	MaxPageSize     = 10000
	// maxTradeBytes bounds a Trade in either encoding, with the contract's short
	// symbols: 5 numbers of at most 11 bytes with their field headers, the symbol and
	// the struct's end come to about 80 bytes in the binary protocol.
	maxTradeBytes = 256
)

// pageTrades returns how many trades a page of a stream of count holds: the size
// asked for (DefaultPageSize for 0 or less), at most MaxPageSize and what fits in
// the frame limit, at most count and at least 1.
func pageTrades(asked int32, count int64, conf *thrift.TConfiguration) int {
	n := int64(asked)
	if n <= 0 {
		n = DefaultPageSize
	}
	n = min(n, MaxPageSize, int64(conf.GetMaxFrameSize())/maxTradeBytes, count)
	return int(max(n, 1))
}

// tradeStream is a connection's stream: a producer goroutine runs the service's
// StreamTrades and hands over full pages, one ahead of the client's calls.
type tradeStream struct {
	pages  chan tradePage // capacity 1: the page the next call returns
	cancel context.CancelFunc
}

// tradePage is a page, or the service's failure (which ends the stream).
type tradePage struct {
	page *thriftwire.TradePage
	err  error
}

// startStream starts the producer of a stream of count trades in pages of size, which
// runs until the stream is done or ctx (the connection's) or the stream is cancelled.
// At most three pages are alive at once: the one being written to the client, the one
// waiting in the channel, and the one being filled.
func (s *Server) startStream(ctx context.Context, svc contract.Service, count int64, size int) *tradeStream {
	ctx, cancel := context.WithCancel(ctx)
	st := &tradeStream{pages: make(chan tradePage, 1), cancel: cancel}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		st.produce(ctx, svc, count, size)
	}()
	return st
}

func (st *tradeStream) produce(ctx context.Context, svc contract.Service, count int64, size int) {
	send := func(p tradePage) bool {
		select {
		case st.pages <- p:
			return true
		case <-ctx.Done():
			return false
		}
	}
	page := newPage(size)
	var block []thriftwire.Trade // the trades of page, one allocation per page
	err := svc.StreamTrades(ctx, count, func(t *contract.Trade) error {
		// A full page is sent once the next trade exists, so that the last page is
		// never an empty one after a full one.
		if len(page.Trades) == size {
			if !send(tradePage{page: page}) {
				return ctx.Err()
			}
			page = newPage(size)
		}
		if len(page.Trades) == 0 {
			block = make([]thriftwire.Trade, size)
		}
		w := &block[len(page.Trades)]
		thriftrpc.ToWireTrade(t, w)
		page.Trades = append(page.Trades, w)
		return nil
	})
	if err != nil {
		send(tradePage{err: err})
		return
	}
	page.Last = true
	send(tradePage{page: page})
}

func newPage(size int) *thriftwire.TradePage {
	return &thriftwire.TradePage{Trades: make([]*thriftwire.Trade, 0, size)}
}
