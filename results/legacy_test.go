package results

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// A stack's runtime options under their former name, jvm_args (files written before
// 2026-11-29), are read as runtime_args and written again under that name; a file
// with runtime_args reads them as they are.
func TestStackFormerJVMArgs(t *testing.T) {
	var old Stack
	if err := json.Unmarshal([]byte(`{"name": "grpc-java-netty", "language": "java", "tier": "production", "jvm_args": ["-Xms1g", "-Xmx2G"]}`), &old); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(old.RuntimeArgs, []string{"-Xms1g", "-Xmx2G"}) || old.Name != "grpc-java-netty" || old.Tier != "production" {
		t.Errorf("read %+v, want grpc-java-netty, production, runtime args [-Xms1g -Xmx2G]", old)
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(old); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, `"runtime_args":["-Xms1g","-Xmx2G"]`) || strings.Contains(s, "jvm_args") {
		t.Errorf("written again: %s, want runtime_args and no jvm_args", s)
	}
	var now Stack
	if err := json.Unmarshal([]byte(`{"name": "fastify", "language": "node", "tier": "production", "runtime_args": ["--max-old-space-size=4096"]}`), &now); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(now.RuntimeArgs, []string{"--max-old-space-size=4096"}) {
		t.Errorf("runtime args %q, want [--max-old-space-size=4096]", now.RuntimeArgs)
	}
}

// A benchmark's outside server's address is "address"; a file written before
// 2026-11-29 calls it "target", read as the address and written again as "address".
func TestBenchmarkFormerTarget(t *testing.T) {
	var old Benchmark
	if err := json.Unmarshal([]byte(`{"name": "grpc-proto/tcp/call/closed-c1", "protocol": "grpc-proto", "target": "tcp://127.0.0.1:50051", "call": "hi.Hi/Say"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Address != "tcp://127.0.0.1:50051" || old.Call != "hi.Hi/Say" {
		t.Errorf("read address %q, call %q; want tcp://127.0.0.1:50051 and hi.Hi/Say", old.Address, old.Call)
	}
	b, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, `"address":"tcp://127.0.0.1:50051"`) || strings.Contains(s, `"target"`) {
		t.Errorf("written again: %s, want address and no target", s)
	}
	var now Benchmark
	if err := json.Unmarshal([]byte(`{"name": "n", "address": "unix:///tmp/s.sock"}`), &now); err != nil {
		t.Fatal(err)
	}
	if now.Address != "unix:///tmp/s.sock" {
		t.Errorf("address %q, want unix:///tmp/s.sock", now.Address)
	}
}
