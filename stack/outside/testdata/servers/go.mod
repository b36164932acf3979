// The outside servers stack/outside's tests load: grpc-go's example servers, a
// grpc-gateway REST gateway and go-httpbin, built from the module proxy by the tests
// (outsidetest), never part of wirebench's binary.
module wirebench.test/outsideservers

go 1.26.8

require (
	github.com/grpc-ecosystem/grpc-gateway/v2 v2.33.0
	google.golang.org/grpc v1.85.0
	google.golang.org/grpc/examples v0.0.0-20260825154716-030ee8becb20
)

require (
	github.com/mccutchen/go-httpbin/v2 v2.26.0 // indirect
	golang.org/x/net v0.61.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20261026165753-2ffab32bce7e // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261019180522-ce908d29299b // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

tool (
	github.com/mccutchen/go-httpbin/v2/cmd/go-httpbin
	google.golang.org/grpc/examples/features/reflection/server
	google.golang.org/grpc/examples/helloworld/greeter_server
	google.golang.org/grpc/examples/route_guide/server
)
