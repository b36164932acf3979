// Package rust registers the stacks of the Rust worker (workers/rust) with the protocol
// registry, so the driver knows which worker runs them and `wirebench list` shows them.
// The stacks run in a Rust worker process that serves the control API; this package
// holds only their metadata: names, sides, tier and crate versions.
//
// The versions here are the ones workers/rust/worker/Cargo.toml pins; a test reads it and
// fails when they drift apart, and another asks the built worker for its stacks (`list`)
// and fails when the two lists differ.
package rust

import "github.com/wirebench/wirebench/protocol"

// Rust is the Rust release the worker is built with (rust-version in Cargo.toml).
const Rust = "1.95"

// Crate versions, as workers/rust/worker/Cargo.toml pins them.
const (
	tokio     = "1.54.1"
	tonic     = "0.14.9"
	prost     = "0.14.4"
	axum      = "0.8.9"
	hyper     = "1.12.0"
	hyperUtil = "0.1.21"
	serde     = "1.0.229"
	serdeJSON = "1.0.154"
	capnp     = "0.27.3"
	capnpRPC  = "0.27.3"
	// prostReflect carries a user's own message (the message workload's echo).
	prostReflect = "0.16.5"
)

// Stacks are the Rust worker's stacks, in registration order.
var Stacks = []*protocol.Stack{
	{
		Name: "tonic", Protocol: "grpc-proto", Sides: protocol.ServerSide | protocol.ClientSide,
		Summary: "tonic with prost messages (generated services and clients), tonic-reflection on; the client's HTTP/2 connection window at the largest allowed (h2 0.4.20 closes a connection that holds many small frames unread: docs/rust-worker.md); TCP and Unix sockets",
		Libraries: map[string]string{
			"tonic":            tonic,
			"tonic-prost":      tonic,
			"tonic-reflection": tonic,
			"prost":            prost,
			"prost-reflect":    prostReflect,
			"tokio":            tokio,
		},
		// The server echoes a user's message (prost-reflect); the client does not yet.
		Messages: true, MessagesExcept: protocol.ClientSide,
	},
	{
		Name: "axum", Protocol: "http-json", Sides: protocol.ServerSide,
		Summary: "an axum router with serde_json bodies (HTTP/1.1 on hyper); TCP and Unix sockets",
		Libraries: map[string]string{
			"axum":          axum,
			"hyper":         hyper,
			"serde":         serde,
			"serde_json":    serdeJSON,
			"prost-reflect": prostReflect,
			"tokio":         tokio,
		},
		Messages: true,
	},
	{
		Name: "hyper", Protocol: "http-json", Sides: protocol.ClientSide,
		Summary: "hyper-util's pooled HTTP/1.1 client with serde_json bodies; TCP and Unix sockets",
		Libraries: map[string]string{
			"hyper":      hyper,
			"hyper-util": hyperUtil,
			"serde":      serde,
			"serde_json": serdeJSON,
			"tokio":      tokio,
		},
	},
	{
		Name: "capnp-rpc", Protocol: "capnp", Sides: protocol.ServerSide | protocol.ClientSide,
		Summary: "capnp-rpc two-party RPC with capnpc-generated code, streaming through a sink capability; " +
			"a LocalSet thread per core (server) or per connection (client); TCP and Unix sockets",
		Libraries: map[string]string{
			"capnp":     capnp,
			"capnp-rpc": capnpRPC,
			"tokio":     tokio,
		},
	},
}

func init() {
	for _, s := range Stacks {
		s.Language = "rust"
		s.Tier = protocol.Production
		s.Worker = protocol.WorkerRust
		s.Libraries["rust"] = Rust
		protocol.RegisterStack(s)
	}
}
