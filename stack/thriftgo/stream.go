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

// maxOriginalTradeBytes bounds one of the original's trades in either encoding: 13
// strings of Podam's 10 characters (the id of up to 8 digits) and 10 longs, each with
// its field header, come to about 300 bytes in the binary protocol.
const maxOriginalTradeBytes = 512

// pageTrades returns how many trades a page of a stream of count holds: the size
// asked for (DefaultPageSize for 0 or less), at most MaxPageSize and what fits in
// the frame limit at tradeBytes per trade, at most count and at least 1.
func pageTrades(asked int32, count int64, tradeBytes int, conf *thrift.TConfiguration) int {
	n := int64(asked)
	if n <= 0 {
		n = DefaultPageSize
	}
	n = min(n, MaxPageSize, int64(conf.GetMaxFrameSize())/int64(tradeBytes), count)
	return int(max(n, 1))
}

// stopper is a connection's stream of either shape, as the handler holds it.
type stopper interface{ stop() }

// tradeStream is a connection's stream of pages P: a producer goroutine runs the
// service's stream call and hands over full pages, one ahead of the client's calls.
type tradeStream[P any] struct {
	pages  chan tradePage[P] // capacity 1: the page the next call returns
	cancel context.CancelFunc
}

func (st *tradeStream[P]) stop() { st.cancel() }

// tradePage is a page, or the service's failure (which ends the stream).
type tradePage[P any] struct {
	page P
	err  error
}

// pager makes the pages of one shape: W is the wire trade, T the contract's, P the
// page (a *thriftwire.TradePage or *thriftwire.OriginalTradePage).
type pager[W, T, P any] struct {
	// stream is the service's call for count trades.
	stream func(svc contract.Service, ctx context.Context, count int64, yield func(*T) error) error
	// newPage returns an empty page for size trades; add appends w; n counts a
	// page's trades; last marks it the stream's last.
	newPage func(size int) P
	add     func(p P, w *W)
	n       func(p P) int
	last    func(p P)
	conv    func(t *T, w *W)
}

var (
	compactPager = pager[thriftwire.Trade, contract.Trade, *thriftwire.TradePage]{
		stream: contract.Service.StreamTrades,
		newPage: func(size int) *thriftwire.TradePage {
			return &thriftwire.TradePage{Trades: make([]*thriftwire.Trade, 0, size)}
		},
		add:  func(p *thriftwire.TradePage, w *thriftwire.Trade) { p.Trades = append(p.Trades, w) },
		n:    func(p *thriftwire.TradePage) int { return len(p.Trades) },
		last: func(p *thriftwire.TradePage) { p.Last = true },
		conv: thriftrpc.ToWireTrade,
	}
	originalPager = pager[thriftwire.OriginalTrade, contract.OriginalTrade, *thriftwire.OriginalTradePage]{
		stream: contract.Service.StreamOriginalTrades,
		newPage: func(size int) *thriftwire.OriginalTradePage {
			return &thriftwire.OriginalTradePage{Trades: make([]*thriftwire.OriginalTrade, 0, size)}
		},
		add:  func(p *thriftwire.OriginalTradePage, w *thriftwire.OriginalTrade) { p.Trades = append(p.Trades, w) },
		n:    func(p *thriftwire.OriginalTradePage) int { return len(p.Trades) },
		last: func(p *thriftwire.OriginalTradePage) { p.Last = true },
		conv: thriftrpc.ToWireOriginalTrade,
	}
)

// startStream starts the producer of a stream of count trades in pages of size, which
// runs until the stream is done or ctx (the connection's) or the stream is cancelled.
// At most three pages are alive at once: the one being written to the client, the one
// waiting in the channel, and the one being filled.
func startStream[W, T, P any](s *Server, ctx context.Context, pg *pager[W, T, P], svc contract.Service, count int64, size int) *tradeStream[P] {
	ctx, cancel := context.WithCancel(ctx)
	st := &tradeStream[P]{pages: make(chan tradePage[P], 1), cancel: cancel}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		produce(ctx, st, pg, svc, count, size)
	}()
	return st
}

func produce[W, T, P any](ctx context.Context, st *tradeStream[P], pg *pager[W, T, P], svc contract.Service, count int64, size int) {
	send := func(p tradePage[P]) bool {
		select {
		case st.pages <- p:
			return true
		case <-ctx.Done():
			return false
		}
	}
	page := pg.newPage(size)
	var block []W // the trades of page, one allocation per page
	err := pg.stream(svc, ctx, count, func(t *T) error {
		// A full page is sent once the next trade exists, so that the last page is
		// never an empty one after a full one.
		if pg.n(page) == size {
			if !send(tradePage[P]{page: page}) {
				return ctx.Err()
			}
			page = pg.newPage(size)
		}
		if pg.n(page) == 0 {
			block = make([]W, size)
		}
		w := &block[pg.n(page)]
		pg.conv(t, w)
		pg.add(page, w)
		return nil
	})
	if err != nil {
		send(tradePage[P]{err: err})
		return
	}
	pg.last(page)
	send(tradePage[P]{page: page})
}
