package control

import (
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
	"github.com/wirebench/wirebench/spec/spectest"
)

// TestWireFields checks the table's wire fields against controlpb.Benchmark: each
// names a field of a kind its setting converts to, every field of the message is
// either a setting's or one of the target's, so that a field added to the message
// without a mapping fails here, and a setting with no field says why the workers
// never need it.
func TestWireFields(t *testing.T) {
	fields := (&controlpb.Benchmark{}).ProtoReflect().Descriptor().Fields()
	// What the message says of the target and workload, mapped by hand.
	mapped := map[string]bool{"name": true, "protocol": true, "server_stack": true, "client_stack": true,
		"label": true, "transport": true, "workload": true, "payload": true, "increments": true, "trades": true, "trade": true,
		"client_options": true, "server_options": true, "load": true, "call": true,
		// The message workload's schema and messages (setMessages).
		"message_schema": true, "message_data": true}
	kinds := map[spec.Kind][]protoreflect.Kind{
		spec.Duration: {protoreflect.Int64Kind}, spec.Int: {protoreflect.Int32Kind, protoreflect.Int64Kind},
		spec.Size: {protoreflect.Int32Kind, protoreflect.Int64Kind}, spec.Uint: {protoreflect.Uint64Kind},
		spec.Enum: {protoreflect.StringKind}, spec.Text: {protoreflect.StringKind},
	}
	for _, st := range spec.Settings {
		if st.Wire == "" {
			// A setting the workers never read says why, so that one that should reach
			// them cannot lose its field by being left without one.
			if st.DriverOnly == "" {
				t.Errorf("setting %s has neither a wire field nor the reason the workers never need it (DriverOnly)", st.Key)
			}
			continue
		}
		if st.DriverOnly != "" {
			t.Errorf("setting %s has a wire field, %s, and says the workers never need it", st.Key, st.Wire)
		}
		fd := fields.ByName(protoreflect.Name(st.Wire))
		switch {
		case fd == nil:
			t.Errorf("setting %s: controlpb.Benchmark has no field %s", st.Key, st.Wire)
			continue
		case fd.Cardinality() == protoreflect.Repeated || !slices.Contains(kinds[st.Kind], fd.Kind()):
			t.Errorf("setting %s: field %s is a %v %v, which a %v setting does not convert to", st.Key, st.Wire, fd.Cardinality(), fd.Kind(), st.Kind)
		case mapped[st.Wire]:
			t.Errorf("setting %s: field %s is carried twice", st.Key, st.Wire)
		}
		mapped[st.Wire] = true
	}
	for i := range fields.Len() {
		if name := string(fields.Get(i).Name()); !mapped[name] {
			t.Errorf("controlpb.Benchmark.%s is neither a setting's wire field nor mapped by hand", name)
		}
	}
}

// TestBenchmarkMessageWire checks the message of a benchmark field by field, as the
// JVM and Rust workers read it (control.proto): the wire format they rely on.
func TestBenchmarkMessageWire(t *testing.T) {
	s := spec.Default()
	s.Protocol, s.Label, s.Workload, s.Params = "grpc-proto", "big", "echo", contract.Params{Payload: 1024}
	s.ClientOptions = map[string]string{"window": "64KiB"}
	s.Load = load.Model{Kind: load.Open, Rate: 2500, Arrival: load.Poisson, Concurrency: 64, Connections: 2}
	s.Warmup, s.WarmupMax, s.Rounds, s.SliceTime, s.Forks = 3*time.Second, 20*time.Second, 7, 1500*time.Millisecond, 4
	s.Mode, s.Method, s.CallTimeout, s.ArrivalSeed, s.DataSeed, s.DataSize, s.MaxMessageSize = spec.ModeAverageTime, spec.MethodSequential, 250*time.Millisecond, 9, 11, 300, 4<<20
	s.RuntimeArgs = []string{"-Xmx2g"}
	r := Resolved{Spec: s, Server: &protocol.Stack{Name: "grpc-go"}, Client: &protocol.Stack{Name: "grpc-go-client"}}
	want := &controlpb.Benchmark{
		Name: s.Name(), Protocol: "grpc-proto", ServerStack: "grpc-go", ClientStack: "grpc-go-client", Label: "big",
		Transport: "tcp", Workload: "echo", Payload: 1024, ClientOptions: map[string]string{"window": "64KiB"},
		Load:        &controlpb.LoadModel{Kind: "open", Concurrency: 64, Connections: 2, Rate: 2500, Arrival: "poisson"},
		WarmupNanos: 3e9, Iterations: 7, IterationNanos: 1.5e9, Forks: 4, Mode: "avgt", Method: "sequential",
		CallTimeoutNanos: 250e6, ArrivalSeed: 9, DataSeed: 11, DataSize: 300, MaxMessageSize: 4 << 20,
		MessageCount: 16, MessageStringLen: 16, MessageBytesLen: 16, MessageRepeated: 3,
	}
	if got := BenchmarkMessage(r); !proto.Equal(got, want) {
		t.Errorf("message\n got %v\nwant %v", got, want)
	}
	s.SliceTime, s.SliceOps = 0, 5000
	want.IterationNanos, want.IterationOps = 0, 5000
	if got := BenchmarkMessage(Resolved{Spec: s, Server: r.Server, Client: r.Client}); !proto.Equal(got, want) {
		t.Errorf("message of a slice of ops\n got %v\nwant %v", got, want)
	}
}

// randomSpec is a benchmark drawn for testing/quick: every setting over its bounds
// (spectest), and a target, workload parameters and load of arbitrary values.
type randomSpec struct{ spec.Spec }

func (randomSpec) Generate(r *rand.Rand, _ int) reflect.Value {
	s := spec.Spec{
		Protocol: []string{"http-json", "grpc-proto", "capnp"}[r.Intn(3)], Label: []string{"", "win-64KiB"}[r.Intn(2)],
		ServerStack: []string{"go-nethttp-json", "akka-http"}[r.Intn(2)], ClientStack: []string{"instrument", "grpc-go"}[r.Intn(2)],
		Transport: []string{spec.TCP, spec.Unix, spec.TLS}[r.Intn(3)], Workload: []string{"echo", "pingpong", "stream"}[r.Intn(3)],
		Params: contract.Params{Payload: r.Intn(1 << 26), Increments: int(r.Int31()), Trades: r.Int63(),
			Trade: contract.TradeShapes[r.Intn(len(contract.TradeShapes))]},
		Load: load.Model{Kind: load.Closed, Concurrency: 1 + r.Intn(spec.MaxConcurrency), Connections: 1 + r.Intn(64)},
	}
	if r.Intn(2) == 0 {
		s.Load.Kind, s.Load.Rate, s.Load.Arrival = load.Open, r.Float64()*1e9, []load.Arrival{load.Constant, load.Poisson}[r.Intn(2)]
	}
	if r.Intn(2) == 0 {
		s.ClientOptions = map[string]string{"window": "64KiB"}
	}
	if r.Intn(2) == 0 {
		s.ServerOptions = map[string]string{"num_stream_workers": "1"}
	}
	spectest.Settings(r, &s)
	return reflect.ValueOf(randomSpec{s})
}

// TestMessageRoundTrip: a benchmark sent to a worker (message, encoded, decoded) is
// the benchmark the driver has, less what only the driver reads.
func TestMessageRoundTrip(t *testing.T) {
	roundTrip := func(rs randomSpec) bool {
		s := rs.Spec
		r := Resolved{Spec: s, Server: &protocol.Stack{Name: s.ServerStack}, Client: &protocol.Stack{Name: s.ClientStack}}
		wire, err := proto.Marshal(BenchmarkMessage(r))
		if err != nil {
			t.Fatal(err)
		}
		var m controlpb.Benchmark
		if err := proto.Unmarshal(wire, &m); err != nil {
			t.Fatal(err)
		}
		got := SpecOf(&m)
		want := s
		for _, st := range spec.Settings {
			if st.Wire == "" { // stays with the driver (TestWireFields lists them)
				st.Set(&want, st.Get(spec.Spec{}))
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("sent\n %+v\nreceived\n %+v", want, got)
			return false
		}
		if m.Name != s.Name() {
			t.Errorf("message named %q, want %q", m.Name, s.Name())
		}
		return true
	}
	if err := quick.Check(roundTrip, &quick.Config{MaxCount: 2000, Rand: rand.New(rand.NewSource(1))}); err != nil {
		t.Error(err)
	}
}

// TestCallRoundTrip checks that an outside call travels to a worker whole, and that a
// message without one reads as none.
func TestCallRoundTrip(t *testing.T) {
	s := spec.Default()
	s.Protocol, s.Address, s.Workload = "grpc-proto", "tcp://127.0.0.1:9", spec.CallWorkload
	s.Call = &spec.Call{Kind: spec.CallRPC, Method: "pkg.S/M", Schema: []byte{1, 2, 3}, SchemaFrom: "x.proto",
		Data: []string{`{"a":1}`, `{"a":2}`}, Metadata: map[string]string{"k": "v"}, Expect: `{"b":2}`}
	r, err := Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := CallOf(BenchmarkMessage(r))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s.Call) {
		t.Errorf("call after the wire = %+v, want %+v", got, s.Call)
	}
	if c, err := CallOf(&controlpb.Benchmark{}); c != nil || err != nil {
		t.Errorf("CallOf(no call) = %v, %v; want nil, nil", c, err)
	}
	if _, err := CallOf(&controlpb.Benchmark{Name: "b", Call: "{"}); err == nil || !strings.Contains(err.Error(), "benchmark b") {
		t.Errorf("CallOf(bad JSON) = %v, want an error naming the benchmark", err)
	}
}

// An outside call is made by stack/outside's client: a client stack named for it is
// refused.
func TestCallRefusesAClientStack(t *testing.T) {
	s := spec.Default()
	s.Protocol, s.Address, s.Workload, s.ClientStack = "grpc-proto", "tcp://127.0.0.1:9", spec.CallWorkload, "instrument"
	s.Call = &spec.Call{Kind: spec.CallRPC, Method: "pkg.S/M", Schema: []byte{1}}
	if _, err := Resolve(s); err == nil || !strings.Contains(err.Error(), "instrument") {
		t.Errorf("Resolve with a client stack: %v, want an error naming it", err)
	}
}
