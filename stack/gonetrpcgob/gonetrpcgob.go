// Package gonetrpcgob is the go-netrpc-gob stack of the netrpc-gob wire mapping
// (protocol/netrpcgob): a server and a client on Go's net/rpc and encoding/gob, the
// standard library alone.
//
// Design:
//
//   - Server: written as a net/rpc user writes one: a receiver whose exported methods
//     are func (s *T) Method(args A, reply *R) error, registered under the name
//     "Wirebench" on an rpc.Server, and a loop that accepts connections and serves
//     each. A connection gets an rpc.Server and a receiver of its own (rpc.NewServer,
//     RegisterName), since its trade streams and the context of its calls belong to
//     it. net/rpc runs each call in a goroutine of its own.
//   - Codec: net/rpc's gob codec (the one rpc.ServeConn and rpc.Dial make, which is
//     unexported), written out with one change: the stream is read through
//     netrpcgob.LimitReader, so a message over the limit is refused from its length
//     (net/rpc has no bound, and gob allocates a message whole from its length).
//   - Client: rpc.NewClientWithCodec over one connection from the counting dialer;
//     calls go through rpc.Client.Go, so a call returns when its context ends.
package gonetrpcgob

import (
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/netrpcgob"
)

// Name is the stack's registry name, server and client.
const Name = "go-netrpc-gob"

func init() {
	protocol.RegisterStack(&protocol.Stack{
		Name: Name, Protocol: netrpcgob.Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "net/rpc with encoding/gob (the standard library), a receiver per connection; one connection per client",
		Libraries: protocol.GoLibraries("net/rpc", "encoding/gob"),
		Sides:     protocol.ServerSide | protocol.ClientSide, TLS: true,
		NewServer: protocol.Servers(NewServer),
		NewClient: protocol.Clients(NewClient),
	})
}
