package summary

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/report"
)

// slices makes one trial of per-round slices of 100 ms with the given throughputs.
func slicesOf(tps []float64) *cluster.Result {
	tr := &cluster.Trial{}
	for i, tp := range tps {
		iv := interval(i, int64(tp/10), 100*time.Microsecond, 0, time.Millisecond, false)
		iv.End = iv.Start.Add(100 * time.Millisecond)
		tr.Intervals = append(tr.Intervals, iv)
	}
	return &cluster.Result{Trials: []*cluster.Trial{tr}, Method: "interleaved"}
}

// Three targets measured in 100 rounds on a machine whose speed jumps between two
// levels: the ratios come out paired (within a few per cent of the truth, the
// interval covering it), the baseline has none, and it warns about the two levels.
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
	bs := make([]report.Benchmark, 3)
	rs := make([]*cluster.Result, 3)
	for k := range bs {
		bs[k] = report.Benchmark{Name: []string{"a", "b", "c"}[k], Mode: report.ModeThroughput}
		rs[k] = slicesOf(tps[k])
	}
	Group(bs, rs, 0)
	if bs[0].Summary.Relative != nil {
		t.Errorf("the baseline has a ratio: %+v", bs[0].Summary.Relative)
	}
	for k := 1; k < 3; k++ {
		rel := bs[k].Summary.Relative
		if rel == nil || rel.Baseline != "a" || rel.Rounds != rounds {
			t.Fatalf("%s: relative %+v", bs[k].Name, rel)
		}
		if q := rel.Ratio; math.Abs(q.Mean/truth[k]-1) > 0.05 || q.CILow > truth[k] || q.CIHigh < truth[k] || q.CI != Confidence {
			t.Errorf("%s: ratio %+v, want about %v inside the interval", bs[k].Name, q, truth[k])
		}
	}
	if w := strings.Join(bs[0].Warnings, "\n"); !strings.Contains(w, "two levels") {
		t.Errorf("baseline warnings %q; want the two levels said", w)
	}
}

// Rounds missing on one side (a slice with no op, a target that failed part way) are
// left out of the pairs; a lone benchmark gets no ratio.
func TestGroupPairsOnlyCommonRounds(t *testing.T) {
	bs := []report.Benchmark{{Name: "a"}, {Name: "b"}}
	rs := []*cluster.Result{slicesOf([]float64{1000, 1000, 1000, 1000}), slicesOf([]float64{2000, 2000})}
	Group(bs, rs, 0)
	if rel := bs[1].Summary.Relative; rel == nil || rel.Rounds != 2 || math.Abs(rel.Ratio.Mean-2) > 1e-9 {
		t.Errorf("relative %+v, want 2× over the 2 common rounds", rel)
	}
	one := []report.Benchmark{{Name: "a"}}
	Group(one, rs[:1], 0)
	if one[0].Summary.Relative != nil {
		t.Error("a benchmark alone got a ratio")
	}
}

// Two wildly different rounds: the interval is wider than float64 can carry on the
// ratio's scale; its bounds stay numbers JSON can hold.
func TestGroupIntervalOverflow(t *testing.T) {
	bs := []report.Benchmark{{Name: "a"}, {Name: "b"}}
	rs := []*cluster.Result{slicesOf([]float64{10, 1e6}), slicesOf([]float64{1e6, 10})}
	Group(bs, rs, 0)
	q := bs[1].Summary.Relative.Ratio
	if math.IsInf(q.CIHigh, 0) || math.IsNaN(q.CILow) || q.CILow < 0 || q.CIHigh < q.Mean {
		t.Errorf("interval %+v", q)
	}
}

// A target whose speed rises over the rounds while the others hold is said to be
// still warming up; the steady ones are not.
func TestGroupWarming(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	const rounds = 100
	tps := make([][]float64, 3)
	for i := range rounds {
		speed := 20000 * math.Exp(0.2*r.NormFloat64()) // the machine, shared
		warm := 1 + 0.5*float64(i)/rounds              // target 2 gets 50 % faster
		for k := range tps {
			v := speed * math.Exp(0.05*r.NormFloat64())
			if k == 2 {
				v *= warm
			}
			tps[k] = append(tps[k], v)
		}
	}
	// In average-time mode (ms/op, which falls as a target warms up) the same target
	// is the one warned about.
	for _, mode := range []string{report.ModeThroughput, report.ModeAverageTime} {
		bs := make([]report.Benchmark, 3)
		rs := make([]*cluster.Result, 3)
		for k := range bs {
			bs[k] = report.Benchmark{Name: string(rune('a' + k)), Mode: mode}
			rs[k] = slicesOf(tps[k])
		}
		Group(bs, rs, 0)
		for k := range bs {
			warned := strings.Contains(strings.Join(bs[k].Warnings, "\n"), StillWarming)
			if warned != (k == 2) {
				t.Errorf("%s, %s: warned %v (%q)", mode, bs[k].Name, warned, bs[k].Warnings)
			}
		}
	}
}
