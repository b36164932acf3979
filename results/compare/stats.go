package compare

import (
	"sort"

	"golang.org/x/perf/benchmath"
)

// The statistics are benchstat's: golang.org/x/perf/benchmath under its default
// AssumeNothing assumption, the median with a distribution-free confidence interval
// and the two-sided Mann-Whitney U test. These small types carry benchmath's results
// with their warnings as text, for the renderers.

// summary is a sample's median and its confidence interval.
type summary struct {
	Center, Lo, Hi float64
	Warnings       []string
	s              benchmath.Summary
}

// summarize summarises xs (sorted in place) at confidence level conf.
func summarize(xs []float64, conf float64) summary {
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), conf)
	return summary{Center: s.Center, Lo: s.Lo, Hi: s.Hi, Warnings: texts(s.Warnings), s: s}
}

// pctRange is benchstat's ± column.
func (s summary) pctRange() string { return s.s.PctRangeString() }

// comparison is the result of a U test of two samples.
type comparison struct {
	P        float64
	N1, N2   int
	Alpha    float64
	Warnings []string
}

func (c comparison) bm() benchmath.Comparison {
	return benchmath.Comparison{P: c.P, N1: c.N1, N2: c.N2, Alpha: c.Alpha}
}

// significant reports whether the test rejects "same distribution"; benchstat prints
// "~" exactly when this is false.
func (c comparison) significant() bool { return !(c.P > c.Alpha) }

// String is benchstat's "p=0.PPP n=N".
func (c comparison) String() string { return c.bm().String() }

// formatDelta is benchstat's delta column: "~" when not significant, else the change.
func (c comparison) formatDelta(old, new float64) string { return c.bm().FormatDelta(old, new) }

// compareSamples tests old against new (both sorted in place) at level alpha.
func compareSamples(old, new []float64, alpha float64) comparison {
	t := benchmath.DefaultThresholds
	t.CompareAlpha = alpha
	c := benchmath.AssumeNothing.Compare(benchmath.NewSample(old, &t), benchmath.NewSample(new, &t))
	return comparison{P: c.P, N1: c.N1, N2: c.N2, Alpha: c.Alpha, Warnings: texts(c.Warnings)}
}

func texts(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func sortFloats(xs []float64) { sort.Float64s(xs) }
