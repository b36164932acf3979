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
// Counted by hand, per fork, two Go targets (no JVM to start: 0.4 s and 60 ms for each
// of the 4 processes), keep-alive off, 2 rounds of 100 ms slices (+2 ms a handover,
// +4.5 ms freezing the other target) per target: 0.426 s of rounds a group.
//
//	person.get   new workers, cold:         0.64 + 2 × 25 + 0.426 = 51.066 s
//	person.list  unary after unary, warm:          2 × 12 + 0.426 = 24.426 s
//	stream       first stream, cold:               2 × 25 + 0.426 = 50.426 s
//	pingpong     unary again, warm:                2 × 12 + 0.426 = 24.426 s
//	stream       stream again, warm:               2 × 12 + 0.426 = 24.426 s
//
// Each group × 2 forks.
func TestEstimateWarmWorkersByKindOfCall(t *testing.T) {
	s := mustParse(t, `
		|defaults: {warmup: 1s, warmup_max: 30s, keep_alive: 0s, rounds: 2, duration: 100ms, forks: 2}
		|targets: [http-json, grpc-proto]
		|workloads:
		|  - name: person.get
		|  - name: person.list
		|  - name: stream
		|  - name: pingpong
		|  - name: stream
		|    trades: 100`)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	want := []time.Duration{2 * ms(51066), 2 * ms(24426), 2 * ms(50426), 2 * ms(24426), 2 * ms(24426)}
	if got := groupEstimates(plan.Build(s.Benchmarks, nil)); !slices.Equal(got, want) {
		t.Errorf("group estimates %v, counted %v", got, want)
	}
}

// rest-vs-grpc's estimate, counted by hand: 2 groups (stream, pingpong) of the same
// 10 targets, each group's forks on workers of their own (worker_lifetime: per-group, as
// the original's JMH forked a JVM per benchmark). The 5 JVM targets warm up adaptively,
// 4 s to 20 s: on new workers counted at 20 s (25 s, capped at warmup_max). Per fork, each
// group: 0.4 s to start + 20 processes × 60 ms + 5 JVM targets × (20 s warm-up + 2 JVM
// processes × 2 s) + 5 Go targets × 0.5 s warm-up + 10 targets × 12 rounds × (250 ms +
// 2 ms + 4.5 ms frozen) = 154.88 s. In each group the JVM targets, warmed up first, get
// keep-alive slices (keep_alive 5 s, 50 ms + 6.5 ms each) for the warm-ups after theirs:
// 82.5 s after the first (16 slices), 62.5 s (12), 42.5 s (8), 22.5 s (4), 2.5 s (0);
// the Go targets' 2 s and less, none: 40 slices, 2.26 s. 5 forks: 26 min 11.4 s; and
// each group's batch two references of 0.5 s (the default): 26 min 13.4 s.
func TestRestVsGrpcEstimateCountsJVMStarts(t *testing.T) {
	s, err := suite.Load("rest-vs-grpc")
	if err != nil {
		t.Fatal(err)
	}
	rounds := 10 * 12 * (256500 * time.Microsecond)
	group := 400*time.Millisecond + 20*60*time.Millisecond + 5*(20*time.Second+2*2*time.Second) + 5*500*time.Millisecond + rounds
	keepAlives := 40 * (56500 * time.Microsecond)
	if want := 5*(2*group+2*keepAlives) + 2*2*500*time.Millisecond; plan.Build(s.Benchmarks, nil).Estimate() != want {
		t.Errorf("Estimate() = %v, counted %v", plan.Build(s.Benchmarks, nil).Estimate(), want)
	}
}

// TestMatrixSuiteTime counts the matrix's estimate by hand. 124 pairs in 20 groups
// (interleave_by: server, so each server is a group of its own, on workers of its
// own: 12 groups of 7 clients, 6 of 6, 2 capnp groups of 2), 3 forks. Per fork: 20
// starts × 0.4 s = 8 s; each pair a fixed 2 s warm-up and 6 slices of 250 ms + 2 ms +
// 4.5 ms frozen, 3.539 s, × 124 = 438.836 s; each pair's server and client processes,
// 248 × 60 ms = 14.88 s, and the stacks' start-ups, counted side by side over the
// pairs, 79 JVM × 2 s, 45 Python × 0.4 s, 31 Node × 0.3 s = 185.3 s (Go and Rust start
// in no time); keep-alive slices (keep_alive 5 s; 50 ms + 6.5 ms each) for the 2 s
// warm-ups after a target's own: in a group of 7, 12 s, 10 s, 8 s, 6 s after the
// first four, 2 + 2 + 1 + 1 = 6 slices; in a group of 6, 2 + 1 + 1 = 4; of 2, none:
// 12 × 6 + 6 × 4 = 96 slices, 5.424 s. That is 652.44 s a fork, 32 min 37.32 s; and
// each of the 20 batches (a group each) two references of 0.5 s (the default), 20 s:
// 32 min 57.32 s.
func TestMatrixSuiteTime(t *testing.T) {
	s, err := suite.Load("matrix")
	if err != nil {
		t.Fatal(err)
	}
	phase := spec.PhaseOverhead + spec.FreezeOverhead
	fork := 20*400*time.Millisecond + 124*(2*time.Second+6*(250*time.Millisecond+phase)) +
		248*spec.ProcessStartOverhead + 79*2*time.Second + 45*400*time.Millisecond + 31*300*time.Millisecond + 96*(50*time.Millisecond+phase)
	if want, got := 3*fork+20*2*500*time.Millisecond, plan.Build(s.Benchmarks, nil).Estimate(); got != want || got != 32*time.Minute+57320*time.Millisecond {
		t.Errorf("estimate %v, want %v (32m57.32s counted by hand)", got, want)
	}
}

// TestReferenceInEstimate: each batch's two references (before its first group and
// after its last) are counted at the setting's length, and not at all when it is 0.
// Counted by hand: two groups of one Go target each are measured sequentially (a
// group of one target), each its own batch: per group 1 fork of 0.4 s to start and
// 2 × 60 ms for its server and client processes, a 1 s warm-up and 2 rounds of
// 100 ms (+2 ms each, nothing frozen) = 1.724 s; the two batches' references of 0.8 s
// each add 4 × 0.8 = 3.2 s.
func TestReferenceInEstimate(t *testing.T) {
	for _, c := range []struct {
		reference string
		want      time.Duration
	}{{"800ms", 2*1724*time.Millisecond + 3200*time.Millisecond}, {"0s", 2 * 1724 * time.Millisecond}} {
		s := mustParse(t, `
			|defaults: {warmup: 1s, rounds: 2, duration: 100ms, forks: 1, keep_alive: 0s, reference: `+c.reference+`}
			|targets: [grpc-proto]
			|workloads: [person.get, person.list]`)
		p := plan.Build(s.Benchmarks, nil)
		if len(p.Batches) != 2 {
			t.Fatalf("reference %s: %d batches, want one per group", c.reference, len(p.Batches))
		}
		if got := p.Estimate(); got != c.want {
			t.Errorf("reference %s: estimate %v, counted %v", c.reference, got, c.want)
		}
	}
}

// TestInProcessEstimateStartsNoWorkers: a suite of process: one starts no worker
// process, so its estimate counts none of their starts; the same benchmarks in worker
// processes do. Counted by hand, as in TestReferenceInEstimate: two groups of one Go
// target, 1 fork each of 0.4 s to start, a 1 s warm-up and 2 rounds of 100 ms slices
// (+2 ms each), references off: 1.604 s a group in one process; in worker processes
// each also starts a server and a client (2 × 60 ms): 1.724 s.
func TestInProcessEstimateStartsNoWorkers(t *testing.T) {
	s := mustParse(t, `
		|defaults: {warmup: 1s, rounds: 2, duration: 100ms, forks: 1, keep_alive: 0s, reference: 0s}
		|targets: [grpc-proto]
		|workloads: [person.get, person.list]`)
	for _, c := range []struct {
		inProcess bool
		want      time.Duration
	}{{true, 2 * 1604 * time.Millisecond}, {false, 2 * 1724 * time.Millisecond}} {
		if got := plan.BuildWith(s.Benchmarks, plan.Known{InProcess: c.inProcess}).Estimate(); got != c.want {
			t.Errorf("in process %v: estimate %v, counted %v", c.inProcess, got, c.want)
		}
	}
}

// TestMeasuredWarmupWithinItsBounds: an adaptive warm-up an earlier run timed counts at
// that time, kept within the warm-up's bounds today (a suite may have changed them).
// Counted by hand: two groups of one Go target, 1 fork each: 0.4 s to start, 2 × 60 ms
// for its server and client, 2 rounds of 100 ms (+2 ms each): 0.724 s and the warm-up
// (adaptive, 5 s to 30 s), each group. Untimed, a cold adaptive warm-up counts 25 s.
func TestMeasuredWarmupWithinItsBounds(t *testing.T) {
	s := mustParse(t, `
		|defaults: {warmup: 5s, warmup_max: 30s, rounds: 2, duration: 100ms, forks: 1, keep_alive: 0s, reference: 0s}
		|targets: [grpc-proto]
		|workloads: [person.get, person.list]`)
	for _, c := range []struct {
		measured, counted time.Duration
	}{{0, 25 * time.Second}, {12 * time.Second, 12 * time.Second}, {time.Second, 5 * time.Second}, {40 * time.Second, 30 * time.Second}} {
		known := plan.Known{Measured: plan.Timings{Warmups: map[string]time.Duration{}}}
		for _, b := range s.Benchmarks {
			known.Measured.Warmups[b.Name] = c.measured
		}
		want := 2 * (724*time.Millisecond + c.counted)
		if got := plan.BuildWith(s.Benchmarks, known).Estimate(); got != want {
			t.Errorf("warm-ups measured at %v: estimate %v, counted %v", c.measured, got, want)
		}
	}
}
