package report

import (
	"math"
	"slices"
	"testing"

	"github.com/wirebench/wirebench/results"
)

func TestGroups(t *testing.T) {
	gs := results.Groups(fixture(t).Benchmarks)
	var names []string
	for _, g := range gs {
		names = append(names, g.Name)
	}
	// First-seen order; each rate of the sweep is its own operation.
	want := []string{"person.get/closed-c50", "person.list/closed-c50", "echo[payload=1024]/closed-c50",
		"stream[trades=1000]/closed-c1", "person.get/open-r1000-constant-c100",
		"person.get/open-r2000-constant-c100", "person.get/open-r4000-constant-c100"}
	if !slices.Equal(names, want) {
		t.Errorf("groups %q, want %q", names, want)
	}
	if n := len(gs[2].Benchmarks); n != 4 {
		t.Errorf("echo has %d benchmarks, want 4", n)
	}
	// A name not in bench.Name's shape: the group name is rebuilt from fields.
	b := results.Benchmark{Name: "custom", Protocol: "p", Workload: "echo", Params: map[string]any{"payload": 11.0},
		Load: results.Load{Model: results.ModelOpen, Rate: 500, Arrival: "poisson", Concurrency: 8, Connections: 2}}
	if got := results.Groups([]results.Benchmark{b})[0].Name; got != "echo[payload=11]/open-r500-poisson-c8-x2" {
		t.Errorf("rebuilt group name %q", got)
	}
}

func TestToBest(t *testing.T) {
	thr := func(v float64) results.Benchmark {
		return results.Benchmark{Mode: results.ModeThroughput, Summary: results.Summary{ThroughputOpsS: results.Throughput{Mean: v}}}
	}
	avg := func(ms float64) results.Benchmark {
		return results.Benchmark{Mode: results.ModeAverageTime, Summary: results.Summary{AvgTimeMs: &results.Throughput{Mean: ms}}}
	}
	tests := []struct {
		name string
		bs   []results.Benchmark
		want []float64
	}{
		// More ops/s is better: the best is 1, the others their fraction of it.
		{"thrpt", []results.Benchmark{thr(100), thr(400), thr(200)}, []float64{0.25, 1, 0.5}},
		// Less time is better: 20 ms is best, 40 ms is half as fast.
		{"avgt", []results.Benchmark{avg(40), avg(20)}, []float64{0.5, 1}},
		// Nothing measured compares with nothing: NaN (printed n/a).
		{"zero", []results.Benchmark{thr(0), thr(10)}, []float64{math.NaN(), 1}},
		// A NaN score must not become the best.
		{"nan", []results.Benchmark{thr(math.NaN()), thr(10)}, []float64{math.NaN(), 1}},
	}
	for _, tt := range tests {
		got := ToBest(results.Group{Benchmarks: tt.bs})
		for i := range got {
			if !(got[i] == tt.want[i] || math.IsNaN(got[i]) && math.IsNaN(tt.want[i])) {
				t.Errorf("%s: Relative = %v, want %v", tt.name, got, tt.want)
				break
			}
		}
	}
}

func TestSweeps(t *testing.T) {
	fs := sweeps(fixture(t).Benchmarks)
	if len(fs) != 1 || fs[0].name != "person.get/open-constant-c100" || len(fs[0].sweeps) != 2 {
		t.Fatalf("sweeps = %+v, want one family of two", fs)
	}
	for _, s := range fs[0].sweeps {
		var rates []float64
		for _, b := range s.benchmarks {
			rates = append(rates, b.Load.Rate)
		}
		if !slices.Equal(rates, []float64{1000, 2000, 4000}) {
			t.Errorf("%s: rates %v", s.series, rates)
		}
	}
	// One open-model rate is a point, not a sweep.
	r := fixture(t)
	if fs := sweeps(r.Benchmarks[:16]); len(fs) != 0 {
		t.Errorf("one rate per series gave sweeps %+v", fs)
	}
}

// The notes take each warning by its kind: the summary's generator-bound warning and
// failed calls are said once (not again from GeneratorBound and the error counts),
// failed calls and a failed benchmark are errors, a fork's failure names its fork
// and phase and is not said again for the fork it cut short (another fork's cut is),
// and a warning of a kind this wirebench does not know is a warning.
func TestNotesSayEachThingOnce(t *testing.T) {
	b := results.Benchmark{Name: "b", GeneratorBound: true,
		Warnings: results.Warnings{
			{Kind: results.WarnGenerator, Text: "lag p99 2ms is over 1ms"},
			{Kind: results.WarnErrors, Text: "3 timeout (first: deadline exceeded)"},
			{Kind: results.WarnFailed, Fork: 2, Phase: "warmup", Text: "worker exited"},
			{Kind: "from-the-future", Text: "a newer wirebench's warning"},
		},
		Forks: []results.ForkResult{
			{Index: 1, Phase: "warmup", Error: "worker exited"},
			{Index: 2, Phase: "round 3", Error: "connection reset\nmore detail"},
		},
		Summary: results.Summary{Errors: 3, Ops: 10, ErrorsByKind: map[string]int64{"timeout": 3}}}
	want := []note{
		{"b", "warning", "generator-bound: lag p99 2ms is over 1ms"},
		{"b", "error", "errors: 3 timeout (first: deadline exceeded)"},
		{"b", "error", "failed: fork 2, warmup: worker exited"},
		{"b", "warning", "a newer wirebench's warning"},
		{"b", "error", "fork 3 cut short at round 3: connection reset"},
	}
	if ns := notes([]results.Benchmark{b}); !slices.Equal(ns, want) {
		t.Errorf("notes = %+v\nwant %+v", ns, want)
	}
}
