package suite_test

import (
	"github.com/wirebench/wirebench/spec"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/plan"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/suite"
)

// expectedCounts are the benchmark counts of the bundled suites whose size is part of
// their promise. A bundled suite not listed here is still parsed.
var expectedCounts = map[string]int{
	"quick":               5,  // direct + 4 protocols over tcp, person.get
	"metrifier":           40, // (the original's 3 JVM + today's http4s + 3 Go production + 1 Go tuned stacks) × 5 operations
	"metrifier-cloud":     35, // (the original's 3 JVM pairs + today's http4s + 3 Go production stacks) × 5 operations, across a link
	"akka-http-vs-grpc":   8,  // (the original's Akka HTTP 10.1 and Akka gRPC 0.4; 2 Go servers) × (open, closed)
	"akka-successors":     12, // (Akka 2.6, Pekko × HTTP, gRPC; 2 Go servers) × (open, closed)
	"rest-vs-grpc":        20, // (5 JVM rows: REST, the original's 2 gRPC, today's 2 + 4 Go protocols + the tuned HTTP row) × (stream, pingpong)
	"grpc-params":         50, // (12 grpc-java as the original + 6 with OkHttp on both sides + 7 grpc-go configurations) × (stream, pingpong)
	"rpcecho":             28, // (direct + 3 protocols × unix, tcp) × 4 payloads
	"rpcecho-2022":        16, // (2 protocols × unix, tcp) × 4 payloads
	"polyglot":            8,  // (grpc-go, grpcio, grpcio-aio, grpc-js; net/http, FastAPI on uvicorn and granian, Fastify) × person.get
	"grpc-bench-polyglot": 4,  // (grpc-go, grpcio on one thread, grpcio-aio, grpc-js) × person.get
}

func TestBundledSuitesParse(t *testing.T) {
	names := suite.Bundled()
	if len(names) == 0 || names[0] == "" {
		t.Fatalf("Bundled() = %q", names)
	}
	for _, name := range names {
		s, err := suite.Load(name)
		if err != nil {
			t.Errorf("Load(%q): %v", name, err)
			continue
		}
		if s.Name != name {
			t.Errorf("suite %s: name %q, want the file's name", name, s.Name)
		}
		if len(s.Notes) > 0 {
			t.Errorf("suite %s uses deprecated keys: %q", name, s.Notes)
		}
		if s.Description == "" {
			t.Errorf("suite %s has no description", name)
		}
		if want, ok := expectedCounts[name]; ok && len(s.Benchmarks) != want {
			t.Errorf("suite %s expands to %d benchmarks, want %d", name, len(s.Benchmarks), want)
		}
		t.Logf("%s: %d benchmarks, about %v", name, len(s.Benchmarks), plan.Build(s.Benchmarks, nil).Estimate())
	}
}

// TestQuickFitsItsBudget holds quick to its promise: at most 100 s including worker
// start-up, counted from its own settings (95–96 s measured, docs/method.md).
func TestQuickFitsItsBudget(t *testing.T) {
	s, err := suite.Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	protocols := map[string]bool{}
	var fork time.Duration
	for _, b := range s.Benchmarks {
		sp := b.Spec
		if sp.SliceTime == 0 {
			t.Fatalf("%s: slices of ops have no known length; quick must use durations", b.Name)
		}
		if sp.Method != spec.MethodInterleaved || sp.Forks != s.Benchmarks[0].Spec.Forks {
			t.Fatalf("%s: quick is one interleaved group", b.Name)
		}
		// 6.5 ms between two phases, the other four targets frozen (measured:
		// docs/method.md, "What the estimate counts").
		fork += sp.Warmup + time.Duration(sp.Rounds)*(sp.SliceTime+6500*time.Microsecond)
		protocols[sp.Protocol] = true
	}
	// 0.4 s to start a fork's workers, at once, and 60 ms for each of the 10 processes;
	// the one batch's two references.
	total := time.Duration(s.Benchmarks[0].Spec.Forks)*(fork+400*time.Millisecond+10*60*time.Millisecond) + 2*s.Benchmarks[0].Spec.Reference
	if total > 100*time.Second {
		t.Errorf("quick takes about %v, over its 100 s budget", total)
	}
	if total != plan.Build(s.Benchmarks, nil).Estimate() {
		t.Errorf("Estimate() = %v, counted %v", plan.Build(s.Benchmarks, nil).Estimate(), total)
	}
	for _, p := range []string{"direct", "http-json", "grpc-proto", "grpc-avro", "capnp"} {
		if !protocols[p] {
			t.Errorf("quick does not run %s", p)
		}
	}
}

func TestLoad(t *testing.T) {
	_, err := suite.Load("nosuch")
	if err == nil || !strings.Contains(err.Error(), `unknown suite "nosuch" (bundled: akka-http-vs-grpc, akka-successors, capacity, grpc-bench, grpc-bench-polyglot, grpc-params, matrix, metrifier, metrifier-cloud, metrifier-v1, metrifier-v1-cloud, polyglot, protocols, quick, rest-vs-grpc, rpcecho, rpcecho-2022)`) {
		t.Errorf("Load(nosuch) = %v, want the bundled names listed", err)
	}
	path := t.TempDir() + "/mine.yaml"
	if _, err := suite.Load(path); err == nil {
		t.Errorf("Load of a missing file succeeded")
	}
	writeFile(t, path, "targets: [direct]\nworkloads: [person.get]\n")
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "mine" || s.File != path || len(s.Benchmarks) != 1 {
		t.Errorf("Load(%s) = name %q, file %q, %d benchmarks", path, s.Name, s.File, len(s.Benchmarks))
	}
	writeFile(t, path, "targets: [direct]\nworkloads: [nosuch]\n")
	if _, err := suite.Load(path); err == nil || !strings.HasPrefix(err.Error(), path+":2:13: ") {
		t.Errorf("Load of a bad file: %v, want an error at %s:2:13", err, path)
	}
}
