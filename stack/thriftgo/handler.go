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
	stream *tradeStream // the connection's trade stream; nil when none
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
	h.stream = h.srv.startStream(h.conn.ctx, h.svc, count, pageTrades(pageSize, count, h.srv.conf))
	return h.nextPage(ctx)
}

// NextTrades returns the next page of the connection's stream.
func (h *handler) NextTrades(ctx context.Context) (*thriftwire.TradePage, error) {
	defer h.begin()()
	return h.nextPage(ctx)
}

// CancelTrades ends the connection's stream, if it has one.
func (h *handler) CancelTrades(context.Context) error {
	h.endStream()
	return nil
}

// nextPage waits for the stream's next page. The stream ends with its last page or
// its error; a call whose context ends first (the connection closed) ends it too.
func (h *handler) nextPage(ctx context.Context) (*thriftwire.TradePage, error) {
	st := h.stream
	if st == nil {
		return nil, &thriftwire.ServiceError{Code: thriftwire.ErrorCode_INVALID_ARGUMENT,
			Message: "nextTrades: no trade stream on this connection (call streamTrades first)"}
	}
	select {
	case p := <-st.pages:
		if p.err != nil || p.page.Last {
			h.endStream()
		}
		if p.err != nil {
			return nil, thriftrpc.ServerError(ctx, p.err)
		}
		return p.page, nil
	case <-ctx.Done():
		h.endStream()
		return nil, thriftrpc.ServerError(ctx, ctx.Err())
	}
}

func (h *handler) endStream() {
	if h.stream != nil {
		h.stream.cancel()
		h.stream = nil
	}
}
