package summary

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

// benchmarkOf is a benchmark of one fork per row of tps, each round a slice of
// 100 ms with the given throughput.
func benchmarkOf(name string, tps ...[]float64) results.Benchmark {
	b := results.Benchmark{Name: name, Mode: results.ModeThroughput, Load: results.Load{Model: results.ModelClosed}}
	for f, fork := range tps {
		tr := results.ForkResult{Index: f, Steady: &results.Steady{Class: results.SteadyFlat}}
		for i, tp := range fork {
			tr.Slices = append(tr.Slices, results.Slice{Index: i, Seconds: 0.1, Ops: int64(tp / 10), ThroughputOpsS: tp})
		}
		b.Forks = append(b.Forks, tr)
	}
	return b
}

// Three targets measured in 100 rounds of one fork on a machine whose speed jumps
// between two levels: the ratios come out paired (within a few per cent of the
// truth, the interval covering it), the baseline has none, it warns about the two
// levels.
func TestGroupRelative(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const rounds = 100
	truth := []float64{1, 0.5, 1.6}
	tps := make([][]float64, 3)
	for i := range rounds {
		speed := 20000.0
		if (i/10)%2 == 1 {
			speed = 36000 // the machine's second level
		}
		for k := range tps {
			tps[k] = append(tps[k], truth[k]*speed*math.Exp(0.1*r.NormFloat64()))
		}
	}
	bs := make([]results.Benchmark, 3)
	for k := range bs {
		bs[k] = benchmarkOf([]string{"a", "b", "c"}[k], tps[k])
	}
	Group(bs, 0)
	if bs[0].Summary.Relative != nil {
		t.Errorf("the baseline has a ratio: %+v", bs[0].Summary.Relative)
	}
	for k := 1; k < 3; k++ {
		rel := bs[k].Summary.Relative
		if rel == nil || rel.Baseline != "a" || rel.Rounds != rounds || rel.Forks != 1 || rel.DF != rounds-1 {
			t.Fatalf("%s: relative %+v", bs[k].Name, rel)
		}
		if q := rel.Ratio; math.Abs(q.Mean/truth[k]-1) > 0.05 || q.CILow > truth[k] || q.CIHigh < truth[k] || q.CI != Confidence {
			t.Errorf("%s: ratio %+v, want about %v inside the interval", bs[k].Name, q, truth[k])
		}
		if rel.Variance == nil || rel.Variance.BetweenForks != nil {
			t.Errorf("%s: variance %+v, want the within-round part only", bs[k].Name, rel.Variance)
		}
	}
	if w := strings.Join(bs[0].Warnings.Of(results.WarnMachineChanged).Strings(), "\n"); !strings.Contains(w, "the machine changed under this group's rounds: every target's steady slices moved together: its speed moved between two levels") {
		t.Errorf("baseline warnings %q; want the two levels said", w)
	}
}

// Six forks of 40 rounds, each fork with its own lasting offset of the target
// (sd 6 %): the two-level interval covers the truth and carries the between-fork
// variance; pooled as one fork the same rounds give an interval that misses it
// (the forks' offsets are drawn so that their mean is 5 % off).
func TestGroupForks(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 8))
	offsets := []float64{0.10, 0.02, 0.08, -0.01, 0.09, 0.02} // mean +5 %, sd 4.5 %
	var tf, bf [][]float64
	for _, off := range offsets {
		var t1, b1 []float64
		for range 40 {
			speed := 20000 * math.Exp(0.2*r.NormFloat64())
			b1 = append(b1, speed*math.Exp(0.1*r.NormFloat64()))
			t1 = append(t1, 1.3*speed*math.Exp(off+0.1*r.NormFloat64()))
		}
		tf, bf = append(tf, t1), append(bf, b1)
	}
	bs := []results.Benchmark{benchmarkOf("base", bf...), benchmarkOf("t", tf...)}
	Group(bs, 0)
	rel := bs[1].Summary.Relative
	if rel.Forks != 6 || rel.DF != 5 || rel.Rounds != 240 {
		t.Fatalf("relative %+v, want 6 forks, 5 df, 240 rounds", rel)
	}
	// The estimate is 1.3·e^0.05 ≈ 1.367; the truth 1.3 must be inside.
	if q := rel.Ratio; q.CILow > 1.3 || q.CIHigh < 1.3 {
		t.Errorf("ratio %+v does not cover the truth 1.3", q)
	}
	if v := rel.Variance; v == nil || v.BetweenForks == nil || *v.BetweenForks < 0.001 {
		t.Errorf("variance %+v, want a between-fork part near 0.045² = 0.002", v)
	}
	var pt, pb []float64
	for f := range tf {
		pt, pb = append(pt, tf[f]...), append(pb, bf[f]...)
	}
	pooled := []results.Benchmark{benchmarkOf("base", pb), benchmarkOf("t", pt)}
	Group(pooled, 0)
	if q := pooled[1].Summary.Relative.Ratio; q.CILow <= 1.3 {
		t.Errorf("pooled ratio %+v covers 1.3: the test's offsets no longer show what one fork misses", q)
	}
}

// Rounds missing on one side (a slice with no op, a target that failed part way) are
// left out of the pairs; a lone benchmark gets no ratio; too few rounds warn.
func TestGroupPairsOnlyCommonRounds(t *testing.T) {
	bs := []results.Benchmark{benchmarkOf("a", []float64{1000, 1000, 1000, 1000}), benchmarkOf("b", []float64{2000, 2000})}
	Group(bs, 0)
	if rel := bs[1].Summary.Relative; rel == nil || rel.Rounds != 2 || math.Abs(rel.Ratio.Mean-2) > 1e-9 {
		t.Errorf("relative %+v, want 2× over the 2 common rounds", rel)
	}
	if w := bs[1].Warnings.Of(results.WarnTooFew); len(w) != 1 || !strings.HasPrefix(w[0].String(), "too few forks or rounds for an interval: its interval rests on 2 rounds of one fork") {
		t.Errorf("warnings %+v, want too few forks or rounds said", bs[1].Warnings)
	}
	one := []results.Benchmark{benchmarkOf("a", []float64{1000})}
	Group(one, 0)
	if one[0].Summary.Relative != nil {
		t.Error("a benchmark alone got a ratio")
	}
}

// Two wildly different rounds: the interval is wider than float64 can carry on the
// ratio's scale; its bounds stay numbers JSON can hold.
func TestGroupIntervalOverflow(t *testing.T) {
	bs := []results.Benchmark{benchmarkOf("a", []float64{10, 1e6}), benchmarkOf("b", []float64{1e6, 10})}
	Group(bs, 0)
	q := bs[1].Summary.Relative.Ratio
	if math.IsInf(q.CIHigh, 0) || math.IsNaN(q.CILow) || q.CILow < 0 || q.CIHigh < q.Mean {
		t.Errorf("interval %+v", q)
	}
}

// A fork's rounds before its steady state are left out of the pairs: a target at
// half speed for its first 20 rounds, then at 1.5× the baseline, is 1.5× once its
// fork says it was steady from round 20.
func TestGroupUsesSteadyRounds(t *testing.T) {
	var tp, bp []float64
	for i := range 60 {
		bp = append(bp, 1000)
		if i < 20 {
			tp = append(tp, 500)
		} else {
			tp = append(tp, 1500)
		}
	}
	bs := []results.Benchmark{benchmarkOf("a", bp), benchmarkOf("b", tp)}
	bs[1].Forks[0].Steady = &results.Steady{Class: results.SteadyWarmedUp, StartRound: 20}
	Group(bs, 0)
	if rel := bs[1].Summary.Relative; rel.Rounds != 40 || math.Abs(rel.Ratio.Mean-1.5) > 1e-9 {
		t.Errorf("relative %+v, want 1.5× over rounds 20..59", rel)
	}
}

// In the open model the pairs are of latency: a target whose calls take 0.8 of the
// baseline's at p50 and 0.5 at p99 is said so, its throughput (the fixed rate) not.
func TestGroupOpenPairsLatency(t *testing.T) {
	bs := []results.Benchmark{benchmarkOf("a", make([]float64, 30)), benchmarkOf("b", make([]float64, 30))}
	r := rand.New(rand.NewPCG(1, 2))
	for k := range bs {
		bs[k].Load.Model = results.ModelOpen
		for i := range bs[k].Forks[0].Slices {
			it := &bs[k].Forks[0].Slices[i]
			noise := math.Exp(0.05 * r.NormFloat64())
			it.ThroughputOpsS, it.LatencyUs.P50, it.LatencyUs.P99 = 1000, 100*noise, 1000*noise
			if k == 1 {
				it.LatencyUs.P50 *= 0.8
				it.LatencyUs.P99 *= 0.5
			}
		}
	}
	Group(bs, 0)
	rel := bs[1].Summary.Relative
	if rel.Of != results.RelativeLatencyP50 || math.Abs(rel.Ratio.Mean-0.8) > 0.03 || rel.LatencyP99 == nil || math.Abs(rel.LatencyP99.Mean-0.5) > 0.03 {
		t.Errorf("relative %+v (p99 %+v), want p50 0.8× and p99 0.5×", rel, rel.LatencyP99)
	}
}

// A fork where the baseline reached no steady state is left out of the pairs while
// enough forks remain for an interval; when such forks are half or more, or leaving
// them out leaves too few, every fork is paired and the ratio marked unsteady.
func TestGroupUnsteady(t *testing.T) {
	flat := make([]float64, 30)
	for i := range flat {
		flat[i] = 1000
	}
	double := make([]float64, 30)
	for i := range double {
		double[i] = 2000
	}
	forks := func(n int, first ...[]float64) [][]float64 {
		out := append([][]float64(nil), first...)
		for len(out) < n {
			out = append(out, flat)
		}
		return out
	}
	// Eight forks; in fork 0 the target ran at twice its speed and the baseline's
	// slices never settled: left out, 7 forks remain (6 df), the ratio is 1×.
	bs := []results.Benchmark{benchmarkOf("a", forks(8)...), benchmarkOf("b", forks(8, double)...)}
	bs[0].Forks[0].Steady.Class = results.SteadyNone
	Group(bs, 0)
	if rel := bs[1].Summary.Relative; rel.Unsteady || rel.Forks != 7 || math.Abs(rel.Ratio.Mean-1) > 1e-9 {
		t.Errorf("one unsteady fork of eight: relative %+v, want it left out (7 forks, 1×), unmarked", rel)
	}
	// Five forks, one unsteady: leaving it out leaves 4 forks (3 df, too few for an
	// interval); pairing all five gives 4 df, so all are paired and it is marked.
	bs = []results.Benchmark{benchmarkOf("a", forks(5)...), benchmarkOf("b", forks(5, double)...)}
	bs[0].Forks[0].Steady.Class = results.SteadyNone
	Group(bs, 0)
	if rel := bs[1].Summary.Relative; !rel.Unsteady || rel.Forks != 5 || !strings.Contains(strings.Join(bs[1].Warnings.Of(results.WarnUnsteadyRatio).Strings(), "\n"), "no steady state: a reached no steady state in 1 of its 5 forks") {
		t.Errorf("one of five: relative %+v, warnings %q: want every fork paired and the ratio marked", rel, bs[1].Warnings)
	}
	// Half the forks unsteady: all paired, marked.
	bs = []results.Benchmark{benchmarkOf("a", forks(8)...), benchmarkOf("b", forks(8, double, double)...)}
	for f := range 4 {
		bs[0].Forks[f].Steady.Class = results.SteadyNone
	}
	Group(bs, 0)
	if rel := bs[1].Summary.Relative; !rel.Unsteady || rel.Forks != 8 || !strings.Contains(strings.Join(bs[1].Warnings.Of(results.WarnUnsteadyRatio).Strings(), "\n"), "no steady state: a reached no steady state in 4 of its 8 forks") {
		t.Errorf("four of eight: relative %+v, warnings %q: want every fork paired and the ratio marked", rel, bs[1].Warnings)
	}
}

// A benchmark's class is a fork class that at least a quarter of its forks had.
func TestBenchmarkSteady(t *testing.T) {
	f, w, n := results.SteadyFlat, results.SteadyWarmedUp, results.SteadyNone
	for _, c := range []struct {
		classes []string
		want    string
	}{
		{[]string{f, f, f, f, f, f, f, n}, f}, // 1 of 8 is under a quarter: a fork, not the benchmark
		{[]string{f, f, f, n}, n},             // 1 of 4 is a quarter
		{[]string{w, w, f, f, n, f, f, f}, w}, // 2 of 8 warmed up; 1 of 8 unsteady is not enough
		{[]string{w, w, n, n, f, f, f, f}, n}, // no steady state is said before warmed up
		{[]string{results.SteadyUnknown, results.SteadyUnknown}, results.SteadyUnknown},
		{nil, ""},
	} {
		if got := benchmarkSteady(c.classes); got != c.want {
			t.Errorf("%v: %q, want %q", c.classes, got, c.want)
		}
	}
}
