// Package grpcproto is the gRPC/Protobuf protocol adapter ("grpc-proto"): the
// contract's services of contract/schema/wirebench.proto (package wirebench.v1:
// PersonService, EchoService, TradeService), served and called with grpc-go and the
// code generated into contract/pb, in plain text over HTTP/2 on a TCP or Unix stream.
//
// Design:
//
//   - The server registers server reflection, so outside tools (grpcurl, ghz) call it
//     with no .proto file: `grpcurl -plaintext ADDR list`, `ghz --insecure --call
//     wirebench.v1.PersonService/GetPerson -d '{"id":1}' ADDR`.
//   - Errors: the service's refusals travel as the gRPC status of their code
//     (NOT_FOUND, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, INTERNAL) with their message,
//     and come back as *contract.Error. A request over the server's message limit is
//     RESOURCE_EXHAUSTED (refused from its length prefix), and so is an answer over the
//     client's. A request that does not decode is INTERNAL: grpc-go writes that status
//     itself, before the handler runs. Any other status (UNAVAILABLE, ...) stays a non-contract error; calls
//     that fail because their context ended satisfy errors.Is(err, ctx.Err()).
//   - One Client is one ClientConn over one HTTP/2 connection, opened through the
//     config's dialer so its bytes are counted; the engine makes several clients for
//     several connections.
//   - StreamTrades is a server stream of one Trade message each. When yield fails, the
//     client cancels the call (an HTTP/2 RST_STREAM) and returns at once.
//   - Conversions between the contract model and the protobuf types (convert.go) run
//     on every call, as in an application with its own domain model.
//   - Options (grpc-go's transport knobs, by name, see internal/grpcx):
//     client and server initial_window_size, initial_conn_window_size,
//     read_buffer_size, write_buffer_size; server num_stream_workers.
package grpcproto

import (
	"github.com/wirebench/wirebench/protocol"
)

// Name is the registry name of this protocol.
const Name = "grpc-proto"

// StackName is the stack of this package.
const StackName = "grpc-go"

func init() {
	protocol.Register(&protocol.Protocol{
		Name:          Name,
		Summary:       "gRPC with Protocol Buffers, server reflection on",
		DefaultServer: StackName, DefaultClient: StackName,
	})
	protocol.RegisterStack(&protocol.Stack{
		Name: StackName, Protocol: Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "grpc-go with protobuf-go generated code",
		Libraries: protocol.GoLibraries("google.golang.org/grpc", "google.golang.org/protobuf"),
		Sides:     protocol.ServerSide | protocol.ClientSide,
		TLS:       true,
		NewServer: protocol.Servers(NewServer),
		NewClient: protocol.Clients(NewClient),
	})
}
