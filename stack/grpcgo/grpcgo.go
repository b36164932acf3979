// Package grpcgo is the grpc-go stack: servers and clients of the two gRPC wire
// mappings, grpc-proto (protocol/grpcproto, with the code protoc-gen-go and
// protoc-gen-go-grpc generated into contract/pb) and grpc-avro (protocol/grpcavro,
// its codec and service descriptors written by hand), both over grpc-go through
// stack/internal/grpcx.
//
// Design:
//
//   - The grpc-proto server registers server reflection, so outside tools (grpcurl,
//     ghz) call it with no .proto file: `grpcurl -plaintext ADDR list`, `ghz
//     --insecure --call wirebench.v1.PersonService/GetPerson -d '{"id":1}' ADDR`.
//   - The grpc-avro server speaks only Avro and forces the codec
//     (grpc.ForceServerCodecV2): it reads every request as Avro whatever its
//     content-subtype, so clients that always send "application/grpc" (Python's
//     grpcio with raw-bytes serializers) work too. It has no server reflection and
//     no health service: reflection serves protobuf descriptors, which Avro services
//     do not have, and both speak protobuf, which the forced Avro codec cannot carry;
//     grpcurl and ghz cannot call it, Python's grpcio with fastavro can
//     (docs/protocols.md).
//   - One client is one ClientConn over one HTTP/2 connection, opened through the
//     config's dialer so its bytes are counted; the engine makes several clients for
//     several connections. When a StreamTrades yield fails, the client cancels the
//     call (an HTTP/2 RST_STREAM) and returns at once.
//   - Options (grpc-go's transport knobs, by name, see stack/internal/grpcx):
//     client and server initial_window_size, initial_conn_window_size,
//     read_buffer_size, write_buffer_size; server num_stream_workers.
package grpcgo

import (
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/grpcavro"
	"github.com/wirebench/wirebench/protocol/grpcproto"
)

// Name is the stack's registry name, the same for both protocols.
const Name = "grpc-go"

func init() {
	protocol.RegisterStack(&protocol.Stack{
		Name: Name, Protocol: grpcproto.Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "grpc-go with protobuf-go generated code",
		Libraries: protocol.GoLibraries("google.golang.org/grpc", "google.golang.org/protobuf"),
		Sides:     protocol.ServerSide | protocol.ClientSide, OriginalTrades: true, Messages: true,
		TLS:       true,
		NewServer: protocol.Servers(NewProtoServer),
		NewClient: protocol.Clients(NewProtoClient),
	})
	protocol.RegisterStack(&protocol.Stack{
		Name: Name, Protocol: grpcavro.Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "grpc-go with an Avro codec (twmb/avro)",
		Libraries: protocol.GoLibraries("google.golang.org/grpc", "github.com/twmb/avro"),
		Sides:     protocol.ServerSide | protocol.ClientSide, OriginalTrades: true, Messages: true,
		TLS:       true,
		NewServer: protocol.Servers(NewAvroServer),
		NewClient: protocol.Clients(NewAvroClient),
	})
}
