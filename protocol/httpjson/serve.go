package httpjson

// What the servers of both stacks share, because it is the protocol's and not the
// stack's: the routes and the methods each allows, the refusals and their messages,
// reading a request body within the limit, and the net/http server's settings and
// life cycle. Each stack writes the answers with its own JSON codec.

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

// Server timeouts, the ones every deployed net/http server sets. There is deliberately
// no ReadTimeout or WriteTimeout: both run from the start of a request, so they would
// cut a long trade stream (net/http even cancels the handler's context when the read
// deadline of its background read passes).
const (
	// readHeaderTimeout bounds the time to send a request's headers, so an idle or
	// trickling connection cannot hold a goroutine and a buffer for ever (slowloris).
	readHeaderTimeout = 10 * time.Second
	// bodyReadTimeout bounds the time to send a request body once the handler reads
	// it; it is cleared afterwards, so it cannot touch the answer.
	bodyReadTimeout = 60 * time.Second
	// IdleTimeout closes keep-alive connections that carry no request for this long;
	// without it net/http keeps them until the client goes.
	IdleTimeout = 2 * time.Minute
)

// The routes of the wire mapping, and the methods each allows in the Allow header of
// a 405 (HEAD goes with GET, as net/http's ServeMux has it).
const (
	PathPersons   = "/persons"
	PathPerson    = "/persons/{id}"
	PathLinks     = "/persons/{id}/links"
	PathEcho      = "/echo"
	PathStats     = "/stats"
	PathIncrement = "/increment"
	PathTrades    = "/trades"
	// ShapeParam is the query parameter of GET /trades that asks for the original's
	// trade: shape=original (contract.TradeOriginal); absent, or compact, is the
	// 6-field Trade.
	ShapeParam = "shape"

	AllowGet     = "GET, HEAD"
	AllowPost    = "POST"
	AllowPersons = "GET, HEAD, POST"
)

// Route is a path of the mapping with the methods it allows.
type Route struct{ Path, Allow string }

// Routes lists every path with the methods it allows.
var Routes = []Route{
	{PathPersons, AllowPersons},
	{PathPerson, AllowGet},
	{PathLinks, AllowGet},
	{PathEcho, AllowPost},
	{PathStats, AllowGet},
	{PathIncrement, AllowPost},
	{PathTrades, AllowGet},
}

// newHTTPServer returns a net/http server of h with the protocol's timeouts. It
// speaks HTTP/1.1 and HTTP/2, both net/http's own: h2c with prior knowledge on a plain
// connection (a connection that opens with HTTP/2's preface), h2 by ALPN over TLS, so
// one server answers clients of either version.
func newHTTPServer(h http.Handler) *http.Server {
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetHTTP2(true)
	protocols.SetUnencryptedHTTP2(true)
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       IdleTimeout,
		Protocols:         &protocols,
		// A library never prints: net/http logs bad requests and handler panics.
		ErrorLog: log.New(io.Discard, "", 0),
	}
}

// HTTPServer is what every server stack of the mapping is made of: the service, the request limit, and the
// life cycle of a net/http server as a protocol.Server. It is safe for concurrent use:
// Serve may run on several listeners at once, and Close and Shutdown may be called
// from any goroutine, more than once.
type HTTPServer struct {
	hs    *http.Server
	svc   contract.Service
	limit int
	tls   *tls.Config // nil: plain text
}

// NewHTTPServer returns the parts of a server of svc configured by cfg: the service,
// the request limit, and TLS when cfg asks for it. The stack then sets its handler
// (Handle).
func NewHTTPServer(svc contract.Service, cfg protocol.ServerConfig) (HTTPServer, error) {
	s := HTTPServer{svc: svc, limit: cfg.MessageLimit()}
	if cfg.TLS.Enabled() {
		var err error
		if s.tls, err = cfg.TLS.ServerConfig("h2", "http/1.1"); err != nil {
			return HTTPServer{}, fmt.Errorf("%s: %w", Name, err)
		}
	}
	return s, nil
}

// Handle makes h the server's handler and returns its net/http server, for the
// settings a stack changes (each stack calls it once, before serving).
func (s *HTTPServer) Handle(h http.Handler) *http.Server {
	s.hs = newHTTPServer(h)
	return s.hs
}

// Service is the service the server serves.
func (s HTTPServer) Service() contract.Service { return s.svc }

// Limit is the largest request body the server reads, in bytes.
func (s HTTPServer) Limit() int { return s.limit }

// Serve accepts connections on ln until the server is closed, then returns nil; it
// returns the accept error if ln fails otherwise. Serve closes ln when it returns.
// With TLS, net/http makes each connection's handshake itself, within
// ReadHeaderTimeout, and ALPN settles on h2 or http/1.1, as the client offers.
func (s HTTPServer) Serve(ln net.Listener) error {
	if s.tls != nil {
		ln = tls.NewListener(ln, s.tls)
	}
	err := s.hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting, waits for the requests in flight to finish (a stream
// included) until ctx is done, then closes every connection. It returns ctx's error
// when ctx ended first.
func (s HTTPServer) Shutdown(ctx context.Context) error {
	err := s.hs.Shutdown(ctx)
	s.Close()
	return err
}

// Close closes the listeners and every connection at once: the contexts of the
// requests in flight end and their clients see the connection fail.
func (s HTTPServer) Close() error {
	if err := s.hs.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// The refusals the routing and the request bodies give, the same from every server.

func NoRoute(path string) *contract.Error {
	return &contract.Error{Code: contract.NotFound, Message: "no route " + path}
}

// NoPerson refuses an id that is not a number: it names no person, so it gets the
// answer of an unknown id.
func NoPerson(idText string) *contract.Error {
	return &contract.Error{Code: contract.NotFound, Message: "no person with id " + strconv.Quote(idText)}
}

func MethodNotAllowed(r *http.Request, allow string) *contract.Error {
	return MethodNotAllowedOn(r.Method, r.URL.Path, allow)
}

// MethodNotAllowedOn is MethodNotAllowed for a server that is not net/http's.
func MethodNotAllowedOn(method, path, allow string) *contract.Error {
	return &contract.Error{Code: contract.InvalidArgument,
		Message: "method " + method + " is not allowed on " + path + "; allowed: " + allow}
}

// BodyTooLarge refuses a request body over limit: of length bytes as its
// Content-Length says, or, when length is negative (a chunked body), found over the
// limit while reading it.
func BodyTooLarge(length int64, limit int) *contract.Error {
	if length < 0 {
		return &contract.Error{Code: contract.ResourceExhausted,
			Message: "request body is over the limit of " + strconv.Itoa(limit) + " bytes"}
	}
	return &contract.Error{Code: contract.ResourceExhausted,
		Message: "request body of " + strconv.FormatInt(length, 10) + " bytes is over the limit of " + strconv.Itoa(limit)}
}

func BadBody(err error) *contract.Error {
	return &contract.Error{Code: contract.InvalidArgument, Message: err.Error()}
}

// ReadRequest reads the request body into buf (reset first) and returns it. A body over
// limit is refused (ResourceExhausted) from its Content-Length, before any of it is
// read, or while reading a chunked body through http.MaxBytesReader; net/http then
// closes the connection rather than drain what is left. Other failures are
// InvalidArgument.
func ReadRequest(w http.ResponseWriter, r *http.Request, limit int, buf *bytes.Buffer) ([]byte, *contract.Error) {
	if r.ContentLength > int64(limit) {
		return nil, BodyTooLarge(r.ContentLength, limit)
	}
	var src io.Reader = r.Body
	if r.ContentLength < 0 {
		// Chunked: the length shows only while reading.
		src = http.MaxBytesReader(w, r.Body, int64(limit))
	}
	// A stalled sender cannot hold the handler for ever; the deadline is cleared once
	// the body is in, so it never cuts the answer (nor, through net/http's background
	// read, the request's context).
	rc := http.NewResponseController(w)
	timed := rc.SetReadDeadline(time.Now().Add(bodyReadTimeout)) == nil
	buf.Reset()
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength) + 1) // +1: the read that sees EOF needs no more room
	}
	// Read to EOF (not just Content-Length bytes): hitting EOF is what starts
	// net/http's background read, which cancels the request's context when the client
	// goes away.
	_, err := readFull(buf, src)
	if timed {
		rc.SetReadDeadline(time.Time{})
	}
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, BodyTooLarge(-1, limit)
		}
		return nil, &contract.Error{Code: contract.InvalidArgument, Message: "reading request body: " + err.Error()}
	}
	return buf.Bytes(), nil
}

// readFull appends everything src holds to buf. Unlike bytes.Buffer.ReadFrom, it does
// not grow a buffer that was sized exactly for the body just to read the EOF.
func readFull(buf *bytes.Buffer, src io.Reader) (int, error) {
	total := 0
	for {
		free := buf.AvailableBuffer()
		if cap(free) == 0 {
			buf.Grow(4096)
			free = buf.AvailableBuffer()
		}
		n, err := src.Read(free[:cap(free)])
		if n > 0 {
			buf.Write(free[:n]) // appends in place: free is the buffer's own tail
			total += n
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
