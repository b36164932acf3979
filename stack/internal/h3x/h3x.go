// Package h3x serves an http.Handler over HTTP/3 and makes net/http clients over
// HTTP/3, with quic-go's http3 package as its users write them: what the HTTP/3 stacks
// of http-json and Connect share, so that each is its handler and its client code
// over the same QUIC plumbing.
//
// HTTP/3 runs over QUIC, UDP with TLS 1.3 always: both sides need the TLS of their
// protocol config, the server serves a UDP socket (protocol.PacketServer) and the
// client dials from the socket of protocol.ClientConfig.Packet, whose datagrams are
// counted.
//
// quic-go raises each UDP socket's buffers to 7 MiB (as root with SO_RCVBUFFORCE);
// where the kernel refuses (net.core.rmem_max below half of that and no
// CAP_NET_ADMIN) it logs one line to the process's standard logger and runs with the
// kernel's size. docs/protocols.md says how to raise the limits.
package h3x

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"

	"github.com/wirebench/wirebench/protocol"
)

// ErrNoTLS is wrapped by the refusal of either side without TLS: QUIC cannot run
// without it.
var ErrNoTLS = errors.New("HTTP/3 runs over QUIC, which is always TLS 1.3")

// Server serves a handler over HTTP/3 with quic-go's http3.Server, on QUIC listeners
// with quic-go's default settings (100 streams in flight per connection, 30 s idle
// timeout, 5 s handshake timeout). It is safe for concurrent use: ServePacket may run
// on several sockets at once, and Close and Shutdown may be called from any
// goroutine, more than once.
type Server struct {
	name string
	hs   *http3.Server
	tls  *tls.Config // the listeners', configured for HTTP/3

	mu        sync.Mutex
	listeners []*listener // served now, closed by Close after hs
	closed    bool
}

var _ protocol.PacketServer = (*Server)(nil)

// listener is what ServePacket opens on a socket: a QUIC transport over it and its
// listener, all closed by close.
type listener struct {
	pc net.PacketConn
	qt *quic.Transport
	ln *quic.EarlyListener
}

func (l *listener) close() {
	l.ln.Close()
	l.qt.Close()
	l.pc.Close()
}

// NewServer returns a server of h with cfg.TLS's certificate (required), its
// connections closed after idle without a request; name (the protocol and stack)
// prefixes its errors.
func NewServer(name string, h http.Handler, cfg protocol.ServerConfig, idle time.Duration) (*Server, error) {
	if !cfg.TLS.Enabled() {
		return nil, fmt.Errorf("%s: %w: the server needs a certificate", name, ErrNoTLS)
	}
	tc, err := cfg.TLS.ServerConfig(http3.NextProtoH3)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Server{
		name: name,
		hs:   &http3.Server{Handler: h, IdleTimeout: idle},
		tls:  http3.ConfigureTLSConfig(tc),
	}, nil
}

// Serve refuses a stream listener (and closes it): HTTP/3 is served on a UDP socket,
// with ServePacket.
func (s *Server) Serve(ln net.Listener) error {
	ln.Close()
	return fmt.Errorf("%s serves HTTP/3 on a UDP socket (the quic transport), not on %s", s.name, ln.Addr().Network())
}

// ServePacket serves HTTP/3 on pc until the server is closed, then closes pc and
// returns nil; it returns quic-go's error if serving fails otherwise. Datagrams that
// are not QUIC, or QUIC packets that do not decrypt, are dropped by quic-go.
func (s *Server) ServePacket(pc net.PacketConn) error {
	qt := &quic.Transport{Conn: pc}
	ln, err := qt.ListenEarly(s.tls, nil)
	if err != nil {
		qt.Close()
		pc.Close()
		return fmt.Errorf("%s: %w", s.name, err)
	}
	l := &listener{pc: pc, qt: qt, ln: ln}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		l.close()
		return nil
	}
	s.listeners = append(s.listeners, l)
	s.mu.Unlock()
	err = s.hs.ServeListener(ln)
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, quic.ErrServerClosed) {
		return nil
	}
	s.Close()
	return err
}

// Shutdown stops accepting connections and sends each a GOAWAY, waits for the
// requests in flight until ctx is done, then closes like Close. It returns ctx's error
// when ctx ended first.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.hs.Shutdown(ctx)
	s.Close()
	return err
}

// Close closes every connection at once (their clients get a CONNECTION_CLOSE, the
// requests in flight have their contexts ended), then the listeners and sockets.
// http3.Server.Close returns once every connection has been closed, so the sockets
// stay open until the CONNECTION_CLOSE frames are sent.
func (s *Server) Close() error {
	err := s.hs.Close()
	s.mu.Lock()
	s.closed = true
	ls := s.listeners
	s.listeners = nil
	s.mu.Unlock()
	for _, l := range ls {
		l.close()
	}
	return err
}

// Client is what a net/http client over HTTP/3 needs: quic-go's http3.Transport for
// its http.Client, the base URL of the target, and Close.
type Client struct {
	// Transport dials every QUIC connection to the target from the client's one UDP
	// socket, whatever the URL's host, with quic-go's stock settings.
	Transport *http3.Transport
	// Base is "https://HOST:PORT", the start of every URL.
	Base string
	// Close closes, once, the connections (calls in flight fail), the QUIC
	// transport and the socket. It is safe to call more than once.
	Close func() error
}

// NewClient returns the HTTP/3 parts of a client of cfg.Address (a udp address),
// trusting cfg.TLS's CA (required), dialing from one socket of cfg.Packet. Unless
// cfg.NoProbe, it makes one QUIC handshake with the target within ctx and closes that
// connection, so that a wrong or dead target, or a certificate the client does not
// trust, fails here. name prefixes its errors.
func NewClient(ctx context.Context, name string, cfg protocol.ClientConfig) (*Client, error) {
	switch {
	case cfg.Address.Network != "udp":
		return nil, fmt.Errorf("%s: target %s: HTTP/3 needs a udp address (the quic transport)", name, cfg.Address)
	case !cfg.TLS.Enabled():
		return nil, fmt.Errorf("%s: %w: the client needs the CA that signed the server's certificate", name, ErrNoTLS)
	case cfg.Packet == nil:
		return nil, fmt.Errorf("%s: ClientConfig.Packet is nil", name)
	}
	raddr, err := net.ResolveUDPAddr("udp", cfg.Address.Address)
	if err != nil {
		return nil, fmt.Errorf("%s: target %s: %w", name, cfg.Address, err)
	}
	tc, err := cfg.TLS.ClientConfig(http3.NextProtoH3)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	pc, err := cfg.Packet()
	if err != nil {
		return nil, err
	}
	qt := &quic.Transport{Conn: pc}
	tr := &http3.Transport{
		TLSClientConfig: tc,
		Dial: func(ctx context.Context, _ string, tc *tls.Config, qc *quic.Config) (*quic.Conn, error) {
			return qt.DialEarly(ctx, raddr, tc, qc)
		},
	}
	shut := sync.OnceValue(func() error {
		return errors.Join(tr.Close(), qt.Close(), pc.Close())
	})
	if !cfg.NoProbe {
		conn, err := qt.Dial(ctx, raddr, tc, nil)
		if err != nil {
			shut()
			return nil, fmt.Errorf("QUIC handshake with %s: %w", cfg.Address, err)
		}
		conn.CloseWithError(0, "")
	}
	return &Client{Transport: tr, Base: "https://" + cfg.Address.Address, Close: shut}, nil
}
