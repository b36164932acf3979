package httpjson

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

// Server timeouts. There is deliberately no ReadTimeout or WriteTimeout: both run from
// the start of a request, so they would cut a long trade stream (net/http even cancels
// the handler's context when the read deadline of its background read passes).
const (
	// readHeaderTimeout bounds the time to send a request's headers, so an idle or
	// trickling connection cannot hold a goroutine and a buffer for ever.
	readHeaderTimeout = 10 * time.Second
	// bodyReadTimeout bounds the time to send a request body once the handler reads
	// it; it is cleared afterwards, so it cannot touch the answer.
	bodyReadTimeout = 60 * time.Second
	// idleTimeout closes keep-alive connections that carry no request for this long.
	idleTimeout = 2 * time.Minute
	// maxHeaderBytes bounds a request's headers; ours are about 100 bytes.
	maxHeaderBytes = 64 << 10
)

// Server serves a contract.Service over HTTP/1.1 with net/http. It is safe for
// concurrent use: Serve may run on several listeners at once, and Close and Shutdown
// may be called from any goroutine, more than once.
type Server struct {
	svc   contract.Service
	limit int
	hs    *http.Server
}

// NewServer returns a server of svc whose request bodies are bounded by
// cfg.MessageLimit() bytes.
func NewServer(svc contract.Service, cfg protocol.ServerConfig) *Server {
	s := &Server{svc: svc, limit: cfg.MessageLimit()}
	s.hs = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		// A library never prints: net/http logs bad requests and handler panics.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	return s
}

// Serve accepts connections on ln until the server is closed, then returns nil; it
// returns the accept error if ln fails otherwise. Serve closes ln when it returns.
func (s *Server) Serve(ln net.Listener) error {
	err := s.hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting, waits for the requests in flight to finish (a stream
// included) until ctx is done, then closes every connection. It returns ctx's error
// when ctx ended first.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.hs.Shutdown(ctx)
	s.Close()
	return err
}

// Close closes the listeners and every connection at once: the contexts of the
// requests in flight end and their clients see the connection fail.
func (s *Server) Close() error {
	if err := s.hs.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// ServeHTTP routes a request. The routes are few and fixed, so a switch is both the
// clearest router and the cheapest, and it answers unknown routes and wrong methods
// with JSON errors like every other refusal.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	get := r.Method == http.MethodGet || r.Method == http.MethodHead
	post := r.Method == http.MethodPost
	switch path := r.URL.Path; path {
	case "/persons":
		switch {
		case get:
			s.listPersons(w, r)
		case post:
			s.createPerson(w, r)
		default:
			methodNotAllowed(w, r, "GET, HEAD, POST")
		}
	case "/echo":
		if !post {
			methodNotAllowed(w, r, "POST")
			return
		}
		s.echo(w, r)
	case "/increment":
		if !post {
			methodNotAllowed(w, r, "POST")
			return
		}
		s.increment(w, r)
	case "/stats":
		if !get {
			methodNotAllowed(w, r, "GET, HEAD")
			return
		}
		s.stats(w, r)
	case "/trades":
		if !get {
			methodNotAllowed(w, r, "GET, HEAD")
			return
		}
		s.streamTrades(w, r)
	default:
		rest, ok := strings.CutPrefix(path, "/persons/")
		if !ok {
			writeError(w, http.StatusNotFound, contract.NotFound, "no route "+path)
			return
		}
		if !get {
			methodNotAllowed(w, r, "GET, HEAD")
			return
		}
		idText, links := strings.CutSuffix(rest, "/links")
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil {
			// Not an id, so no person: the same answer as an unknown id.
			writeError(w, http.StatusNotFound, contract.NotFound, "no person with id "+strconv.Quote(idText))
			return
		}
		if links {
			s.getPersonLinks(w, r, id)
		} else {
			s.getPerson(w, r, id)
		}
	}
}

func (s *Server) listPersons(w http.ResponseWriter, r *http.Request) {
	ps, err := s.svc.ListPersons(r.Context())
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e := getEncoder()
	defer putEncoder(e)
	writeEncoded(w, e, encodePersonList(e, ps))
}

func (s *Server) getPerson(w http.ResponseWriter, r *http.Request, id int64) {
	p, err := s.svc.GetPerson(r.Context(), id)
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e := getEncoder()
	defer putEncoder(e)
	writeEncoded(w, e, encodePerson(e, &p))
}

func (s *Server) getPersonLinks(w http.ResponseWriter, r *http.Request, id int64) {
	links, err := s.svc.GetPersonLinks(r.Context(), id)
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e := getEncoder()
	defer putEncoder(e)
	writeEncoded(w, e, encodeLinks(e, links))
}

func (s *Server) createPerson(w http.ResponseWriter, r *http.Request) {
	e := getEncoder()
	defer putEncoder(e)
	body, ok := s.readBody(w, r, e)
	if !ok {
		return
	}
	var p contract.Person
	if err := decodePerson(body, &p); err != nil {
		writeError(w, http.StatusBadRequest, contract.InvalidArgument, err.Error())
		return
	}
	p, err := s.svc.CreatePerson(r.Context(), p)
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e.buf.Reset()
	writeEncoded(w, e, encodePerson(e, &p))
}

func (s *Server) echo(w http.ResponseWriter, r *http.Request) {
	e := getEncoder()
	defer putEncoder(e)
	body, ok := s.readBody(w, r, e)
	if !ok {
		return
	}
	payload, err := decodeEcho(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, contract.InvalidArgument, err.Error())
		return
	}
	out, err := s.svc.Echo(r.Context(), payload)
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e.buf.Reset()
	writeEncoded(w, e, encodeEcho(e, out))
}

func (s *Server) increment(w http.ResponseWriter, r *http.Request) {
	e := getEncoder()
	defer putEncoder(e)
	body, ok := s.readBody(w, r, e)
	if !ok {
		return
	}
	n, err := decodeValue(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, contract.InvalidArgument, err.Error())
		return
	}
	n, err = s.svc.Increment(r.Context(), n)
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e.buf.Reset()
	writeEncoded(w, e, encodeValue(e, n))
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	st, err := s.svc.Stats(r.Context())
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e := getEncoder()
	defer putEncoder(e)
	writeEncoded(w, e, encodeStats(e, st))
}

// readBody reads the request body into e's buffer (reset first) and returns it. A
// body over the limit is refused with 413 from its Content-Length, before any of it
// is read, or while reading a chunked body through http.MaxBytesReader; net/http then
// closes the connection rather than drain what is left. Other failures answer 400.
// On false the answer is written.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, e *encoder) ([]byte, bool) {
	if r.ContentLength > int64(s.limit) {
		writeError(w, http.StatusRequestEntityTooLarge, contract.ResourceExhausted,
			"request body of "+strconv.FormatInt(r.ContentLength, 10)+" bytes is over the limit of "+strconv.Itoa(s.limit))
		return nil, false
	}
	var src io.Reader = r.Body
	if r.ContentLength < 0 {
		// Chunked: the length shows only while reading.
		src = http.MaxBytesReader(w, r.Body, int64(s.limit))
	}
	// A stalled sender cannot hold the handler for ever; the deadline is cleared once
	// the body is in, so it never cuts the answer (nor, through net/http's background
	// read, the request's context).
	rc := http.NewResponseController(w)
	timed := rc.SetReadDeadline(time.Now().Add(bodyReadTimeout)) == nil
	e.buf.Reset()
	if r.ContentLength > 0 {
		e.buf.Grow(int(r.ContentLength) + 1) // +1: the read that sees EOF needs no more room
	}
	// Read to EOF (not just Content-Length bytes): hitting EOF is what starts
	// net/http's background read, which cancels the request's context when the client
	// goes away.
	_, err := readFull(&e.buf, src)
	if timed {
		rc.SetReadDeadline(time.Time{})
	}
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, contract.ResourceExhausted,
				"request body is over the limit of "+strconv.Itoa(s.limit)+" bytes")
		} else {
			writeError(w, http.StatusBadRequest, contract.InvalidArgument, "reading request body: "+err.Error())
		}
		return nil, false
	}
	return e.buf.Bytes(), true
}

// readFull appends everything src holds to buf. Unlike bytes.Buffer.ReadFrom, it does
// not grow a buffer that was sized exactly for the body just to read the EOF.
func readFull(buf interface {
	AvailableBuffer() []byte
	Write([]byte) (int, error)
	Grow(int)
}, src io.Reader) (int, error) {
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

// streamTrades streams count trades as NDJSON, flushing every StreamBatch trades, and
// ends the stream with {"end":{"count":N}}, or with {"error":...} if the service fails
// after the first trade. Until the first trade nothing is written, so a refusal (a bad
// count) is an ordinary error response.
func (s *Server) streamTrades(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !q.Has("count") {
		writeError(w, http.StatusBadRequest, contract.InvalidArgument, "missing query parameter count, e.g. /trades?count=100")
		return
	}
	count, err := strconv.ParseInt(q.Get("count"), 10, 64)
	if err != nil {
		writeError(w, http.StatusBadRequest, contract.InvalidArgument, "count "+strconv.Quote(q.Get("count"))+" is not an integer")
		return
	}
	if r.Method == http.MethodHead {
		if count < 0 || count > contract.MaxTrades {
			writeError(w, http.StatusBadRequest, contract.InvalidArgument,
				fmt.Sprintf("trade count %d out of range [0, %d]", count, contract.MaxTrades))
			return
		}
		setStreamHeaders(w)
		w.WriteHeader(http.StatusOK)
		return
	}
	e := getEncoder()
	defer putEncoder(e)
	st := &tradeStream{w: w, rc: http.NewResponseController(w), enc: tradeEncoder{encoder: e}}
	err = s.svc.StreamTrades(r.Context(), count, st.yield)
	switch {
	case err != nil && !st.started:
		writeServiceError(w, err)
	case err != nil:
		if st.werr != nil || r.Context().Err() != nil {
			return // the client is gone: nobody to tell
		}
		st.enc.encodeStreamError(serviceError(err))
		st.flush()
	default:
		st.start()
		st.enc.encodeEnd(st.n)
		st.flush()
	}
}

func setStreamHeaders(w http.ResponseWriter) {
	h := w.Header()
	h["Content-Type"] = []string{ndjsonType}
	// Tell browsers and proxies not to guess the type or buffer the stream.
	h["X-Content-Type-Options"] = []string{"nosniff"}
	h["Cache-Control"] = []string{"no-store"}
}

// tradeStream writes the lines of one stream in batches.
type tradeStream struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	enc     tradeEncoder
	started bool
	n       int64 // trades encoded
	werr    error // the first write error: the client went away
}

func (st *tradeStream) start() {
	if !st.started {
		st.started = true
		setStreamHeaders(st.w)
		st.w.WriteHeader(http.StatusOK)
	}
}

func (st *tradeStream) yield(t *contract.Trade) error {
	st.start()
	if err := st.enc.encodeTrade(t); err != nil {
		return err
	}
	st.n++
	if st.n%StreamBatch == 0 || st.enc.buf.Len() >= streamFlushBytes {
		return st.flush()
	}
	return nil
}

// flush writes the batch as one chunk and pushes it to the client.
func (st *tradeStream) flush() error {
	if st.werr != nil {
		return st.werr
	}
	if st.enc.buf.Len() > 0 {
		if _, err := st.w.Write(st.enc.buf.Bytes()); err != nil {
			st.werr = err
			return err
		}
		st.enc.buf.Reset()
	}
	if err := st.rc.Flush(); err != nil {
		st.werr = err
	}
	return st.werr
}

// writeEncoded writes the encoded body of a 200 answer, or a 500 if encoding failed.
func writeEncoded(w http.ResponseWriter, e *encoder, err error) {
	if err != nil {
		writeError(w, http.StatusInternalServerError, contract.Internal, "encoding the answer: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, e.Bytes())
}

// jsonHeader is shared by every answer: net/http only reads header values.
var jsonHeader = []string{jsonType}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonHeader
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body) // a failed write means the client is gone; nothing more to do
}

func writeServiceError(w http.ResponseWriter, err error) {
	ce := serviceError(err)
	writeError(w, statusOf(ce.Code), ce.Code, ce.Message)
}

func writeError(w http.ResponseWriter, status int, code contract.Code, msg string) {
	e := getEncoder()
	defer putEncoder(e)
	encodeError(e, &contract.Error{Code: code, Message: msg})
	writeJSON(w, status, e.Bytes())
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request, allow string) {
	w.Header()["Allow"] = []string{allow}
	writeError(w, http.StatusMethodNotAllowed, contract.InvalidArgument,
		"method "+r.Method+" is not allowed on "+r.URL.Path+"; allowed: "+allow)
}
