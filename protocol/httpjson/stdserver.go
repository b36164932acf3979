package httpjson

// The production stack's server: net/http's ServeMux with Go 1.22 method and wildcard
// patterns, and encoding/json with its defaults, as a Go service's developers write
// one. What is the protocol's and not the stack's (the refusals, the body limit, the
// stream framing, the server settings) is shared with the tuned server (serve.go,
// streamserve.go).

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

// StdServer serves a contract.Service over HTTP/1.1 with net/http and encoding/json.
// It is safe for concurrent use: Serve may run on several listeners at once, and Close
// and Shutdown may be called from any goroutine, more than once.
type StdServer struct{ HTTPServer }

// NewStdServer returns a server of svc whose request bodies are bounded by
// cfg.MessageLimit() bytes, speaking TLS when cfg.TLS is enabled.
func NewStdServer(svc contract.Service, cfg protocol.ServerConfig) (*StdServer, error) {
	hs, err := NewHTTPServer(svc, cfg)
	if err != nil {
		return nil, err
	}
	s := &StdServer{hs}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+PathPersons, s.listPersons)
	mux.HandleFunc("POST "+PathPersons, s.createPerson)
	mux.HandleFunc("GET "+PathPerson, s.getPerson)
	mux.HandleFunc("GET "+PathLinks, s.getPersonLinks)
	mux.HandleFunc("POST "+PathEcho, s.echo)
	mux.HandleFunc("GET "+PathStats, s.stats)
	mux.HandleFunc("POST "+PathIncrement, s.increment)
	mux.HandleFunc("GET "+PathTrades, s.streamTrades)
	// ServeMux answers a wrong method and an unknown route itself, in plain text; the
	// protocol's refusals are JSON. So each path also gets a pattern without a method,
	// which the ones above win over, answering 405 with the path's Allow header, and
	// "/", which every other pattern wins over, answers 404.
	for _, rt := range routes {
		mux.HandleFunc(rt.path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", rt.allow)
			writeStdError(w, http.StatusMethodNotAllowed, MethodNotAllowed(r, rt.allow))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeStdError(w, http.StatusNotFound, NoRoute(r.URL.Path))
	})
	s.hs = newHTTPServer(mux)
	return s, nil
}

func (s *StdServer) listPersons(w http.ResponseWriter, r *http.Request) {
	ps, err := s.svc.ListPersons(r.Context())
	reply(w, PersonList{Persons: ps}, err)
}

func (s *StdServer) getPerson(w http.ResponseWriter, r *http.Request) {
	id, ok := personID(w, r)
	if !ok {
		return
	}
	p, err := s.svc.GetPerson(r.Context(), id)
	reply(w, p, err)
}

func (s *StdServer) getPersonLinks(w http.ResponseWriter, r *http.Request) {
	id, ok := personID(w, r)
	if !ok {
		return
	}
	links, err := s.svc.GetPersonLinks(r.Context(), id)
	reply(w, LinkList{Links: links}, err)
}

func (s *StdServer) createPerson(w http.ResponseWriter, r *http.Request) {
	var p contract.Person
	if !s.decode(w, r, "person", &p) {
		return
	}
	p, err := s.svc.CreatePerson(r.Context(), p)
	reply(w, p, err)
}

func (s *StdServer) echo(w http.ResponseWriter, r *http.Request) {
	var in EchoRead
	if !s.decode(w, r, "echo body", &in) {
		return
	}
	out, err := s.svc.Echo(r.Context(), *in.Payload)
	reply(w, EchoBody{Payload: out}, err)
}

func (s *StdServer) increment(w http.ResponseWriter, r *http.Request) {
	var in ValueRead
	if !s.decode(w, r, "increment body", &in) {
		return
	}
	n, err := s.svc.Increment(r.Context(), *in.Value)
	reply(w, ValueBody{Value: n}, err)
}

func (s *StdServer) stats(w http.ResponseWriter, r *http.Request) {
	st, err := s.svc.Stats(r.Context())
	reply(w, st, err)
}

// streamTrades streams the trades with encoding/json in the protocol's framing
// (ServeTrades): a json.Encoder writes each line into the batch's buffer.
func (s *StdServer) streamTrades(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	ServeTrades(w, r, s.svc, &buf, stdLines{json.NewEncoder(&buf)}, writeStdError)
}

// stdLines encodes the lines of a stream with a json.Encoder, which ends each with a
// newline.
type stdLines struct{ enc *json.Encoder }

func (l stdLines) Trade(t *contract.Trade) error { return l.enc.Encode(ToWireTrade(t)) }
func (l stdLines) End(count int64) error         { return l.enc.Encode(EndLine{End: StreamEnd{Count: count}}) }
func (l stdLines) StreamError(ce *contract.Error) error {
	return l.enc.Encode(ErrorLine{Error: ErrorBody{Code: ce.Code, Message: ce.Message}})
}

// personID reads the {id} of the path. An id that is not a number names no person,
// so it gets the answer of an unknown id; on false the answer is written.
func personID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	text := r.PathValue("id")
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		writeStdError(w, http.StatusNotFound, NoPerson(text))
		return 0, false
	}
	return id, true
}

// decode reads the request body within the limit (ReadRequest) and unmarshals it into
// v, a body of the kind what names, which must then be valid if it is a validator. On
// false the refusal is written.
func (s *StdServer) decode(w http.ResponseWriter, r *http.Request, what string, v any) bool {
	var buf bytes.Buffer
	body, ce := ReadRequest(w, r, s.limit, &buf)
	if ce == nil {
		if err := json.Unmarshal(body, v); err != nil {
			ce = BadBody(jsonError(what, err))
		} else if vd, ok := v.(validator); ok && vd.validate() != nil {
			ce = BadBody(vd.validate())
		}
	}
	if ce != nil {
		writeStdError(w, StatusOf(ce.Code), ce)
		return false
	}
	return true
}

// reply answers a call: v when err is nil, else the refusal err stands for.
func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		ce := ServiceError(err)
		writeStdError(w, StatusOf(ce.Code), ce)
		return
	}
	writeStdJSON(w, http.StatusOK, v)
}

// writeStdJSON answers v as JSON. It is encoded first, so that a value that does not
// encode still gets a 500 (the status is not sent yet), and the answer carries its
// Content-Length.
func writeStdJSON(w http.ResponseWriter, status int, v any) {
	body, err := encodeJSON(v)
	if err != nil {
		writeStdError(w, http.StatusInternalServerError,
			&contract.Error{Code: contract.Internal, Message: "encoding the answer: " + err.Error()})
		return
	}
	w.Header().Set("Content-Type", JSONType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body) // a failed write means the client is gone; nothing more to do
}

// encodeJSON is an answer's body: what json.Encoder writes for v, json.Marshal's bytes
// and a newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := json.NewEncoder(&buf).Encode(v)
	return buf.Bytes(), err
}

// writeStdError is the production server's ErrorWriter.
func writeStdError(w http.ResponseWriter, status int, ce *contract.Error) {
	writeStdJSON(w, status, ErrorBody{Code: ce.Code, Message: ce.Message})
}

// ServeHTTP serves one request with the server's ServeMux, for tests and for mounting
// the server in another.
func (s *StdServer) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.hs.Handler.ServeHTTP(w, r) }
