package summary

import (
	"fmt"
	"math"
	"slices"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/stats"
)

// Group completes the results of one comparison group: bs are the group's
// benchmarks as Benchmark made them (their trials are the forks, their iterations
// the rounds) and base is the index of the group's baseline. Every other benchmark
// gets its ratio to the baseline (Summary.Relative), paired by fork and round (by
// iteration when measured one after the other) over the rounds where both were
// steady, with an interval from both levels (stats.PairedRatioForks); in the open
// model the pairs are of response-time percentiles instead, the throughput being
// the fixed rate. The baseline gets a warning when the machine's speed changed
// under the rounds.
func Group(bs []results.Benchmark, base int) {
	if len(bs) < 2 || base < 0 || base >= len(bs) {
		return
	}
	open := bs[base].Load.Model == results.ModelOpen
	for i := range bs {
		if i == base {
			continue
		}
		b := &bs[i]
		rel, why := relative(b, &bs[base], open)
		if rel == nil {
			continue
		}
		b.Summary.Relative = rel
		if w := intervalWarning(rel); w != "" {
			b.Warnings = append(b.Warnings, w)
		}
		if why != "" {
			b.Warnings = append(b.Warnings, why)
		}
	}
	speeds := make([]map[slot]float64, len(bs))
	for i := range bs {
		speeds[i] = steadyValues(&bs[i], throughput, true)
	}
	if w := driftWarning(speeds); w != "" {
		bs[base].Warnings = append(bs[base].Warnings, w)
	}
}

// relative is b's ratio to base (scoreRelative, or latencyRelative in the open
// model) from the forks where both reached a steady state. Every fork is paired
// instead, and the ratio marked Unsteady with why, when the forks without one are
// half of either benchmark's or more, or when leaving them out would leave too few
// forks for an interval that pairing all of them gives.
func relative(b, base *results.Benchmark, open bool) (*results.Relative, string) {
	of := scoreRelative
	if open {
		of = latencyRelative
	}
	rel := of(b, base, true)
	nb, nbase := unsteadyForks(b), unsteadyForks(base)
	if nb+nbase == 0 {
		return rel, ""
	}
	half := 2*nb >= len(b.Trials) || 2*nbase >= len(base.Trials)
	all := of(b, base, false)
	if all == nil || !half && rel != nil && (rel.DF >= results.MinIntervalDF || all.DF <= rel.DF) {
		return rel, ""
	}
	all.Unsteady = true
	who, n, of2 := b, nb, len(b.Trials)
	if nbase > nb {
		who, n, of2 = base, nbase, len(base.Trials)
	}
	return all, fmt.Sprintf("%s: %s reached no steady state in %d of its %d forks, and its ratio pairs every fork: it is not of steady speeds alone", results.SteadyNone, who.Name, n, of2)
}

// unsteadyForks counts b's forks that reached no steady state.
func unsteadyForks(b *results.Benchmark) int {
	n := 0
	for _, t := range b.Trials {
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

// paired is a ratio estimated by stats.PairedRatioForks in the results' form.
type paired struct {
	stats.ForkedRatio
	ratio    results.Ratio
	variance *results.Variance
}

// pairForks pairs the values of the slots both have, fork by fork.
func pairForks(t, b map[slot]float64) *paired {
	var ts, bs [][]float64
	forks := map[int]int{}
	for _, k := range sortedSlots(t) {
		v, ok := b[k]
		if !ok {
			continue
		}
		f, seen := forks[k.trial]
		if !seen {
			f = len(ts)
			forks[k.trial] = f
			ts, bs = append(ts, nil), append(bs, nil)
		}
		ts[f], bs[f] = append(ts[f], t[k]), append(bs[f], v)
	}
	r := stats.PairedRatioForks(ts, bs, Confidence)
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

// TooFew starts the warning of a ratio whose interval rests on too few forks or rounds.
const TooFew = "too few forks or rounds for an interval"

// intervalWarning says when a ratio's interval rests on too few degrees of freedom
// to mean anything. (A ratio of one fork, whose interval leaves out whatever a fresh
// process would change, is said once for its group, in the table's title.)
func intervalWarning(r *results.Relative) string {
	if r.DF < results.MinIntervalDF {
		return fmt.Sprintf("%s: its interval rests on %s (%.0f degrees of freedom); run more forks (trials) or rounds before reading it", TooFew, countOf(r), r.DF)
	}
	return ""
}

func countOf(r *results.Relative) string {
	if r.Forks >= 2 {
		return fmt.Sprintf("%d forks", r.Forks)
	}
	return fmt.Sprintf("%d rounds of one fork", r.Rounds)
}

// slot is one sample's place: its trial (fork) and its round (iteration index).
type slot struct{ trial, round int }

func sortedSlots(m map[slot]float64) []slot {
	out := make([]slot, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b slot) int {
		if a.trial != b.trial {
			return a.trial - b.trial
		}
		return a.round - b.round
	})
	return out
}

// A sliceValue is what one slice says of its target, > 0 when it says anything.
type sliceValue func(results.Iteration) float64

func throughput(it results.Iteration) float64 { return it.ThroughputOpsS }

// msPerOp is average time's score of one slice: ms per op of one caller (a group's
// targets have the same callers, so the count cancels in a ratio).
func msPerOp(it results.Iteration) float64 {
	if it.Ops == 0 {
		return 0
	}
	return it.Seconds / float64(it.Ops) * 1e3
}

func latencyP50(it results.Iteration) float64 { return it.LatencyUs.P50 }
func latencyP99(it results.Iteration) float64 { return it.LatencyUs.P99 }

// steadyValues are b's values by slot, from the steady part of each trial (a
// trial's Steady.StartRound and after); steadyOnly leaves out the trials that
// reached no steady state.
func steadyValues(b *results.Benchmark, value sliceValue, steadyOnly bool) map[slot]float64 {
	out := map[slot]float64{}
	for _, t := range b.Trials {
		from := 0
		if t.Steady != nil {
			from = t.Steady.StartRound
			if steadyOnly && t.Steady.Class == results.SteadyNone {
				continue
			}
		}
		for _, it := range t.Iterations {
			if it.Index < from {
				continue
			}
			if v := value(it); v > 0 {
				out[slot{t.Index, it.Index}] = v
			}
		}
	}
	return out
}

// relativeToMedian divides each slice's score by its target's median.
func relativeToMedian[K comparable](m map[K]float64) map[K]float64 {
	out := make(map[K]float64, len(m))
	if len(m) == 0 {
		return out
	}
	vals := make([]float64, 0, len(m))
	for _, v := range m {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	median := vals[len(vals)/2]
	for k, v := range m {
		out[k] = v / median
	}
	return out
}

// geoMeans is the geometric mean of each key's values, given as their logs.
func geoMeans[K comparable](logs map[K][]float64) map[K]float64 {
	out := make(map[K]float64, len(logs))
	for k, ls := range logs {
		var sum float64
		for _, l := range ls {
			sum += l
		}
		out[k] = math.Exp(sum / float64(len(ls)))
	}
	return out
}

func finiteOr(v, alt float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return alt
	}
	return v
}

// driftWarning looks at the machine's speed round by round: the geometric mean, over
// the group's targets, of each steady slice's throughput relative to its target's
// median. Pairing cancels a change of speed that hits every target alike, but a
// reader should know the machine moved. A target's own warm-up is not the machine's:
// the slices before a target was steady are left out (its class and warning say it).
func driftWarning(speeds []map[slot]float64) string {
	logs := map[slot][]float64{}
	for _, m := range speeds {
		for k, v := range relativeToMedian(m) {
			logs[k] = append(logs[k], math.Log(v))
		}
	}
	slots := geoMeans(logs)
	var series []float64
	for _, k := range sortedSlots(slots) {
		series = append(series, slots[k])
	}
	d := stats.DetectDrift(series)
	what := ""
	switch {
	case d.TwoLevels && d.Trending:
		what = fmt.Sprintf("its speed moved between two levels %.0f %% apart and trended %+.0f %% over the run", (d.High/d.Low-1)*100, d.Trend*100)
	case d.TwoLevels:
		what = fmt.Sprintf("its speed moved between two levels %.0f %% apart", (d.High/d.Low-1)*100)
	case d.Trending:
		what = fmt.Sprintf("its speed trended %+.0f %% over the run", d.Trend*100)
	default:
		return ""
	}
	return fmt.Sprintf("%s: every target's steady slices moved together: %s; the ratios pair samples close in time, the absolute scores mix both", results.MachineChanged, what)
}
