package suite_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// TestOutsideTargets reads targets that are outside servers (url: and call:),
// their schema from a .proto beside the suite file, and refuses what does not go
// together, at its line.
func TestOutsideTargets(t *testing.T) {
	dir := t.TempDir()
	proto := "syntax = \"proto3\";\npackage hi;\nmessage Req { string name = 1; }\nmessage Rep { string message = 1; }\nservice Hi { rpc Say(Req) returns (Rep); }\n"
	if err := os.WriteFile(filepath.Join(dir, "hi.proto"), []byte(proto), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.proto"), []byte("syntax = \"proto3\";\nmessage M { int32 x = 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "s.yaml")
	ok := `targets:
  - protocol: grpc-proto
    url: grpc://127.0.0.1:50051
    call: hi.Hi/Say
    proto: hi.proto
    data: '[{"name":"a"},{"name":"b"}]'
    metadata: {k: v}
  - protocol: http-json
    url: https://127.0.0.1:8443/v1/hi?x=1
    body: '{"name":"a"}'
    headers: {X-A: b}
    expect: '{"message":"a"}'
workloads: [call]
`
	s, err := suite.Parse(file, []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	g, h := s.Benchmarks[0].Spec, s.Benchmarks[1].Spec
	if g.Call == nil || g.Call.Method != "hi.Hi/Say" || len(g.Call.Data) != 2 || g.Call.Metadata["k"] != "v" || g.Address != "tcp://127.0.0.1:50051" || g.Transport != "tcp" {
		t.Errorf("gRPC target read as %+v, call %+v", g, g.Call)
	}
	if h.Call == nil || h.Call.Kind != spec.CallHTTP || h.Call.HTTPMethod != "POST" || h.Call.Path != "/v1/hi?x=1" || h.Transport != "tls" || h.Call.Metadata["X-A"] != "b" {
		t.Errorf("HTTP target read as %+v, call %+v", h, h.Call)
	}
	if g.Group() != h.Group() {
		t.Errorf("groups %q and %q: the two targets are not one comparison group", g.Group(), h.Group())
	}
	for _, c := range []struct{ name, yaml, want string }{
		{"call without url", "targets:\n  - protocol: grpc-proto\n    call: hi.Hi/Say\nworkloads: [call]\n", "s.yaml:3:5: call: a key of an outside server's call"},
		{"no schema", "targets:\n  - protocol: grpc-proto\n    url: grpc://127.0.0.1:1\n    call: hi.Hi/Say\nworkloads: [call]\n", "proto: FILE or protoset: FILE"},
		{"proto does not compile", "targets:\n  - protocol: grpc-proto\n    url: grpc://127.0.0.1:1\n    call: p.S/M\n    proto: bad.proto\nworkloads: [call]\n", "bad.proto:2:"},
		{"no such method", "targets:\n  - protocol: grpc-proto\n    url: grpc://127.0.0.1:1\n    call: hi.Hi/Shout\n    proto: hi.proto\nworkloads: [call]\n", "service hi.Hi has no method Shout"},
		{"data not the input", "targets:\n  - protocol: grpc-proto\n    url: grpc://127.0.0.1:1\n    call: hi.Hi/Say\n    proto: hi.proto\n    data: '{\"nam\":1}'\nworkloads: [call]\n", "hi.Req"},
		{"contract workload", "targets:\n  - protocol: grpc-proto\n    url: grpc://127.0.0.1:1\n    call: hi.Hi/Say\n    proto: hi.proto\nworkloads: [echo]\n", "runs the workload call"},
		{"call workload without a call", "targets:\n  - protocol: grpc-proto\nworkloads: [call]\n", "give the call"},
		{"url and address", "targets:\n  - protocol: grpc-proto\n    url: grpc://127.0.0.1:1\n    address: tcp://127.0.0.1:1\nworkloads: [call]\n", "s.yaml:4:5: address: a target with url: has its address there"},
		{"url without a port", "targets:\n  - protocol: grpc-proto\n    url: grpc://127.0.0.1\n    call: hi.Hi/Say\nworkloads: [call]\n", `s.yaml:3:10: url: "grpc://127.0.0.1": give the port`},
	} {
		_, err := suite.Parse(file, []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// A target entry's former key target: (url: since 2026-11-29) is read as url:, at
// each use, with one note naming the file, its first line and the others; given
// beside url:, it is refused as the same key twice.
func TestOutsideFormerKey(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.yaml")
	text := `targets:
  - protocol: http-json
    target: http://127.0.0.1:8080/v1/hi
  - protocol: http-json
    label: b
    target: http://127.0.0.1:8081/v1/hi
workloads: [call]
`
	s, err := suite.Parse(file, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Benchmarks) != 2 {
		t.Fatalf("%d benchmarks, want 2", len(s.Benchmarks))
	}
	for i, want := range []string{"tcp://127.0.0.1:8080", "tcp://127.0.0.1:8081"} {
		sp := s.Benchmarks[i].Spec
		if sp.Address != want || sp.Call == nil || sp.Call.Kind != spec.CallHTTP || sp.Call.Path != "/v1/hi" {
			t.Errorf("benchmark %d: address %q, call %+v; want %s and GET /v1/hi", i, sp.Address, sp.Call, want)
		}
	}
	want := []string{file + `:3: "target" is deprecated: it is "url" now (read as url); also on line 6`}
	if !slices.Equal(s.Notes, want) {
		t.Errorf("notes %q, want %q", s.Notes, want)
	}
	both := "targets:\n  - protocol: http-json\n    url: http://127.0.0.1:1/a\n    target: http://127.0.0.1:1/b\nworkloads: [call]\n"
	if _, err := suite.Parse(file, []byte(both)); err == nil || !strings.Contains(err.Error(), `s.yaml:4:5: key "target" in targets[0] sets url again (first at line 3, as "url"): target is its former name`) {
		t.Errorf("url: and target: in one entry: %v, want refused as one key twice", err)
	}
}
