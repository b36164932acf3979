// Package python registers the stacks of the Python worker (workers/python) with the
// protocol registry, so the driver knows which worker runs them and `wirebench list`
// shows them. The stacks run in a Python worker process that serves the control API;
// this package holds only their metadata: names, sides, tier and package versions.
//
// The versions here are the ones workers/python/requirements.txt pins; a test reads it
// and fails when they drift apart, and another asks the worker for its stacks (`list`)
// and fails when the two lists differ.
package python

import "github.com/wirebench/wirebench/protocol"

// Python is the interpreter's release the worker is written for (3.11 or later).
const Python = "3.11"

// Package versions, as workers/python/requirements.txt pins them.
const (
	grpcio           = "1.85.1"
	grpcioReflection = "1.85.1"
	protobuf         = "7.36.2"
	fastapi          = "0.163.2"
	starlette        = "1.10.0"
	pydantic         = "2.14.3"
	uvicorn          = "0.54.0"
	uvloop           = "0.23.0"
	httptools        = "0.9.0"
	granian          = "2.8.7"
	aiohttp          = "3.14.5"
	connectrpc       = "0.13.0"
)

// Stacks are the Python worker's stacks, in registration order.
var Stacks = append([]*protocol.Stack{
	{
		Name: "grpcio", Protocol: "grpc-proto", Sides: protocol.ServerSide,
		Summary: "grpcio's sync server (grpc.server on a 10-thread pool, as grpcio's examples set it; option max_workers sets the pool's threads) with generated servicers, reflection on; TCP and Unix sockets",
		Libraries: map[string]string{
			"grpcio": grpcio, "grpcio-reflection": grpcioReflection, "protobuf": protobuf,
		},
	},
	{
		Name: "grpcio-aio", Protocol: "grpc-proto", Sides: protocol.ServerSide | protocol.ClientSide,
		Summary: "grpc.aio (asyncio) server and channel-per-connection client with generated code, reflection on; TCP and Unix sockets",
		Libraries: map[string]string{
			"grpcio": grpcio, "grpcio-reflection": grpcioReflection, "protobuf": protobuf,
		},
	},
	{
		Name: "fastapi-uvicorn", Protocol: "http-json", Sides: protocol.ServerSide,
		Summary: "FastAPI (Pydantic request models) on uvicorn with uvloop and httptools, one worker process per CPU; TCP and Unix sockets",
		Libraries: map[string]string{
			"fastapi": fastapi, "starlette": starlette, "pydantic": pydantic,
			"uvicorn": uvicorn, "uvloop": uvloop, "httptools": httptools,
		},
	},
	{
		Name: "fastapi-granian", Protocol: "http-json", Sides: protocol.ServerSide,
		Summary: "FastAPI (Pydantic request models) on granian's ASGI interface with uvloop, one worker process per CPU; TCP and Unix sockets",
		Libraries: map[string]string{
			"fastapi": fastapi, "starlette": starlette, "pydantic": pydantic,
			"granian": granian, "uvloop": uvloop,
		},
	},
	{
		Name: "aiohttp", Protocol: "http-json", Sides: protocol.ClientSide,
		Summary:   "aiohttp's ClientSession per connection (pooled, kept-alive HTTP/1.1) with json bodies; TCP and Unix sockets",
		Libraries: map[string]string{"aiohttp": aiohttp},
	},
}, connectStacks()...)

// connectStacks are the connect-python server (Connect for Python's ASGI applications on
// granian), one stack of each Connect protocol it serves with one application.
func connectStacks() []*protocol.Stack {
	var out []*protocol.Stack
	for _, p := range []string{"connect-proto", "connect-json"} {
		out = append(out, &protocol.Stack{
			Name: "connect-python", Protocol: p, Sides: protocol.ServerSide,
			Summary: "Connect for Python (connectrpc) ASGI applications with google.protobuf messages on granian (h2c and HTTP/1.1), one worker process per CPU, one application for Connect's binary and JSON codecs; TCP and Unix sockets",
			Libraries: map[string]string{
				"connectrpc": connectrpc, "protobuf": protobuf, "granian": granian, "uvloop": uvloop,
			},
		})
	}
	return out
}

func init() {
	for _, s := range Stacks {
		s.Language = "python"
		s.Tier = protocol.Production
		s.Worker = protocol.WorkerPython
		s.Libraries["python"] = Python
		protocol.RegisterStack(s)
	}
}
