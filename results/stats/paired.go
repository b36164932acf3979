package stats

// Paired and the functions beside it read the results model (two benchmarks' slices
// as a results file holds them): the one part of stats that is not of bare numbers,
// kept here so that the summary, which makes each ratio to a group's baseline, and the
// reports, which pair two other targets of a group, share one estimate.

import (
	"fmt"
	"math"
	"slices"

	"github.com/wirebench/wirebench/results"
)

// Confidence is the level of every interval wirebench gives (scores and ratios),
// JMH's default.
const Confidence = 0.999

// Paired is b's ratio to base, paired by fork and round (by slice index when they were
// measured one after the other) over the rounds where both were steady, with an
// interval from both levels (PairedRatioForks); in the open model (base's) the
// pairs are of response-time p50 and p99 instead, the throughput being the fixed
// rate. It is how a comparison group's ratios to its baseline are made (summary.Group)
// and how a report pairs two other members of one group (Pairable).
//
// It pairs the forks where both reached a steady state. Every fork is paired instead,
// and the ratio marked Unsteady with why (the text of a results.WarnUnsteadyRatio
// warning), when the forks without one are half of
// either benchmark's or more, or when leaving them out would leave too few forks for
// an interval that pairing all of them gives. Nil when no slot of b has a pair in
// base.
func Paired(b, base *results.Benchmark) (*results.Relative, string) {
	of := scoreRelative
	if base.Load.Model == results.ModelOpen {
		of = latencyRelative
	}
	rel := of(b, base, true)
	nb, nbase := unsteadyForks(b), unsteadyForks(base)
	if nb+nbase == 0 {
		return rel, ""
	}
	half := 2*nb >= len(b.Forks) || 2*nbase >= len(base.Forks)
	all := of(b, base, false)
	if all == nil || !half && rel != nil && (rel.DF >= results.MinIntervalDF || all.DF <= rel.DF) {
		return rel, ""
	}
	all.Unsteady = true
	who, n, of2 := b, nb, len(b.Forks)
	if nbase > nb {
		who, n, of2 = base, nbase, len(base.Forks)
	}
	return all, fmt.Sprintf("%s reached no steady state in %d of its %d forks, and its ratio pairs every fork: it is not of steady speeds alone", who.Name, n, of2)
}

// Pairable reports whether a and b were measured in one comparison group's rounds,
// so that Paired can pair them as it pairs a target with its baseline: the same group
// key (results.GroupOf) and the same baseline (a benchmark without a ratio being its group's
// baseline, or measured alone). Two benchmarks with one key but different baselines
// ran in different groups (targets of one key and different plans do).
func Pairable(a, b *results.Benchmark) bool {
	return a.Name != b.Name && results.GroupOf(a) == results.GroupOf(b) && baselineOf(a) == baselineOf(b)
}

// baselineOf is the name of b's group's baseline, as b's ratio names it; b's own
// name when it has no ratio.
func baselineOf(b *results.Benchmark) string {
	if r := b.Summary.Relative; r != nil {
		return r.Baseline
	}
	return b.Name
}

// unsteadyForks counts b's forks that reached no steady state.
func unsteadyForks(b *results.Benchmark) int {
	n := 0
	for _, t := range b.Forks {
		if t.Steady != nil && t.Steady.Class == results.SteadyNone {
			n++
		}
	}
	return n
}

// scoreRelative is b's score over base's, in the mode's unit, paired by fork and
// round (steadyOnly: from the forks that reached a steady state).
func scoreRelative(b, base *results.Benchmark, steadyOnly bool) *results.Relative {
	value := throughput
	if b.Mode == results.ModeAverageTime {
		value = msPerOp
	}
	r := pairForks(steadyValues(b, value, steadyOnly), steadyValues(base, value, steadyOnly))
	if r == nil {
		return nil
	}
	return &results.Relative{Baseline: base.Name, Ratio: r.ratio, Rounds: r.N, Forks: r.Forks, DF: finiteOr(r.DF, 0), Variance: r.variance}
}

// latencyRelative is b's response-time p50 and p99 over base's, paired by fork and
// round: in the open model both run at the same fixed rate, and what tells them
// apart is how long calls took. Ratio is the p50's.
func latencyRelative(b, base *results.Benchmark, steadyOnly bool) *results.Relative {
	p50 := pairForks(steadyValues(b, latencyP50, steadyOnly), steadyValues(base, latencyP50, steadyOnly))
	p99 := pairForks(steadyValues(b, latencyP99, steadyOnly), steadyValues(base, latencyP99, steadyOnly))
	if p50 == nil || p99 == nil {
		return nil
	}
	return &results.Relative{Baseline: base.Name, Ratio: p50.ratio, Rounds: p50.N, Forks: p50.Forks, DF: finiteOr(p50.DF, 0),
		Variance: p50.variance, Of: results.RelativeLatencyP50, LatencyP99: &p99.ratio}
}

// paired is a ratio estimated by PairedRatioForks in the results' form.
type paired struct {
	ForkedRatio
	ratio    results.Ratio
	variance *results.Variance
}

// pairForks pairs the values of the slots both have, fork by fork.
func pairForks(t, b map[Slot]float64) *paired {
	var ts, bs [][]float64
	forks := map[int]int{}
	for _, k := range SortedSlots(t) {
		v, ok := b[k]
		if !ok {
			continue
		}
		f, seen := forks[k.Fork]
		if !seen {
			f = len(ts)
			forks[k.Fork] = f
			ts, bs = append(ts, nil), append(bs, nil)
		}
		ts[f], bs[f] = append(ts[f], t[k]), append(bs[f], v)
	}
	r := PairedRatioForks(ts, bs, Confidence)
	if r.Forks == 0 || math.IsNaN(r.Mean) {
		return nil
	}
	p := &paired{ForkedRatio: r, ratio: results.Ratio{Mean: r.Mean, CILow: r.Mean, CIHigh: r.Mean, CI: Confidence}}
	if !math.IsNaN(r.Low) {
		// An interval from very few rounds can reach past float64 (exp of a huge
		// t × sd): its bounds are then 0 and the largest float, which JSON can carry.
		p.ratio.CILow, p.ratio.CIHigh = finiteOr(r.Low, 0), finiteOr(r.High, math.MaxFloat64)
	}
	if !math.IsNaN(r.Within) {
		p.variance = &results.Variance{WithinRound: r.Within}
		if !math.IsNaN(r.Between) {
			p.variance.BetweenForks = &r.Between
		}
	}
	return p
}

// Slot is one sample's place: its fork and its round (slice index).
type Slot struct{ Fork, Round int }

// SortedSlots are m's slots by fork, then round.
func SortedSlots(m map[Slot]float64) []Slot {
	out := make([]Slot, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Slot) int {
		if a.Fork != b.Fork {
			return a.Fork - b.Fork
		}
		return a.Round - b.Round
	})
	return out
}

// A sliceValue is what one slice says of its target, > 0 when it says anything.
type sliceValue func(results.Slice) float64

func throughput(it results.Slice) float64 { return it.ThroughputOpsS }

// msPerOp is average time's score of one slice: ms per op of one caller (a group's
// targets have the same callers, so the count cancels in a ratio).
func msPerOp(it results.Slice) float64 {
	if it.Ops == 0 {
		return 0
	}
	return it.Seconds / float64(it.Ops) * 1e3
}

func latencyP50(it results.Slice) float64 { return it.LatencyUs.P50 }
func latencyP99(it results.Slice) float64 { return it.LatencyUs.P99 }

// SteadyThroughput is b's throughput by slot, from the steady part of each fork
// that reached a steady state: the slices Paired pairs in the closed model.
func SteadyThroughput(b *results.Benchmark) map[Slot]float64 {
	return steadyValues(b, throughput, true)
}

// steadyValues are b's values by slot, from the steady part of each fork (a
// fork's Steady.StartRound and after); steadyOnly leaves out the forks that
// reached no steady state.
func steadyValues(b *results.Benchmark, value sliceValue, steadyOnly bool) map[Slot]float64 {
	out := map[Slot]float64{}
	for _, t := range b.Forks {
		from := 0
		if t.Steady != nil {
			from = t.Steady.StartRound
			if steadyOnly && t.Steady.Class == results.SteadyNone {
				continue
			}
		}
		for _, it := range t.Slices {
			if it.Index < from {
				continue
			}
			if v := value(it); v > 0 {
				out[Slot{t.Index, it.Index}] = v
			}
		}
	}
	return out
}

func finiteOr(v, alt float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return alt
	}
	return v
}
