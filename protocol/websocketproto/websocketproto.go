// Package websocketproto is the WebSocket wire mapping ("websocket"): the contract as
// JSON messages over one WebSocket per connection, calls matched by an id that the
// client chooses, so that one connection carries every call in flight. The messages
// are Go types for encoding/json (wire.go). Its Go stack, coder-websocket
// (github.com/coder/websocket), lives in stack/coderwebsocket.
//
// The wire mapping (docs/protocols.md, "websocket"):
//
//   - The WebSocket is opened with GET /ws (HTTP/1.1 upgrade; over TLS, ALPN
//     http/1.1). No subprotocol, no compression.
//   - Each message is one JSON object, text or binary. A request is
//     {"id":N,"op":"getPerson","body":{"id":3}}; its answer {"id":N,"body":...} or
//     {"id":N,"error":{"code":"not_found","message":"..."}}, with the contract's
//     code. Answers come in any order.
//   - streamTrades answers with one {"id":N,"body":Trade} message per trade, then
//     {"id":N,"end":{"count":N}} (or an error message, which also ends it).
//   - The message workload's echoMessage carries a user's own message as its body
//     and its answer's, in the protobuf JSON mapping (protojson, as http-json's
//     /message/echo); a server given no message type refuses it as an unknown op.
//   - {"id":N,"op":"cancel"} cancels call N, which then gets no answer; a client
//     that stops a stream early sends it.
//   - A message over the server's limit closes the connection with status 1009
//     (message too big): every call in flight on it fails with resource_exhausted.
//     A message that is not a JSON object with an id closes it with 1007 or 1008.
package websocketproto

import (
	"github.com/wirebench/wirebench/protocol"
)

// Name is the protocol of this package.
const Name = "websocket"

// DefaultStack is the stack of both sides when a benchmark names none:
// coder-websocket, registered by stack/coderwebsocket.
const DefaultStack = "coder-websocket"

// Path is where the server accepts WebSockets.
const Path = "/ws"

func init() {
	protocol.Register(&protocol.Protocol{
		Name: Name, Summary: "JSON messages over one WebSocket per connection, calls matched by id",
		DefaultServer: DefaultStack, DefaultClient: DefaultStack,
	})
}
