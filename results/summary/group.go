package summary

import (
	"fmt"
	"math"
	"slices"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/stats"
)

// Group completes the results of one comparison group: bs are the group's
// benchmarks as Benchmark made them (their forks, their slices one a
// round) and base is the index of the group's baseline. Every other benchmark
// gets its ratio to the baseline (Summary.Relative) from stats.Paired: paired by
// fork and round (by slice index when measured one after the other) over the rounds
// where both were steady, with an interval from both levels
// (stats.PairedRatioForks); in the open model the pairs are of response-time
// percentiles instead, the throughput being the fixed rate. The baseline gets the
// group's drift figure (results.Drift, in the closed model), a warning when the
// machine's speed changed under the rounds, and one when it moved more than some
// ratio's interval is wide.
func Group(bs []results.Benchmark, base int) {
	if len(bs) < 2 || base < 0 || base >= len(bs) {
		return
	}
	for i := range bs {
		if i == base {
			continue
		}
		b := &bs[i]
		rel, why := stats.Paired(b, &bs[base])
		if rel == nil {
			continue
		}
		b.Summary.Relative = rel
		if w := intervalWarning(rel); w != "" {
			b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnTooFew, Text: w})
		}
		if why != "" {
			b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnUnsteadyRatio, Text: why})
		}
	}
	ps := make([]*results.Benchmark, len(bs))
	for i := range bs {
		ps[i] = &bs[i]
	}
	m := stats.MeasureMovementForks(speedIndex(ps))
	if w := driftWarning(m); w != "" {
		bs[base].Warnings = append(bs[base].Warnings, results.Warning{Kind: results.WarnMachineChanged, Text: w})
	}
	setDrift(ps, base, m)
}

// setDrift gives a closed-model group's baseline its drift figure, from the group's
// speed index (series), and the warning that it is larger than some ratio's
// half-width (driftFlag).
func setDrift(bs []*results.Benchmark, base int, m stats.Movement) {
	b := bs[base]
	if b.Load.Model == results.ModelOpen {
		return // the throughput is the fixed rate: it says nothing of the machine's speed
	}
	b.Summary.Drift = &results.Drift{Rounds: m.N, Trend: m.Trend, TrendSignificant: m.Significant, Levels: m.Levels, Moved: m.Moved()}
	if w := driftFlag(b.Summary.Drift, bs); w != "" {
		b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnDriftOverInterval, Text: w})
	}
}

// driftFlag says, in plain words, when the machine moved under the rounds by more
// than some of the group's ratios' intervals are wide (their relative half-widths;
// ratios with too few samples for an interval are left out): those intervals hold
// what varied between this run's rounds and forks, not the machine's move.
func driftFlag(d *results.Drift, bs []*results.Benchmark) string {
	var narrower []float64
	ratios := 0
	for _, b := range bs {
		r := b.Summary.Relative
		if r == nil || !r.HasInterval() {
			continue
		}
		ratios++
		if h := r.HalfWidth(); h < d.Moved {
			narrower = append(narrower, h)
		}
	}
	if len(narrower) == 0 {
		return ""
	}
	slices.Sort(narrower)
	hw := percent(narrower[0])
	if lo, hi := narrower[0], narrower[len(narrower)-1]; percent(lo) != percent(hi) {
		hw = percent(lo) + " to ±" + percent(hi)
	}
	which := fmt.Sprintf("the interval of %d of its %d ratios", len(narrower), ratios)
	if ratios == 1 {
		which = "the interval of its ratio"
	}
	return fmt.Sprintf("the machine's speed moved %s under the rounds, more than %s is wide (±%s): "+
		"this run's ±%s does not cover how much the machine moved under it, so the same comparison "+
		"measured at another time may land outside it (docs/method.md, \"What an interval promises\")",
		percent(d.Moved), which, hw, hw)
}

// percent is a share as a percentage to two significant figures, at most one
// decimal: 0.1047 → "10 %", 0.013 → "1.3 %".
func percent(f float64) string {
	p := f * 100
	if p >= 10 {
		return fmt.Sprintf("%.0f %%", p)
	}
	return fmt.Sprintf("%.1f %%", p)
}

// FillDrift gives each comparison group of bs whose baseline has no drift figure (a
// file written before results.Drift existed) the figure computed from the slices the
// file stores, with its warning as Group gives it, so that re-rendered old results
// show it too. A group is a baseline and the benchmarks whose ratios name it, with
// the same group key; a group without ratios (a file from before paired ratios) gets
// none.
func FillDrift(bs []results.Benchmark) {
	key := func(b *results.Benchmark, baseline string) string { return results.GroupOf(b) + "\x00" + baseline }
	members := map[string][]*results.Benchmark{}
	for i := range bs {
		if r := bs[i].Summary.Relative; r != nil {
			k := key(&bs[i], r.Baseline)
			members[k] = append(members[k], &bs[i])
		}
	}
	for i := range bs {
		b := &bs[i]
		ms := members[key(b, b.Name)]
		if b.Summary.Relative != nil || b.Summary.Drift != nil || len(ms) == 0 {
			continue
		}
		group := append([]*results.Benchmark{b}, ms...)
		setDrift(group, 0, stats.MeasureMovementForks(speedIndex(group)))
	}
}

// intervalWarning says when a ratio's interval rests on too few degrees of freedom
// to mean anything. (A ratio of one fork, whose interval leaves out whatever a fresh
// process would change, is said once for its group, in the table's title.)
func intervalWarning(r *results.Relative) string {
	if r.DF < results.MinIntervalDF {
		return fmt.Sprintf("its interval rests on %s (%.0f degrees of freedom); run more forks or rounds before reading it", r.Samples(), r.DF)
	}
	return ""
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

// speedIndex is the machine's speed round by round, a series per fork, the forks in
// the order they ran: the geometric mean, over the group's targets, of each steady
// slice's throughput relative to its target's median. A target's own warm-up is not
// the machine's: the slices before a target was steady are left out (its class and
// warning say it).
func speedIndex(bs []*results.Benchmark) [][]float64 {
	logs := map[stats.Slot][]float64{}
	for _, b := range bs {
		for k, v := range relativeToMedian(stats.SteadyThroughput(b)) {
			logs[k] = append(logs[k], math.Log(v))
		}
	}
	slots := geoMeans(logs)
	var forks [][]float64
	fork := -1
	for _, k := range stats.SortedSlots(slots) {
		if len(forks) == 0 || k.Fork != fork {
			forks, fork = append(forks, nil), k.Fork
		}
		forks[len(forks)-1] = append(forks[len(forks)-1], slots[k])
	}
	return forks
}

// driftWarning says when the speed index's movement (speedIndex,
// stats.MeasureMovementForks: across forks, not the spread between them) is a trend of
// stats.MinTrend or more or two levels. Pairing cancels a change of speed that hits
// every target alike, but a reader should know the machine moved.
func driftWarning(m stats.Movement) string {
	trending := m.Significant && math.Abs(m.Trend) >= stats.MinTrend
	what := ""
	switch {
	case m.Levels > 0 && trending:
		what = fmt.Sprintf("its speed moved between two levels %.0f %% apart and trended %+.0f %% over the run", m.Levels*100, m.Trend*100)
	case m.Levels > 0:
		what = fmt.Sprintf("its speed moved between two levels %.0f %% apart", m.Levels*100)
	case trending:
		what = fmt.Sprintf("its speed trended %+.0f %% over the run", m.Trend*100)
	default:
		return ""
	}
	return fmt.Sprintf("every target's steady slices moved together: %s; the ratios pair samples close in time, the absolute scores mix both", what)
}
