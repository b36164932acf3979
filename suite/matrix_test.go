package suite_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// The bundled matrix suite's pairs, written out: every production server stack of
// each protocol (Go, JVM, Rust, Python, Node) against every production client stack and the
// instrument. A stack that is the protocol's default is "" in a spec.
var matrixServers = map[string][]string{
	"grpc-proto": {"", "tonic", "grpc-java-netty", "grpc-java-okhttp", "akka-grpc", "pekko-grpc", "grpcio", "grpcio-aio", "grpc-js"},
	"http-json":  {"", "axum", "jetty-jackson", "akka-http", "pekko-http", "http4s-circe", "fastapi-uvicorn", "fastapi-granian", "fastify"},
	"capnp":      {"", "capnp-rpc"},
}

var matrixClients = map[string][]string{
	"grpc-proto": {"", "instrument", "tonic", "grpc-java-netty", "grpc-java-okhttp", "grpcio-aio", "grpc-js"},
	"http-json":  {"", "instrument", "hyper", "java-httpclient", "go-nethttp-json-h2", "aiohttp", "node-http"},
	"capnp":      {"", "capnp-rpc"},
}

// h1OnlyServers are the matrix's http-json servers that speak HTTP/1.1 only on a plain
// connection.
var h1OnlyServers = []string{"jetty-jackson", "akka-http", "pekko-http", "http4s-circe", "fastapi-uvicorn", "fastify"}

func TestMatrixSuiteExpandsToEveryPair(t *testing.T) {
	s, err := suite.Load("matrix")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(s.Views, results.ViewMatrix) {
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
	// The HTTP/2 (h2c) client cannot call the HTTP/1.1-only servers (the JVM ones and
	// uvicorn): skipped, with why.
	for _, sv := range h1OnlyServers {
		delete(want, pair{"http-json", sv, "go-nethttp-json-h2"})
	}
	if len(s.Skips) != len(h1OnlyServers) {
		t.Errorf("%d skips, want %d: %+v", len(s.Skips), len(h1OnlyServers), s.Skips)
	}
	for _, sk := range s.Skips {
		if sk.Client != "go-nethttp-json-h2" || sk.Why == "" || !want[pair{"http-json", sk.Server, ""}] {
			t.Errorf("skip %+v: want the h2c client against an HTTP/1.1-only server of the matrix, with why", sk)
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
	if len(s.Benchmarks) != 124 {
		t.Errorf("%d benchmarks, want 9 × 7 × 2 − 6 skipped + 2 × 2 = 124", len(s.Benchmarks))
	}
}

// TestMatrixSuiteGroupsPerServer checks that each server is one comparison group of
// its clients: 20 groups, none mixing servers or protocols.
func TestMatrixSuiteGroupsPerServer(t *testing.T) {
	s, err := suite.Load("matrix")
	if err != nil {
		t.Fatal(err)
	}
	groups := suite.Groups(s.Benchmarks)
	if len(groups) != 20 {
		t.Fatalf("%d groups, want 20 (9 servers × 2 protocols + 2 capnp servers)", len(groups))
	}
	seen := map[string]bool{}
	for _, g := range groups {
		first := s.Benchmarks[g[0]].Spec
		key := first.Protocol + " " + first.ServerStack
		if seen[key] {
			t.Errorf("server %s split over two groups", key)
		}
		seen[key] = true
		clients := 7
		if first.Protocol == "capnp" {
			clients = 2
		}
		if first.Protocol == "http-json" && slices.Contains(h1OnlyServers, first.ServerStack) {
			clients = 6 // the h2c client skipped
		}
		if len(g) != clients {
			t.Errorf("server %s: group of %d, want its %d clients", key, len(g), clients)
		}
		for _, i := range g {
			sp := s.Benchmarks[i].Spec
			if sp.Protocol != first.Protocol || sp.ServerStack != first.ServerStack {
				t.Errorf("group of %s holds %s", key, s.Benchmarks[i].Name)
			}
		}
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
			|workloads: [person.get]`, `t.yaml:4:29: server_stack: unknown stack "tonik" for the server side of grpc-proto (did you mean "tonic"?) (known: `},
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

// A skip list drops the pairs it names, over every transport or the one it names, and
// keeps them with their reasons for the reports.
func TestSkip(t *testing.T) {
	s := mustParse(t, `
		|interleave_by: server
		|skip:
		|  - {protocol: http-json, server: jetty-jackson, client: go-nethttp-json-h2, why: no h2c in Jetty here}
		|  - {protocol: http-json, server: go-nethttp-json, client: instrument, transport: unix, why: a test of transport}
		|targets:
		|  - protocol: http-json
		|    server_stack: [go-nethttp-json, jetty-jackson]
		|    client_stack: [instrument, go-nethttp-json-h2]
		|    transports: [tcp, unix]
		|workloads: [person.get]
	`)
	want := []string{
		"http-json[client=instrument]/tcp/person.get/closed-c50",
		"http-json[client=go-nethttp-json-h2]/tcp/person.get/closed-c50",
		"http-json[server=jetty-jackson,client=instrument]/tcp/person.get/closed-c50",
		"http-json[client=go-nethttp-json-h2]/unix/person.get/closed-c50",
		"http-json[server=jetty-jackson,client=instrument]/unix/person.get/closed-c50",
	}
	if got := names(s); !slices.Equal(got, want) {
		t.Errorf("benchmarks\n%q\nwant\n%q", got, want)
	}
	wantSkips := []suite.Skip{
		{Protocol: "http-json", Server: "jetty-jackson", Client: "go-nethttp-json-h2", Why: "no h2c in Jetty here"},
		{Protocol: "http-json", Server: "go-nethttp-json", Client: "instrument", Transport: "unix", Why: "a test of transport"},
	}
	if !slices.Equal(s.Skips, wantSkips) {
		t.Errorf("skips %+v, want %+v", s.Skips, wantSkips)
	}
}

func TestSkipErrors(t *testing.T) {
	const targets = `
		|targets:
		|  - protocol: http-json
		|    server_stack: [go-nethttp-json, axum]
		|    client_stack: [instrument, hyper]
		|workloads: [person.get]`
	for _, tc := range []struct{ name, skip, want string }{
		{"no why", `
		|skip:
		|  - {protocol: http-json, server: axum, client: hyper}`, `t.yaml:2:5: a skipped pair: missing why`},
		{"unknown key", `
		|skip:
		|  - {protocol: http-json, server: axum, client: hyper, why: x, reason: y}`, `unknown key "reason" in a skipped pair`},
		{"client as server", `
		|skip:
		|  - {protocol: http-json, server: hyper, client: hyper, why: x}`, `t.yaml:2:35: skip: server: unknown stack "hyper" for the server side of http-json: hyper has no server side in http-json`},
		{"unknown protocol", `
		|skip:
		|  - {protocol: soap, server: axum, client: hyper, why: x}`, `t.yaml:2:16: skip: unknown protocol "soap"`},
		{"no such pair", `
		|skip:
		|  - {protocol: http-json, server: jetty-jackson, client: hyper, why: x}`, `t.yaml:2:5: skip: no benchmark of the suite is http-json server jetty-jackson with client hyper over any transport`},
		{"not a list", `
		|skip: {protocol: http-json}`, `t.yaml:1:7: skip: want a list of {protocol, server, client, why} entries`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := suite.Parse("t.yaml", []byte(doc(tc.skip+targets)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	// Skipping every pair leaves nothing to run.
	_, err := suite.Parse("t.yaml", []byte(doc(`
		|skip:
		|  - {protocol: http-json, server: axum, client: hyper, why: x}
		|targets:
		|  - protocol: http-json
		|    server_stack: axum
		|    client_stack: hyper
		|workloads: [person.get]`)))
	if err == nil || !strings.Contains(err.Error(), "t.yaml:1:1: skip: leaves no benchmark to run") {
		t.Errorf("error %v, want skip leaves no benchmark", err)
	}
}
