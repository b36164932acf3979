// Package outside is the client of an outside server's own call (spec.Call): any gRPC,
// Connect or gRPC-Web method of a user's schema, with dynamic messages (protobuf-go's
// dynamicpb), and any HTTP endpoint. It is a client stack as the others are, except
// that it speaks no contract: its Client is a contract.Caller, run by the workload
// "call" (contract.CallWorkload), and its every answer's status is checked and, with
// spec.Call.Expect, its reply.
//
// A failed call's error carries its status (a StatusError: "grpc:Unavailable",
// "connect:not_found", "http:503"), which the engine counts by status code.
//
// The schema is loaded once, where the benchmark is resolved (Schema: .proto files,
// a protoset or the server's reflection service), and travels to the client workers
// as a FileDescriptorSet inside the call, so a worker on another host reads no file.
package outside
