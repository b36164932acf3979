package thriftgo

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/contract/thriftwire"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/thriftrpc"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/internal/accept"
	"github.com/wirebench/wirebench/stack/internal/drain"
)

// Server serves a contract.Service with Thrift's TSimpleServer: one per listener,
// sharing the processor factory, the framed transport and the encoding. It is safe for
// concurrent use: Serve may run on several listeners at once, and Close and Shutdown
// may be called from any goroutine, more than once.
//
// Bad input: a frame whose length is over the limit ends its connection alone before
// any of it is read (the framed transport checks the 4-byte length first), and so do
// bytes that begin no message of the encoding (thriftrpc.FrameCheck, as they arrive) or do not
// decode (once the frame is in); memory follows the bytes received, not the length
// claimed. A connection on which nothing arrives for idleTimeout is closed, and a TLS
// handshake must end within transport.HandshakeTimeout. The server does not log.
type Server struct {
	svc       contract.Service
	conf      *thrift.TConfiguration
	framed    thrift.TTransportFactory
	protocols thrift.TProtocolFactory
	tls       *tls.Config // nil: plain text
	compact   bool        // the encoding: compact, or binary

	active atomic.Int64   // calls being served, for Shutdown
	wg     sync.WaitGroup // trade stream producers

	mu      sync.Mutex
	closed  bool
	servers map[*thrift.TSimpleServer]*serverTransport
	conns   map[*serverConn]struct{}
}

var _ protocol.Server = (*Server)(nil)

// NewServer returns a server of svc speaking the named protocol (thriftrpc.Binary or
// thriftrpc.Compact), whose requests are bounded by cfg.MessageLimit() (plus
// thriftrpc.EnvelopeSlack), over TLS when cfg.TLS is enabled. It has no options.
func NewServer(svc contract.Service, proto string, cfg protocol.ServerConfig) (*Server, error) {
	factory, ok := thriftrpc.Encoding(proto)
	if !ok {
		return nil, fmt.Errorf("%s: not a protocol of %s", proto, Name)
	}
	if err := protocol.CheckOptions(Name, cfg.Options); err != nil {
		return nil, err
	}
	conf := thriftrpc.Configuration(cfg.MessageLimit(), idleTimeout)
	s := &Server{
		svc:       svc,
		conf:      conf,
		framed:    thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), conf),
		protocols: factory(conf),
		compact:   proto == thriftrpc.Compact,
		servers:   map[*thrift.TSimpleServer]*serverTransport{},
		conns:     map[*serverConn]struct{}{},
	}
	if cfg.TLS.Enabled() {
		var err error
		if s.tls, err = cfg.TLS.ServerConfig(); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
	}
	return s, nil
}

// Serve accepts connections on ln until the server is closed, then returns nil (at
// once on a server already closed); it returns the accept error if ln fails otherwise.
// Serve closes ln when it returns.
func (s *Server) Serve(ln net.Listener) error {
	st := &serverTransport{srv: s, ln: ln}
	ts := thrift.NewTSimpleServerFactory6(processorFactory{s}, st, s.framed, s.framed, s.protocols, s.protocols)
	// TSimpleServer logs a connection's failure with slog, on this context; the
	// processor (connProcessor) reports none, so nothing is logged.
	ts.SetLogContext(context.Background())
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.servers[ts] = st
	s.mu.Unlock()

	// AcceptLoop, not Serve: Serve drops the accept loop's error.
	err := ts.AcceptLoop()
	ln.Close()
	s.mu.Lock()
	delete(s.servers, ts)
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil
	}
	return err
}

// Close closes the listeners and every connection at once: the contexts of the calls
// in flight end, and their clients see the connection fail. It waits until every
// connection's goroutine has ended, which includes the service's methods in flight
// returning, and the trade streams' producers with them.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	servers := make([]*thrift.TSimpleServer, 0, len(s.servers))
	for ts, st := range s.servers {
		st.ln.Close()
		servers = append(servers, ts)
	}
	conns := make([]*serverConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	// Stop waits for the connections' goroutines, which end now that their sockets
	// are closed.
	for _, ts := range servers {
		ts.Stop()
	}
	s.wg.Wait()
	return nil
}

// Shutdown stops accepting connections, waits until no call is being served or ctx is
// done, then closes like Close. It returns ctx's error when ctx ended first.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	for _, st := range s.servers {
		st.ln.Close()
	}
	s.mu.Unlock()

	err := drain.Wait(ctx, &s.active)
	s.Close()
	return err
}

// track makes the server's connection of nc, or closes nc and returns nil when the
// server is closed.
func (s *Server) track(nc net.Conn) *serverConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		nc.Close()
		return nil
	}
	c := &serverConn{srv: s, frames: thriftrpc.NewFrameCheck(s.compact, uint32(s.conf.GetMaxFrameSize()))}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	if s.tls != nil {
		c.tls = tls.Server(nc, s.tls)
		nc = c.tls
	}
	c.TSocket = thrift.NewTSocketFromConnConf(nc, s.conf)
	s.conns[c] = struct{}{}
	return c
}

func (s *Server) forget(c *serverConn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// serverTransport is the TServerTransport of one listener: what TServerSocket is to
// the address it listens on, for a listener made by the caller (TCP or a Unix socket),
// with the server's connections tracked so that Close can close them.
type serverTransport struct {
	srv *Server
	ln  net.Listener
}

var _ thrift.TServerTransport = (*serverTransport)(nil)

// Listen does nothing: the listener is open already.
func (t *serverTransport) Listen() error { return nil }

// Accept returns the next connection, waiting and retrying after a temporary failure
// (out of file descriptors and the like) as net/http does.
func (t *serverTransport) Accept() (thrift.TTransport, error) {
	nc, err := accept.Next(t.ln)
	if err != nil {
		return nil, err
	}
	if c := t.srv.track(nc); c != nil {
		return c, nil
	}
	return nil, net.ErrClosed
}

func (t *serverTransport) Close() error     { return t.ln.Close() }
func (t *serverTransport) Interrupt() error { return t.ln.Close() }

// serverConn is one accepted connection: Thrift's TSocket over it, with a context that
// ends when the connection closes (the contexts of its calls and of its trade stream
// derive from it), over TLS the handshake made at the first read, within
// transport.HandshakeTimeout, and the first bytes of every message checked as they
// arrive (thriftrpc.FrameCheck). It is read by its connection's goroutine alone.
type serverConn struct {
	*thrift.TSocket
	srv        *Server
	ctx        context.Context
	cancel     context.CancelFunc
	tls        *tls.Conn // nil: plain text
	handshaken bool
	frames     thriftrpc.FrameCheck
}

func (c *serverConn) Read(p []byte) (int, error) {
	if c.tls != nil && !c.handshaken {
		c.handshaken = true
		ctx, cancel := context.WithTimeout(c.ctx, transport.HandshakeTimeout)
		err := c.tls.HandshakeContext(ctx)
		cancel()
		if err != nil {
			return 0, thrift.NewTTransportExceptionFromError(err)
		}
	}
	n, err := c.TSocket.Read(p)
	if ferr := c.frames.Check(p[:n]); ferr != nil {
		return 0, thrift.NewTTransportExceptionFromError(ferr)
	}
	return n, err
}

// Close closes the connection (TSimpleServer closes it when its goroutine ends; the
// server's Close closes it at once) and ends its context.
func (c *serverConn) Close() error {
	c.cancel()
	c.srv.forget(c)
	if err := c.TSocket.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// processorFactory makes the processor of each connection, with a handler of its own.
type processorFactory struct{ s *Server }

func (f processorFactory) GetProcessor(t thrift.TTransport) thrift.TProcessor {
	c := t.(*serverConn) // the transports serverTransport.Accept returns
	h := &handler{svc: f.s.svc, srv: f.s, conn: c}
	return connProcessor{WirebenchProcessor: thriftwire.NewWirebenchProcessor(h), conn: c}
}

// connProcessor is the generated processor with two changes: its calls' contexts are
// the connection's (which end when it closes, also over TLS, where the generated
// connectivity check cannot see the socket), and a failure that ends the connection
// (a transport error, bytes that do not decode, an abandoned call) is returned as
// none, so that TSimpleServer ends it without logging: a peer's garbage is no
// server error. An unknown method keeps its error, so the connection goes on.
type connProcessor struct {
	*thriftwire.WirebenchProcessor
	conn *serverConn
}

func (p connProcessor) Process(_ context.Context, in, out thrift.TProtocol) (bool, thrift.TException) {
	ok, err := p.WirebenchProcessor.Process(p.conn.ctx, in, out)
	if err != nil && !ok {
		var ae thrift.TApplicationException
		if errors.As(err, &ae) && ae.TypeId() == thrift.UNKNOWN_METHOD {
			return ok, err
		}
		return false, nil
	}
	return ok, err
}
