// Package gotunedjson is the go-tuned-json stack of the http-json protocol (tier
// tuned): the wire mapping of protocol/httpjson served by net/http with a switch for
// a router and a hand-written JSON codec (server.go, codec.go), and called by a lean
// HTTP/1.1 client of its own (client.go, wire.go, stream.go). The instrument
// (stack/instrument) is this client with its answers remembered.
//
// What is the protocol's (routes, refusals, the body limit, the server's timeouts,
// the stream's framing) comes from protocol/httpjson; this package holds only the
// codec and the client.
//
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
//   - JSON: a hand-written codec for exactly the mapping's bodies (codec.go, over
//     jsonread.go and jsonwrite.go), no reflection, tested against encoding/json: it
//     writes the bytes encoding/json writes with HTML escaping off and accepts and
//     stores what json.Unmarshal does, case-insensitive keys, null and repeated keys
//     included. Decoding a person allocates its strings once for all its fields, so a
//     field kept keeps the person's other strings alive too. codec_bench_test.go
//     measures it against the JSON libraries that do the same job.
package gotunedjson

import (
	"net/http"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// Name is the stack's registry name.
const Name = "go-tuned-json"

func init() {
	s := httpjson.GoStack(Name, protocol.Tuned,
		"net/http server with a hand-written JSON codec; a lean keep-alive HTTP/1.1 client",
		[]string{"net/http"},
		httpjson.ServerOptions(NewServer), protocol.Clients(NewClient))
	s.OriginalTrades = true
	protocol.RegisterStack(s)
}

// Compile-time checks of the interfaces this package implements.
var (
	_ protocol.Client = (*Client)(nil)
	_ protocol.Server = (*Server)(nil)
	_ http.Handler    = (*Server)(nil)
)
