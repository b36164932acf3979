// Package httpjson is the HTTP + JSON wire mapping ("http-json"): the contract served
// as a small REST API, which every stack of it speaks over HTTP/1.1, HTTP/2 and
// HTTP/3. Its Go stacks live in stack/: go-nethttp-json (the production stack and the
// default of both sides), go-nethttp-json-h2 and go-quicgo-json-h3 in
// stack/gonethttpjson, go-tuned-json in stack/gotunedjson.
//
// What is the protocol's is written once, exported for the stacks (serve.go,
// streamserve.go, calls.go, the bodies as Go types in stdjson.go, the types below):
// the routes, the refusals and their status codes, the body limit, the server's
// timeouts, the error and end bodies and the stream's framing. Each stack writes and
// reads the bodies with its own codec.
//
// The mapping:
//
//   - Routes: GET /persons, GET /persons/{id}, GET /persons/{id}/links, POST /persons,
//     POST /echo, GET /stats, POST /increment, GET /trades?count=N. Bodies are JSON with
//     the contract's field names (contract/model.go tags): a Person as is (picture
//     omitted when absent), {"persons":[...]}, {"links":[...]}, {"payload":"..."},
//     {"value":N}, {"calls":N,"last_payload_len":N}, each followed by a newline. int64
//     values are JSON numbers, written exactly. Plain curl works on every route. The
//     production stack escapes <, > and & in strings as encoding/json does by default
//     (\u003c...); the tuned codec writes them as they are; both are the same JSON.
//   - Errors: a refused call answers {"code":"<contract code>","message":"..."} with
//     status 404 (not_found, also for a non-numeric id or an unknown route), 400
//     (invalid_argument), 413 (resource_exhausted), 500 (internal), or 405 (code
//     invalid_argument, with an Allow header) for a wrong method. The clients map the
//     body's code back to *contract.Error, and fall back on the status when the body
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
//     either final line was cut short, and the clients report it as an error. Errors
//     found before the first trade (a bad count) are ordinary error responses. The
//     clients read the stream line by line, each line bounded by
//     ClientConfig.MessageLimit().
//   - The message workload: POST /message/echo carries a user's own message in the
//     protobuf JSON mapping (message.go; docs/your-service.md), on servers given its
//     type.
package httpjson

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

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

	// NDJSONType is the media type of the trade stream: newline-delimited JSON.
	NDJSONType = "application/x-ndjson"
	JSONType   = "application/json"
)

// DefaultStack is the stack of both sides when a benchmark names none: the production
// stack go-nethttp-json, registered by stack/gonethttpjson.
const DefaultStack = "go-nethttp-json"

func init() {
	protocol.Register(&protocol.Protocol{
		Name:          Name,
		Summary:       "JSON REST over HTTP/1.1, HTTP/2, HTTP/3 (net/http, quic-go), NDJSON trade stream",
		DefaultServer: DefaultStack, DefaultClient: DefaultStack,
	})
}

// GoStack is a stack of the protocol with both sides, in Go: libs are the
// standard-library packages and modules its results name (protocol.GoLibraries).
func GoStack(name string, tier protocol.Tier, summary string, libs []string,
	newServer func(contract.Service, protocol.ServerConfig) (protocol.Server, error),
	newClient func(context.Context, protocol.ClientConfig) (protocol.Client, error)) *protocol.Stack {
	return &protocol.Stack{
		Name: name, Protocol: Name, Language: "go", Tier: tier, Worker: protocol.WorkerGo,
		Summary: summary, Libraries: protocol.GoLibraries(libs...),
		Sides:     protocol.ServerSide | protocol.ClientSide,
		TLS:       true,
		NewServer: newServer, NewClient: newClient,
	}
}

// OptionDelay is the servers' one option: a duration (e.g. 2ms) every call waits
// before it runs, a known slowdown for testing that one shows (contract.Delayed).
// Like any option it makes the server's tier tuned.
const OptionDelay = "delay"

// ServerOptions adapts the constructor of a server of this package to
// protocol.Stack.NewServer, applying its options.
func ServerOptions[S protocol.Server](f func(contract.Service, protocol.ServerConfig) (S, error)) func(contract.Service, protocol.ServerConfig) (protocol.Server, error) {
	newServer := protocol.Servers(f)
	return func(svc contract.Service, cfg protocol.ServerConfig) (protocol.Server, error) {
		if err := protocol.CheckOptions(Name, cfg.Options, OptionDelay); err != nil {
			return nil, err
		}
		if v, ok := cfg.Options[OptionDelay]; ok {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > 10*time.Second {
				return nil, fmt.Errorf("%s: option %s=%q: want a duration from 0 to 10s, e.g. 2ms", Name, OptionDelay, v)
			}
			svc = contract.Delayed(svc, d)
		}
		return newServer(svc, cfg)
	}
}

// StatusOf returns the HTTP status that carries a contract code.
func StatusOf(code contract.Code) int {
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

// CodeOfStatus returns the contract code a status stands for when the error body
// carries none (a server other than ours), or "" for a status that is no contract
// refusal.
func CodeOfStatus(status int) contract.Code {
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

// ServiceError returns the contract error a service error is answered with: a
// contract error as it is, anything else (a failure of the service's own, a context
// error) as internal.
func ServiceError(err error) *contract.Error {
	var ce *contract.Error
	if errors.As(err, &ce) && ce.Code.Valid() {
		return ce
	}
	return &contract.Error{Code: contract.Internal, Message: err.Error()}
}
