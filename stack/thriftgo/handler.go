package thriftgo

import (
	"context"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/thriftwire"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
)

// handler implements the generated Wirebench interface over the service for one
// connection. TSimpleServer serves a connection's calls one at a time, so its fields
// are used by one goroutine at a time.
type handler struct {
	svc    contract.Service
	srv    *Server
	conn   *serverConn
	stream stopper // the connection's trade stream, of either shape; nil when none
}

var _ thriftwire.Wirebench = (*handler)(nil)

// begin marks a call as served until the returned func runs (for Shutdown).
func (h *handler) begin() func() {
	h.srv.active.Add(1)
	return func() { h.srv.active.Add(-1) }
}

func (h *handler) ListPersons(ctx context.Context) ([]*thriftwire.Person, error) {
	defer h.begin()()
	ps, err := h.svc.ListPersons(ctx)
	if err != nil {
		return nil, thriftrpc.ServerError(ctx, err)
	}
	return thriftrpc.ToWirePersons(ps), nil
}

func (h *handler) GetPerson(ctx context.Context, id int64) (*thriftwire.Person, error) {
	defer h.begin()()
	p, err := h.svc.GetPerson(ctx, id)
	if err != nil {
		return nil, thriftrpc.ServerError(ctx, err)
	}
	return thriftrpc.ToWirePerson(&p), nil
}

func (h *handler) GetPersonLinks(ctx context.Context, id int64) ([]*thriftwire.PersonLink, error) {
	defer h.begin()()
	links, err := h.svc.GetPersonLinks(ctx, id)
	if err != nil {
		return nil, thriftrpc.ServerError(ctx, err)
	}
	return thriftrpc.ToWireLinks(links), nil
}

// CreatePerson hands the service an empty person when the request has none (the
// service then refuses it with invalid_argument).
func (h *handler) CreatePerson(ctx context.Context, w *thriftwire.Person) (*thriftwire.Person, error) {
	defer h.begin()()
	var in contract.Person
	if w != nil {
		in = thriftrpc.FromWirePerson(w)
	}
	p, err := h.svc.CreatePerson(ctx, in)
	if err != nil {
		return nil, thriftrpc.ServerError(ctx, err)
	}
	return thriftrpc.ToWirePerson(&p), nil
}

func (h *handler) Echo(ctx context.Context, payload string) (string, error) {
	defer h.begin()()
	out, err := h.svc.Echo(ctx, payload)
	if err != nil {
		return "", thriftrpc.ServerError(ctx, err)
	}
	return out, nil
}

func (h *handler) Stats(ctx context.Context) (*thriftwire.Stats, error) {
	defer h.begin()()
	st, err := h.svc.Stats(ctx)
	if err != nil {
		return nil, thriftrpc.ServerError(ctx, err)
	}
	return &thriftwire.Stats{Calls: st.Calls, LastPayloadLen: st.LastPayloadLen}, nil
}

func (h *handler) Increment(ctx context.Context, value int64) (int64, error) {
	defer h.begin()()
	n, err := h.svc.Increment(ctx, value)
	if err != nil {
		return 0, thriftrpc.ServerError(ctx, err)
	}
	return n, nil
}

// StreamTrades ends the connection's stream if it has one, starts a new one of count
// trades, and returns its first page.
func (h *handler) StreamTrades(ctx context.Context, count int64, pageSize int32) (*thriftwire.TradePage, error) {
	defer h.begin()()
	h.endStream()
	h.stream = startStream(h.srv, h.conn.ctx, &compactPager, h.svc, count, pageTrades(pageSize, count, maxTradeBytes, h.srv.conf))
	return nextPage[*thriftwire.TradePage](ctx, h, "nextTrades", "streamTrades")
}

// NextTrades returns the next page of the connection's stream.
func (h *handler) NextTrades(ctx context.Context) (*thriftwire.TradePage, error) {
	defer h.begin()()
	return nextPage[*thriftwire.TradePage](ctx, h, "nextTrades", "streamTrades")
}

// StreamOriginalTrades is StreamTrades for the original's trades.
func (h *handler) StreamOriginalTrades(ctx context.Context, count int64, pageSize int32) (*thriftwire.OriginalTradePage, error) {
	defer h.begin()()
	h.endStream()
	h.stream = startStream(h.srv, h.conn.ctx, &originalPager, h.svc, count,
		pageTrades(pageSize, count, maxOriginalTradeBytes, h.srv.conf))
	return nextPage[*thriftwire.OriginalTradePage](ctx, h, "nextOriginalTrades", "streamOriginalTrades")
}

// NextOriginalTrades returns the next page of the connection's stream of the
// original's trades.
func (h *handler) NextOriginalTrades(ctx context.Context) (*thriftwire.OriginalTradePage, error) {
	defer h.begin()()
	return nextPage[*thriftwire.OriginalTradePage](ctx, h, "nextOriginalTrades", "streamOriginalTrades")
}

// CancelTrades ends the connection's stream, if it has one.
func (h *handler) CancelTrades(context.Context) error {
	h.endStream()
	return nil
}

// lastPage reports whether a page is its stream's last.
func lastPage(p any) bool {
	switch p := p.(type) {
	case *thriftwire.TradePage:
		return p.Last
	case *thriftwire.OriginalTradePage:
		return p.Last
	}
	return true
}

// nextPage waits for the next page of the connection's stream of pages P (method is
// the call, start the call that starts such a stream). The stream ends with its last
// page or its error; a call whose context ends first (the connection closed) ends it
// too.
func nextPage[P any](ctx context.Context, h *handler, method, start string) (P, error) {
	var none P
	st, ok := h.stream.(*tradeStream[P])
	if !ok {
		return none, &thriftwire.ServiceError{Code: thriftwire.ErrorCode_INVALID_ARGUMENT,
			Message: method + ": no such trade stream on this connection (call " + start + " first)"}
	}
	select {
	case p := <-st.pages:
		if p.err != nil || lastPage(p.page) {
			h.endStream()
		}
		if p.err != nil {
			return none, thriftrpc.ServerError(ctx, p.err)
		}
		return p.page, nil
	case <-ctx.Done():
		h.endStream()
		return none, thriftrpc.ServerError(ctx, ctx.Err())
	}
}

func (h *handler) endStream() {
	if h.stream != nil {
		h.stream.stop()
		h.stream = nil
	}
}
