package httpjson

// The HTTP/3 stack, go-quicgo-json-h3: the production server's handler (net/http's
// ServeMux and encoding/json, stdserver.go) served by quic-go's http3.Server, and the
// production client (stdclient.go) over quic-go's http3.Transport, as quic-go's users
// write them. HTTP/3 runs over QUIC, which is UDP with TLS 1.3 always, so both sides
// need ServerConfig.TLS and ClientConfig.TLS, and the stack runs over the "quic"
// transport (udp:// addresses) and no other.
//
// What changes with the version and what does not:
//   - The routes, bodies, refusals, body limit and stream framing are the handler's,
//     the same bytes as over HTTP/1.1 and HTTP/2. A trade stream is a response of
//     DATA frames with no Content-Length (HTTP/3 has no chunked encoding); each flush
//     of a batch sends what it holds.
//   - Every call is a QUIC stream of one connection per client (as HTTP/2 multiplexes
//     on one TCP connection); the server allows quic-go's default of 100 streams in
//     flight per connection, and a client with more calls at once waits for a stream.
//   - The server's timeouts are quic-go's and http3.Server's: a connection silent for
//     quic-go's MaxIdleTimeout (30 s) closes; IdleTimeout (the same 2 minutes as the
//     net/http servers) closes one that carries no request; the body read deadline is
//     the same as over TCP (readRequest, through the stream's SetReadDeadline).
//     http3.Server has no ReadHeaderTimeout: a stream whose headers never come holds
//     one goroutine until its connection goes idle, and at most 100 per connection.
//   - quic-go raises each UDP socket's buffers to 7 MiB (as root with SO_RCVBUFFORCE);
//     where the kernel refuses (net.core.rmem_max below that and no CAP_NET_ADMIN) it
//     logs one line to the process's standard logger and runs with the kernel's size.
//     docs/protocols.md says how to raise the limits.

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/transport"
)

// H3Stack is the HTTP/3 stack: both sides over quic-go's http3, encoding/json.
const H3Stack = "go-quicgo-json-h3"

// h3Stack is the stack's registry entry (httpjson.go registers it).
func h3Stack() *protocol.Stack {
	return &protocol.Stack{
		Name: H3Stack, Protocol: Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "HTTP/3 over QUIC (quic-go http3.Server and http3.Transport), the ServeMux handler, net/http Client, encoding/json; quic transport only",
		Libraries: protocol.GoLibraries("github.com/quic-go/quic-go", "net/http", "encoding/json"),
		Sides:     protocol.ServerSide | protocol.ClientSide, QUIC: true,
		NewServer: serverOptions(NewH3Server), NewClient: protocol.Clients(NewH3Client),
	}
}

// errNoQUICTLS is the refusal of either side without TLS: QUIC cannot run without it.
var errNoQUICTLS = errors.New("HTTP/3 runs over QUIC, which is always TLS 1.3")

// H3Server serves a contract.Service over HTTP/3 with quic-go's http3.Server and the
// production server's handler. It is safe for concurrent use: ServePacket may run on
// several sockets at once, and Close and Shutdown may be called from any goroutine,
// more than once.
type H3Server struct {
	handler *StdServer
	hs      *http3.Server
	tls     *tls.Config // the listeners', configured for HTTP/3

	mu        sync.Mutex
	listeners []*quicListener // served now, closed by Close after hs
	closed    bool
}

// quicListener is what ServePacket opens on a socket: a QUIC transport over it and
// its listener, all closed by close.
type quicListener struct {
	pc net.PacketConn
	qt *quic.Transport
	ln *quic.EarlyListener
}

func (l *quicListener) close() {
	l.ln.Close()
	l.qt.Close()
	l.pc.Close()
}

var _ protocol.PacketServer = (*H3Server)(nil)

// NewH3Server returns an HTTP/3 server of svc whose request bodies are bounded by
// cfg.MessageLimit() bytes, with cfg.TLS's certificate (required).
func NewH3Server(svc contract.Service, cfg protocol.ServerConfig) (*H3Server, error) {
	if !cfg.TLS.Enabled() {
		return nil, fmt.Errorf("%s %s: %w: the server needs a certificate", Name, H3Stack, errNoQUICTLS)
	}
	tc, err := cfg.TLS.ServerConfig(http3.NextProtoH3)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", Name, H3Stack, err)
	}
	plain := cfg
	plain.TLS = transport.TLS{} // the handler's own net/http server is never started
	h, err := NewStdServer(svc, plain)
	if err != nil {
		return nil, err
	}
	return &H3Server{
		handler: h,
		hs:      &http3.Server{Handler: h, IdleTimeout: idleTimeout},
		tls:     http3.ConfigureTLSConfig(tc),
	}, nil
}

// Serve refuses a stream listener (and closes it): HTTP/3 is served on a UDP socket,
// with ServePacket.
func (s *H3Server) Serve(ln net.Listener) error {
	ln.Close()
	return fmt.Errorf("%s %s serves HTTP/3 on a UDP socket (the quic transport), not on %s", Name, H3Stack, ln.Addr().Network())
}

// ServePacket serves HTTP/3 on pc until the server is closed, then closes pc and
// returns nil; it returns quic-go's error if serving fails otherwise. The QUIC
// listener on pc is quic-go's with its default settings. Datagrams that are not QUIC,
// or QUIC packets that do not decrypt, are dropped by quic-go.
func (s *H3Server) ServePacket(pc net.PacketConn) error {
	qt := &quic.Transport{Conn: pc}
	ln, err := qt.ListenEarly(s.tls, nil)
	if err != nil {
		qt.Close()
		pc.Close()
		return fmt.Errorf("%s %s: %w", Name, H3Stack, err)
	}
	l := &quicListener{pc: pc, qt: qt, ln: ln}
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
func (s *H3Server) Shutdown(ctx context.Context) error {
	err := s.hs.Shutdown(ctx)
	s.Close()
	return err
}

// Close closes every connection at once (their clients get a CONNECTION_CLOSE, the
// requests in flight have their contexts ended), then the listeners and sockets.
// http3.Server.Close returns once every connection has been closed, so the sockets
// stay open until the CONNECTION_CLOSE frames are sent.
func (s *H3Server) Close() error {
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

// ServeHTTP serves one request with the server's handler, for tests.
func (s *H3Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// NewH3Client returns a client of cfg.Target (a udp address) over HTTP/3: net/http's
// Client whose Transport is quic-go's http3.Transport, with stock settings, dialing
// its QUIC connections from one UDP socket of cfg.Packet (whose datagrams are
// counted), trusting cfg.TLS's CA (required). Calls are streams of one QUIC
// connection, opened at the first call and again after it fails. Unless cfg.NoProbe,
// it makes one QUIC handshake with the target within ctx and closes that connection,
// so that a wrong or dead target, or a certificate the client does not trust, fails
// here. No client option is known. Close closes the connection at once: calls in
// flight fail.
func NewH3Client(ctx context.Context, cfg protocol.ClientConfig) (*StdClient, error) {
	if err := protocol.CheckOptions(Name, cfg.Options); err != nil {
		return nil, err
	}
	switch {
	case cfg.Target.Network != "udp":
		return nil, fmt.Errorf("%s %s: target %s: HTTP/3 needs a udp address (the quic transport)", Name, H3Stack, cfg.Target)
	case !cfg.TLS.Enabled():
		return nil, fmt.Errorf("%s %s: %w: the client needs the CA that signed the server's certificate", Name, H3Stack, errNoQUICTLS)
	case cfg.Packet == nil:
		return nil, fmt.Errorf("%s %s: ClientConfig.Packet is nil", Name, H3Stack)
	}
	raddr, err := net.ResolveUDPAddr("udp", cfg.Target.Address)
	if err != nil {
		return nil, fmt.Errorf("%s %s: target %s: %w", Name, H3Stack, cfg.Target, err)
	}
	tc, err := cfg.TLS.ClientConfig(http3.NextProtoH3)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", Name, H3Stack, err)
	}
	pc, err := cfg.Packet()
	if err != nil {
		return nil, err
	}
	qt := &quic.Transport{Conn: pc}
	tr := &http3.Transport{
		TLSClientConfig: tc,
		// Every connection is dialled to the target from the client's socket, whatever
		// the URL's host (as the other clients dial through ClientConfig.Dial).
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
			return nil, fmt.Errorf("QUIC handshake with %s: %w", cfg.Target, err)
		}
		conn.CloseWithError(0, "")
	}
	return &StdClient{
		hc:    &http.Client{Transport: tr},
		tr:    tr,
		shut:  shut,
		base:  "https://" + cfg.Target.Address,
		limit: cfg.MessageLimit(),
	}, nil
}
