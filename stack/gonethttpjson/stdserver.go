package gonethttpjson

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
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// StdServer serves a contract.Service over HTTP/1.1 with net/http and encoding/json.
// It is safe for concurrent use: Serve may run on several listeners at once, and Close
// and Shutdown may be called from any goroutine, more than once.
type StdServer struct {
	httpjson.HTTPServer
	mux *http.ServeMux
}

// NewStdServer returns a server of svc whose request bodies are bounded by
// cfg.MessageLimit() bytes, speaking TLS when cfg.TLS is enabled.
func NewStdServer(svc contract.Service, cfg protocol.ServerConfig) (*StdServer, error) {
	hs, err := httpjson.NewHTTPServer(svc, cfg)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	s := &StdServer{HTTPServer: hs, mux: mux}
	mux.HandleFunc("GET "+httpjson.PathPersons, s.listPersons)
	mux.HandleFunc("POST "+httpjson.PathPersons, s.createPerson)
	mux.HandleFunc("GET "+httpjson.PathPerson, s.getPerson)
	mux.HandleFunc("GET "+httpjson.PathLinks, s.getPersonLinks)
	mux.HandleFunc("POST "+httpjson.PathEcho, s.echo)
	mux.HandleFunc("GET "+httpjson.PathStats, s.stats)
	mux.HandleFunc("POST "+httpjson.PathIncrement, s.increment)
	mux.HandleFunc("GET "+httpjson.PathTrades, s.streamTrades)
	s.handleMessages(cfg.Message)
	// ServeMux answers a wrong method and an unknown route itself, in plain text; the
	// protocol's refusals are JSON. So each path also gets a pattern without a method,
	// which the ones above win over, answering 405 with the path's Allow header, and
	// "/", which every other pattern wins over, answers 404.
	for _, rt := range httpjson.Routes {
		mux.HandleFunc(rt.Path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", rt.Allow)
			writeStdError(w, http.StatusMethodNotAllowed, httpjson.MethodNotAllowed(r, rt.Allow))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeStdError(w, http.StatusNotFound, httpjson.NoRoute(r.URL.Path))
	})
	s.Handle(mux)
	return s, nil
}

func (s *StdServer) listPersons(w http.ResponseWriter, r *http.Request) {
	ps, err := s.Service().ListPersons(r.Context())
	reply(w, httpjson.PersonList{Persons: ps}, err)
}

func (s *StdServer) getPerson(w http.ResponseWriter, r *http.Request) {
	id, ok := personID(w, r)
	if !ok {
		return
	}
	p, err := s.Service().GetPerson(r.Context(), id)
	reply(w, p, err)
}

func (s *StdServer) getPersonLinks(w http.ResponseWriter, r *http.Request) {
	id, ok := personID(w, r)
	if !ok {
		return
	}
	links, err := s.Service().GetPersonLinks(r.Context(), id)
	reply(w, httpjson.LinkList{Links: links}, err)
}

func (s *StdServer) createPerson(w http.ResponseWriter, r *http.Request) {
	var p contract.Person
	if !s.decode(w, r, "person", &p) {
		return
	}
	p, err := s.Service().CreatePerson(r.Context(), p)
	reply(w, p, err)
}

func (s *StdServer) echo(w http.ResponseWriter, r *http.Request) {
	var in httpjson.EchoRead
	if !s.decode(w, r, "echo body", &in) {
		return
	}
	out, err := s.Service().Echo(r.Context(), *in.Payload)
	reply(w, httpjson.EchoBody{Payload: out}, err)
}

func (s *StdServer) increment(w http.ResponseWriter, r *http.Request) {
	var in httpjson.ValueRead
	if !s.decode(w, r, "increment body", &in) {
		return
	}
	n, err := s.Service().Increment(r.Context(), *in.Value)
	reply(w, httpjson.ValueBody{Value: n}, err)
}

func (s *StdServer) stats(w http.ResponseWriter, r *http.Request) {
	st, err := s.Service().Stats(r.Context())
	reply(w, st, err)
}

// streamTrades streams the trades with encoding/json in the protocol's framing
// (ServeTrades): a json.Encoder writes each line into the batch's buffer.
func (s *StdServer) streamTrades(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	httpjson.ServeTrades(w, r, s.Service(), &buf, stdLines{json.NewEncoder(&buf)}, writeStdError)
}

// stdLines encodes the lines of a stream with a json.Encoder, which ends each with a
// newline.
type stdLines struct{ enc *json.Encoder }

func (l stdLines) Trade(t *contract.Trade) error                 { return l.enc.Encode(httpjson.ToWireTrade(t)) }
func (l stdLines) OriginalTrade(t *contract.OriginalTrade) error { return l.enc.Encode(t) }
func (l stdLines) End(count int64) error {
	return l.enc.Encode(httpjson.EndLine{End: httpjson.StreamEnd{Count: count}})
}
func (l stdLines) StreamError(ce *contract.Error) error {
	return l.enc.Encode(httpjson.ErrorLine{Error: httpjson.ErrorBody{Code: ce.Code, Message: ce.Message}})
}

// personID reads the {id} of the path. An id that is not a number names no person,
// so it gets the answer of an unknown id; on false the answer is written.
func personID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	text := r.PathValue("id")
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		writeStdError(w, http.StatusNotFound, httpjson.NoPerson(text))
		return 0, false
	}
	return id, true
}

// decode reads the request body within the limit (ReadRequest) and unmarshals it into
// v, a body of the kind what names, which must then be valid if it is a validator. On
// false the refusal is written.
func (s *StdServer) decode(w http.ResponseWriter, r *http.Request, what string, v any) bool {
	var buf bytes.Buffer
	body, ce := httpjson.ReadRequest(w, r, s.Limit(), &buf)
	if ce == nil {
		if err := json.Unmarshal(body, v); err != nil {
			ce = httpjson.BadBody(httpjson.JSONError(what, err))
		} else if vd, ok := v.(httpjson.Validator); ok && vd.Validate() != nil {
			ce = httpjson.BadBody(vd.Validate())
		}
	}
	if ce != nil {
		writeStdError(w, httpjson.StatusOf(ce.Code), ce)
		return false
	}
	return true
}

// reply answers a call: v when err is nil, else the refusal err stands for.
func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		ce := httpjson.ServiceError(err)
		writeStdError(w, httpjson.StatusOf(ce.Code), ce)
		return
	}
	writeStdJSON(w, http.StatusOK, v)
}

// writeStdJSON answers v as JSON. It is encoded first, so that a value that does not
// encode still gets a 500 (the status is not sent yet), and the answer carries its
// Content-Length.
func writeStdJSON(w http.ResponseWriter, status int, v any) {
	body, err := httpjson.EncodeJSON(v)
	if err != nil {
		writeStdError(w, http.StatusInternalServerError,
			&contract.Error{Code: contract.Internal, Message: "encoding the answer: " + err.Error()})
		return
	}
	w.Header().Set("Content-Type", httpjson.JSONType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body) // a failed write means the client is gone; nothing more to do
}

// writeStdError is the production server's ErrorWriter.
func writeStdError(w http.ResponseWriter, status int, ce *contract.Error) {
	writeStdJSON(w, status, httpjson.ErrorBody{Code: ce.Code, Message: ce.Message})
}

// ServeHTTP serves one request with the server's ServeMux, for tests and for mounting
// the server in another.
func (s *StdServer) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }
