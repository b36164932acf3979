package gotunedjson

// The tuned stack's server: net/http with a switch for a router and the hand-written
// JSON codec (codec.go) writing into pooled buffers.

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// maxHeaderBytes bounds a request's headers; ours are about 100 bytes (net/http's
// default is 1 MiB).
const maxHeaderBytes = 64 << 10

// Server serves a contract.Service over HTTP/1.1 with net/http and the hand-written
// codec. It is safe for concurrent use: Serve may run on several listeners at once,
// and Close and Shutdown may be called from any goroutine, more than once.
type Server struct{ httpjson.HTTPServer }

// NewServer returns a server of svc whose request bodies are bounded by
// cfg.MessageLimit() bytes, speaking TLS when cfg.TLS is enabled.
func NewServer(svc contract.Service, cfg protocol.ServerConfig) (*Server, error) {
	hs, err := httpjson.NewHTTPServer(svc, cfg)
	if err != nil {
		return nil, err
	}
	s := &Server{hs}
	s.Handle(s).MaxHeaderBytes = maxHeaderBytes
	return s, nil
}

// ServeHTTP routes a request. The routes are few and fixed, so a switch is both the
// clearest router and the cheapest, and it answers unknown routes and wrong methods
// with JSON errors like every other refusal.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	get := r.Method == http.MethodGet || r.Method == http.MethodHead
	post := r.Method == http.MethodPost
	switch path := r.URL.Path; path {
	case httpjson.PathPersons:
		switch {
		case get:
			s.listPersons(w, r)
		case post:
			s.createPerson(w, r)
		default:
			notAllowed(w, r, httpjson.AllowPersons)
		}
	case httpjson.PathEcho:
		if !post {
			notAllowed(w, r, httpjson.AllowPost)
			return
		}
		s.echo(w, r)
	case httpjson.PathIncrement:
		if !post {
			notAllowed(w, r, httpjson.AllowPost)
			return
		}
		s.increment(w, r)
	case httpjson.PathStats:
		if !get {
			notAllowed(w, r, httpjson.AllowGet)
			return
		}
		s.stats(w, r)
	case httpjson.PathTrades:
		if !get {
			notAllowed(w, r, httpjson.AllowGet)
			return
		}
		s.streamTrades(w, r)
	default:
		rest, ok := strings.CutPrefix(path, httpjson.PathPersons+"/")
		if !ok {
			writeError(w, http.StatusNotFound, httpjson.NoRoute(path))
			return
		}
		if !get {
			notAllowed(w, r, httpjson.AllowGet)
			return
		}
		idText, links := strings.CutSuffix(rest, "/links")
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil {
			writeError(w, http.StatusNotFound, httpjson.NoPerson(idText))
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
	ps, err := s.Service().ListPersons(r.Context())
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e := getEncoder()
	defer putEncoder(e)
	writeEncoded(w, e, encodePersonList(e, ps))
}

func (s *Server) getPerson(w http.ResponseWriter, r *http.Request, id int64) {
	p, err := s.Service().GetPerson(r.Context(), id)
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e := getEncoder()
	defer putEncoder(e)
	writeEncoded(w, e, encodePerson(e, &p))
}

func (s *Server) getPersonLinks(w http.ResponseWriter, r *http.Request, id int64) {
	links, err := s.Service().GetPersonLinks(r.Context(), id)
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
		writeError(w, http.StatusBadRequest, httpjson.BadBody(err))
		return
	}
	p, err := s.Service().CreatePerson(r.Context(), p)
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
		writeError(w, http.StatusBadRequest, httpjson.BadBody(err))
		return
	}
	out, err := s.Service().Echo(r.Context(), payload)
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
		writeError(w, http.StatusBadRequest, httpjson.BadBody(err))
		return
	}
	n, err = s.Service().Increment(r.Context(), n)
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e.buf.Reset()
	writeEncoded(w, e, encodeValue(e, n))
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	st, err := s.Service().Stats(r.Context())
	if err != nil {
		writeServiceError(w, err)
		return
	}
	e := getEncoder()
	defer putEncoder(e)
	writeEncoded(w, e, encodeStats(e, st))
}

// readBody reads the request body into e's buffer (ReadRequest). On false the refusal
// is written.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, e *encoder) ([]byte, bool) {
	body, ce := httpjson.ReadRequest(w, r, s.Limit(), &e.buf)
	if ce != nil {
		writeError(w, httpjson.StatusOf(ce.Code), ce)
		return nil, false
	}
	return body, true
}

// streamTrades streams the trades with the hand-written codec, in the protocol's
// framing (ServeTrades).
func (s *Server) streamTrades(w http.ResponseWriter, r *http.Request) {
	e := getEncoder()
	defer putEncoder(e)
	httpjson.ServeTrades(w, r, s.Service(), &e.buf, &tradeEncoder{encoder: e}, writeError)
}

// writeEncoded writes the encoded body of a 200 answer, or a 500 if encoding failed.
func writeEncoded(w http.ResponseWriter, e *encoder, err error) {
	if err != nil {
		writeError(w, http.StatusInternalServerError, &contract.Error{Code: contract.Internal, Message: "encoding the answer: " + err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, e.Bytes())
}

// jsonHeader is shared by every answer: net/http only reads header values.
var jsonHeader = []string{httpjson.JSONType}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonHeader
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body) // a failed write means the client is gone; nothing more to do
}

func writeServiceError(w http.ResponseWriter, err error) {
	ce := httpjson.ServiceError(err)
	writeError(w, httpjson.StatusOf(ce.Code), ce)
}

// writeError is the tuned server's ErrorWriter.
func writeError(w http.ResponseWriter, status int, ce *contract.Error) {
	e := getEncoder()
	defer putEncoder(e)
	encodeError(e, ce)
	writeJSON(w, status, e.Bytes())
}

func notAllowed(w http.ResponseWriter, r *http.Request, allow string) {
	w.Header()["Allow"] = []string{allow}
	writeError(w, http.StatusMethodNotAllowed, httpjson.MethodNotAllowed(r, allow))
}
