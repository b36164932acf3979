package coderwebsocket

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

// The server's timeouts for the HTTP request that opens a WebSocket, those of
// http-json's servers: its headers must arrive within readHeaderTimeout (which bounds
// a TLS handshake too), and a connection that opened none is closed after
// idleTimeout. Once upgraded, the connection is the WebSocket's (messageTimeout).
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 2 * time.Minute
)

// maxCalls bounds the calls in flight on one connection, as HTTP/2 servers bound
// concurrent streams (net/http's default is 250): it bounds the goroutines and the
// requests a connection holds. A request beyond it waits, unread, for a call to end.
const maxCalls = 250

// Server serves the contract over WebSockets accepted by coder/websocket on net/http.
// It is safe for concurrent use: Serve may run on several listeners at once, and
// Close and Shutdown may be called from any goroutine, more than once.
type Server struct {
	svc   contract.Service
	limit int
	// message is the message workload's type (nil: none).
	message protoreflect.MessageDescriptor
	hs      *http.Server
	tls     *tls.Config // nil: plain text

	// net/http forgets a connection once it is hijacked for a WebSocket, so the
	// server keeps its own set, to close them.
	mu     sync.Mutex
	conns  map[*serverConn]struct{}
	closed bool
	calls  int           // in flight on every connection
	idle   chan struct{} // closed when calls falls to 0
}

var _ protocol.Server = (*Server)(nil)

// NewServer returns a server of svc whose request messages are bounded by
// cfg.MessageLimit() bytes (a larger one closes its connection with status 1009, and
// the calls in flight on it fail with resource_exhausted), over TLS when cfg.TLS is
// enabled. It has no options.
func NewServer(svc contract.Service, cfg protocol.ServerConfig) (*Server, error) {
	if err := protocol.CheckOptions(Name, cfg.Options); err != nil {
		return nil, err
	}
	s := &Server{svc: svc, limit: cfg.MessageLimit(), conns: map[*serverConn]struct{}{}, message: cfg.Message}
	if cfg.TLS.Enabled() {
		var err error
		if s.tls, err = cfg.TLS.ServerConfig("http/1.1"); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+websocketproto.Path, s.accept)
	s.hs = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		// A library never prints: net/http logs bad requests and handler panics.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return s, nil
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

// Shutdown stops accepting connections, waits until no call is in flight on any
// WebSocket (calls that arrive meanwhile are served) or ctx is done, then closes
// every connection, telling each peer with status 1001 (going away). It returns
// ctx's error when ctx ended first.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.hs.Shutdown(ctx)
	for err == nil {
		s.mu.Lock()
		idle := s.idle
		s.mu.Unlock()
		if idle == nil {
			break
		}
		select {
		case <-idle:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	conns := s.stop()
	if err == nil {
		// The close handshakes, at once; each is bounded by coder/websocket's own
		// timeouts, and all by ctx.
		var wg sync.WaitGroup
		for _, c := range conns {
			wg.Go(func() { c.ws.Close(websocket.StatusGoingAway, "server shutting down") })
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	for _, c := range conns {
		c.end()
	}
	return err
}

// Close closes the listeners and every connection at once: the contexts of the calls
// in flight end and their clients see the connection fail.
func (s *Server) Close() error {
	err := s.hs.Close()
	for _, c := range s.stop() {
		c.end()
	}
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// stop marks the server closed and returns its connections.
func (s *Server) stop() []*serverConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	conns := make([]*serverConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	return conns
}

// callStarted and callEnded count the calls in flight for Shutdown.
func (s *Server) callStarted() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls == 0 {
		s.idle = make(chan struct{})
	}
	s.calls++
}

func (s *Server) callEnded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls--; s.calls == 0 {
		close(s.idle)
		s.idle = nil
	}
}

// accept upgrades the request to a WebSocket and serves it until it ends.
// coder/websocket refuses requests that are no WebSocket handshake (400, 426) and
// cross-origin ones (403: a browser page from another host).
func (s *Server) accept(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept answered the refusal
	}
	ws.SetReadLimit(int64(s.limit))
	ctx, cancel := context.WithCancel(context.Background())
	c := &serverConn{s: s, ws: ws, ctx: ctx, cancel: cancel, slots: make(chan struct{}, maxCalls), calls: map[uint64]context.CancelFunc{}}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.CloseNow()
		cancel()
		return
	}
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		c.end()
	}()
	c.read()
}

// serverConn is one WebSocket of the server: its reader runs in the goroutine of
// accept, each call in a goroutine of its own.
type serverConn struct {
	s      *Server
	ws     *websocket.Conn
	ctx    context.Context // ends with the connection; the calls' contexts derive from it
	cancel context.CancelFunc
	slots  chan struct{} // a token per call in flight

	mu    sync.Mutex
	calls map[uint64]context.CancelFunc // the calls in flight by id
}

// end closes the connection at once and ends the contexts of its calls.
func (c *serverConn) end() {
	c.cancel()
	c.ws.CloseNow()
}

// read reads requests and starts their calls until the connection fails or the peer
// closes it.
func (c *serverConn) read() {
	for {
		var req websocketproto.Request
		if err := readMessage(c.ctx, c.ws, &req); err != nil {
			c.refuse(err)
			return
		}
		if req.ID == nil {
			c.ws.Close(websocket.StatusPolicyViolation, "a request needs an id")
			return
		}
		id := *req.ID
		if req.Op == websocketproto.OpCancel {
			c.mu.Lock()
			if cancel := c.calls[id]; cancel != nil {
				cancel()
			}
			c.mu.Unlock()
			continue
		}
		select {
		case c.slots <- struct{}{}:
		case <-c.ctx.Done():
			return
		}
		c.mu.Lock()
		_, dup := c.calls[id]
		ctx, cancel := context.WithCancel(c.ctx)
		if !dup {
			c.calls[id] = cancel
		}
		c.mu.Unlock()
		c.s.callStarted()
		go func() {
			defer func() {
				cancel()
				if !dup {
					c.mu.Lock()
					delete(c.calls, id)
					c.mu.Unlock()
				}
				<-c.slots
				c.s.callEnded()
			}()
			if dup {
				c.reply(ctx, id, nil, contract.Errorf(contract.InvalidArgument, "call %d is already in flight on this connection", id))
				return
			}
			c.serve(ctx, id, req.Op, req.Body)
		}()
	}
}

// refuse ends the connection after a failed read, telling the peer why where the
// WebSocket can still say it: a message over the limit (1009, as coder/websocket
// says when the limit is hit; Close then discards the rest of the message, bounded
// by its own timeouts, so that the peer reads the status) or one that is no JSON
// (1007). A peer that closed or vanished is not answered.
func (c *serverConn) refuse(err error) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, websocket.ErrMessageTooBig):
		c.ws.Close(websocket.StatusMessageTooBig, fmt.Sprintf("message over the limit of %d bytes", c.s.limit))
	case errors.As(err, &se), errors.As(err, &te):
		c.ws.Close(websocket.StatusInvalidFramePayloadData, "a request must be a JSON object")
	}
}

// readMessage reads one message into v, within messageTimeout of its first frame;
// the wait for the message has no timeout.
func readMessage(ctx context.Context, ws *websocket.Conn, v any) error {
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	_, r, err := ws.Reader(mctx)
	if err != nil {
		return err
	}
	// Ending mctx makes coder/websocket close the connection.
	t := time.AfterFunc(messageTimeout, cancel)
	defer t.Stop()
	buf := getBuffer()
	defer putBuffer(buf)
	if _, err := buf.ReadFrom(r); err != nil {
		return err
	}
	return json.Unmarshal(buf.Bytes(), v)
}

// Message buffers are pooled; a buffer that grew past pooledBuffer (a large
// message) is left to the garbage collector, so the pool holds no large ones.
const pooledBuffer = 64 << 10

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= pooledBuffer {
		b.Reset()
		buffers.Put(b)
	}
}

// write writes one message within messageTimeout. A write that fails closes the
// connection: an answer that cannot be written would leave its call waiting.
func (c *serverConn) write(v any) error {
	ctx, cancel := context.WithTimeout(c.ctx, messageTimeout)
	defer cancel()
	if err := wsjson.Write(ctx, c.ws, v); err != nil {
		c.end()
		return err
	}
	return nil
}

// reply writes the answer of call id: body, or the refusal err. A call that failed
// because its context ended (cancelled by the client, or the connection closed) gets
// no answer.
func (c *serverConn) reply(ctx context.Context, id uint64, body any, err error) {
	if err == nil {
		c.write(&websocketproto.Answer{ID: id, Body: body})
		return
	}
	var ce *contract.Error
	switch {
	case errors.As(err, &ce):
		c.write(&websocketproto.Answer{ID: id, Error: &websocketproto.WireError{Code: ce.Code, Message: ce.Message}})
	case ctx.Err() != nil:
	default:
		c.write(&websocketproto.Answer{ID: id, Error: &websocketproto.WireError{Code: contract.Internal, Message: err.Error()}})
	}
}

// decode reads a request's body into v, which checks that it holds what it must; a
// body that does not decode is a refusal with invalid_argument.
func decode(op string, body json.RawMessage, v any, ok func() bool) error {
	if len(body) == 0 {
		return contract.Errorf(contract.InvalidArgument, "%s: missing body", op)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return contract.Errorf(contract.InvalidArgument, "%s body: %v", op, err)
	}
	if !ok() {
		return contract.Errorf(contract.InvalidArgument, "%s body: a field is missing", op)
	}
	return nil
}

// serve runs call id of op with its body and answers it.
func (c *serverConn) serve(ctx context.Context, id uint64, op string, body json.RawMessage) {
	svc := c.s.svc
	var (
		out any
		err error
	)
	switch op {
	case websocketproto.OpListPersons:
		var ps []contract.Person
		if ps, err = svc.ListPersons(ctx); err == nil {
			out = websocketproto.PersonList{Persons: ps}
		}
	case websocketproto.OpGetPerson:
		var in websocketproto.IDBody
		if err = decode(op, body, &in, func() bool { return in.ID != nil }); err == nil {
			var p contract.Person
			if p, err = svc.GetPerson(ctx, *in.ID); err == nil {
				out = &p
			}
		}
	case websocketproto.OpGetPersonLinks:
		var in websocketproto.IDBody
		if err = decode(op, body, &in, func() bool { return in.ID != nil }); err == nil {
			var links []contract.PersonLink
			if links, err = svc.GetPersonLinks(ctx, *in.ID); err == nil {
				out = websocketproto.LinkList{Links: links}
			}
		}
	case websocketproto.OpCreatePerson:
		var in contract.Person
		if err = decode(op, body, &in, func() bool { return true }); err == nil {
			var p contract.Person
			if p, err = svc.CreatePerson(ctx, in); err == nil {
				out = &p
			}
		}
	case websocketproto.OpEcho:
		var in websocketproto.EchoBody
		if err = decode(op, body, &in, func() bool { return in.Payload != nil }); err == nil {
			var p string
			if p, err = svc.Echo(ctx, *in.Payload); err == nil {
				out = websocketproto.EchoAnswer{Payload: p}
			}
		}
	case websocketproto.OpStats:
		var st contract.Stats
		if st, err = svc.Stats(ctx); err == nil {
			out = st
		}
	case websocketproto.OpIncrement:
		var in websocketproto.ValueBody
		if err = decode(op, body, &in, func() bool { return in.Value != nil }); err == nil {
			var n int64
			if n, err = svc.Increment(ctx, *in.Value); err == nil {
				out = websocketproto.ValueAnswer{Value: n}
			}
		}
	case websocketproto.OpStreamTrades:
		var in websocketproto.CountBody
		if err = decode(op, body, &in, func() bool { return in.Count != nil }); err == nil {
			c.stream(ctx, id, *in.Count)
			return
		}
	case websocketproto.OpEchoMessage:
		if c.s.message == nil {
			err = contract.Errorf(contract.InvalidArgument, "unknown op %q (this server was given no message type)", op)
			break
		}
		out, err = echoMessage(c.s.message, body)
	default:
		err = contract.Errorf(contract.InvalidArgument, "unknown op %q", op)
	}
	c.reply(ctx, id, out, err)
}

// stream sends the count trades of call id, a message each, then the end message.
// A cancelled call stops at its next trade; a write that fails has closed the
// connection. Either ends the service's loop.
func (c *serverConn) stream(ctx context.Context, id uint64, count int64) {
	var (
		t        websocketproto.WireTrade
		msg      = websocketproto.Answer{ID: id, Body: &t}
		writeErr error
	)
	err := c.s.svc.StreamTrades(ctx, count, func(tr *contract.Trade) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		t.Set(tr)
		writeErr = c.write(&msg)
		return writeErr
	})
	if writeErr != nil {
		return
	}
	if err != nil {
		c.reply(ctx, id, nil, err)
		return
	}
	c.write(&websocketproto.Answer{ID: id, End: &websocketproto.StreamEnd{Count: count}})
}
