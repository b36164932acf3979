// Package coderwebsocket is the coder-websocket stack of the websocket wire mapping
// (protocol/websocketproto): a server and a client on github.com/coder/websocket and
// net/http, the messages written and read with encoding/json.
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
package coderwebsocket

import (
	"time"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/websocketproto"
)

// Name is the stack's registry name, server and client.
const Name = "coder-websocket"

// messageTimeout bounds, on both sides, the writing of one message and, on the
// server, the arrival of a request once its first frame came (http-json's body
// timeout): a peer that stops reading, or trickles a message, loses the connection
// instead of holding a goroutine and a buffer for ever. Idle connections have no
// timeout: a WebSocket is meant to stay open.
const messageTimeout = 60 * time.Second

func init() {
	protocol.RegisterStack(&protocol.Stack{
		Name: Name, Protocol: websocketproto.Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "coder/websocket on net/http (HTTP/1.1 upgrade), encoding/json messages; one WebSocket per client",
		Libraries: protocol.GoLibraries("github.com/coder/websocket", "encoding/json", "net/http"),
		Sides:     protocol.ServerSide | protocol.ClientSide, TLS: true, Messages: true,
		NewServer: protocol.Servers(NewServer),
		NewClient: protocol.Clients(NewClient),
	})
}
