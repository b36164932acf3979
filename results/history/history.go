// Package history turns the runs of a store into series: per benchmark and
// machine, its scores and ratios in time order, with the change points of the
// scores (stats.DetectChanges), and writes them as a table or an HTML page with
// one chart per series.
package history

import (
	"math"

	"github.com/wirebench/wirebench/results/stats"
	"github.com/wirebench/wirebench/results/store"
)

// Series is one benchmark's results on one machine, oldest first.
type Series struct {
	Name, Machine string
	// Mode is the entries' mode (store.Entry.Mode); a series whose mode changed is
	// split by it, since its scores are in different units.
	Mode   string
	Points []Point
	// Changes are the change points of the scores.
	Changes []stats.ChangePoint
}

// Point is one run's entry.
type Point struct {
	Run store.Run
	store.Entry
}

// Unit is the unit of the series' scores.
func (s Series) Unit() string {
	if s.Mode == "avgt" {
		return "ms/op"
	}
	return "ops/s"
}

// ChangeAt returns the change point starting at point i, if there is one.
func (s Series) ChangeAt(i int) (stats.ChangePoint, bool) {
	for _, c := range s.Changes {
		if c.Index == i {
			return c, true
		}
	}
	return stats.ChangePoint{}, false
}

// Options of Build.
type Options struct {
	// Alpha is the change points' level (stats.DefaultChangeAlpha when 0).
	Alpha float64
	// MinSegment is the fewest runs a level may have (stats.DefaultMinSegment when 0).
	MinSegment int
}

// Build groups the entries of runs (oldest first) into series by benchmark, machine
// and mode, in order of first appearance, and finds each one's change points.
func Build(runs []store.Run, opt Options) []Series {
	if opt.Alpha == 0 {
		opt.Alpha = stats.DefaultChangeAlpha
	}
	if opt.MinSegment == 0 {
		opt.MinSegment = stats.DefaultMinSegment
	}
	type key struct{ name, machine, mode string }
	index := map[key]int{}
	var out []Series
	for _, r := range runs {
		for _, e := range r.Entries {
			k := key{e.Name, r.Machine, e.Mode}
			i, ok := index[k]
			if !ok {
				i = len(out)
				index[k] = i
				out = append(out, Series{Name: e.Name, Machine: r.Machine, Mode: e.Mode})
			}
			run := r
			run.Entries = nil
			out[i].Points = append(out[i].Points, Point{Run: run, Entry: e})
		}
	}
	for i := range out {
		xs := make([]float64, len(out[i].Points))
		for j, p := range out[i].Points {
			xs[j] = p.Score
		}
		out[i].Changes = stats.DetectChanges(xs, opt.Alpha, opt.MinSegment)
	}
	return out
}

// interval is a score's interval: Score ± Error, or the score alone without one.
func interval(e store.Entry) (low, high float64) {
	if e.Error > 0 && !math.IsNaN(e.Error) {
		return e.Score - e.Error, e.Score + e.Error
	}
	return e.Score, e.Score
}
