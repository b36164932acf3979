package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/stats"
)

// slices are one target's per-round samples, [fork][round], and where each fork's
// steady state began.
type slices struct {
	values [][]float64
	start  []int
}

// seeded are forks × rounds samples around level, each fork with a level of its own.
func seeded(r *rand.Rand, forks, rounds int, level float64) slices {
	s := slices{start: make([]int, forks)}
	for range forks {
		f := level * math.Exp(0.1*r.NormFloat64())
		var row []float64
		for range rounds {
			row = append(row, f*math.Exp(0.05*r.NormFloat64()))
		}
		s.values = append(s.values, row)
	}
	return s
}

// avgtBench is a benchmark of group "g" in average-time mode whose slices take
// ms[f][i] ms per op: 1000 ops in ms seconds.
func avgtBench(name, baseline string, ms slices) results.Benchmark {
	b := results.Benchmark{Name: name, Group: "g", Mode: results.ModeAverageTime, Load: results.Load{Model: results.ModelClosed, Concurrency: 1}}
	for f, row := range ms.values {
		tr := results.ForkResult{Index: f, Steady: &results.Steady{Class: results.SteadyFlat, StartRound: ms.start[f]}}
		if ms.start[f] > 0 {
			tr.Steady.Class = results.SteadyWarmedUp
		}
		for i, v := range row {
			tr.Slices = append(tr.Slices, results.Slice{Index: i, Seconds: v, Ops: 1000, ThroughputOpsS: 1000 / v})
		}
		b.Forks = append(b.Forks, tr)
	}
	if baseline != "" {
		b.Summary.Relative = &results.Relative{Baseline: baseline}
	}
	return b
}

// steadyPairs are the samples of a and b in the rounds where both were steady, fork
// by fork: what a paired ratio of the two is made of.
func steadyPairs(a, b slices) (as, bs [][]float64) {
	for f := range a.values {
		var x, y []float64
		for i := range a.values[f] {
			if i >= a.start[f] && i >= b.start[f] {
				x, y = append(x, a.values[f][i]), append(y, b.values[f][i])
			}
		}
		as, bs = append(as, x), append(bs, y)
	}
	return as, bs
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) }

// Two targets of one group, neither its baseline, are paired as a target is with its
// baseline: the ratio and its interval are stats.PairedRatioForks' over the rounds
// where both were steady (one fork of one target warmed up for 3 rounds, one of the
// other's for 2), fork by fork; the baseline's slices play no part.
func TestPairedMembers(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 21))
	base, a, b := seeded(r, 5, 12, 100), seeded(r, 5, 12, 40), seeded(r, 5, 12, 130)
	a.start[1], b.start[1], b.start[3] = 3, 2, 2
	ba, bb := avgtBench("a", "base", a), avgtBench("b", "base", b)
	bbase := avgtBench("base", "", base)
	if !stats.Pairable(&ba, &bb) || !stats.Pairable(&ba, &bbase) {
		t.Fatal("two targets of one group, or a target and its baseline, are not pairable")
	}
	rel, why := stats.Paired(&ba, &bb)
	if rel == nil || why != "" {
		t.Fatalf("Paired: %+v, %q", rel, why)
	}
	as, bs := steadyPairs(a, b)
	want := stats.PairedRatioForks(as, bs, 0.999)
	q := rel.Ratio
	if rel.Baseline != "b" || rel.Forks != 5 || rel.Rounds != 5*12-3-2 || rel.Rounds != want.N || rel.DF != want.DF || q.CI != 0.999 {
		t.Errorf("relative %+v, want %d rounds of 5 forks, %v degrees of freedom", rel, want.N, want.DF)
	}
	if !near(q.Mean, want.Mean) || !near(q.CILow, want.Low) || !near(q.CIHigh, want.High) {
		t.Errorf("ratio %+v, want %.6g [%.6g, %.6g]", q, want.Mean, want.Low, want.High)
	}
	// The other way round is the inverse, its interval the inverse's.
	inv, _ := stats.Paired(&bb, &ba)
	if !near(inv.Ratio.Mean, 1/q.Mean) || !near(inv.Ratio.CILow, 1/q.CIHigh) || !near(inv.Ratio.CIHigh, 1/q.CILow) {
		t.Errorf("b over a %+v, want the inverse of %+v", inv.Ratio, q)
	}
}

// In the open model a group's targets are paired on response-time p50 and p99 (the
// throughput is the fixed rate): Ratio is the p50s', LatencyP99 the p99s', each
// stats.PairedRatioForks' over the slices.
func TestPairedOpenLatency(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 3))
	p50a, p50b := seeded(r, 4, 10, 900), seeded(r, 4, 10, 700)
	p99a, p99b := seeded(r, 4, 10, 5000), seeded(r, 4, 10, 2500)
	open := func(name string, p50, p99 slices) results.Benchmark {
		b := results.Benchmark{Name: name, Group: "o", Mode: results.ModeThroughput,
			Load:    results.Load{Model: results.ModelOpen, Rate: 1000, Arrival: "poisson", Concurrency: 8},
			Summary: results.Summary{Relative: &results.Relative{Baseline: "base", Of: results.RelativeLatencyP50}}}
		for f := range p50.values {
			tr := results.ForkResult{Index: f, Steady: &results.Steady{Class: results.SteadyFlat}}
			for i := range p50.values[f] {
				tr.Slices = append(tr.Slices, results.Slice{Index: i, Seconds: 1, Ops: 1000, ThroughputOpsS: 1000,
					LatencyUs: results.Latency{P50: p50.values[f][i], P99: p99.values[f][i]}})
			}
			b.Forks = append(b.Forks, tr)
		}
		return b
	}
	a, b := open("a", p50a, p99a), open("b", p50b, p99b)
	rel, _ := stats.Paired(&a, &b)
	if rel == nil || rel.Of != results.RelativeLatencyP50 || rel.LatencyP99 == nil {
		t.Fatalf("Paired: %+v", rel)
	}
	w50 := stats.PairedRatioForks(p50a.values, p50b.values, 0.999)
	w99 := stats.PairedRatioForks(p99a.values, p99b.values, 0.999)
	if q := rel.Ratio; !near(q.Mean, w50.Mean) || !near(q.CILow, w50.Low) || !near(q.CIHigh, w50.High) {
		t.Errorf("p50 ratio %+v, want %.6g [%.6g, %.6g]", q, w50.Mean, w50.Low, w50.High)
	}
	if q := *rel.LatencyP99; !near(q.Mean, w99.Mean) || !near(q.CILow, w99.Low) || !near(q.CIHigh, w99.High) {
		t.Errorf("p99 ratio %+v, want %.6g [%.6g, %.6g]", q, w99.Mean, w99.Low, w99.High)
	}
}

// Only benchmarks of one group's rounds are pairable: same key and same baseline.
func TestPairable(t *testing.T) {
	s := slices{values: [][]float64{{1, 2}}, start: []int{0}}
	base, a, b := avgtBench("base", "", s), avgtBench("a", "base", s), avgtBench("b", "base", s)
	otherKey := avgtBench("c", "base", s)
	otherKey.Group = "h"
	otherBase := avgtBench("d", "base2", s) // one key, another plan: another group
	alone, alone2 := avgtBench("x", "", s), avgtBench("y", "", s)
	for _, c := range []struct {
		why  string
		a, b *results.Benchmark
		want bool
	}{
		{"two targets of one group", &a, &b, true},
		{"a target and its baseline", &base, &a, true},
		{"another group key", &a, &otherKey, false},
		{"another baseline", &a, &otherBase, false},
		{"two benchmarks without a ratio: each its own", &alone, &alone2, false},
		{"a benchmark and itself", &a, &a, false},
	} {
		if got := stats.Pairable(c.a, c.b); got != c.want {
			t.Errorf("%s: Pairable = %v, want %v", c.why, got, c.want)
		}
	}
}
