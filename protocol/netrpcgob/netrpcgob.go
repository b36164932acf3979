// Package netrpcgob is the wire mapping of Go's standard library RPC ("netrpc-gob"):
// net/rpc's requests and responses with encoding/gob, the codec rpc.ServeConn and
// rpc.Dial use, one service "Wirebench" whose methods are the contract's operations.
// Its Go stack, go-netrpc-gob (net/rpc and encoding/gob), lives in stack/gonetrpcgob.
//
// The wire mapping (docs/protocols.md, "netrpc-gob"):
//
//   - A connection is a gob stream each way: per call, the request header
//     (rpc.Request: ServiceMethod "Wirebench.GetPerson", Seq) then the argument; per
//     answer, the response header (rpc.Response: ServiceMethod, Seq, Error) then the
//     reply. Gob sends each type's definition once per stream, before its first value.
//     Calls are matched by Seq, so one connection carries every call in flight.
//   - The arguments and replies are the contract's model types (contract.Person, ...)
//     and the small types of wire.go, as a net/rpc user shares one Go package between
//     client and server.
//   - Errors are text: the service's refusals travel as the response's Error
//     "wirebench:<code>: <message>" (protocol.ErrorReason) and come back as
//     *contract.Error (protocol.ReasonError).
//   - StreamTrades: net/rpc has no stream, so the stream is pages pulled by calls:
//     StreamTrades starts it and answers the first page, NextTrades each next one,
//     CancelTrades ends it early.
//   - A message (gob's length-prefixed unit) over the receiver's limit is refused
//     from its length: a request over the server's limit is answered with
//     resource_exhausted, then the connection is closed.
package netrpcgob

import (
	"github.com/wirebench/wirebench/protocol"
)

// Name is the protocol of this package.
const Name = "netrpc-gob"

// DefaultStack is the stack of both sides when a benchmark names none:
// go-netrpc-gob, registered by stack/gonetrpcgob.
const DefaultStack = "go-netrpc-gob"

// Service is the name the server registers its receiver under (rpc.RegisterName), the
// part of every ServiceMethod before the dot.
const Service = "Wirebench"

// The methods, as a client names them (rpc.Client.Call's serviceMethod).
const (
	ListPersons    = Service + ".ListPersons"
	GetPerson      = Service + ".GetPerson"
	GetPersonLinks = Service + ".GetPersonLinks"
	CreatePerson   = Service + ".CreatePerson"
	Echo           = Service + ".Echo"
	Stats          = Service + ".Stats"
	Increment      = Service + ".Increment"
	StreamTrades   = Service + ".StreamTrades"
	NextTrades     = Service + ".NextTrades"
	CancelTrades   = Service + ".CancelTrades"
)

// Envelope is what a message may carry beyond the message limit: gob's type ids and
// field deltas around a payload of the limit, so that an echo of exactly the limit
// passes.
const Envelope = 64 << 10

func init() {
	protocol.Register(&protocol.Protocol{
		Name: Name, Summary: "Go's net/rpc with encoding/gob, the stream as pages pulled by calls",
		DefaultServer: DefaultStack, DefaultClient: DefaultStack,
		NoMessages: "encoding/gob encodes Go types compiled into the program, by reflection over their fields; a message type known only at run time has no Go type, and gob has no mapping of protobuf's oneofs, maps of messages or well-known types",
	})
}
