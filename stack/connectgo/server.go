package connectgo

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"connectrpc.com/connect"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/pb"
	"github.com/wirebench/wirebench/contract/pb/pbconnect"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcproto"
	"github.com/wirebench/wirebench/stack/internal/h3x"
)

// The server's timeouts, those of http-json's servers: the headers of a request must
// arrive within readHeaderTimeout (which bounds a TLS handshake too); an idle
// keep-alive connection is closed after idleTimeout. No timeout covers a whole call,
// so none cuts a long stream.
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 2 * time.Minute
)

// Server serves the contract's three services with connect-go handlers on net/http.
// It is safe for concurrent use: Serve may run on several listeners at once, and
// Close and Shutdown may be called from any goroutine, more than once.
type Server struct {
	hs  *http.Server
	tls *tls.Config // nil: plain text
}

var _ protocol.Server = (*Server)(nil)

// NewServer returns a server of svc whose requests are bounded by cfg.MessageLimit()
// bytes (a larger one fails with resource_exhausted), over TLS when cfg.TLS is
// enabled. It has no options.
func NewServer(svc contract.Service, cfg protocol.ServerConfig) (*Server, error) {
	if err := protocol.CheckOptions(Name, cfg.Options); err != nil {
		return nil, err
	}
	s := &Server{}
	if cfg.TLS.Enabled() {
		var err error
		if s.tls, err = cfg.TLS.ServerConfig("h2", "http/1.1"); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
	}
	mux := newMux(svc, cfg)
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetHTTP2(true)
	protocols.SetUnencryptedHTTP2(true)
	s.hs = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		Protocols:         &protocols,
		// A library never prints: net/http logs bad requests and handler panics.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return s, nil
}

// newMux returns the connect-go handlers of the three services of svc on a ServeMux,
// refusing requests over cfg.MessageLimit() bytes.
func newMux(svc contract.Service, cfg protocol.ServerConfig) *http.ServeMux {
	opts := connect.WithHandlerOptions(connect.WithReadMaxBytes(cfg.MessageLimit()))
	mux := http.NewServeMux()
	mux.Handle(pbconnect.NewPersonServiceHandler(personHandler{svc}, opts))
	mux.Handle(pbconnect.NewEchoServiceHandler(echoHandler{svc}, opts))
	mux.Handle(pbconnect.NewTradeServiceHandler(tradeHandler{svc}, opts))
	handleMessages(mux, cfg.Message, opts)
	return mux
}

// NewH3Server returns a server of svc over HTTP/3: the same connect-go handlers served
// by quic-go's http3.Server (stack/internal/h3x), with cfg.TLS's certificate
// (required), on the quic transport; requests over cfg.MessageLimit() bytes fail with
// resource_exhausted. It has no options.
func NewH3Server(svc contract.Service, cfg protocol.ServerConfig) (*h3x.Server, error) {
	if err := protocol.CheckOptions(H3Name, cfg.Options); err != nil {
		return nil, err
	}
	return h3x.NewServer(H3Name, newMux(svc, cfg), cfg, idleTimeout)
}

// Serve accepts connections on ln until the server is closed, then returns nil; it
// returns the accept error if ln fails otherwise. Serve closes ln when it returns.
func (s *Server) Serve(ln net.Listener) error {
	if s.tls != nil {
		ln = tls.NewListener(ln, s.tls)
	}
	err := s.hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting, waits for the calls in flight to finish until ctx is
// done, then closes every connection. It returns ctx's error when ctx ended first.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.hs.Shutdown(ctx)
	s.Close()
	return err
}

// Close closes the listeners and every connection at once: the contexts of the calls
// in flight end and their clients see the connection fail.
func (s *Server) Close() error {
	if err := s.hs.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// toConnect maps the contract's codes to Connect's.
var toConnect = map[contract.Code]connect.Code{
	contract.NotFound:          connect.CodeNotFound,
	contract.InvalidArgument:   connect.CodeInvalidArgument,
	contract.ResourceExhausted: connect.CodeResourceExhausted,
	contract.Internal:          connect.CodeInternal,
}

// serverError is the Connect error a service's failure is answered with.
func serverError(err error) error {
	var ce *contract.Error
	switch {
	case errors.As(err, &ce):
		code, ok := toConnect[ce.Code]
		if !ok {
			code = connect.CodeInternal
		}
		return connect.NewError(code, errors.New(ce.Message))
	case errors.Is(err, context.Canceled):
		return connect.NewError(connect.CodeCanceled, err)
	case errors.Is(err, context.DeadlineExceeded):
		return connect.NewError(connect.CodeDeadlineExceeded, err)
	}
	return connect.NewError(connect.CodeInternal, err)
}

type personHandler struct{ svc contract.Service }

func (h personHandler) ListPersons(ctx context.Context, _ *connect.Request[pb.ListPersonsRequest]) (*connect.Response[pb.PersonList], error) {
	ps, err := h.svc.ListPersons(ctx)
	if err != nil {
		return nil, serverError(err)
	}
	return connect.NewResponse(grpcproto.ToPBPersons(ps)), nil
}

func (h personHandler) GetPerson(ctx context.Context, req *connect.Request[pb.PersonId]) (*connect.Response[pb.Person], error) {
	p, err := h.svc.GetPerson(ctx, req.Msg.GetId())
	if err != nil {
		return nil, serverError(err)
	}
	return connect.NewResponse(grpcproto.ToPBPerson(&p)), nil
}

func (h personHandler) GetPersonLinks(ctx context.Context, req *connect.Request[pb.PersonId]) (*connect.Response[pb.PersonLinkList], error) {
	links, err := h.svc.GetPersonLinks(ctx, req.Msg.GetId())
	if err != nil {
		return nil, serverError(err)
	}
	return connect.NewResponse(grpcproto.ToPBLinks(links)), nil
}

func (h personHandler) CreatePerson(ctx context.Context, req *connect.Request[pb.Person]) (*connect.Response[pb.Person], error) {
	p, err := h.svc.CreatePerson(ctx, grpcproto.FromPBPerson(req.Msg))
	if err != nil {
		return nil, serverError(err)
	}
	return connect.NewResponse(grpcproto.ToPBPerson(&p)), nil
}

type echoHandler struct{ svc contract.Service }

func (h echoHandler) Echo(ctx context.Context, req *connect.Request[pb.EchoMessage]) (*connect.Response[pb.EchoMessage], error) {
	out, err := h.svc.Echo(ctx, req.Msg.GetPayload())
	if err != nil {
		return nil, serverError(err)
	}
	return connect.NewResponse(&pb.EchoMessage{Payload: out}), nil
}

func (h echoHandler) Stats(ctx context.Context, _ *connect.Request[pb.StatsRequest]) (*connect.Response[pb.StatsReply], error) {
	st, err := h.svc.Stats(ctx)
	if err != nil {
		return nil, serverError(err)
	}
	return connect.NewResponse(&pb.StatsReply{Calls: st.Calls, LastPayloadLen: st.LastPayloadLen}), nil
}

func (h echoHandler) Increment(ctx context.Context, req *connect.Request[pb.Number]) (*connect.Response[pb.Number], error) {
	n, err := h.svc.Increment(ctx, req.Msg.GetValue())
	if err != nil {
		return nil, serverError(err)
	}
	return connect.NewResponse(&pb.Number{Value: n}), nil
}

type tradeHandler struct{ svc contract.Service }

// StreamTrades sends each trade as one message; Send fails once the client is gone,
// which ends the service's loop with that error.
func (h tradeHandler) StreamTrades(ctx context.Context, req *connect.Request[pb.TradesRequest], stream *connect.ServerStream[pb.Trade]) error {
	w := new(pb.Trade) // Send marshals at once, so one message serves every trade
	err := h.svc.StreamTrades(ctx, req.Msg.GetCount(), func(t *contract.Trade) error {
		grpcproto.ToPBTrade(t, w)
		return stream.Send(w)
	})
	if err != nil {
		return serverError(err)
	}
	return nil
}

// StreamOriginalTrades refuses: connect-go does not carry the original trade shape
// (its Stack.OriginalTrades is false).
func (h tradeHandler) StreamOriginalTrades(context.Context, *connect.Request[pb.TradesRequest], *connect.ServerStream[pb.OriginalTrade]) error {
	return connect.NewError(connect.CodeUnimplemented, contract.NotCarried(Name))
}
