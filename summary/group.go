package summary

import (
	"fmt"
	"math"
	"slices"

	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/stats"
)

// Group completes the results of one comparison group: bs[i] is the summary of the
// benchmark the driver measured as rs[i], and base is the index of the group's
// baseline. Every other benchmark gets its ratio to the baseline (Summary.Relative),
// paired by trial and round (by iteration when measured one after the other), and the
// baseline gets a warning when the machine's speed changed under the rounds.
func Group(bs []report.Benchmark, rs []*cluster.Result, base int) {
	if len(bs) < 2 || base < 0 || base >= len(bs) {
		return
	}
	scores := make([]map[slot]float64, len(rs))
	for i, r := range rs {
		scores[i] = sliceScores(r, bs[i].Mode)
	}
	for i := range bs {
		if i == base {
			continue
		}
		var t, b []float64
		for _, k := range sortedSlots(scores[i]) {
			if v, ok := scores[base][k]; ok {
				t, b = append(t, scores[i][k]), append(b, v)
			}
		}
		if len(t) == 0 {
			continue
		}
		r := stats.PairedRatio(t, b, Confidence)
		if math.IsNaN(r.Mean) {
			continue
		}
		rel := &report.Relative{Baseline: bs[base].Name, Rounds: r.N,
			Ratio: report.Ratio{Mean: r.Mean, CILow: r.Mean, CIHigh: r.Mean, CI: Confidence}}
		if r.N >= 2 {
			// An interval from very few rounds can reach past float64 (exp of a huge
			// t × sd): its bounds are then 0 and the largest float, which JSON can carry.
			rel.Ratio.CILow, rel.Ratio.CIHigh = finiteOr(r.Low, 0), finiteOr(r.High, math.MaxFloat64)
		}
		bs[i].Summary.Relative = rel
	}
	// Speed is throughput whatever the mode: in average-time mode a slice's score is
	// ms/op, which falls as a target warms up.
	speeds := make([]map[slot]float64, len(rs))
	for i, r := range rs {
		speeds[i] = sliceScores(r, report.ModeThroughput)
	}
	if w := driftWarning(speeds); w != "" {
		bs[base].Warnings = append(bs[base].Warnings, w)
	}
	warmingWarnings(bs, speeds)
}

// warmingWarnings warns about each target whose speed (speeds: throughput per slice)
// rose over the rounds against
// the group's other targets (the geometric mean of their slices, each relative to its
// target's median): a target still warming up (a JIT compiling, caches filling) while
// the others were steady. Only a rise is said: with two targets one's rise is the
// other's fall.
func warmingWarnings(bs []report.Benchmark, scores []map[slot]float64) {
	norm := make([]map[slot]float64, len(scores))
	for i, m := range scores {
		norm[i] = relativeToMedian(m)
	}
	for i := range bs {
		var series []float64
		for _, k := range sortedSlots(norm[i]) {
			var sum float64
			n := 0
			for j := range norm {
				if v, ok := norm[j][k]; ok && j != i {
					sum += math.Log(v)
					n++
				}
			}
			if n > 0 {
				series = append(series, norm[i][k]/math.Exp(sum/float64(n)))
			}
		}
		if d := stats.DetectDrift(series); d.Trending && d.Trend > 0 {
			bs[i].Warnings = append(bs[i].Warnings, fmt.Sprintf("%s: its speed rose %+.0f %% over the rounds against the other targets': not warmed up (a JIT still compiling?); give it a longer warmup", StillWarming, d.Trend*100))
		}
	}
}

// StillWarming starts the warning of a target or benchmark whose speed rose while it
// was measured.
const StillWarming = "still warming up"

// relativeToMedian divides each slice's score by its target's median.
func relativeToMedian(m map[slot]float64) map[slot]float64 {
	out := make(map[slot]float64, len(m))
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

func finiteOr(v, alt float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return alt
	}
	return v
}

// slot is one sample's place: its trial and its round (iteration index).
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

// sliceScores are a benchmark's per-slice scores by slot, in its mode's unit.
func sliceScores(r *cluster.Result, mode string) map[slot]float64 {
	out := map[slot]float64{}
	if r == nil {
		return out
	}
	for _, t := range r.Trials {
		for _, iv := range t.Intervals {
			v := iv.Throughput()
			if mode == report.ModeAverageTime {
				v = avgMs(iv.Interval, 1)
			}
			if v > 0 {
				out[slot{t.Index, iv.Index}] = v
			}
		}
	}
	return out
}

// driftWarning looks at the machine's speed round by round: the geometric mean, over
// the group's targets, of each slice's score relative to its target's median. Pairing
// cancels a change of speed that hits every target alike, but a reader should know
// the machine moved.
func driftWarning(scores []map[slot]float64) string {
	logs := map[slot][]float64{}
	for _, m := range scores {
		for k, v := range relativeToMedian(m) {
			logs[k] = append(logs[k], math.Log(v))
		}
	}
	slots := make(map[slot]float64, len(logs))
	for k, ls := range logs {
		var sum float64
		for _, l := range ls {
			sum += l
		}
		slots[k] = math.Exp(sum / float64(len(ls)))
	}
	var series []float64
	for _, k := range sortedSlots(slots) {
		series = append(series, slots[k])
	}
	d := stats.DetectDrift(series)
	switch {
	case d.TwoLevels && d.Trending:
		return fmt.Sprintf(report.MachineChanged+": its speed moved between two levels %.0f %% apart and trended %+.0f %% over the run; the ratios pair samples close in time, the absolute scores mix both", (d.High/d.Low-1)*100, d.Trend*100)
	case d.TwoLevels:
		return fmt.Sprintf(report.MachineChanged+": its speed moved between two levels %.0f %% apart; the ratios pair samples close in time, the absolute scores mix both", (d.High/d.Low-1)*100)
	case d.Trending:
		return fmt.Sprintf(report.MachineChanged+": its speed trended %+.0f %% over the run; the ratios pair samples close in time, the absolute scores drift", d.Trend*100)
	}
	return ""
}
