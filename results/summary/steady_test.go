package summary

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
)

// forkOf is one interleaved fork of slices of 1 s with the given throughputs.
func forkOf(tps []float64) *results.Measured {
	tr := &results.Fork{}
	for i, tp := range tps {
		iv := record.NewInterval(false)
		iv.Ops = int64(tp)
		iv.Start, iv.End = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i+1)*time.Second)
		tr.Intervals = append(tr.Intervals, &results.Interval{Phase: "measure", Index: i, Interval: iv})
	}
	return &results.Measured{Forks: []*results.Fork{tr}, Method: results.MethodInterleaved}
}

// Steadiness over three interleaved targets of 60 rounds; each case says why its
// classes are right.
func TestSteadiness(t *testing.T) {
	cases := []struct {
		name string
		// level(target, round) is a target's speed, sd its slices' noise.
		level func(k, i int) float64
		sd    []float64
		want  []string
	}{
		// Target 2 warms up (+80 % from round 15) while 0 and 1 hold: only 2 is
		// warmed up; 0 and 1, flat, are the machine's reference, and 2 over them
		// still steps up.
		{"one warms up", func(k, i int) float64 {
			if k == 2 && i < 15 {
				return 1000
			}
			return 1800
		}, []float64{0.1, 0.1, 0.1}, []string{results.SteadyFlat, results.SteadyFlat, results.SteadyWarmedUp}},
		// Every target warms up together (three JVMs): no target's series is flat,
		// so there is no reference and each is classified on its own series, which
		// says what happened; a reference would have cancelled it.
		{"all warm together", func(k, i int) float64 {
			if i < 20 {
				return 1000
			}
			return 1600
		}, []float64{0.1, 0.1, 0.1}, []string{results.SteadyWarmedUp, results.SteadyWarmedUp, results.SteadyWarmedUp}},
		// Three targets warm up together, +60 % in a straight line over the fork:
		// 0 and 1 are too noisy (50 %) for their own series to show it, 2 is quiet
		// (5 %). The reference from 0 and 1 is not flat itself (their mean over two
		// targets rises with less noise), so it is not used, and 2's own series
		// decides. (Without that check 2 came out flat. With noisier references the
		// check can still miss: docs/method.md.)
		{"warming together under noise", func(k, i int) float64 {
			return 1000 * (1 + 0.6*float64(i)/59)
		}, []float64{0.5, 0.5, 0.05}, []string{results.SteadyFlat, results.SteadyFlat, results.SteadyNone}},
		// The machine gets 15 % faster at round 30 under every target; targets 0
		// and 1 are too noisy (25 %) for their own series to show it, target 2 is
		// quiet (3 %) and its own series steps. Over the machine's speed from 0 and 1
		// the step cancels: target 2 is flat, the move was the machine's.
		{"machine moved", func(k, i int) float64 {
			if i < 30 {
				return 1000
			}
			return 1150
		}, []float64{0.25, 0.25, 0.03}, []string{results.SteadyFlat, results.SteadyFlat, results.SteadyFlat}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 6))
			rs := make([]*results.Measured, 3)
			for k := range rs {
				tps := make([]float64, 60)
				for i := range tps {
					tps[i] = c.level(k, i) * math.Exp(c.sd[k]*r.NormFloat64())
				}
				rs[k] = forkOf(tps)
			}
			got := Steadiness(rs, false)
			for k := range rs {
				if got[k][0].Class != c.want[k] {
					t.Errorf("target %d: %+v, want %s", k, got[k][0], c.want[k])
				}
			}
			// Alone (no group), target 2's own series decides.
			if alone := Steadiness(rs[2:], false)[0][0]; c.name == "machine moved" && alone.Class == results.SteadyFlat {
				t.Errorf("target 2 alone: %+v; the case no longer shows a step its own series sees", alone)
			}
		})
	}
}

// A benchmark's forks that were not steady from their first measured slice are said
// once per class, each a warning of its own kind, forks numbered from 1.
func TestSteadyWarnings(t *testing.T) {
	forks := []results.ForkResult{
		{Index: 0, Steady: &results.Steady{Class: results.SteadyFlat}},
		{Index: 1, Steady: &results.Steady{Class: results.SteadyWarmedUp, AfterSeconds: 2.5, Change: 0.8}},
		{Index: 2, Steady: &results.Steady{Class: results.SteadyNone}},
		{Index: 3, Steady: &results.Steady{Class: results.SteadySlowdown, AfterSeconds: 4, Change: -0.1}},
		{Index: 4, Steady: &results.Steady{Class: results.SteadyNone}},
	}
	want := []string{
		"still warming up: no steady state in fork 3, 5: its slices still changed near the end; measured whole, give it a longer warmup",
		"warmed up: warmed up during the rounds (fork 2 after 2.5 s (+80 %)); only its steady rounds are measured",
		"slowdown: got slower during the rounds (fork 4 after 4.0 s (-10 %)); only its steady rounds are measured",
	}
	ws := steadyWarnings(forks)
	kinds := []results.WarningKind{results.WarnStillWarming, results.WarnWarmedUp, results.WarnSlowdown}
	if len(ws) != len(want) {
		t.Fatalf("warnings %+v, want %d", ws, len(want))
	}
	for i, w := range ws {
		if w.Kind != kinds[i] || w.String() != want[i] {
			t.Errorf("warning %d: %s %q, want %s %q", i, w.Kind, w, kinds[i], want[i])
		}
	}
	if ws := steadyWarnings(forks[:1]); ws != nil {
		t.Errorf("flat forks warned: %+v", ws)
	}
}
