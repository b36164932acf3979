module github.com/wirebench/wirebench

go 1.26.8

require (
	capnproto.org/go/capnp/v3 v3.1.0-alpha.2
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/alecthomas/kong v1.17.0
	github.com/prometheus/procfs v0.23.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/twmb/avro v1.9.0
	golang.org/x/sys v0.49.0
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/colega/zeropool v0.0.0-20230505084239-6fb4a4f75381 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1 // indirect
)
