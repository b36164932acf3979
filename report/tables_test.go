package report

import "testing"

// The Steady cell: the class, how long warming up during the rounds took, and for an
// adaptive warm-up the span of the forks' warm-ups and how many hit their cap.
func TestSteadyCell(t *testing.T) {
	warm := func(s float64, settled bool) *Warmup { return &Warmup{Seconds: s, Adaptive: true, Settled: settled} }
	for _, c := range []struct {
		b    Benchmark
		want string
	}{
		{Benchmark{}, "-"},
		{Benchmark{Steady: SteadyFlat, Trials: []Trial{{Warmup: &Warmup{Seconds: 5}}}}, "flat"},
		{Benchmark{Steady: SteadyWarmedUp, Trials: []Trial{
			{Steady: &Steady{Class: SteadyWarmedUp, AfterSeconds: 2.14}, Warmup: warm(18.2, true)},
			{Steady: &Steady{Class: SteadyFlat}, Warmup: warm(30.1, false)},
			{Steady: &Steady{Class: SteadyFlat}, Warmup: warm(30.0, false)},
		}}, "warmed up 2.1 s; warm-up 18–30 s, 2 capped"},
		{Benchmark{Steady: SteadyFlat, Trials: []Trial{{Warmup: warm(12, true)}, {Warmup: warm(12.2, true)}}}, "flat; warm-up 12 s"},
	} {
		if got := steadyCell(&c.b); got != c.want {
			t.Errorf("steadyCell = %q, want %q", got, c.want)
		}
	}
}
