package summary

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/stats"
	"github.com/wirebench/wirebench/spec"
)

// Steadiness classifies every target × fork of a group (stats.ClassifySteady), rs
// being what the driver measured of each target: the result is indexed like rs and
// its forks. A fork is classified on throughput in the closed model, on
// response-time p50 in the open one, where the throughput is the fixed rate and a
// target warming up shows as calls getting shorter. Summary.Benchmark then measures
// each fork from its steady state's first slice; a fork with no steady state is
// measured whole and said to be so.
//
// On a shared machine a slice's speed moves with the machine as much as with the
// target, and a raw series that moved may be the machine's doing. In an interleaved
// group the other targets saw the same machine in the same round, so a target whose
// own series is not flat is classified again on its slices over the machine's speed
// in each round (the geometric mean, over the fork's targets whose own series were
// flat, of their slices over their medians): if that series is flat, the machine
// moved, not the target. The raw series decides when no other target was flat, or
// when the reference is not flat itself (targets warming up together, each too noisy
// for its own series to show it, must not cancel a target's warm-up).
func Steadiness(rs []*results.Measured, open bool) [][]*results.Steady {
	out := make([][]*results.Steady, len(rs))
	raw := make([][]stats.Steady, len(rs))
	series := make([][]map[int]float64, len(rs))
	for i, r := range rs {
		if r == nil {
			continue
		}
		for _, t := range r.Forks {
			xs := map[int]float64{}
			for _, iv := range t.Intervals {
				xs[iv.Index] = iv.Level(open)
			}
			series[i] = append(series[i], xs)
			raw[i] = append(raw[i], stats.ClassifySteady(values(t.Intervals, xs), !open))
		}
	}
	for i, r := range rs {
		if r == nil {
			continue
		}
		for f, t := range r.Forks {
			c := raw[i][f]
			if c.Class != stats.Flat && !c.TooFew && r.Method == results.MethodInterleaved {
				// The reference must itself be steady: targets whose own series looked
				// flat can still share a warm-up too gradual for their noise (JVMs warming
				// together), and dividing by it would cancel the target's.
				if machine := machineSpeed(series, raw, i, f); machine != nil && steadyMachine(t.Intervals, machine, open) {
					rel := map[int]float64{}
					for k, v := range series[i][f] {
						if m, ok := machine[k]; ok && v > 0 {
							rel[k] = v / m
						}
					}
					c = stats.ClassifySteady(values(t.Intervals, rel), !open)
				}
			}
			out[i] = append(out[i], steadyOf(t.Intervals, c))
		}
	}
	return out
}

// steadyMachine reports whether the machine's speed, as the reference gives it, was
// itself flat over the fork.
func steadyMachine(ivs []*results.Interval, machine map[int]float64, open bool) bool {
	return stats.ClassifySteady(values(ivs, machine), !open).Class == stats.Flat
}

// warmupOf is what t's warm-up did, for its results; nil without one.
func warmupOf(t *results.Fork, open bool) *results.Warmup {
	if t.Warmup == nil && t.KeepAlive == 0 {
		return nil
	}
	w := &results.Warmup{Adaptive: t.WarmupSlices != nil, Settled: t.WarmupSettled, KeepAliveSlices: t.KeepAlive}
	if t.Warmup != nil {
		w.Seconds = t.Warmup.Seconds()
	}
	for _, iv := range t.WarmupSlices {
		level := iv.Level(open)
		if open {
			level /= 1e3 // ns to µs, as the results' latencies
		}
		w.Levels = append(w.Levels, level)
	}
	return w
}

// warmupWarning names the forks whose adaptive warm-up stopped at its longest
// (warmupMax) with its slices still changing.
func warmupWarning(forks []results.ForkResult, warmupMax time.Duration) string {
	var capped []string
	for _, t := range forks {
		if w := t.Warmup; w != nil && w.Adaptive && !w.Settled {
			capped = append(capped, fmt.Sprint(t.Index+1))
		}
	}
	if len(capped) == 0 {
		return ""
	}
	return fmt.Sprintf("warm-up did not settle within its %v in fork %s: its slices still changed by more than %.0f %% between windows of %v; the steady-state check decides what is measured",
		warmupMax, strings.Join(capped, ", "), stats.WarmupTolerance*100, stats.WarmupWindow*spec.WarmupSlice)
}

// values are xs in the order of ivs (0 where xs has none, which ClassifySteady skips),
// so that the classifier's indices are the intervals'.
func values(ivs []*results.Interval, xs map[int]float64) []float64 {
	out := make([]float64, len(ivs))
	for k, iv := range ivs {
		out[k] = xs[iv.Index]
	}
	return out
}

// machineSpeed is the machine's speed by round in fork f of target i's group: the
// geometric mean of the other targets' slices over their medians, from the targets
// whose own series in that fork were flat; nil when there are none.
func machineSpeed(series [][]map[int]float64, raw [][]stats.Steady, i, f int) map[int]float64 {
	logs := map[int][]float64{}
	for j := range series {
		if j == i || f >= len(series[j]) || raw[j][f].Class != stats.Flat || raw[j][f].TooFew {
			continue
		}
		positive := map[int]float64{}
		for k, v := range series[j][f] {
			if v > 0 {
				positive[k] = v
			}
		}
		for k, v := range relativeToMedian(positive) {
			logs[k] = append(logs[k], math.Log(v))
		}
	}
	if len(logs) == 0 {
		return nil
	}
	return geoMeans(logs)
}

// steadyOf is the results' form of a fork's class c, whose indices are those of ivs.
func steadyOf(ivs []*results.Interval, c stats.Steady) *results.Steady {
	out := &results.Steady{Class: string(c.Class)}
	switch {
	case c.TooFew:
		out.Class = results.SteadyUnknown
	case c.Class == stats.WarmedUp || c.Class == stats.Slowdown:
		out.StartRound, out.Change = ivs[c.Start].Index, c.Change
		out.AfterSeconds = ivs[c.Start].Start.Sub(ivs[0].Start).Seconds()
	}
	return out
}

// MinClassShare is the share of a benchmark's forks that must have a class other than
// flat for the benchmark to carry it: one fork in fifteen that moved is a fork, not the
// benchmark's nature (its own pairs are left out, Group).
const MinClassShare = 0.25

// benchmarkSteady is a benchmark's class over its forks' classes: no steady state,
// slowdown or warmed up, in that order, when at least MinClassShare of the forks had
// it; too few rounds when no fork could be classified; else flat.
func benchmarkSteady(classes []string) string {
	if len(classes) == 0 {
		return ""
	}
	count := map[string]int{}
	for _, c := range classes {
		count[c]++
	}
	for _, c := range []string{results.SteadyNone, results.SteadySlowdown, results.SteadyWarmedUp} {
		if float64(count[c]) >= MinClassShare*float64(len(classes)) {
			return c
		}
	}
	if count[results.SteadyUnknown] == len(classes) {
		return results.SteadyUnknown
	}
	return results.SteadyFlat
}

// steadyWarnings say, for a benchmark, which forks were not steady from their first
// measured slice and what was done about it: one warning per class (no steady state,
// warmed up, slowdown) that some fork had.
func steadyWarnings(forks []results.ForkResult) results.Warnings {
	var none, warmed, slowed []string
	for _, t := range forks {
		s := t.Steady
		if s == nil {
			continue
		}
		switch s.Class {
		case results.SteadyNone:
			none = append(none, fmt.Sprint(t.Index+1))
		case results.SteadyWarmedUp:
			warmed = append(warmed, fmt.Sprintf("fork %d after %.1f s (%+.0f %%)", t.Index+1, s.AfterSeconds, s.Change*100))
		case results.SteadySlowdown:
			slowed = append(slowed, fmt.Sprintf("fork %d after %.1f s (%+.0f %%)", t.Index+1, s.AfterSeconds, s.Change*100))
		}
	}
	var ws results.Warnings
	if len(none) > 0 {
		ws = append(ws, results.Warning{Kind: results.WarnStillWarming,
			Text: fmt.Sprintf("no steady state in fork %s: its slices still changed near the end; measured whole, give it a longer warmup", strings.Join(none, ", "))})
	}
	if len(warmed) > 0 {
		ws = append(ws, results.Warning{Kind: results.WarnWarmedUp,
			Text: fmt.Sprintf("warmed up during the rounds (%s); only its steady rounds are measured", strings.Join(warmed, "; "))})
	}
	if len(slowed) > 0 {
		ws = append(ws, results.Warning{Kind: results.WarnSlowdown,
			Text: fmt.Sprintf("got slower during the rounds (%s); only its steady rounds are measured", strings.Join(slowed, "; "))})
	}
	return ws
}
