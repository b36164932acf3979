// Package gofasthttp is the go-fasthttp-easyjson stack of the http-json protocol
// (tier production): the wire mapping of protocol/httpjson served by valyala/fasthttp's
// Server and called by its HostClient, every body written and read by the easyjson code
// generated for the mapping's types (protocol/httpjson/stdjson_easyjson.go), as Go
// services built on fasthttp are written. fasthttp speaks HTTP/1.1 only.
//
// What is the protocol's (routes, refusals and their messages, the body limit, the
// stream's framing and final lines, the clients' error mapping) comes from
// protocol/httpjson; this package holds what is fasthttp's.
//
//   - Server (server.go): a fasthttp.Server whose request handler routes the
//     contract's routes with a switch on the path, answering unknown routes (404) and
//     wrong methods (405 with Allow) with the protocol's JSON refusals. fasthttp reads
//     a whole request before the handler runs, bounded by its MaxRequestBodySize (the
//     run's message limit): a larger body is refused with 413 from its Content-Length
//     before any of it is read, or while reading a chunked one, and the connection is
//     closed. Requests fasthttp cannot parse get a JSON 400 and a closed connection.
//     Settings are fasthttp's defaults (4 KiB read buffer, which also bounds a
//     request's headers; its Server header) but for the timeouts every deployed server
//     sets: 60 s to read a request, 2 min idle.
//   - Trade stream: SetBodyStreamWriter, fasthttp's way to stream an answer, in
//     batches of httpjson.StreamBatch lines with one flush each. The handler waits for
//     the stream's first trade (or its end) before it answers, so that a stream the
//     service refuses before its first trade (a bad count) is an ordinary error answer,
//     as the protocol asks. The stream's service call runs with a context that Close
//     cancels (fasthttp forbids the RequestCtx there); a client that goes away fails
//     the next flush, which stops the service.
//   - Contexts: the other calls get the RequestCtx as their context, as fasthttp
//     handlers do. fasthttp ends it only when the server shuts down: it does not watch
//     for a client that goes away during a call, as net/http does.
//   - Close closes the listeners and every connection at once, idle or busy (fasthttp's
//     own Shutdown waits for busy ones; the server tracks its connections through
//     fasthttp's ConnState hook for that). Shutdown is fasthttp's, bounded by its
//     context, then Close.
//   - Client (client.go): one fasthttp.HostClient whose connections all come from
//     ClientConfig.Dial; MaxConns is fasthttp's default (512) or the expected
//     concurrency when larger, so that calls never fail with ErrNoFreeConns. Answers
//     are bounded by MaxResponseBodySize (the client's limit); the trade stream is read
//     with Response.StreamBody, line by line, each bounded by the limit, and a stream
//     stopped by its receiver closes its connection. fasthttp's client takes no
//     context: a call's deadline becomes its DoDeadline, a context ended before the
//     call fails it at once, and one that ends during a stream closes the stream's
//     connection; one cancelled during any other call (no deadline) is seen only when
//     the answer arrives. fasthttp retries idempotent calls (GETs) that fail on a
//     connection, up to its default of 5 attempts.
//   - JSON: easyjson's generated code with its defaults, which escape <, > and & as
//     encoding/json does. Unlike encoding/json it matches keys case-sensitively, so
//     {"Payload":"x"} is an echo body without its payload (400).
//   - TLS: the server wraps its listeners with the run's certificate (TLS 1.3, ALPN
//     http/1.1); the client makes the handshake when it opens a connection
//     (transport.TLSDialer).
package gofasthttp

import (
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/httpjson"
)

// Name is the stack's registry name.
const Name = "go-fasthttp-easyjson"

func init() {
	protocol.RegisterStack(httpjson.GoStack(Name, protocol.Production,
		"fasthttp Server and HostClient (HTTP/1.1), easyjson's generated code on both sides",
		[]string{"github.com/valyala/fasthttp", "github.com/mailru/easyjson"},
		httpjson.ServerOptions(NewServer), protocol.Clients(NewClient)))
}

// Compile-time checks of the interfaces this package implements.
var (
	_ protocol.Client = (*Client)(nil)
	_ protocol.Server = (*Server)(nil)
)
