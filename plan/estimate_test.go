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
// 10 targets, each group's forks on workers of their own (worker_lifetime: per-group, as
// the original's JMH forked a JVM per benchmark). The 5 JVM targets warm up adaptively,
// 4 s to 20 s: on new workers counted at 20 s (25 s, capped at warmup_max). Per fork, each
// group: 0.5 s to start + 5 JVM targets × (20 s warm-up + 2 JVM processes × 2 s) + 5 Go
// targets × 0.5 s warm-up + 10 targets × 12 rounds × (250 ms + 3 ms) = 153.36 s. In each
// group the JVM targets, warmed up first, get keep-alive slices (keep_alive 5 s, 50 ms +
// 3 ms each) for the warm-ups after theirs: 82.5 s after the first (16 slices), 62.5 s
// (12), 42.5 s (8), 22.5 s (4), 2.5 s (0); the Go targets' 2 s and less, none: 40
// slices, 2.12 s. 5 forks: 25 min 54.8 s (with the workers shared between the groups,
// per-fork, the ping-pong's start-ups were saved: 24 min 12.3 s).
func TestRestVsGrpcEstimateCountsJVMStarts(t *testing.T) {
	s, err := suite.Load("rest-vs-grpc")
	if err != nil {
		t.Fatal(err)
	}
	rounds := 10 * 12 * (253 * time.Millisecond)
	group := 500*time.Millisecond + 5*(20*time.Second+2*2*time.Second) + 5*500*time.Millisecond + rounds
	keepAlives := 40 * (53 * time.Millisecond)
	if want := 5 * (2*group + 2*keepAlives); plan.Build(s.Benchmarks, nil).Estimate() != want {
		t.Errorf("Estimate() = %v, counted %v", plan.Build(s.Benchmarks, nil).Estimate(), want)
	}
}

// TestMatrixSuiteTime counts the matrix's estimate by hand. 124 pairs in 20 groups
// (interleave_by: server, so each server is a group of its own, on workers of its
// own: 12 groups of 7 clients, 6 of 6, 2 capnp groups of 2), 3 forks. Per fork: 20
// starts × 0.5 s = 10 s; each pair a fixed 2 s warm-up and 6 slices of 250 ms + 3 ms,
// 3.518 s, × 124 = 436.232 s; the stacks' processes, counted side by side over the
// pairs, 79 JVM × 2 s, 45 Python × 4 s, 31 Node × 2 s = 400 s (Go and Rust start in
// no time); keep-alive slices (keep_alive 5 s; 50 ms + 3 ms each) for the 2 s
// warm-ups after a target's own: in a group of 7, 12 s, 10 s, 8 s, 6 s after the
// first four, 2 + 2 + 1 + 1 = 6 slices; in a group of 6, 2 + 1 + 1 = 4; of 2, none:
// 12 × 6 + 6 × 4 = 96 slices, 5.088 s. That is 851.32 s a fork, 42 min 33.96 s.
func TestMatrixSuiteTime(t *testing.T) {
	s, err := suite.Load("matrix")
	if err != nil {
		t.Fatal(err)
	}
	fork := 20*500*time.Millisecond + 124*(2*time.Second+6*(250*time.Millisecond+spec.PhaseOverhead)) +
		(79*2+45*4+31*2)*time.Second + 96*(50*time.Millisecond+spec.PhaseOverhead)
	if want, got := 3*fork, plan.Build(s.Benchmarks, nil).Estimate(); got != want || got > 45*time.Minute {
		t.Errorf("estimate %v, want %v (and at most 45 min)", got, want)
	}
}
