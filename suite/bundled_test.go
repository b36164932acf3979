package suite_test

import (
	"github.com/wirebench/wirebench/spec"
	"strings"
	"testing"
	"time"

	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/suite"
)

// expectedCounts are the benchmark counts of the bundled suites whose size is part of
// their promise. A bundled suite not listed here is still parsed.
var expectedCounts = map[string]int{
	"quick":             5,  // direct + 4 protocols over tcp, person.get
	"metrifier":         40, // (the original's 3 JVM + today's http4s + 3 Go production + 1 Go tuned stacks) × 5 operations
	"metrifier-cloud":   35, // (the original's 3 JVM pairs + today's http4s + 3 Go production stacks) × 5 operations, across a link
	"akka-http-vs-grpc": 8,  // (the original's Akka HTTP 10.1 and Akka gRPC 0.4; 2 Go servers) × (open, closed)
	"akka-successors":   12, // (Akka 2.6, Pekko × HTTP, gRPC; 2 Go servers) × (open, closed)
	"rest-vs-grpc":      20, // (5 JVM rows: REST, the original's 2 gRPC, today's 2 + 4 Go protocols + the tuned HTTP row) × (stream, pingpong)
	"grpc-params":       50, // (12 grpc-java as the original + 6 with OkHttp on both sides + 7 grpc-go configurations) × (stream, pingpong)
	"rpcecho":           28, // (direct + 3 protocols × unix, tcp) × 4 payloads
	"rpcecho-2022":      16, // (2 protocols × unix, tcp) × 4 payloads
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
		t.Logf("%s: %d benchmarks, about %v", name, len(s.Benchmarks), s.Estimate())
	}
}

// TestQuickFitsItsBudget holds quick to its promise: at most 90 s including worker
// start-up, counted from its own settings.
func TestQuickFitsItsBudget(t *testing.T) {
	s, err := suite.Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	protocols := map[string]bool{}
	var fork time.Duration
	for _, b := range s.Benchmarks {
		sp := b.Spec
		if sp.IterationTime == 0 {
			t.Fatalf("%s: iterations by ops have no known length; quick must use durations", b.Name)
		}
		if sp.Method != spec.MethodInterleaved || sp.Forks != s.Benchmarks[0].Spec.Forks {
			t.Fatalf("%s: quick is one interleaved group", b.Name)
		}
		// 3 ms between two phases (measured: docs/method.md).
		fork += sp.Warmup + time.Duration(sp.Iterations)*(sp.IterationTime+3*time.Millisecond)
		protocols[sp.Protocol] = true
	}
	// 0.5 s to start a fork's workers, at once.
	total := time.Duration(s.Benchmarks[0].Spec.Forks) * (fork + 500*time.Millisecond)
	if total > 90*time.Second {
		t.Errorf("quick takes about %v, over its 90 s budget", total)
	}
	if total != s.Estimate() {
		t.Errorf("Estimate() = %v, counted %v", s.Estimate(), total)
	}
	for _, p := range []string{"direct", "http-json", "grpc-proto", "grpc-avro", "capnp"} {
		if !protocols[p] {
			t.Errorf("quick does not run %s", p)
		}
	}
}

// rest-vs-grpc's estimate, counted by hand: 2 groups (stream, pingpong) of the same
// 10 targets, whose workers each fork starts once (worker_lifetime: per-fork). The 5 JVM
// targets warm up adaptively, 4 s to 20 s: on new workers counted at 20 s (25 s, capped
// at warmup_max), and in the ping-pong group too, since their workers have run only the
// stream (another kind of call). Per fork, the first group: 0.5 s to start + 5 JVM
// targets × (20 s warm-up + 2 JVM processes × 2 s) + 5 Go targets × 0.5 s warm-up + 10
// targets × 12 rounds × (250 ms + 3 ms) = 153.36 s; the second, on the same workers:
// 5 × 20 s + 5 × 0.5 s + 30.36 s = 132.86 s. In each group the JVM targets, warmed up
// first, get keep-alive slices (keep_alive 5 s, 50 ms + 3 ms each) for the warm-ups
// after theirs: 82.5 s after the first (16 slices), 62.5 s (12), 42.5 s (8), 22.5 s
// (4), 2.5 s (0); the Go targets' 2 s and less, none: 40 slices, 2.12 s. 5 forks:
// 24 min 12.3 s.
func TestRestVsGrpcEstimateCountsJVMStarts(t *testing.T) {
	s, err := suite.Load("rest-vs-grpc")
	if err != nil {
		t.Fatal(err)
	}
	rounds := 10 * 12 * (253 * time.Millisecond)
	first := 500*time.Millisecond + 5*(20*time.Second+2*2*time.Second) + 5*500*time.Millisecond + rounds
	second := 5*20*time.Second + 5*500*time.Millisecond + rounds
	keepAlives := 40 * (53 * time.Millisecond)
	if want := 5 * (first + second + 2*keepAlives); s.Estimate() != want {
		t.Errorf("Estimate() = %v, counted %v", s.Estimate(), want)
	}
}

func TestLoad(t *testing.T) {
	_, err := suite.Load("nosuch")
	if err == nil || !strings.Contains(err.Error(), `unknown suite "nosuch" (bundled: akka-http-vs-grpc, akka-successors, capacity, grpc-bench, grpc-params, matrix, metrifier, metrifier-cloud, metrifier-v1, metrifier-v1-cloud, protocols, quick, rest-vs-grpc, rpcecho, rpcecho-2022)`) {
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
