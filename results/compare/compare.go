// Package compare compares two wirebench results files benchmark by benchmark:
// the change of each score, whether it is significant by benchstat's method
// (median, Mann-Whitney U test on the slice scores, nothing assumed about
// their distribution), and which changes are regressions beyond a threshold.
// It also renders the comparison as a terminal table, a Markdown table, or
// benchstat's own text format.
//
// The package is pure: it reads results.Results values and writes to an
// io.Writer; reading files and choosing an exit status are the command's job.
package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/stats"
)

// Defaults of Options, benchstat's alpha and confidence.
const (
	DefaultThreshold  = 5.0
	DefaultAlpha      = 0.05
	DefaultConfidence = 0.95
)

// Options says what counts as a change.
type Options struct {
	// Threshold is the worsening, in percent of the old score, that a
	// significant change must exceed to be a regression.
	Threshold float64
	// Alpha is the U test's significance level: a change is significant when
	// p <= Alpha.
	Alpha float64
	// Confidence is the level of the ± ranges of the benchstat format.
	Confidence float64
}

// DefaultOptions returns the defaults: 5%, alpha 0.05, confidence 0.95.
func DefaultOptions() Options {
	return Options{Threshold: DefaultThreshold, Alpha: DefaultAlpha, Confidence: DefaultConfidence}
}

// Presence says in which files a benchmark is.
type Presence int

// Presence values.
const (
	Both    Presence = iota
	Added            // only in the new file
	Removed          // only in the old file
)

// Change classifies a benchmark present in both files.
type Change int

// Change values. The ratio's interval (Row.RatioLow, RatioHigh) against the
// threshold T decides between them: a change that is not significant is Same
// when the interval lies within ±T, a significant worsening is Regressed when
// the whole interval is worse than −T and Worse when the whole interval is
// within it; an interval that straddles ±T is Inconclusive: more rounds or
// forks would tell.
const (
	Same         Change = iota // "~", and the interval within ±threshold
	Better                     // significantly better
	Worse                      // significantly worse, by less than the threshold
	Regressed                  // significantly worse beyond the threshold
	Incomparable               // different modes: the scores are not in the same unit
	Inconclusive               // the interval straddles ±threshold
)

// String is the verdict as tables print it.
func (c Change) String() string {
	return [...]string{"same", "better", "worse", "REGRESSION", "not compared", "inconclusive"}[c]
}

// Row is one benchmark's comparison.
type Row struct {
	Name     string
	Presence Presence
	// Mode is the benchmark's mode (the new file's if they differ); Unit is
	// "ops/s" for thrpt and "ms/op" for avgt.
	Mode, Unit string
	// Old and New are the per-slice scores of every fork, sorted; nil
	// when the benchmark is not in that file.
	Old, New []float64
	// OldScore and NewScore are the medians of Old and New (benchstat's
	// center), and Delta the change between them in percent.
	OldScore, NewScore, Delta float64
	// Ratio is NewScore over OldScore estimated from every pair of slices
	// (the Hodges-Lehmann estimate on logarithms), and RatioLow, RatioHigh its
	// interval at level 1−Alpha (Moses's, the U test's own: it excludes 1 when the
	// test rejects). NaN when not compared; ±Inf bounds when there are too few
	// slices for an interval.
	Ratio, RatioLow, RatioHigh float64
	// P is the U test's p-value, 1 when it could not run.
	P      float64
	Change Change
	// Notes say why a change could not be found significant (too few
	// samples, all equal) or was not compared.
	Notes []string
	// P99Old and P99New are the summary's response-time p99 in µs, and
	// P99Delta their change in percent: information, never a regression.
	P99Old, P99New, P99Delta float64
	// OldP99s and NewP99s are the per-slice p99s, for benchstat's format.
	OldP99s, NewP99s []float64
	significant      bool
}

// Significant reports whether the change passed the U test.
func (r Row) Significant() bool { return r.significant }

// Result is a comparison of two results files.
type Result struct {
	Options Options
	// Rows are in the old file's order, then the benchmarks only in the new
	// file in its order.
	Rows []Row
}

// Regressions returns the rows that regressed beyond the threshold.
func (r *Result) Regressions() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Change == Regressed {
			out = append(out, row)
		}
	}
	return out
}

// Compare compares every benchmark of old and new, matched by name. A name
// repeated in one file is an error: it would make the match ambiguous.
func Compare(old, new *results.Results, opts Options) (*Result, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	oldBy, err := byName(old, "old")
	if err != nil {
		return nil, err
	}
	newBy, err := byName(new, "new")
	if err != nil {
		return nil, err
	}
	res := &Result{Options: opts}
	for _, ob := range old.Benchmarks {
		nb, ok := newBy[ob.Name]
		if !ok {
			res.Rows = append(res.Rows, single(ob, Removed))
			continue
		}
		res.Rows = append(res.Rows, compareOne(ob, nb, opts))
	}
	for _, nb := range new.Benchmarks {
		if _, ok := oldBy[nb.Name]; !ok {
			res.Rows = append(res.Rows, single(nb, Added))
		}
	}
	return res, nil
}

func (o Options) check() error {
	switch {
	case math.IsNaN(o.Threshold) || o.Threshold < 0:
		return fmt.Errorf("compare: threshold %v%% is negative", o.Threshold)
	case !(o.Alpha > 0 && o.Alpha <= 1):
		return fmt.Errorf("compare: alpha %v is not in (0, 1]", o.Alpha)
	case !(o.Confidence > 0 && o.Confidence < 1):
		return fmt.Errorf("compare: confidence %v is not in (0, 1)", o.Confidence)
	}
	return nil
}

func byName(r *results.Results, which string) (map[string]results.Benchmark, error) {
	m := make(map[string]results.Benchmark, len(r.Benchmarks))
	for _, b := range r.Benchmarks {
		if _, dup := m[b.Name]; dup {
			return nil, fmt.Errorf("compare: %s file has benchmark %q twice", which, b.Name)
		}
		m[b.Name] = b
	}
	return m, nil
}

// unit is the unit of a mode's score.
func unit(mode string) string {
	if mode == results.ModeAverageTime {
		return "ms/op"
	}
	return "ops/s"
}

// lowerIsBetter reports whether a smaller score is an improvement.
func lowerIsBetter(mode string) bool { return mode == results.ModeAverageTime }

func single(b results.Benchmark, p Presence) Row {
	r := Row{Name: b.Name, Presence: p, Mode: b.Mode, Unit: unit(b.Mode), P: 1,
		Ratio: math.NaN(), RatioLow: math.NaN(), RatioHigh: math.NaN()}
	xs, p99s := Samples(b)
	if p == Added {
		r.New, r.NewScore, r.P99New, r.NewP99s = xs, centerOf(xs), b.Summary.LatencyUs.P99, p99s
	} else {
		r.Old, r.OldScore, r.P99Old, r.OldP99s = xs, centerOf(xs), b.Summary.LatencyUs.P99, p99s
	}
	return r
}

func centerOf(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return summarize(xs, 0.95).Center // xs are sorted already
}

func compareOne(ob, nb results.Benchmark, opts Options) Row {
	r := Row{Name: nb.Name, Presence: Both, Mode: nb.Mode, Unit: unit(nb.Mode), P: 1,
		P99Old: ob.Summary.LatencyUs.P99, P99New: nb.Summary.LatencyUs.P99,
		Ratio: math.NaN(), RatioLow: math.NaN(), RatioHigh: math.NaN()}
	r.Old, r.OldP99s = Samples(ob)
	r.New, r.NewP99s = Samples(nb)
	r.OldScore, r.NewScore = centerOf(r.Old), centerOf(r.New)
	r.Delta = pctChange(r.OldScore, r.NewScore)
	r.P99Delta = pctChange(r.P99Old, r.P99New)
	if ob.Mode != nb.Mode {
		r.Change = Incomparable
		r.Delta = math.NaN()
		r.Notes = append(r.Notes, fmt.Sprintf("mode changed from %s to %s: not compared", ob.Mode, nb.Mode))
		return r
	}
	switch {
	case len(r.Old) == 0 && len(r.New) == 0:
		r.Notes = append(r.Notes, "no slices in either file")
		r.Change = Inconclusive
		return r
	case len(r.Old) == 0:
		r.Notes = append(r.Notes, "no slices in the old file")
		r.Change = Inconclusive
		return r
	case len(r.New) == 0:
		r.Notes = append(r.Notes, "no slices in the new file")
		r.Change = Inconclusive
		return r
	}
	c := compareSamples(r.Old, r.New, opts.Alpha)
	r.P, r.Notes = c.P, append(r.Notes, c.Warnings...)
	r.Ratio, r.RatioLow, r.RatioHigh = ratioInterval(r.Old, r.New, 1-opts.Alpha)
	r.significant = c.significant() && r.OldScore != r.NewScore
	r.Change = classify(r, r.significant, opts.Threshold)
	return r
}

// ratioInterval is new/old with its interval at level conf: the shift of the
// logarithms (stats.ShiftOf), back-transformed. Scores are positive; one that is
// not gives no ratio.
func ratioInterval(old, new []float64, conf float64) (ratio, low, high float64) {
	lo, ln := logs(old), logs(new)
	if lo == nil || ln == nil {
		return math.NaN(), math.NaN(), math.NaN()
	}
	s := stats.ShiftOf(lo, ln, conf)
	return math.Exp(s.Estimate), math.Exp(s.Low), math.Exp(s.High)
}

func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		if !(x > 0) {
			return nil
		}
		out[i] = math.Log(x)
	}
	return out
}

// classify gives the verdict of a row whose U test said significant or not, from
// the ratio's interval turned into the better direction (a gain: > 1 is better)
// against the threshold in percent.
func classify(r Row, significant bool, threshold float64) Change {
	gLow, gHigh := r.RatioLow, r.RatioHigh
	better := r.NewScore > r.OldScore
	if lowerIsBetter(r.Mode) {
		gLow, gHigh = 1/r.RatioHigh, 1/r.RatioLow
		better = r.NewScore < r.OldScore
	}
	t := threshold / 100
	within := gLow >= 1-t-thresholdSlack && gHigh <= 1+t+thresholdSlack
	switch {
	case significant && better:
		return Better
	case significant && gHigh < 1-t-thresholdSlack:
		return Regressed
	case significant && gLow >= 1-t-thresholdSlack:
		return Worse
	case !significant && within:
		return Same
	}
	return Inconclusive
}

// thresholdSlack keeps a change of exactly the threshold, e.g. 100 → 95 with
// a 5% threshold (which floating point makes -5.000000000000004%), from
// counting as beyond it.
const thresholdSlack = 1e-9

func pctChange(old, new float64) float64 {
	if old == new {
		return 0
	}
	if old == 0 || math.IsNaN(old) || math.IsNaN(new) {
		return math.NaN()
	}
	return (new/old - 1) * 100
}

// Samples returns a benchmark's per-slice scores over every fork,
// sorted: throughput in ops/s for thrpt, ms per op per caller for avgt
// (seconds × concurrency / ops × 1000, as bench computes the avgt score). An
// slice with no ops has no avgt score and is left out. It also returns
// the slices' response-time p99s in µs.
func Samples(b results.Benchmark) (scores, p99s []float64) {
	for _, t := range b.Forks {
		for _, it := range t.Slices {
			switch {
			case b.Mode != results.ModeAverageTime:
				scores = append(scores, it.ThroughputOpsS)
			case it.Ops > 0:
				scores = append(scores, it.Seconds*float64(b.Load.Concurrency)/float64(it.Ops)*1e3)
			}
			if it.Ops > 0 {
				p99s = append(p99s, it.LatencyUs.P99)
			}
		}
	}
	sortFloats(scores)
	sortFloats(p99s)
	return scores, p99s
}

// ParseThreshold parses a threshold such as "5%", "2.5%" or "5" (percent
// either way).
func ParseThreshold(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("threshold %q: want a percentage such as 5%%", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("threshold %q: cannot be negative", s)
	}
	return v, nil
}
