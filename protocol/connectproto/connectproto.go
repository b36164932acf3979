// Package connectproto holds the Connect wire mappings: the contract's services of
// contract/schema/wirebench.proto (package wirebench.v1) in the three protocols
// connect-go (connectrpc.com/connect) speaks, each registered as a protocol of its
// own so that they compare in one group:
//
//   - "connect-proto": the Connect protocol with Protobuf bodies (application/proto;
//     application/connect+proto for the stream);
//   - "connect-json": the Connect protocol with JSON bodies (protojson: int64 as a
//     string, lowerCamelCase names), which plain curl can call;
//   - "grpc-web": gRPC-Web with Protobuf bodies (application/grpc-web+proto).
//
// The messages are grpcproto's, with its conversions; JSONWireCodec is connect-json's
// bodies for a client that frames the protocol itself (the instrument). Errors: the
// contract codes travel as the Connect codes of the same names (not_found,
// invalid_argument, resource_exhausted, internal), with the service's message.
// StreamTrades is a server stream of one Trade message each, over every one of the
// three protocols.
//
// The Go stacks, connect-go and connect-go-h3 (the same handlers and clients over
// HTTP/3), live in stack/connectgo.
package connectproto

import (
	"github.com/wirebench/wirebench/protocol"
)

// The protocols of this package.
const (
	ConnectProto = "connect-proto"
	ConnectJSON  = "connect-json"
	GRPCWeb      = "grpc-web"
)

// DefaultStack is the stack of both sides when a benchmark names none: connect-go,
// registered by stack/connectgo.
const DefaultStack = "connect-go"

// The protocols' summaries, for `wirebench list`.
var summaries = []struct{ name, summary string }{
	{ConnectProto, "Connect protocol, Protobuf bodies (connect-go)"},
	{ConnectJSON, "Connect protocol, JSON bodies (connect-go, protojson)"},
	{GRPCWeb, "gRPC-Web, Protobuf bodies (connect-go)"},
}

func init() {
	for _, v := range summaries {
		protocol.Register(&protocol.Protocol{
			Name: v.name, Summary: v.summary,
			DefaultServer: DefaultStack, DefaultClient: DefaultStack,
		})
	}
}
