// Package grpcproto is the gRPC/Protobuf wire mapping ("grpc-proto"): the contract's
// services of contract/schema/wirebench.proto (package wirebench.v1: PersonService,
// EchoService, TradeService), with the code generated into contract/pb, over HTTP/2
// on a TCP or Unix stream. Its Go stack, grpc-go, lives in stack/grpcgo; the
// instrument's gRPC client reads and writes the bodies with WireCodec.
//
// The mapping:
//
//   - Errors: the service's refusals travel as the gRPC status of their code
//     (NOT_FOUND, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL) with their message,
//     and come back as *contract.Error. A request over the server's message limit is
//     RESOURCE_EXHAUSTED (refused from its length prefix), and so is an answer over the
//     client's. A request that does not decode is INTERNAL: grpc-go writes that status
//     itself, before the handler runs. Any other status (UNAVAILABLE, ...) stays a non-contract error; calls
//     that fail because their context ended satisfy errors.Is(err, ctx.Err()).
//   - StreamTrades is a server stream of one Trade message each; a client that stops
//     receiving cancels the call (an HTTP/2 RST_STREAM).
//   - Conversions between the contract model and the protobuf types (convert.go) run
//     on every call, as in an application with its own domain model.
package grpcproto

import (
	"github.com/wirebench/wirebench/protocol"
)

// MessageService and MessageEchoPath are the mapping of the message workload: a
// user's own message, of a type both sides were given, echoed by the unary method
// Echo of MessageService, whose request and answer are that message in the protobuf
// binary encoding (as any gRPC method of the user's own service would carry it). It is
// not in wirebench.proto: its types are the user's.
const (
	MessageService  = "wirebench.v1.MessageService"
	MessageEchoPath = "/" + MessageService + "/Echo"
)

// Name is the registry name of this protocol.
const Name = "grpc-proto"

// DefaultStack is the stack of both sides when a benchmark names none: grpc-go,
// registered by stack/grpcgo.
const DefaultStack = "grpc-go"

func init() {
	protocol.Register(&protocol.Protocol{
		Name:          Name,
		Summary:       "gRPC with Protocol Buffers, server reflection on",
		DefaultServer: DefaultStack, DefaultClient: DefaultStack,
	})
}
