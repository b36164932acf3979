// Package grpcx is what the gRPC adapters (grpc-proto, grpc-avro) share: the mapping
// between contract errors and gRPC status codes, the client and server options users
// set by name, dialing one connection through the counting dialer, and a
// protocol.Server over a *grpc.Server.
//
// The adapters differ only in their message encoding and service descriptors; the
// transport (grpc-go's HTTP/2), its options and its error semantics are the same, so
// that a benchmark of one against the other measures the codec and nothing else.
package grpcx
