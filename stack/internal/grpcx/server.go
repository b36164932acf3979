package grpcx

import (
	"context"
	"errors"
	"fmt"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/wirebench/wirebench/protocol"
)

// Server is a protocol.Server over a *grpc.Server. It is safe for concurrent use:
// Serve may run on several listeners at once, and Close and Shutdown may be called
// from any goroutine, more than once.
type Server struct {
	gs *grpc.Server
}

var _ protocol.Server = (*Server)(nil)

// NewServer returns a server of protocol proto configured by cfg (message limit and
// cfg.Options, see ServerOptionNames), with extra options after those, and calls
// register to add the services.
//
// With cfg.TLS, it serves gRPC over TLS 1.3 (grpc-go's TLS credentials, ALPN h2).
// Requests over cfg.MessageLimit() fail with ResourceExhausted (grpc-go refuses them
// from their length prefix, before reading them), and the connection stays usable.
// Stop and GracefulStop wait for the handlers in flight to return, so that Close
// leaves no goroutine of the service behind.
func NewServer(proto string, cfg protocol.ServerConfig, register func(*grpc.Server), extra ...grpc.ServerOption) (*Server, error) {
	opts, err := ServerOptions(proto, cfg.Options)
	if err != nil {
		return nil, err
	}
	opts = append([]grpc.ServerOption{
		grpc.MaxRecvMsgSize(cfg.MessageLimit()),
		grpc.WaitForHandlers(true),
	}, opts...)
	if cfg.TLS.Enabled() {
		// grpc-go's own TLS credentials, as a service serves gRPC over TLS: ALPN h2
		// (grpc-go requires it), the handshake bounded by grpc-go's connection timeout.
		tc, err := cfg.TLS.ServerConfig("h2")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", proto, err)
		}
		opts = append(opts, grpc.Creds(credentials.NewTLS(tc)))
	}
	gs := grpc.NewServer(append(opts, extra...)...)
	register(gs)
	return &Server{gs: gs}, nil
}

// GRPC returns the underlying server, for tests and for serving more services.
func (s *Server) GRPC() *grpc.Server { return s.gs }

// Serve serves gRPC on ln until the server stops, then returns nil (at once, having
// closed ln, on a server already stopped); it returns the accept error if ln fails
// otherwise. A connection whose bytes are not HTTP/2 (garbage, another protocol)
// fails its handshake and is closed alone.
func (s *Server) Serve(ln net.Listener) error {
	err := s.gs.Serve(ln)
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// Shutdown stops accepting connections and new calls (GracefulStop: clients are told
// with GOAWAY), lets the calls in flight finish until ctx is done, then stops at once
// like Close. It returns ctx's error when ctx ended first.
func (s *Server) Shutdown(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.gs.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.gs.Stop() // ends the GracefulStop too
		<-done
		return ctx.Err()
	}
}

// Close stops the server at once: listeners and connections close, calls in flight
// are cancelled (their contexts end) and fail on their clients. It returns when every
// handler has returned.
func (s *Server) Close() error {
	s.gs.Stop()
	return nil
}
