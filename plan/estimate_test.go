package plan_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/spec"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/suite"
)

// mustParse parses a test's suite text, written with a | margin so the lines stay
// readable in Go source: each line is the text after its first "|".
func mustParse(t *testing.T, text string) *suite.Suite {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if _, after, ok := strings.Cut(line, "|"); ok {
			b.WriteString(after)
		}
		b.WriteString("\n")
	}
	s, err := suite.Parse("t.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

// groupEstimates are p's groups' estimates in run order.
func groupEstimates(p *plan.Plan) []time.Duration {
	var out []time.Duration
	for _, g := range p.Groups() {
		out = append(out, g.Estimate())
	}
	return out
}

// TestEstimateWarmWorkersByKindOfCall: in a batch of groups on the same workers, an
// adaptive warm-up counts as warm (three 4 s windows, 12 s) only when an earlier group
// of the batch ran the same kind of call (unary or stream); otherwise it counts as on
// new workers (25 s, within 1 s and warmup_max 30 s), but the fork starts no workers.
// Counted by hand, per fork, two Go targets (no JVM to start), keep-alive off,
// 2 rounds of 100 ms slices (+3 ms each) per target: 0.412 s of rounds a group.
//
//	person.get   new workers, cold:          0.5 + 2 × 25 + 0.412 = 50.912 s
//	person.list  unary after unary, warm:          2 × 12 + 0.412 = 24.412 s
//	stream       first stream, cold:               2 × 25 + 0.412 = 50.412 s
//	pingpong     unary again, warm:                2 × 12 + 0.412 = 24.412 s
//	stream       stream again, warm:               2 × 12 + 0.412 = 24.412 s
//
// Each group × 2 forks.
func TestEstimateWarmWorkersByKindOfCall(t *testing.T) {
	s := mustParse(t, `
		|defaults: {warmup: 1s, warmup_max: 30s, keep_alive: 0s, iterations: 2, duration: 100ms, forks: 2}
		|targets: [http-json, grpc-proto]
		|workloads:
		|  - name: person.get
		|  - name: person.list
		|  - name: stream
		|  - name: pingpong
		|  - name: stream
		|    trades: 100`)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	want := []time.Duration{2 * ms(50912), 2 * ms(24412), 2 * ms(50412), 2 * ms(24412), 2 * ms(24412)}
	if got := groupEstimates(plan.Build(s.Benchmarks, nil)); !slices.Equal(got, want) {
		t.Errorf("group estimates %v, counted %v", got, want)
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
	if want := 5 * (first + second + 2*keepAlives); plan.Build(s.Benchmarks, nil).Estimate() != want {
		t.Errorf("Estimate() = %v, counted %v", plan.Build(s.Benchmarks, nil).Estimate(), want)
	}
}

// TestMatrixSuiteTime counts the matrix's estimate by hand: 3 forks × (14 groups × 0.5 s
// + 60 pairs × (2 s + 6 × 253 ms) + 54 JVM processes × 2 s). The JVM processes of a
// fork: grpc-proto's 4 JVM servers (grpc-java-netty, grpc-java-okhttp, akka-grpc,
// pekko-grpc) × 5 clients = 20 and its 2 JVM clients (grpc-java-netty, -okhttp) × 6
// servers = 12; http-json's 4 JVM servers (jetty-jackson, akka-http, pekko-http,
// http4s-circe) × 5 clients less the 4 skipped h2c pairs = 16 and its JVM client
// (java-httpclient) × 6 servers = 6; capnp none: 54. In a group of 5 clients, each
// warmed up for 2 s in turn, the first gets a keep-alive slice (keep_alive 5 s; 50 ms
// + 3 ms) for the 8 s of warm-ups after its own, the second for 6 s: 2; in a group of
// 4, 1; of 2, none. 6 grpc-proto groups of 5 and http-json's 2 of 5 and 4 of 4: 20 a
// fork. That is 16 min 21.42 s.
func TestMatrixSuiteTime(t *testing.T) {
	s, err := suite.Load("matrix")
	if err != nil {
		t.Fatal(err)
	}
	want := 3 * (14*500*time.Millisecond + 60*(2*time.Second+6*(250*time.Millisecond+spec.PhaseOverhead)) + 54*2*time.Second +
		20*(50*time.Millisecond+spec.PhaseOverhead))
	if got := plan.Build(s.Benchmarks, nil).Estimate(); got != want || got > 17*time.Minute {
		t.Errorf("estimate %v, want %v (and at most 17 min)", got, want)
	}
}
