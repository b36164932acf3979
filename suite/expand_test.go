package suite_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

func TestExpansionOrder(t *testing.T) {
	s := mustParse(t, `
		|name: order
		|targets:
		|  - direct
		|  - protocol: http-json
		|    transports: [unix, tcp]
		|workloads:
		|  - person.get
		|  - name: echo
		|    payloads: [11, 1KiB]
		|load:
		|  concurrency: [1, 8]`)
	want := []string{
		"direct/inproc/person.get/closed-c1",
		"direct/inproc/person.get/closed-c8",
		"direct/inproc/echo[payload=11]/closed-c1",
		"direct/inproc/echo[payload=11]/closed-c8",
		"direct/inproc/echo[payload=1024]/closed-c1",
		"direct/inproc/echo[payload=1024]/closed-c8",
		"http-json/unix/person.get/closed-c1",
		"http-json/unix/person.get/closed-c8",
		"http-json/unix/echo[payload=11]/closed-c1",
		"http-json/unix/echo[payload=11]/closed-c8",
		"http-json/unix/echo[payload=1024]/closed-c1",
		"http-json/unix/echo[payload=1024]/closed-c8",
		"http-json/tcp/person.get/closed-c1",
		"http-json/tcp/person.get/closed-c8",
		"http-json/tcp/echo[payload=11]/closed-c1",
		"http-json/tcp/echo[payload=11]/closed-c8",
		"http-json/tcp/echo[payload=1024]/closed-c1",
		"http-json/tcp/echo[payload=1024]/closed-c8",
	}
	if got := names(s); !slices.Equal(got, want) {
		t.Errorf("names:\n got %q\nwant %q", got, want)
	}
	if g := s.Benchmarks[4].Spec.Group(); g != "echo[payload=1024]/closed-c1" {
		t.Errorf("Group = %q", g)
	}
	if s.Benchmarks[4].Spec.Group() != s.Benchmarks[16].Spec.Group() {
		t.Errorf("the same operation over two protocols is in groups %q and %q", s.Benchmarks[4].Spec.Group(), s.Benchmarks[16].Spec.Group())
	}
}

// A suite with no settings builds spec.Default's benchmark (cmd/wirebench's
// TestSameSpecAsBench checks that `bench` does too, from its flags).
func TestDefaultSpec(t *testing.T) {
	s := mustParse(t, `
		|targets: [http-json]
		|workloads: [echo]`)
	want := spec.Default()
	want.Protocol, want.Workload, want.Params = "http-json", "echo", contract.Params{Payload: 11}
	if len(s.Benchmarks) != 1 || !reflect.DeepEqual(s.Benchmarks[0].Spec, want) || s.Benchmarks[0].Name != want.Name() {
		t.Errorf("benchmarks:\n got %+v\nwant %+v", s.Benchmarks, want)
	}
	if s.Name != "t" {
		t.Errorf("a suite without a name is named after its file: got %q", s.Name)
	}
}

// TestRuntimeArgs: runtime_args set at one level reach every benchmark below it, a
// lower level's replacing them.
func TestRuntimeArgs(t *testing.T) {
	s := mustParse(t, `
		|defaults: {runtime_args: "-Xms2G  -Xmx2G"}
		|targets:
		|  - protocol: grpc-proto
		|  - protocol: http-json
		|    runtime_args: "-XX:+UseParallelGC"
		|workloads: [person.get]`)
	want := [][]string{{"-Xms2G", "-Xmx2G"}, {"-XX:+UseParallelGC"}}
	if len(s.Benchmarks) != len(want) {
		t.Fatalf("%d benchmarks, want %d", len(s.Benchmarks), len(want))
	}
	for i, b := range s.Benchmarks {
		if !reflect.DeepEqual(b.Spec.RuntimeArgs, want[i]) {
			t.Errorf("%s: runtime_args %q, want %q", b.Name, b.Spec.RuntimeArgs, want[i])
		}
	}
}

func TestOverrides(t *testing.T) {
	s := mustParse(t, `
		|defaults:
		|  warmup: 2s
		|  rounds: 3
		|  duration: 1s
		|  mode: avgt
		|  server_cpus: none
		|  client_cpus: "0-1"
		|  data_size: 100
		|load: {concurrency: 10}
		|targets:
		|  - protocol: grpc-proto
		|    rounds: 4
		|    ops: 500
		|    forks: 2
		|    load: {concurrency: 20, connections: 2}
		|    options: {window: 1MiB}
		|    server_options: {window: 2MiB}
		|  - protocol: capnp
		|    address: unix:///tmp/x.sock
		|workloads:
		|  - person.get
		|  - name: stream
		|    trades: 100
		|    rounds: 6
		|    duration: 500ms
		|    mode: thrpt
		|    load: {rates: [100, 200.5], arrival: poisson}`)
	type row struct {
		name              string
		warmup            time.Duration
		rounds, forks     int
		iterTime          time.Duration
		iterOps           int64
		mode              string
		target, transport string
	}
	var got []row
	for _, b := range s.Benchmarks {
		sp := b.Spec
		got = append(got, row{b.Name, sp.Warmup, sp.Rounds, sp.Forks, sp.SliceTime, sp.SliceOps, sp.Mode, sp.Address, sp.Transport})
		if sp.ServerCPUs != nil || !slices.Equal(sp.ClientCPUs, []int{0, 1}) || sp.DataSize != 100 {
			t.Errorf("%s: cpus %v %v, data size %d: defaults not applied", b.Name, sp.ServerCPUs, sp.ClientCPUs, sp.DataSize)
		}
	}
	want := []row{
		// The target's settings win over the defaults; its ops replace the defaults' duration.
		{"grpc-proto/tcp/person.get/closed-c20-x2", 2 * time.Second, 4, 2, 0, 500, "avgt", "", "tcp"},
		// The workload's settings and load win over the target's; its duration replaces the target's ops.
		{"grpc-proto/tcp/stream[trades=100]/open-r100-poisson-c1000", 2 * time.Second, 6, 2, 500 * time.Millisecond, 0, "thrpt", "", "tcp"},
		{"grpc-proto/tcp/stream[trades=100]/open-r200.5-poisson-c1000", 2 * time.Second, 6, 2, 500 * time.Millisecond, 0, "thrpt", "", "tcp"},
		// An outside server: its address sets the transport; the top-level load applies.
		{"capnp/unix/person.get/closed-c10", 2 * time.Second, 3, 1, time.Second, 0, "avgt", "unix:///tmp/x.sock", "unix"},
		{"capnp/unix/stream[trades=100]/open-r100-poisson-c1000", 2 * time.Second, 6, 1, 500 * time.Millisecond, 0, "thrpt", "unix:///tmp/x.sock", "unix"},
		{"capnp/unix/stream[trades=100]/open-r200.5-poisson-c1000", 2 * time.Second, 6, 1, 500 * time.Millisecond, 0, "thrpt", "unix:///tmp/x.sock", "unix"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("benchmarks:\n got %+v\nwant %+v", got, want)
	}
	b := s.Benchmarks[0]
	if b.Spec.ClientOptions["window"] != "1MiB" || b.Spec.ServerOptions["window"] != "2MiB" || s.Benchmarks[3].Spec.ClientOptions != nil {
		t.Errorf("options: %v %v; capnp %v", b.Spec.ClientOptions, b.Spec.ServerOptions, s.Benchmarks[3].Spec.ClientOptions)
	}
	b.Spec.ClientOptions["window"] = "changed"
	if s.Benchmarks[1].Spec.ClientOptions["window"] != "1MiB" {
		t.Errorf("benchmarks of one target share their options map")
	}
}

func TestOpenSweep(t *testing.T) {
	s := mustParse(t, `
		|targets:
		|  - protocol: http-json
		|workloads: [person.get]
		|load:
		|  rates: [1000, 14000]
		|  concurrency: 100
		|  connections: [1, 4]`)
	want := []string{
		"http-json/tcp/person.get/open-r1000-constant-c100",
		"http-json/tcp/person.get/open-r1000-constant-c100-x4",
		"http-json/tcp/person.get/open-r14000-constant-c100",
		"http-json/tcp/person.get/open-r14000-constant-c100-x4",
	}
	if got := names(s); !slices.Equal(got, want) {
		t.Errorf("names:\n got %q\nwant %q", got, want)
	}
	m := s.Benchmarks[3].Spec.Load
	if m != (load.Model{Kind: load.Open, Rate: 14000, Arrival: load.Constant, Concurrency: 100, Connections: 4}) {
		t.Errorf("model %+v", m)
	}
}

func TestSmoke(t *testing.T) {
	s := mustParse(t, `
		|defaults: {warmup: 5s, warmup_max: 30s, rounds: 20, duration: 10s, forks: 3}
		|targets: [grpc-proto]
		|workloads:
		|  - name: stream
		|    trades: [500, 100000]
		|  - name: pingpong
		|    ops: 500
		|  - name: person.get
		|    load: {rates: [1000, 5000, 10000], concurrency: 100, connections: 20}
		|  - name: echo
		|    ops: 10`)
	s.Smoke()
	type row struct {
		name             string
		warmup, iterTime time.Duration
		rounds, forks    int
		ops              int64
	}
	var got []row
	for _, b := range s.Benchmarks {
		got = append(got, row{b.Name, b.Spec.Warmup, b.Spec.SliceTime, b.Spec.Rounds, b.Spec.Forks, b.Spec.SliceOps})
	}
	ms := 200 * time.Millisecond
	want := []row{
		{"grpc-proto/tcp/stream[trades=500]/closed-c50", 0, ms, 1, 1, 0},
		{"grpc-proto/tcp/stream[trades=1000]/closed-c50", 0, ms, 1, 1, 0},
		{"grpc-proto/tcp/pingpong[increments=100]/closed-c50", 0, 0, 1, 1, 20},
		{"grpc-proto/tcp/person.get/open-r1000-constant-c16-x16", 0, ms, 1, 1, 0},
		// 5000/s and 10000/s both become 2000/s: the second runs once.
		{"grpc-proto/tcp/person.get/open-r2000-constant-c16-x16", 0, ms, 1, 1, 0},
		{"grpc-proto/tcp/echo[payload=11]/closed-c50", 0, 0, 1, 1, 10},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("smoke:\n got %+v\nwant %+v", got, want)
	}
	for _, b := range s.Benchmarks {
		if b.Spec.WarmupMax != 0 {
			t.Errorf("%s: smoke keeps an adaptive warm-up of up to %v", b.Name, b.Spec.WarmupMax)
		}
		if _, err := b.Spec.Load.Normalize(); err != nil {
			t.Errorf("%s: smoke model invalid: %v", b.Name, err)
		}
		if b.Name != b.Spec.Name() {
			t.Errorf("%s: name not recomputed (%s)", b.Name, b.Spec.Name())
		}
	}
}

func TestAliases(t *testing.T) {
	s := mustParse(t, `
		|targets:
		|  - protocol: grpc-proto
		|    options: &opts {window: 1MiB}
		|    transports: &both [tcp, unix]
		|  - protocol: grpc-avro
		|    options: *opts
		|    transports: *both
		|workloads: [person.get]`)
	if len(s.Benchmarks) != 4 || s.Benchmarks[3].Spec.ClientOptions["window"] != "1MiB" {
		t.Errorf("benchmarks %q, options %v", names(s), s.Benchmarks[3].Spec.ClientOptions)
	}
}

// TLS is a transport: tls: true turns a target's tcp into tls, and transports: [tcp,
// tls] compares TLS off and on in one group.
func TestTLSTransport(t *testing.T) {
	s := mustParse(t, `
		|name: tls
		|targets:
		|  - protocol: grpc-proto
		|    tls: true
		|  - protocol: http-json
		|    transports: [tcp, tls]
		|  - protocol: capnp
		|    tls: false
		|workloads: [person.get]`)
	want := []string{
		"grpc-proto/tls/person.get/closed-c50",
		"http-json/tcp/person.get/closed-c50",
		"http-json/tls/person.get/closed-c50",
		"capnp/tcp/person.get/closed-c50",
	}
	if got := names(s); !slices.Equal(got, want) {
		t.Errorf("names:\n got %q\nwant %q", got, want)
	}
	if s.Benchmarks[1].Spec.Group() != s.Benchmarks[2].Spec.Group() {
		t.Error("TLS on and off of one target are in different groups")
	}
}
