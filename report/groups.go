package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/wirebench/wirebench/results"
)

// seriesOrder lists every series of r in first-seen order; a series' index
// picks its colour, so a protocol/transport has one colour in every chart.
func seriesOrder(bs []results.Benchmark) map[string]int {
	order := map[string]int{}
	for i := range bs {
		s := results.SeriesLabel(&bs[i])
		if _, ok := order[s]; !ok {
			order[s] = len(order)
		}
	}
	return order
}

// ToBest returns each benchmark's score relative to the group's best, 1 for
// the best: score/best in throughput mode, best/score in average-time mode
// (less time is better), so that higher is better either way. A group of mixed
// modes compares throughput. An entry is NaN where there is nothing to
// compare (a zero score); renderers print it as n/a. The best is taken among the
// benchmarks that cross a wire when the group has any: the in-process floor (direct)
// is orders of magnitude ahead and would flatten every other ratio to 0.00×; its own
// ratio is then above 1.
func ToBest(g results.Group) []float64 {
	avgt := len(g.Benchmarks) > 0
	for _, b := range g.Benchmarks {
		if b.Mode != results.ModeAverageTime || b.Summary.AvgTimeMs == nil {
			avgt = false
		}
	}
	vals := make([]float64, len(g.Benchmarks))
	for i, b := range g.Benchmarks {
		vals[i] = b.Summary.ThroughputOpsS.Mean
		if avgt {
			if t := b.Summary.AvgTimeMs.Mean; t > 0 {
				vals[i] = 1 / t
			} else {
				vals[i] = 0
			}
		}
	}
	wired := acrossWire(g)
	best := 0.0
	for i, v := range vals {
		if isFinite(v) && (!wired || g.Benchmarks[i].Transport != results.InProcess) {
			best = max(best, v)
		}
	}
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = math.NaN()
		if best > 0 && v > 0 && isFinite(v) {
			out[i] = v / best
		}
	}
	return out
}

func isFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// sweep is a rate sweep: benchmarks of one series that differ only by the
// open model's rate, sorted by rate.
type sweep struct {
	series     string
	benchmarks []results.Benchmark
}

// sweepFamily is the sweeps of one workload, parameters and load shape (all
// but the rate), one per series, in first-seen order.
type sweepFamily struct {
	name   string
	sweeps []sweep
}

// sweeps finds the rate sweeps of bs: open-model benchmarks of one series,
// workload, parameters and load shape at two or more rates.
func sweeps(bs []results.Benchmark) []sweepFamily {
	var fams []sweepFamily
	famIndex := map[string]int{}
	type at struct{ fam, sw int }
	swIndex := map[string]at{}
	for _, b := range bs {
		if b.Load.Model != results.ModelOpen {
			continue
		}
		l := b.Load
		l.Rate = 0
		famKey := b.Workload + "\x00" + results.ParamString(b.Params) + "\x00" + fmt.Sprintf("%s-%d-%d", l.Arrival, l.Concurrency, l.Connections)
		fi, ok := famIndex[famKey]
		if !ok {
			fi = len(fams)
			famIndex[famKey] = fi
			name := b.Workload
			if ps := results.ParamString(b.Params); ps != "" {
				name += "[" + ps + "]"
			}
			name += fmt.Sprintf("/open-%s-c%d", l.Arrival, l.Concurrency)
			if l.Connections > 1 {
				name += fmt.Sprintf("-x%d", l.Connections)
			}
			fams = append(fams, sweepFamily{name: name})
		}
		s := results.SeriesLabel(&b)
		k := famKey + "\x00" + s
		a, ok := swIndex[k]
		if !ok {
			a = at{fi, len(fams[fi].sweeps)}
			swIndex[k] = a
			fams[fi].sweeps = append(fams[fi].sweeps, sweep{series: s})
		}
		fams[a.fam].sweeps[a.sw].benchmarks = append(fams[a.fam].sweeps[a.sw].benchmarks, b)
	}
	var out []sweepFamily
	for _, f := range fams {
		var kept []sweep
		for _, s := range f.sweeps {
			rates := map[float64]bool{}
			for _, b := range s.benchmarks {
				rates[b.Load.Rate] = true
			}
			if len(rates) < 2 {
				continue
			}
			slices.SortStableFunc(s.benchmarks, func(a, b results.Benchmark) int {
				return cmpFloat(a.Load.Rate, b.Load.Rate)
			})
			kept = append(kept, s)
		}
		if len(kept) > 0 {
			out = append(out, sweepFamily{name: f.name, sweeps: kept})
		}
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
