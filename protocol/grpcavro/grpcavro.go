// Package grpcavro is the gRPC/Avro wire mapping ("grpc-avro"): the same gRPC services
// and method paths as grpc-proto (/wirebench.v1.PersonService/GetPerson, ...), with
// Avro bodies instead of protobuf ones, as the Scala RPC frameworks carried Avro over
// gRPC. Its Go stack, grpc-go with this codec, lives in stack/grpcgo; the instrument's
// gRPC client reads and writes the bodies with WireCodec.
//
// The mapping:
//
//   - The codec (codec.go) is a grpc-go encoding.CodecV2 registered under the name
//     "avro", so requests carry "content-type: application/grpc+avro". Each message
//     is one Avro record encoded alone (no container header, no fingerprint) with
//     github.com/twmb/avro.
//   - The schemas are contract/schema/avro/*.avsc, one record per message mirroring
//     wirebench.proto field for field (the optional Picture is a ["null", Picture]
//     union), embedded and parsed by contract/avrowire, which also holds the Go wire
//     structs. The method paths are below; there is no Avro generator for grpc-go, so
//     the grpc-go stack writes its service descriptors by hand.
//   - Decoding is bounded: every length and count in a message is checked against the
//     bytes left before anything is allocated, so a malformed or hostile message is an
//     error; bytes after the record are an error too. A request that does not decode
//     fails with INTERNAL (grpc-go's status for a codec failure).
//   - Conversions between the contract model and the Avro wire structs (convert.go)
//     run on every call, as in an application with its own domain model.
//   - Everything else (status mapping, options, one HTTP/2 connection per client,
//     message limits, server life cycle, StreamTrades cancellation) is grpc-proto's,
//     shared through stack/internal/grpcx: a comparison of the two measures the
//     encoding alone.
package grpcavro

import (
	"github.com/wirebench/wirebench/protocol"
)

// Name is the registry name of this protocol.
const Name = "grpc-avro"

// DefaultStack is the stack of both sides when a benchmark names none: grpc-go with
// this package's codec, registered by stack/grpcgo.
const DefaultStack = "grpc-go"

// The gRPC service names and method paths, the same as grpc-proto's
// (wirebench.proto's services), so that the two differ only in the body encoding.
const (
	PersonService = "wirebench.v1.PersonService"
	EchoService   = "wirebench.v1.EchoService"
	TradeService  = "wirebench.v1.TradeService"

	MethodListPersons    = "/" + PersonService + "/ListPersons"
	MethodGetPerson      = "/" + PersonService + "/GetPerson"
	MethodGetPersonLinks = "/" + PersonService + "/GetPersonLinks"
	MethodCreatePerson   = "/" + PersonService + "/CreatePerson"
	MethodEcho           = "/" + EchoService + "/Echo"
	MethodStats          = "/" + EchoService + "/Stats"
	MethodIncrement      = "/" + EchoService + "/Increment"
	MethodStreamTrades   = "/" + TradeService + "/StreamTrades"
	// MethodStreamOriginalTrades streams wirebench.v1.OriginalTrade records.
	MethodStreamOriginalTrades = "/" + TradeService + "/StreamOriginalTrades"
)

func init() {
	protocol.Register(&protocol.Protocol{
		Name:          Name,
		Summary:       "gRPC with Avro bodies, grpc-proto's method paths",
		DefaultServer: DefaultStack, DefaultClient: DefaultStack,
	})
}
