package suite_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// The bundled matrix suite's pairs, written out: every production server stack of
// each protocol (Go, JVM, Rust) against every production client stack and the
// instrument. A stack that is the protocol's default is "" in a spec.
var matrixServers = map[string][]string{
	"grpc-proto": {"", "tonic", "grpc-java-netty", "grpc-java-okhttp", "akka-grpc", "pekko-grpc"},
	"http-json":  {"", "axum", "jetty-jackson", "akka-http", "pekko-http", "http4s-circe"},
}

var matrixClients = map[string][]string{
	"grpc-proto": {"", "instrument", "tonic", "grpc-java-netty", "grpc-java-okhttp"},
	"http-json":  {"", "instrument", "hyper", "java-httpclient", "go-nethttp-json-h2"},
}

func TestMatrixSuiteExpandsToEveryPair(t *testing.T) {
	s, err := suite.Load("matrix")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(s.Views, spec.ViewMatrix) {
		t.Errorf("views %q, want the matrix view", s.Views)
	}
	type pair struct{ protocol, server, client string }
	want := map[pair]bool{}
	for p, servers := range matrixServers {
		for _, sv := range servers {
			for _, c := range matrixClients[p] {
				want[pair{p, sv, c}] = true
			}
		}
	}
	got := map[pair]bool{}
	for _, b := range s.Benchmarks {
		sp := b.Spec
		k := pair{sp.Protocol, sp.ServerStack, sp.ClientStack}
		if got[k] {
			t.Errorf("pair %v twice", k)
		}
		got[k] = true
		if !want[k] {
			t.Errorf("unexpected pair %v (%s)", k, b.Name)
		}
		if sp.Transport != spec.TCP || sp.Workload != "person.get" || sp.InterleaveBy != spec.InterleaveServer {
			t.Errorf("%s: transport %s, workload %s, interleave_by %q; want tcp, person.get, server", b.Name, sp.Transport, sp.Workload, sp.InterleaveBy)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("missing pair %v", k)
		}
	}
	if len(s.Benchmarks) != 60 {
		t.Errorf("%d benchmarks, want 6 × 5 × 2 = 60", len(s.Benchmarks))
	}
}

// TestMatrixSuiteGroupsPerServer checks that each server is one comparison group of
// its 5 clients: 12 groups, none mixing servers or protocols.
func TestMatrixSuiteGroupsPerServer(t *testing.T) {
	s, err := suite.Load("matrix")
	if err != nil {
		t.Fatal(err)
	}
	groups := suite.Groups(s.Benchmarks)
	if len(groups) != 12 {
		t.Fatalf("%d groups, want 12 (6 servers × 2 protocols)", len(groups))
	}
	seen := map[string]bool{}
	for _, g := range groups {
		first := s.Benchmarks[g[0]].Spec
		key := first.Protocol + " " + first.ServerStack
		if seen[key] {
			t.Errorf("server %s split over two groups", key)
		}
		seen[key] = true
		if len(g) != 5 {
			t.Errorf("server %s: group of %d, want its 5 clients", key, len(g))
		}
		for _, i := range g {
			sp := s.Benchmarks[i].Spec
			if sp.Protocol != first.Protocol || sp.ServerStack != first.ServerStack {
				t.Errorf("group of %s holds %s", key, s.Benchmarks[i].Name)
			}
		}
	}
}

// TestMatrixSuiteTime holds the matrix to the 15 minutes its header promises on a
// 2-core machine: the counted estimate (12 groups × 3 forks × (0.5 s + 5 × 2 s +
// 8 × 5 × 253 ms) = 12 min 22 s) leaves about 2.5 min for JVM start-ups.
func TestMatrixSuiteTime(t *testing.T) {
	s, err := suite.Load("matrix")
	if err != nil {
		t.Fatal(err)
	}
	want := 12 * 3 * (500*time.Millisecond + 5*2*time.Second + 8*5*(250*time.Millisecond+spec.PhaseOverhead))
	if got := s.Estimate(); got != want || got > 13*time.Minute {
		t.Errorf("estimate %v, want %v (and at most 13 min)", got, want)
	}
}

func TestInterleaveByServer(t *testing.T) {
	s := mustParse(t, `
		|interleave_by: server
		|targets:
		|  - protocol: grpc-proto
		|    server_stack: [grpc-go, tonic]
		|    client_stack: [grpc-go, instrument]
		|  - protocol: http-json
		|workloads: [person.get]
	`)
	var got [][]string
	for _, g := range suite.Groups(s.Benchmarks) {
		var names []string
		for _, i := range g {
			names = append(names, s.Benchmarks[i].Name)
		}
		got = append(got, names)
	}
	want := [][]string{
		{"grpc-proto/tcp/person.get/closed-c50", "grpc-proto[client=instrument]/tcp/person.get/closed-c50"},
		{"grpc-proto[server=tonic]/tcp/person.get/closed-c50", "grpc-proto[server=tonic,client=instrument]/tcp/person.get/closed-c50"},
		{"http-json/tcp/person.get/closed-c50"},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("groups\n%q\nwant\n%q", got, want)
	}
	// Without interleave_by, the same targets are one group.
	s = mustParse(t, `
		|targets:
		|  - protocol: grpc-proto
		|    server_stack: [grpc-go, tonic]
		|    client_stack: [grpc-go, instrument]
		|workloads: [person.get]
	`)
	if g := suite.Groups(s.Benchmarks); len(g) != 1 || len(g[0]) != 4 {
		t.Errorf("groups %v, want one of 4", g)
	}
}

// TestMatrixBadPairs checks the messages of pairs a matrix cannot have: a stack the
// protocol does not have, a client-only stack as a server, and an unknown
// interleave_by, each at its line.
func TestMatrixBadPairs(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"unknown server stack", `
			|interleave_by: server
			|targets:
			|  - protocol: grpc-proto
			|    server_stack: [grpc-go, tonik]
			|    client_stack: [grpc-go]
			|workloads: [person.get]`, `t.yaml:4:29: server_stack: unknown stack "tonik" for the server side of grpc-proto (known: `},
		{"client-only stack as server", `
			|targets:
			|  - protocol: http-json
			|    server_stack: [hyper]
			|workloads: [person.get]`, `t.yaml:3:20: server_stack: unknown stack "hyper" for the server side of http-json: hyper has no server side in http-json`},
		{"server-only stack as client", `
			|targets:
			|  - protocol: grpc-proto
			|    client_stack: [akka-grpc]
			|workloads: [person.get]`, `t.yaml:3:20: client_stack: unknown stack "akka-grpc" for the client side of grpc-proto: akka-grpc has no client side in grpc-proto`},
		{"stack of another protocol", `
			|targets:
			|  - protocol: http-json
			|    client_stack: [tonic]
			|workloads: [person.get]`, `t.yaml:3:20: client_stack: unknown stack "tonic" for the client side of http-json: tonic is a stack of grpc-proto, not of http-json`},
		{"interleave_by", `
			|interleave_by: client
			|targets: [http-json]
			|workloads: [person.get]`, `t.yaml:1:16: interleave_by: "client", want server`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := suite.Parse("t.yaml", []byte(doc(tc.text)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			t.Log(err)
		})
	}
}
