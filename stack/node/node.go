// Package node registers the stacks of the Node worker (workers/node) with the protocol
// registry, so the driver knows which worker runs them and `wirebench list` shows them.
// The stacks run in a Node worker process that serves the control API; this package
// holds only their metadata: names, sides, tier and package versions.
//
// The versions here are the ones workers/node/package.json pins (and its
// package-lock.json locks); a test reads them and fails when they drift apart, and
// another asks the worker for its stacks (`list`) and fails when the two lists differ.
package node

import "github.com/wirebench/wirebench/protocol"

// Node is the runtime's release the worker is written for (20 or later).
const Node = "20"

// Package versions, as workers/node/package.json pins them.
const (
	grpcJS      = "1.14.7"
	protoLoader = "0.8.1"
	reflection  = "1.0.4"
	fastify     = "5.12.8"
	connectNode = "2.2.0"
	connect     = "2.2.0"
	bufProtobuf = "2.17.0"
)

// Stacks are the Node worker's stacks, in registration order.
var Stacks = append([]*protocol.Stack{
	{
		Name: "grpc-js", Protocol: "grpc-proto", Sides: protocol.ServerSide | protocol.ClientSide,
		Summary: "@grpc/grpc-js with the schema loaded by @grpc/proto-loader (protobufjs), reflection on; a channel per connection; TCP and Unix sockets",
		Libraries: map[string]string{
			"@grpc/grpc-js": grpcJS, "@grpc/proto-loader": protoLoader, "@grpc/reflection": reflection,
		},
	},
	{
		Name: "fastify", Protocol: "http-json", Sides: protocol.ServerSide,
		Summary:   "Fastify behind the cluster module, one worker process per CPU, shared state in the primary; TCP and Unix sockets",
		Libraries: map[string]string{"fastify": fastify},
	},
	{
		Name: "node-http", Protocol: "http-json", Sides: protocol.ClientSide,
		Summary:   "node:http with a keep-alive Agent per connection, JSON.parse/stringify bodies; TCP and Unix sockets",
		Libraries: map[string]string{},
	},
}, connectStacks()...)

// connectProtocols are the protocols the connect-node server serves with one handler
// set (protocol/connectproto).
var connectProtocols = []string{"connect-proto", "connect-json", "grpc-web"}

// connectStacks are the connect-node server, one stack of each Connect protocol.
func connectStacks() []*protocol.Stack {
	var out []*protocol.Stack
	for _, p := range connectProtocols {
		out = append(out, &protocol.Stack{
			Name: "connect-node", Protocol: p, Sides: protocol.ServerSide,
			Summary: "@connectrpc/connect-node handlers on node:http2 (h2c), one handler set for Connect and gRPC-Web; TCP and Unix sockets",
			Libraries: map[string]string{
				"@connectrpc/connect-node": connectNode, "@connectrpc/connect": connect, "@bufbuild/protobuf": bufProtobuf,
			},
		})
	}
	return out
}

func init() {
	for _, s := range Stacks {
		s.Language = "node"
		s.Tier = protocol.Production
		s.Worker = protocol.WorkerNode
		s.Libraries["node"] = Node
		protocol.RegisterStack(s)
	}
}
