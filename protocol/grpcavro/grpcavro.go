// Package grpcavro is the gRPC/Avro protocol adapter ("grpc-avro"): the same gRPC
// services and method paths as grpc-proto (/wirebench.v1.PersonService/GetPerson,
// ...), served and called with grpc-go, with Avro bodies instead of protobuf ones, as
// the Scala RPC frameworks carried Avro over gRPC.
//
// Design:
//
//   - The codec (codec.go) is a grpc-go encoding.CodecV2 registered under the name
//     "avro", so the client's requests carry "content-type: application/grpc+avro".
//     The server speaks only Avro and forces the codec (grpc.ForceServerCodecV2): it
//     reads every request as Avro whatever its content-subtype, so clients that always
//     send "application/grpc" (Python's grpcio with raw-bytes serializers) work too.
//     Each message is one Avro record encoded alone (no container header, no
//     fingerprint) with github.com/twmb/avro.
//   - The schemas are contract/schema/avro/*.avsc, one record per message mirroring
//     wirebench.proto field for field (the optional Picture is a ["null", Picture]
//     union), embedded and parsed by contract/avrowire, which also holds the Go wire
//     structs. The service descriptors are written by hand (service.go): there is no
//     Avro generator for grpc-go.
//   - Decoding is bounded: every length and count in a message is checked against the
//     bytes left before anything is allocated, so a malformed or hostile message is an
//     error; bytes after the record are an error too. A request that does not decode
//     fails with INTERNAL (grpc-go's status for a codec failure).
//   - No server reflection and no health service: reflection serves protobuf
//     descriptors, which Avro services do not have, and both speak protobuf, which the
//     forced Avro codec cannot carry; grpcurl and ghz cannot call this server, Python's
//     grpcio with fastavro can (docs/protocols.md).
//   - Everything else (status mapping, options, one HTTP/2 connection per client,
//     message limits, server life cycle, StreamTrades cancellation) is grpc-proto's,
//     shared through internal/grpcx: a comparison of the two measures the
//     encoding alone.
package grpcavro

import (
	"github.com/wirebench/wirebench/protocol"
)

// Name is the registry name of this protocol.
const Name = "grpc-avro"

// StackName is the stack of this package: grpc-go, with Avro bodies.
const StackName = "grpc-go"

func init() {
	protocol.Register(&protocol.Protocol{
		Name:          Name,
		Summary:       "gRPC with Avro bodies, grpc-proto's method paths",
		DefaultServer: StackName, DefaultClient: StackName,
	})
	protocol.RegisterStack(&protocol.Stack{
		Name: StackName, Protocol: Name, Language: "go", Tier: protocol.Production, Worker: protocol.WorkerGo,
		Summary:   "grpc-go with an Avro codec (twmb/avro)",
		Libraries: protocol.GoLibraries("google.golang.org/grpc", "github.com/twmb/avro"),
		Sides:     protocol.ServerSide | protocol.ClientSide,
		TLS:       true,
		NewServer: protocol.Servers(NewServer),
		NewClient: protocol.Clients(NewClient),
	})
}
