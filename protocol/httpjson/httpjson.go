// Package httpjson is the HTTP/1.1 + JSON protocol adapter ("http-json"): the contract
// served as a small REST API by net/http, and a lean client of its own.
//
// Design:
//
//   - Routes: GET /persons, GET /persons/{id}, GET /persons/{id}/links, POST /persons,
//     POST /echo, GET /stats, POST /increment, GET /trades?count=N. Bodies are JSON with
//     the contract's field names (contract/model.go tags): a Person as is (picture
//     omitted when absent), {"persons":[...]}, {"links":[...]}, {"payload":"..."},
//     {"value":N}, {"calls":N,"last_payload_len":N}. int64 values are JSON numbers,
//     written exactly. Plain curl works on every route.
//   - Errors: a refused call answers {"code":"<contract code>","message":"..."} with
//     status 404 (not_found, also for a non-numeric id or an unknown route), 400
//     (invalid_argument), 413 (resource_exhausted), 500 (internal), or 405 (code
//     invalid_argument, with an Allow header) for a wrong method. The client maps the
//     body's code back to *contract.Error, and falls back on the status when the body
//     is not ours (any other server), so contract.CodeOf gives the same code on every
//     protocol.
//   - Request limit: a body over ServerConfig.MessageLimit() is refused with 413 from
//     its Content-Length before any of it is read, or, for a chunked body, by
//     http.MaxBytesReader once the limit is passed; net/http then closes the connection
//     instead of draining the rest.
//   - StreamTrades: GET /trades?count=N answers 200 with Content-Type
//     application/x-ndjson and a chunked body, one JSON trade per line (side as "BUY"
//     or "SELL"), written in batches of StreamBatch trades with one flush each. A
//     stream that completes ends with the line {"end":{"count":N}}; one that fails
//     after it started ends with {"error":{"code":...,"message":...}}. A body without
//     either final line was cut short, and the client reports it as an error. Errors
//     found before the first trade (a bad count) are ordinary error responses.
//   - Client: a pool of keep-alive HTTP/1.1 connections, every one opened through
//     ClientConfig.Dial. A call takes an idle connection (the most recently used) or
//     dials a new one when none is idle, so N calls in flight use N connections; one
//     request at a time per connection, no pipelining. Requests are written by hand
//     into a reused buffered writer, responses read by a minimal parser (status line,
//     headers, Content-Length, chunked and close-delimited bodies, Connection: close),
//     bodies bounded by ClientConfig.MessageLimit() (over it: ResourceExhausted). A
//     connection that failed, whose call's context ended, whose stream was stopped, or
//     whose response said Connection: close is closed, never reused. A context that
//     ends sets a past deadline on the connection, which ends the call's I/O at once.
//     A call that fails on a reused connection before any byte of the response arrived
//     (the server had closed it while idle) is retried once on a fresh connection.
//   - JSON: a hand-written codec for exactly these bodies (codec.go, over jsonread.go
//     and jsonwrite.go), no reflection, tested against encoding/json: it writes the
//     bytes encoding/json wrote (no HTML escaping) and accepts and stores what
//     json.Unmarshal does, case-insensitive keys, null and repeated keys included.
//     Decoding a person allocates its strings once for all its fields, so a field
//     kept keeps the person's other strings alive too.
package httpjson

import (
	"context"
	"errors"
	"net/http"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
)

// Name is the registry name of this protocol.
const Name = "http-json"

const (
	// StreamBatch is the number of trades written between two flushes of a trade
	// stream. A trade line is about 120 bytes, so a batch is about 30 KiB: large enough
	// that the cost of a chunk and a write system call is spread over many trades,
	// small enough that the first trades arrive early and a stopped stream wastes
	// little.
	StreamBatch = 256

	// streamFlushBytes flushes a batch early when its lines are unusually long.
	streamFlushBytes = 64 << 10

	// ndjsonType is the media type of the trade stream: newline-delimited JSON.
	ndjsonType = "application/x-ndjson"
	jsonType   = "application/json"
)

// TunedStack is the hand-optimised stack: the server's handlers and the client use a
// hand-written JSON codec, and the client is a lean HTTP/1.1 client of its own.
const TunedStack = "go-tuned-json"

func init() {
	protocol.Register(&protocol.Protocol{
		Name:    Name,
		Summary: "HTTP/1.1 + JSON REST, NDJSON trade stream",
		// TODO(issue 12): the production stack go-nethttp-json becomes the default.
		DefaultServer: TunedStack, DefaultClient: TunedStack,
	})
	protocol.RegisterStack(&protocol.Stack{
		Name: TunedStack, Protocol: Name, Language: "go", Tier: protocol.Tuned, Worker: protocol.WorkerGo,
		Summary:   "net/http server with a hand-written JSON codec; a lean keep-alive HTTP/1.1 client",
		Libraries: protocol.GoLibraries(),
		Sides:     protocol.ServerSide | protocol.ClientSide,
		NewServer: func(svc contract.Service, cfg protocol.ServerConfig) (protocol.Server, error) {
			if err := protocol.CheckOptions(Name, cfg.Options); err != nil {
				return nil, err // the server has no options
			}
			return NewServer(svc, cfg), nil
		},
		NewClient: func(ctx context.Context, cfg protocol.ClientConfig) (protocol.Client, error) {
			return NewClient(ctx, cfg)
		},
	})
}

// Compile-time checks of the interfaces this package implements.
var (
	_ protocol.Client = (*Client)(nil)
	_ protocol.Server = (*Server)(nil)
	_ http.Handler    = (*Server)(nil)
)

// statusOf returns the HTTP status that carries a contract code.
func statusOf(code contract.Code) int {
	switch code {
	case contract.NotFound:
		return http.StatusNotFound
	case contract.InvalidArgument:
		return http.StatusBadRequest
	case contract.ResourceExhausted:
		return http.StatusRequestEntityTooLarge
	default:
		return http.StatusInternalServerError
	}
}

// codeOfStatus returns the contract code a status stands for when the error body
// carries none (a server other than ours), or "" for a status that is no contract
// refusal.
func codeOfStatus(status int) contract.Code {
	switch status {
	case http.StatusNotFound:
		return contract.NotFound
	case http.StatusBadRequest, http.StatusMethodNotAllowed, http.StatusUnprocessableEntity:
		return contract.InvalidArgument
	case http.StatusRequestEntityTooLarge:
		return contract.ResourceExhausted
	case http.StatusInternalServerError:
		return contract.Internal
	}
	return ""
}

// serviceError returns the contract error a service error is answered with: a
// contract error as it is, anything else (a failure of the service's own, a context
// error) as internal.
func serviceError(err error) *contract.Error {
	var ce *contract.Error
	if errors.As(err, &ce) && ce.Code.Valid() {
		return ce
	}
	return &contract.Error{Code: contract.Internal, Message: err.Error()}
}
