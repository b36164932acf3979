package report

import (
	"testing"

	"github.com/wirebench/wirebench/results"
)

// The Steady cell: the class, how long warming up during the rounds took, and for an
// adaptive warm-up the span of the forks' warm-ups and how many hit their cap.
func TestSteadyCell(t *testing.T) {
	warm := func(s float64, settled bool) *results.Warmup {
		return &results.Warmup{Seconds: s, Adaptive: true, Settled: settled}
	}
	for _, c := range []struct {
		b    results.Benchmark
		want string
	}{
		{results.Benchmark{}, "-"},
		{results.Benchmark{Steady: results.SteadyFlat, Forks: []results.ForkResult{{Warmup: &results.Warmup{Seconds: 5}}}}, "flat"},
		{results.Benchmark{Steady: results.SteadyWarmedUp, Forks: []results.ForkResult{
			{Steady: &results.Steady{Class: results.SteadyWarmedUp, AfterSeconds: 2.14}, Warmup: warm(18.2, true)},
			{Steady: &results.Steady{Class: results.SteadyFlat}, Warmup: warm(30.1, false)},
			{Steady: &results.Steady{Class: results.SteadyFlat}, Warmup: warm(30.0, false)},
		}}, "warmed up 2.1 s; warm-up 18–30 s, 2 capped"},
		{results.Benchmark{Steady: results.SteadyFlat, Forks: []results.ForkResult{{Warmup: warm(12, true)}, {Warmup: warm(12.2, true)}}}, "flat; warm-up 12 s"},
	} {
		if got := steadyCell(&c.b); got != c.want {
			t.Errorf("steadyCell = %q, want %q", got, c.want)
		}
	}
}
