package gonetrpcgob

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/rpc"
	"sync"
	"sync/atomic"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/netrpcgob"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/internal/accept"
	"github.com/wirebench/wirebench/stack/internal/drain"
)

// Server serves a contract.Service over net/rpc with gob. It is safe for concurrent
// use: Serve may run on several listeners at once, and Close and Shutdown may be
// called from any goroutine, more than once.
type Server struct {
	svc   contract.Service
	limit int // of one message received, the envelope included
	tls   *tls.Config

	ctx    context.Context // every call's; Close ends it
	cancel context.CancelFunc
	active atomic.Int64 // calls being served, for Shutdown

	mu        sync.Mutex
	closed    bool
	listeners map[net.Listener]struct{}
	conns     map[net.Conn]struct{}
	wg        sync.WaitGroup // connections and stream producers
}

var _ protocol.Server = (*Server)(nil)

// NewServer returns a server of svc; a request message over cfg.MessageLimit() plus
// netrpcgob.Envelope bytes is refused. The server has no options: it refuses any name
// in cfg.Options.
func NewServer(svc contract.Service, cfg protocol.ServerConfig) (*Server, error) {
	if err := protocol.CheckOptions(netrpcgob.Name, cfg.Options); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{svc: svc, limit: cfg.MessageLimit() + netrpcgob.Envelope, ctx: ctx, cancel: cancel,
		listeners: map[net.Listener]struct{}{}, conns: map[net.Conn]struct{}{}}
	if cfg.TLS.Enabled() {
		// No ALPN: net/rpc has no registered protocol identifier.
		var err error
		if s.tls, err = cfg.TLS.ServerConfig(); err != nil {
			cancel()
			return nil, fmt.Errorf("%s: %w", netrpcgob.Name, err)
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
		if !s.track(nc) {
			nc.Close()
			return nil
		}
		go s.serveConn(nc)
	}
}

// track adds a connection to the server's, or reports that the server is closed.
func (s *Server) track(nc net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[nc] = struct{}{}
	s.wg.Add(1)
	return true
}

// serveConn serves one connection until it ends: the TLS handshake first (within
// transport.HandshakeTimeout, a failed one closing the connection alone), then an
// rpc.Server with the connection's own Session.
func (s *Server) serveConn(nc net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, nc)
		s.mu.Unlock()
		nc.Close()
	}()
	conn := nc
	if s.tls != nil {
		tc := tls.Server(nc, s.tls)
		ctx, cancel := context.WithTimeout(s.ctx, transport.HandshakeTimeout)
		err := tc.HandshakeContext(ctx)
		cancel()
		if err != nil {
			return
		}
		conn = tc
	}
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	sess := newSession(s, ctx)
	defer sess.stop()
	rs := rpc.NewServer()
	if err := rs.RegisterName(netrpcgob.Service, sess); err != nil {
		panic("gonetrpcgob: " + err.Error()) // Session's methods are fixed: a programming error
	}
	rs.ServeCodec(&serverCodec{newGobConn(conn, s.limit)})
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Shutdown stops accepting, waits for the calls in flight until ctx ends, then closes
// like Close. A stream between two pages is no call in flight: it ends at Close.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	// Marked closed before its listeners close, so that Serve, whose Accept then
	// fails, returns nil, and no connection is taken while the calls drain.
	s.closed = true
	for ln := range s.listeners {
		ln.Close()
	}
	s.mu.Unlock()
	err := drain.Wait(ctx, &s.active)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

// Close closes the listeners and every connection, ends the context of every call
// and stream, and waits for the connections' goroutines and the streams' producers
// to return.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for ln := range s.listeners {
		ln.Close()
	}
	for nc := range s.conns {
		nc.Close()
	}
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	return nil
}
