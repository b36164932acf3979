package results

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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

// A benchmark of a file written before schema_version 3 holds its rounds as
// "iterations", its slice length as "iteration_s" or "iteration_ops", each fork's
// slices as "iterations", and the class of too few rounds as "too few iterations":
// each is read under today's name with its figures, and written again under it only.
func TestBenchmarkFormerIterations(t *testing.T) {
	var old Benchmark
	err := json.Unmarshal([]byte(`{"name": "n", "iterations": 3, "iteration_s": 0.25, "steady": "too few iterations",
		"forks": [{"index": 0, "iterations": [{"index": 0, "seconds": 0.25, "ops": 400, "errors": 1, "throughput_ops_s": 1600},
			{"index": 1, "seconds": 0.2501, "ops": 410, "errors": 0, "throughput_ops_s": 1639.3}],
			"steady": {"class": "too few iterations", "start_round": 0}}]}`), &old)
	if err != nil {
		t.Fatal(err)
	}
	if old.Rounds != 3 || old.SliceSeconds != 0.25 || old.SliceOps != 0 || old.Steady != "too few rounds" {
		t.Errorf("read rounds %d, slice %v s / %d ops, steady %q; want 3, 0.25 s, no ops, too few rounds", old.Rounds, old.SliceSeconds, old.SliceOps, old.Steady)
	}
	if len(old.Forks) != 1 || len(old.Forks[0].Slices) != 2 {
		t.Fatalf("read forks %+v, want one of two slices", old.Forks)
	}
	f := old.Forks[0]
	if s := f.Slices[1]; s.Index != 1 || s.Seconds != 0.2501 || s.Ops != 410 || s.ThroughputOpsS != 1639.3 || f.Slices[0].Errors != 1 {
		t.Errorf("read slices %+v, want the file's figures", f.Slices)
	}
	if f.Steady == nil || f.Steady.Class != "too few rounds" {
		t.Errorf("read fork steady %+v, want too few rounds", f.Steady)
	}
	b, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"rounds":3`, `"slice_s":0.25`, `"slices":[{"index":0,`, `"class":"too few rounds"`} {
		if !strings.Contains(s, want) {
			t.Errorf("written again: %s, want %s", s, want)
		}
	}
	if strings.Contains(s, "iteration") {
		t.Errorf("written again: %s, want no former name", s)
	}
	var ops Benchmark
	if err := json.Unmarshal([]byte(`{"name": "n", "iterations": 1, "iteration_ops": 1000}`), &ops); err != nil || ops.SliceOps != 1000 || ops.SliceSeconds != 0 || ops.Rounds != 1 {
		t.Errorf("iteration_ops read as slice ops %d, slice %v s, rounds %d (%v); want 1000, 0, 1", ops.SliceOps, ops.SliceSeconds, ops.Rounds, err)
	}
}

// A file of schema_version 3 has today's names only: one that mixes in a former
// name, or lacks rounds, is refused by the schema; one of version 2 needs its
// former names.
func TestSchemaRoundsNames(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "results-v3.json"))
	if err != nil {
		t.Fatal(err)
	}
	v3 := string(data)
	for _, c := range []struct{ what, from, to, want string }{
		{"rounds as iterations", `"rounds": 2,`, `"iterations": 2,`, "rounds"},
		{"a fork's slices as iterations", `"slices": [`, `"iterations": [`, "slices"},
		{"slice_s beside iteration_s", `"slice_s": 1,`, `"slice_s": 1, "iteration_s": 1,`, "benchmarks/0"},
		{"version 2 with today's names", `"schema_version": 3`, `"schema_version": 2`, "iterations"},
	} {
		bad := strings.Replace(v3, c.from, c.to, 1)
		if bad == v3 {
			t.Fatalf("%s: %q not in results-v3.json", c.what, c.from)
		}
		if err := ValidateJSON([]byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want refused, naming %s", c.what, err, c.want)
		}
	}
}
