package summary

import (
	"fmt"
	"math"
	"slices"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/stats"
)

// Group completes the results of one comparison group: bs are the group's
// benchmarks as Benchmark made them (their forks, their iterations the
// rounds) and base is the index of the group's baseline. Every other benchmark
// gets its ratio to the baseline (Summary.Relative) from stats.Paired: paired by
// fork and round (by iteration when measured one after the other) over the rounds
// where both were steady, with an interval from both levels
// (stats.PairedRatioForks); in the open model the pairs are of response-time
// percentiles instead, the throughput being the fixed rate. The baseline gets a
// warning when the machine's speed changed under the rounds.
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
	speeds := make([]map[stats.Slot]float64, len(bs))
	for i := range bs {
		speeds[i] = stats.SteadyThroughput(&bs[i])
	}
	if w := driftWarning(speeds); w != "" {
		bs[base].Warnings = append(bs[base].Warnings, results.Warning{Kind: results.WarnMachineChanged, Text: w})
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

// driftWarning looks at the machine's speed round by round: the geometric mean, over
// the group's targets, of each steady slice's throughput relative to its target's
// median. Pairing cancels a change of speed that hits every target alike, but a
// reader should know the machine moved. A target's own warm-up is not the machine's:
// the slices before a target was steady are left out (its class and warning say it).
func driftWarning(speeds []map[stats.Slot]float64) string {
	logs := map[stats.Slot][]float64{}
	for _, m := range speeds {
		for k, v := range relativeToMedian(m) {
			logs[k] = append(logs[k], math.Log(v))
		}
	}
	slots := geoMeans(logs)
	var series []float64
	for _, k := range stats.SortedSlots(slots) {
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
	return fmt.Sprintf("every target's steady slices moved together: %s; the ratios pair samples close in time, the absolute scores mix both", what)
}
