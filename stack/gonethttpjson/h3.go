package gonethttpjson

// The HTTP/3 stack, go-quicgo-json-h3: the production server's handler (net/http's
// ServeMux and encoding/json, stdserver.go) served by quic-go's http3.Server, and the
// production client (stdclient.go) over quic-go's http3.Transport, as quic-go's users
// write them (the QUIC plumbing is stack/internal/h3x's). The stack runs over the
// "quic" transport (udp:// addresses, TLS 1.3 always) and no other.
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
//     the same as over TCP (ReadRequest, through the stream's SetReadDeadline).
//     http3.Server has no ReadHeaderTimeout: a stream whose headers never come holds
//     one goroutine until its connection goes idle, and at most 100 per connection.

import (
	"context"
	"net/http"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/stack/internal/h3x"
)

// H3Name is the HTTP/3 stack: both sides over quic-go's http3, encoding/json.
const H3Name = "go-quicgo-json-h3"

// h3Stack is the stack's registry entry (gonethttpjson.go registers it).
func h3Stack() *protocol.Stack {
	return &protocol.Stack{
		Name: H3Name, Protocol: httpjson.Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "HTTP/3 over QUIC (quic-go http3.Server and http3.Transport), the ServeMux handler, net/http Client, encoding/json; quic transport only",
		Libraries: protocol.GoLibraries("github.com/quic-go/quic-go", "net/http", "encoding/json"),
		Sides:     protocol.ServerSide | protocol.ClientSide, QUIC: true, OriginalTrades: true, Messages: true,
		NewServer: httpjson.ServerOptions(NewH3Server), NewClient: protocol.Clients(NewH3Client),
	}
}

// H3Server serves a contract.Service over HTTP/3 with the production server's
// handler. It is safe for concurrent use, as h3x.Server is.
type H3Server struct {
	*h3x.Server
	handler *StdServer
}

var _ protocol.PacketServer = (*H3Server)(nil)

// NewH3Server returns an HTTP/3 server of svc whose request bodies are bounded by
// cfg.MessageLimit() bytes, with cfg.TLS's certificate (required).
func NewH3Server(svc contract.Service, cfg protocol.ServerConfig) (*H3Server, error) {
	plain := cfg
	plain.TLS = transport.TLS{} // the handler's own net/http server is never started
	h, err := NewStdServer(svc, plain)
	if err != nil {
		return nil, err
	}
	s, err := h3x.NewServer(httpjson.Name+" "+H3Name, h, cfg, httpjson.IdleTimeout)
	if err != nil {
		return nil, err
	}
	return &H3Server{Server: s, handler: h}, nil
}

// ServeHTTP serves one request with the server's handler, for tests.
func (s *H3Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// NewH3Client returns a client of cfg.Address (a udp address) over HTTP/3: the
// production client's code with net/http's Client over quic-go's http3.Transport
// (h3x.NewClient: one UDP socket of cfg.Packet, counted; cfg.TLS's CA, required; a
// QUIC handshake with the target unless cfg.NoProbe). Calls are streams of one QUIC
// connection, opened at the first call and again after it fails. No client option is
// known. Close closes the connection at once: calls in flight fail.
func NewH3Client(ctx context.Context, cfg protocol.ClientConfig) (*StdClient, error) {
	if err := protocol.CheckOptions(httpjson.Name, cfg.Options); err != nil {
		return nil, err
	}
	hc, err := h3x.NewClient(ctx, httpjson.Name+" "+H3Name, cfg)
	if err != nil {
		return nil, err
	}
	return &StdClient{
		hc:    &http.Client{Transport: hc.Transport},
		tr:    hc.Transport,
		shut:  hc.Close,
		base:  hc.Base,
		limit: cfg.MessageLimit(),
	}, nil
}
