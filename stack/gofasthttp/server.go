package gofasthttp

// The server: a fasthttp.Server with a request handler that routes the mapping's
// routes, and easyjson's generated code for every body.

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mailru/easyjson"
	"github.com/mailru/easyjson/jwriter"
	"github.com/valyala/fasthttp"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// The timeouts every deployed fasthttp server sets (fasthttp's defaults are none).
// There is deliberately no WriteTimeout: it would cut a long trade stream.
const (
	// readTimeout bounds the time to send a whole request, headers and body, so an
	// idle or trickling connection cannot hold a worker for ever (slowloris). It is
	// the net/http stacks' 60 s for a body; their 10 s for the headers alone has no
	// counterpart in fasthttp.
	readTimeout = 60 * time.Second
	// idleTimeout closes keep-alive connections that carry no request for this long.
	idleTimeout = 2 * time.Minute
)

// Server serves a contract.Service over HTTP/1.1 with fasthttp and easyjson. It is
// safe for concurrent use: Serve may run on several listeners at once, and Close and
// Shutdown may be called from any goroutine, more than once.
type Server struct {
	svc   contract.Service
	limit int
	tls   *tls.Config // nil: plain text
	fs    *fasthttp.Server

	// streams is the context of the trade streams' service calls, which run after
	// the handler returned, where the RequestCtx may not be used; Close cancels it.
	streams context.Context
	cancel  context.CancelFunc

	mu     sync.Mutex
	closed bool
	lns    []net.Listener
	conns  map[net.Conn]struct{} // open connections, tracked for Close
}

// NewServer returns a server of svc whose request bodies are bounded by
// cfg.MessageLimit() bytes, speaking TLS when cfg.TLS is enabled.
func NewServer(svc contract.Service, cfg protocol.ServerConfig) (*Server, error) {
	s := &Server{svc: svc, limit: cfg.MessageLimit(), conns: map[net.Conn]struct{}{}}
	if cfg.TLS.Enabled() {
		var err error
		if s.tls, err = cfg.TLS.ServerConfig("http/1.1"); err != nil {
			return nil, fmt.Errorf("%s: %w", httpjson.Name, err)
		}
	}
	s.streams, s.cancel = context.WithCancel(context.Background())
	s.fs = &fasthttp.Server{
		Handler:            s.handle,
		ErrorHandler:       s.badRequest,
		MaxRequestBodySize: s.limit,
		ReadTimeout:        readTimeout,
		IdleTimeout:        idleTimeout,
		ConnState:          s.track,
		// A library never prints: fasthttp logs failed connections and handler panics.
		Logger: discard{},
	}
	return s, nil
}

type discard struct{}

func (discard) Printf(string, ...any) {}

// track keeps the set of open connections, which Close closes.
func (s *Server) track(c net.Conn, state fasthttp.ConnState) {
	switch state {
	case fasthttp.StateNew:
		s.mu.Lock()
		if s.closed {
			c.Close() // accepted while Close ran: fasthttp's read fails at once
		} else {
			s.conns[c] = struct{}{}
		}
		s.mu.Unlock()
	case fasthttp.StateClosed, fasthttp.StateHijacked:
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}
}

// Serve accepts connections on ln until the server is closed, then returns nil; it
// returns the accept error if ln fails otherwise. Serve closes ln when it returns.
// With TLS, each connection's handshake is made by its first read, within readTimeout.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.lns = append(s.lns, ln)
	s.mu.Unlock()
	if s.tls != nil {
		ln = tls.NewListener(ln, s.tls)
	}
	err := s.fs.Serve(ln)
	ln.Close()
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil
	}
	return err
}

// Shutdown stops accepting and waits, until ctx is done, for the requests in flight
// to finish (a stream included) with fasthttp's own Shutdown; then it closes every
// connection. It returns ctx's error when ctx ended first.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopServing()
	err := s.fs.ShutdownWithContext(ctx)
	if errors.Is(err, net.ErrClosed) {
		err = nil // fasthttp closing the listeners stopServing closed
	}
	s.Close()
	return err
}

// Close closes the listeners and every connection at once: the requests in flight
// see their context end, and their clients see the connection fail.
func (s *Server) Close() error {
	s.stopServing()
	s.cancel()
	// fasthttp's Shutdown with a context that has ended: it closes the listeners,
	// ends the RequestCtx contexts and closes the idle connections, then returns at
	// once instead of waiting for the busy ones, which are closed below.
	done, end := context.WithCancel(context.Background())
	end()
	s.fs.ShutdownWithContext(done)
	s.mu.Lock()
	conns := s.conns
	s.conns = map[net.Conn]struct{}{}
	s.mu.Unlock()
	for c := range conns {
		c.Close()
	}
	return nil
}

// stopServing marks the server closed and closes its listeners, so that Serve
// returns and no connection is accepted any more.
func (s *Server) stopServing() {
	s.mu.Lock()
	s.closed = true
	lns := s.lns
	s.lns = nil
	s.mu.Unlock()
	for _, ln := range lns {
		ln.Close()
	}
}

// handle routes a request. The routes are few and fixed, so a switch on the path is
// the clearest router, and it answers unknown routes and wrong methods with JSON
// refusals like every other. fasthttp's Path is already unescaped and cleaned.
func (s *Server) handle(ctx *fasthttp.RequestCtx) {
	get := ctx.IsGet() || ctx.IsHead()
	post := ctx.IsPost()
	switch path := string(ctx.Path()); path {
	case httpjson.PathPersons:
		switch {
		case get:
			ps, err := s.svc.ListPersons(ctx)
			reply(ctx, &httpjson.PersonList{Persons: ps}, err)
		case post:
			s.createPerson(ctx)
		default:
			notAllowed(ctx, path, httpjson.AllowPersons)
		}
	case httpjson.PathEcho:
		if !post {
			notAllowed(ctx, path, httpjson.AllowPost)
			return
		}
		s.echo(ctx)
	case httpjson.PathIncrement:
		if !post {
			notAllowed(ctx, path, httpjson.AllowPost)
			return
		}
		s.increment(ctx)
	case httpjson.PathStats:
		if !get {
			notAllowed(ctx, path, httpjson.AllowGet)
			return
		}
		st, err := s.svc.Stats(ctx)
		reply(ctx, (*httpjson.StatsBody)(&st), err)
	case httpjson.PathTrades:
		if !get {
			notAllowed(ctx, path, httpjson.AllowGet)
			return
		}
		s.streamTrades(ctx)
	default:
		rest, ok := strings.CutPrefix(path, httpjson.PathPersons+"/")
		if !ok {
			writeError(ctx, fasthttp.StatusNotFound, httpjson.NoRoute(path))
			return
		}
		if !get {
			notAllowed(ctx, path, httpjson.AllowGet)
			return
		}
		idText, links := strings.CutSuffix(rest, "/links")
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil {
			// Not a number: it names no person, so it gets the answer of an unknown id.
			writeError(ctx, fasthttp.StatusNotFound, httpjson.NoPerson(idText))
			return
		}
		if links {
			ls, err := s.svc.GetPersonLinks(ctx, id)
			reply(ctx, &httpjson.LinkList{Links: ls}, err)
		} else {
			p, err := s.svc.GetPerson(ctx, id)
			reply(ctx, (*httpjson.PersonBody)(&p), err)
		}
	}
}

func (s *Server) createPerson(ctx *fasthttp.RequestCtx) {
	var p contract.Person
	if !decode(ctx, "person", (*httpjson.PersonBody)(&p), nil) {
		return
	}
	p, err := s.svc.CreatePerson(ctx, p)
	reply(ctx, (*httpjson.PersonBody)(&p), err)
}

func (s *Server) echo(ctx *fasthttp.RequestCtx) {
	var in httpjson.EchoRead
	if !decode(ctx, "echo body", &in, in.Validate) {
		return
	}
	out, err := s.svc.Echo(ctx, *in.Payload)
	reply(ctx, &httpjson.EchoBody{Payload: out}, err)
}

func (s *Server) increment(ctx *fasthttp.RequestCtx) {
	var in httpjson.ValueRead
	if !decode(ctx, "increment body", &in, in.Validate) {
		return
	}
	n, err := s.svc.Increment(ctx, *in.Value)
	reply(ctx, &httpjson.ValueBody{Value: n}, err)
}

// decode unmarshals the request body, of the kind what names, into v, which must then
// pass check (when not nil). fasthttp has read the body within the limit before the
// handler ran. On false the refusal is written.
func decode(ctx *fasthttp.RequestCtx, what string, v easyjson.Unmarshaler, check func() error) bool {
	err := easyjson.Unmarshal(ctx.PostBody(), v)
	if err != nil {
		err = fmt.Errorf("%s: %w", what, err)
	} else if check != nil {
		err = check()
	}
	if err != nil {
		writeError(ctx, fasthttp.StatusBadRequest, httpjson.BadBody(err))
		return false
	}
	return true
}

// reply answers a call: v when err is nil, else the refusal err stands for.
func reply(ctx *fasthttp.RequestCtx, v easyjson.Marshaler, err error) {
	if err != nil {
		ce := httpjson.ServiceError(err)
		writeError(ctx, httpjson.StatusOf(ce.Code), ce)
		return
	}
	writeJSON(ctx, fasthttp.StatusOK, v)
}

// writeJSON answers v as JSON and a newline, as the other stacks write bodies. It is
// encoded first, so that a value that does not encode still gets a 500.
func writeJSON(ctx *fasthttp.RequestCtx, status int, v easyjson.Marshaler) {
	var w jwriter.Writer
	v.MarshalEasyJSON(&w)
	w.RawByte('\n')
	if w.Error != nil {
		writeError(ctx, fasthttp.StatusInternalServerError,
			&contract.Error{Code: contract.Internal, Message: "encoding the answer: " + w.Error.Error()})
		return
	}
	ctx.Response.ResetBody()
	ctx.SetStatusCode(status)
	ctx.SetContentType(httpjson.JSONType)
	w.DumpTo(ctx) // appends to the response's body: no error
}

// writeError answers a refusal with status.
func writeError(ctx *fasthttp.RequestCtx, status int, ce *contract.Error) {
	writeJSON(ctx, status, &httpjson.ErrorBody{Code: ce.Code, Message: ce.Message})
}

func notAllowed(ctx *fasthttp.RequestCtx, path, allow string) {
	ctx.Response.Header.Set("Allow", allow)
	writeError(ctx, fasthttp.StatusMethodNotAllowed, httpjson.MethodNotAllowedOn(string(ctx.Method()), path, allow))
}

// badRequest is fasthttp's ErrorHandler: it answers a request fasthttp could not read
// (fasthttp then closes the connection) with the protocol's refusals.
func (s *Server) badRequest(ctx *fasthttp.RequestCtx, err error) {
	var small *fasthttp.ErrSmallBuffer
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		writeError(ctx, fasthttp.StatusRequestEntityTooLarge, httpjson.BodyTooLarge(int64(ctx.Request.Header.ContentLength()), s.limit))
	case errors.As(err, &small):
		writeError(ctx, fasthttp.StatusRequestHeaderFieldsTooLarge,
			&contract.Error{Code: contract.ResourceExhausted, Message: "request headers too large: " + err.Error()})
	default:
		writeError(ctx, fasthttp.StatusBadRequest,
			&contract.Error{Code: contract.InvalidArgument, Message: "malformed request: " + err.Error()})
	}
}

// streamTrades answers GET /trades?count=N in the protocol's framing: NDJSON lines in
// batches of httpjson.StreamBatch, ended by {"end"} or {"error"}.
func (s *Server) streamTrades(ctx *fasthttp.RequestCtx) {
	args := ctx.QueryArgs()
	count, ce := httpjson.TradeCount(args.Has("count"), string(args.Peek("count")))
	if ce != nil {
		writeError(ctx, httpjson.StatusOf(ce.Code), ce)
		return
	}
	if ctx.IsHead() {
		// The headers only: a HEAD must not cost the work of the stream it asks about.
		if ce := httpjson.HeadTradeCount(count); ce != nil {
			writeError(ctx, fasthttp.StatusBadRequest, ce)
			return
		}
		setStreamHeaders(ctx)
		return
	}
	// The writer runs the service in a goroutine of fasthttp's; it says on begun when
	// the first trade is out (nil) or the service ended before any (its error, nil
	// for an empty stream). Until then the answer's status is open.
	begun := make(chan error, 1)
	ctx.SetBodyStreamWriter(func(w *bufio.Writer) { s.writeTrades(w, count, begun) })
	if err := <-begun; err != nil {
		ce := httpjson.ServiceError(err)
		writeError(ctx, httpjson.StatusOf(ce.Code), ce) // drops the stream, which wrote nothing
		return
	}
	setStreamHeaders(ctx)
}

func setStreamHeaders(ctx *fasthttp.RequestCtx) {
	ctx.SetStatusCode(fasthttp.StatusOK)
	ctx.SetContentType(httpjson.NDJSONType)
	// Tell browsers and proxies not to guess the type or buffer the stream.
	ctx.Response.Header.Set("X-Content-Type-Options", "nosniff")
	ctx.Response.Header.Set("Cache-Control", "no-store")
}

// writeTrades runs one stream's service call and writes its lines into w, fasthttp's
// pipe to the connection: a flush every httpjson.StreamBatch trades, and one after
// the final line.
func (s *Server) writeTrades(w *bufio.Writer, count int64, begun chan<- error) {
	st := tradeWriter{w: w}
	started := false // begun has been told
	err := s.svc.StreamTrades(s.streams, count, func(t *contract.Trade) error {
		if !started {
			started = true
			begun <- nil
		}
		return st.trade(t)
	})
	if !started {
		begun <- err
		if err != nil {
			return // refused before its first trade: the handler answers
		}
	}
	switch {
	case err != nil:
		if st.werr != nil || s.streams.Err() != nil {
			return // the client or the server is gone: nobody to tell
		}
		st.line(&httpjson.ErrorLine{Error: *errorBody(httpjson.ServiceError(err))})
	default:
		st.line(&httpjson.EndLine{End: httpjson.StreamEnd{Count: st.n}})
	}
	st.flush()
}

func errorBody(ce *contract.Error) *httpjson.ErrorBody {
	return &httpjson.ErrorBody{Code: ce.Code, Message: ce.Message}
}

// tradeWriter writes the lines of one stream, each encoded by easyjson into a reused
// jwriter.Writer and copied into w.
type tradeWriter struct {
	w    *bufio.Writer
	jw   jwriter.Writer
	n    int64 // trades written
	werr error // the first write error: the client went away
}

func (st *tradeWriter) trade(t *contract.Trade) error {
	wt := httpjson.ToWireTrade(t)
	if err := st.line(&wt); err != nil {
		return err
	}
	st.n++
	if st.n%httpjson.StreamBatch == 0 {
		return st.flush()
	}
	return nil
}

// line writes v and a newline, or nothing when v does not encode.
func (st *tradeWriter) line(v easyjson.Marshaler) error {
	if st.werr != nil {
		return st.werr
	}
	v.MarshalEasyJSON(&st.jw)
	st.jw.RawByte('\n')
	if err := st.jw.Error; err != nil {
		st.jw = jwriter.Writer{}
		return err
	}
	if _, err := st.jw.DumpTo(st.w); err != nil {
		st.werr = err
	}
	return st.werr
}

func (st *tradeWriter) flush() error {
	if st.werr == nil {
		st.werr = st.w.Flush()
	}
	return st.werr
}
