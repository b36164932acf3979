package capnpgo

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync"
	"sync/atomic"

	"capnproto.org/go/capnp/v3"
	"capnproto.org/go/capnp/v3/rpc"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/capnpwire"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/capnprpc"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/internal/accept"
	"github.com/wirebench/wirebench/stack/internal/drain"
)

// Server serves a contract.Service over Cap'n Proto RPC. Each accepted connection gets
// its own rpc.Conn with a bounded transport and its own Wirebench capability as
// bootstrap. A Server is safe for concurrent use: Serve may run on several listeners
// at once, and Close and Shutdown may be called from any goroutine, more than once.
type Server struct {
	svc        contract.Service
	maxMessage int

	active atomic.Int64 // calls being served, for Shutdown
	frames *frameBudget // of the frames being received on all connections

	mu        sync.Mutex
	closed    bool
	listeners map[net.Listener]struct{}
	conns     map[*rpc.Conn]struct{}
	wg        sync.WaitGroup // one per live connection

	tls         *tls.Config           // nil: plain text
	handshaking map[net.Conn]struct{} // TLS connections not yet handshaken
}

var _ protocol.Server = (*Server)(nil)

// NewServer returns a server of svc; requests over cfg.MessageLimit() bytes are refused
// by closing the connection that sent them. The server has no options: it refuses any
// name in cfg.Options.
func NewServer(svc contract.Service, cfg protocol.ServerConfig) (*Server, error) {
	if err := protocol.CheckOptions(capnprpc.Name, cfg.Options); err != nil {
		return nil, err
	}
	s := &Server{
		svc:        svc,
		maxMessage: cfg.MessageLimit(),
		// Frames reserved whole before they arrived: at most one of the largest.
		frames:      &frameBudget{limit: int64(maxFrame(cfg.MessageLimit()))},
		listeners:   map[net.Listener]struct{}{},
		conns:       map[*rpc.Conn]struct{}{},
		handshaking: map[net.Conn]struct{}{},
	}
	if cfg.TLS.Enabled() {
		// No ALPN: Cap'n Proto has no registered protocol identifier.
		var err error
		if s.tls, err = cfg.TLS.ServerConfig(); err != nil {
			return nil, fmt.Errorf("%s: %w", capnprpc.Name, err)
		}
	}
	return s, nil
}

// Serve accepts connections on ln until the server is closed, then returns nil (at
// once on a server already closed); it returns the accept error if ln fails otherwise.
// Serve closes ln when it returns.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
		ln.Close()
	}()

	for {
		nc, err := accept.Next(ln)
		if err != nil {
			if s.isClosed() {
				return nil
			}
			return err
		}
		if s.tls != nil {
			s.handshake(nc)
			continue
		}
		s.serveConn(nc)
	}
}

// handshake makes the TLS handshake of nc in a goroutine of its own, within
// transport.HandshakeTimeout, then serves it; a failed handshake (garbage, a slow
// client) closes it alone.
func (s *Server) handshake(nc net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		nc.Close()
		return
	}
	s.handshaking[nc] = struct{}{}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tc := tls.Server(nc, s.tls)
		ctx, cancel := context.WithTimeout(context.Background(), transport.HandshakeTimeout)
		err := tc.HandshakeContext(ctx)
		cancel()
		s.mu.Lock()
		delete(s.handshaking, nc)
		s.mu.Unlock()
		if err != nil {
			nc.Close()
			return
		}
		s.serveConn(tc)
	}()
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// serveConn starts the RPC connection of nc and tracks it until it ends.
func (s *Server) serveConn(nc net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		nc.Close()
		return
	}
	boot := capnpwire.Wirebench_ServerToClient(&handler{svc: s.svc, active: &s.active})
	conn := rpc.NewConn(newTransport(nc, s.maxMessage, s.frames), &rpc.Options{
		BootstrapClient: capnp.Client(boot), // the Conn releases it when it ends
		Logger:          nopLogger{},
	})
	s.conns[conn] = struct{}{}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		<-conn.Done()
		s.mu.Lock()
		delete(s.conns, conn)
		s.mu.Unlock()
	}()
}

// Close closes the listeners and every connection at once: calls in flight are
// cancelled (their contexts end) and fail on their clients. It waits until every
// connection has ended, which includes the service's methods in flight returning.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for ln := range s.listeners {
		ln.Close()
	}
	for nc := range s.handshaking {
		nc.Close()
	}
	conns := make([]*rpc.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()

	// rpc.Conn.Close sends an abort and may wait briefly for it to be written: close
	// the connections in parallel.
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { c.Close() })
	}
	wg.Wait()
	s.wg.Wait()
	return nil
}

// Shutdown stops accepting connections, waits until no call is being served or ctx is
// done, then closes like Close. It returns ctx's error when ctx ended first.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	for ln := range s.listeners {
		ln.Close()
	}
	s.mu.Unlock()

	err := drain.Wait(ctx, &s.active)
	s.Close()
	return err
}

// handler implements the Wirebench capability of one connection over the service.
// Every method calls call.Go first, so calls of one connection run concurrently.
type handler struct {
	svc    contract.Service
	active *atomic.Int64
}

// begin marks a call as served until the returned func runs, and lets the next call
// of the connection start.
func (h *handler) begin(goer interface{ Go() }) func() {
	goer.Go()
	h.active.Add(1)
	return func() { h.active.Add(-1) }
}

// ListPersons serves listPersons from the service.
func (h *handler) ListPersons(ctx context.Context, call capnpwire.Wirebench_listPersons) error {
	defer h.begin(call)()
	ps, err := h.svc.ListPersons(ctx)
	if err != nil {
		return capnprpc.EncodeError(err)
	}
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	l, err := res.NewPersons(int32(len(ps)))
	if err != nil {
		return err
	}
	return capnprpc.WritePersons(l, ps)
}

// GetPerson serves getPerson from the service.
func (h *handler) GetPerson(ctx context.Context, call capnpwire.Wirebench_getPerson) error {
	defer h.begin(call)()
	p, err := h.svc.GetPerson(ctx, call.Args().Id())
	if err != nil {
		return capnprpc.EncodeError(err)
	}
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	w, err := res.NewPerson()
	if err != nil {
		return err
	}
	return capnprpc.WritePerson(w, &p)
}

// GetPersonLinks serves getPersonLinks from the service.
func (h *handler) GetPersonLinks(ctx context.Context, call capnpwire.Wirebench_getPersonLinks) error {
	defer h.begin(call)()
	links, err := h.svc.GetPersonLinks(ctx, call.Args().Id())
	if err != nil {
		return capnprpc.EncodeError(err)
	}
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	l, err := res.NewLinks(int32(len(links)))
	if err != nil {
		return err
	}
	return capnprpc.WriteLinks(l, links)
}

// CreatePerson serves createPerson from the service.
func (h *handler) CreatePerson(ctx context.Context, call capnpwire.Wirebench_createPerson) error {
	defer h.begin(call)()
	w, err := call.Args().Person()
	if err != nil {
		return capnprpc.EncodeError(contract.Errorf(contract.InvalidArgument, "person: %v", err))
	}
	var p contract.Person
	if err := capnprpc.ReadPerson(w, &p); err != nil {
		return capnprpc.EncodeError(contract.Errorf(contract.InvalidArgument, "person: %v", err))
	}
	p, err = h.svc.CreatePerson(ctx, p)
	if err != nil {
		return capnprpc.EncodeError(err)
	}
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	out, err := res.NewPerson()
	if err != nil {
		return err
	}
	return capnprpc.WritePerson(out, &p)
}

// Echo serves echo from the service.
func (h *handler) Echo(ctx context.Context, call capnpwire.Wirebench_echo) error {
	defer h.begin(call)()
	in, err := call.Args().Payload()
	if err != nil {
		return capnprpc.EncodeError(contract.Errorf(contract.InvalidArgument, "payload: %v", err))
	}
	out, err := h.svc.Echo(ctx, in)
	if err != nil {
		return capnprpc.EncodeError(err)
	}
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	return res.SetPayload(out)
}

// Stats serves stats from the service.
func (h *handler) Stats(ctx context.Context, call capnpwire.Wirebench_stats) error {
	defer h.begin(call)()
	st, err := h.svc.Stats(ctx)
	if err != nil {
		return capnprpc.EncodeError(err)
	}
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	res.SetCalls(st.Calls)
	res.SetLastPayloadLen(st.LastPayloadLen)
	return nil
}

// Increment serves increment from the service.
func (h *handler) Increment(ctx context.Context, call capnpwire.Wirebench_increment) error {
	defer h.begin(call)()
	n, err := h.svc.Increment(ctx, call.Args().Value())
	if err != nil {
		return capnprpc.EncodeError(err)
	}
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	res.SetValue(n)
	return nil
}

// StreamTrades pushes the service's trades to the caller's sink in batches of
// StreamBatch, through a flow limiter of StreamWindow bytes, then calls done.
func (h *handler) StreamTrades(ctx context.Context, call capnpwire.Wirebench_streamTrades) error {
	defer h.begin(call)()
	args := call.Args()
	count := args.Count()
	// The sink in args is released with args when this method returns; the flow
	// limiter only governs calls through the reference it is set on, so take one.
	sink := args.Sink().AddRef()
	defer sink.Release()
	if !sink.IsValid() {
		return capnprpc.EncodeError(contract.Errorf(contract.InvalidArgument, "streamTrades needs a sink"))
	}
	sink.SetFlowLimiter(newLimiter(StreamWindow))
	return pushStream(ctx, count, func(yield func(*contract.Trade) error) error {
		return h.svc.StreamTrades(ctx, count, yield)
	}, func(batch []contract.Trade) error {
		return sink.Push(ctx, func(p capnpwire.TradeSink_push_Params) error {
			l, err := p.NewTrades(int32(len(batch)))
			if err != nil {
				return err
			}
			for i := range batch {
				if err := capnprpc.WriteTrade(l.At(i), &batch[i]); err != nil {
					return err
				}
			}
			return nil
		})
	}, func(sent int64) error {
		// done follows the pushes on the same capability, so its return means every
		// push was processed; WaitStreaming then reports a push that failed.
		f, release := sink.Done(ctx, func(p capnpwire.TradeSink_done_Params) error {
			p.SetCount(sent)
			return nil
		})
		_, err := f.Struct()
		release()
		if werr := sink.WaitStreaming(); err == nil {
			err = werr
		}
		return err
	})
}

// StreamOriginalTrades is StreamTrades for the original's trades, to an
// OriginalTradeSink.
func (h *handler) StreamOriginalTrades(ctx context.Context, call capnpwire.Wirebench_streamOriginalTrades) error {
	defer h.begin(call)()
	args := call.Args()
	count := args.Count()
	sink := args.Sink().AddRef()
	defer sink.Release()
	if !sink.IsValid() {
		return capnprpc.EncodeError(contract.Errorf(contract.InvalidArgument, "streamOriginalTrades needs a sink"))
	}
	sink.SetFlowLimiter(newLimiter(StreamWindow))
	return pushStream(ctx, count, func(yield func(*contract.OriginalTrade) error) error {
		return h.svc.StreamOriginalTrades(ctx, count, yield)
	}, func(batch []contract.OriginalTrade) error {
		return sink.Push(ctx, func(p capnpwire.OriginalTradeSink_push_Params) error {
			l, err := p.NewTrades(int32(len(batch)))
			if err != nil {
				return err
			}
			for i := range batch {
				if err := capnprpc.WriteOriginalTrade(l.At(i), &batch[i]); err != nil {
					return err
				}
			}
			return nil
		})
	}, func(sent int64) error {
		f, release := sink.Done(ctx, func(p capnpwire.OriginalTradeSink_done_Params) error {
			p.SetCount(sent)
			return nil
		})
		_, err := f.Struct()
		release()
		if werr := sink.WaitStreaming(); err == nil {
			err = werr
		}
		return err
	})
}

// pushStream runs a stream of count trades of type T: stream is the service's call,
// push sends one batch of at most StreamBatch trades to the sink, done tells the sink
// the count sent and waits for every push to be processed.
func pushStream[T any](ctx context.Context, count int64, stream func(yield func(*T) error) error,
	push func([]T) error, done func(sent int64) error) error {
	batchCap := int(max(1, min(count, StreamBatch)))
	batch := make([]T, 0, batchCap)
	var sent int64
	var streamErr error // a failure of the stream itself, returned as it is
	flush := func() error {
		if err := ctx.Err(); err != nil {
			streamErr = err // the caller went away: stop, whatever the service does
			return err
		}
		n := len(batch)
		err := push(batch)
		batch = batch[:0]
		sent += int64(n)
		if err != nil {
			streamErr = err
		}
		return err
	}
	err := stream(func(t *T) error {
		batch = append(batch, *t)
		if len(batch) >= batchCap {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if streamErr != nil {
		return streamErr
	}
	if err != nil {
		return capnprpc.EncodeError(err)
	}
	return done(sent)
}
