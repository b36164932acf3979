// Package websocketproto is the WebSocket adapter: the contract as JSON messages over
// one WebSocket per connection (github.com/coder/websocket), calls matched by an id
// that the client chooses, so that one connection carries every call in flight.
//
// The wire mapping (docs/protocols.md, "websocket"):
//
//   - The WebSocket is opened with GET /ws (HTTP/1.1 upgrade; over TLS, ALPN
//     http/1.1). No subprotocol, no compression (coder/websocket's defaults).
//   - Each message is one JSON object, text or binary. A request is
//     {"id":N,"op":"getPerson","body":{"id":3}}; its answer {"id":N,"body":...} or
//     {"id":N,"error":{"code":"not_found","message":"..."}}, with the contract's
//     code. Answers come in any order.
//   - streamTrades answers with one {"id":N,"body":Trade} message per trade, then
//     {"id":N,"end":{"count":N}} (or an error message, which also ends it).
//   - {"id":N,"op":"cancel"} cancels call N, which then gets no answer; a client
//     that stops a stream early sends it.
//   - A message over the server's limit closes the connection with status 1009
//     (message too big, coder/websocket's SetReadLimit): every call in flight on it
//     fails with resource_exhausted. A message that is not a JSON object with an id
//     closes it with 1007 or 1008.
//
// Design:
//
//   - Server: net/http with coder/websocket's Accept on a ServeMux, http-json's
//     server timeouts for the upgrade request; per connection one goroutine reads
//     requests and each call runs in a goroutine of its own (at most maxCalls at
//     once; the reader waits for a free one, so a client that sends faster than it
//     reads is held back by TCP). Answers are written with wsjson.Write, each within
//     messageTimeout, and a request once started must arrive within it; a connection
//     that misses either is closed.
//   - Client: coder/websocket's Dial over net/http's HTTP/1.1 Transport whose
//     connections all come from the counting dialer; one client is one WebSocket, a
//     goroutine reads the answers and hands each to its call by id. A connection
//     that failed is replaced by a new one at the next call.
package websocketproto

import (
	"github.com/wirebench/wirebench/protocol"
)

// Name is the protocol of this package.
const Name = "websocket"

// StackName is the stack of this package, server and client.
const StackName = "coder-websocket"

// Path is where the server accepts WebSockets.
const Path = "/ws"

func init() {
	protocol.Register(&protocol.Protocol{
		Name: Name, Summary: "JSON messages over one WebSocket per connection, calls matched by id",
		DefaultServer: StackName, DefaultClient: StackName,
	})
	protocol.RegisterStack(&protocol.Stack{
		Name: StackName, Protocol: Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "coder/websocket on net/http (HTTP/1.1 upgrade), encoding/json messages; one WebSocket per client",
		Libraries: protocol.GoLibraries("github.com/coder/websocket", "encoding/json", "net/http"),
		Sides:     protocol.ServerSide | protocol.ClientSide, TLS: true,
		NewServer: protocol.Servers(NewServer),
		NewClient: protocol.Clients(NewClient),
	})
}
