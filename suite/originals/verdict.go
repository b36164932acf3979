package originals

import (
	"fmt"
	"math"
)

// Verdict is whether an original's finding holds in our results.
type Verdict string

// Verdicts, in the order a summary counts them (Verdicts).
const (
	Holds       Verdict = "holds"
	DoesNotHold Verdict = "does not hold"
	// Inconclusive: our interval is too wide to tell; it reaches both the original's
	// side of 1 and the other, or both into the original's interval and out of it.
	Inconclusive  Verdict = "inconclusive"
	NotComparable Verdict = "not comparable"
)

// Verdicts are the four verdicts in the order a summary line counts them.
var Verdicts = []Verdict{Holds, DoesNotHold, Inconclusive, NotComparable}

// UnpublishedError is the error, as a share of its value, given to a figure published
// without one (rpcecho's lines, the Akka latencies: single unrepeated runs). It is an
// assumption, not a figure any original states: their published JMH errors run from 2 %
// to over 100 % of the figure. It is the rule's one bound (docs/suites.md, "The verdict",
// states it): the size a finding is held to is the original's own ratio interval, which
// this error, or the published ones, give it (ClaimOf).
const UnpublishedError = 0.10

// Claim is what an original's two figures show: their ratio and the interval their
// errors give it (ClaimOf). Low may be 0 and High +Inf when an error is as large as its
// figure.
type Claim struct {
	Ratio, Low, High float64
	// Assumed: at least one figure had no published error, so UnpublishedError stood
	// in for it.
	Assumed bool
}

// ClaimOf is the original's ratio of f, Of over Over, with its interval propagated from
// the two figures' errors as the ratio of their intervals, the widest they allow:
// [(a−ea)/(b+eb), (a+ea)/(b−eb)]. A figure without a published error is given
// UnpublishedError of its value, so two such figures move their ratio by about −18 %
// and +22 %.
func ClaimOf(f *Finding) Claim {
	errOf := func(g *Figure) float64 {
		if g.Error > 0 {
			return g.Error
		}
		return UnpublishedError * g.Value
	}
	e := ratioOf(f.Of.Value, errOf(f.Of), f.Over.Value, errOf(f.Over))
	return Claim{Ratio: f.Ratio(), Low: e.Low, High: e.High, Assumed: f.Of.Error == 0 || f.Over.Error == 0}
}

// ratioOf is a/b with the widest interval a ± ea over b ± eb allows: Low is 0 when
// a − ea ≤ 0, High +Inf when b − eb ≤ 0.
func ratioOf(a, ea, b, eb float64) Estimate {
	e := Estimate{Mean: a / b, Low: max(a-ea, 0) / (b + eb), High: math.Inf(1)}
	if b > eb {
		e.High = (a + ea) / (b - eb)
	}
	return e
}

// Side is the side of 1 the claim's whole interval lies on: 1 above, −1 below, 0 when
// it includes 1 (the original's figures cannot tell which of the two is larger).
func (c Claim) Side() int {
	switch {
	case c.Low > 1:
		return 1
	case c.High < 1:
		return -1
	}
	return 0
}

// Judge returns the verdict on an original's claim given our ratio and its interval,
// and why in a sentence. The size a finding is held to is the claim's own interval,
// [c.Low, c.High], the widest the original's two figures and their errors allow: no
// tolerance is added to it. The rule:
//
//   - the original's interval lies on one side of 1:
//     does not hold when our whole interval lies on the other side of 1, or wholly
//     outside the original's interval; holds when it lies wholly on the original's side
//     of 1 and overlaps the original's interval; inconclusive otherwise (it includes 1
//     and overlaps the original's interval: too wide to tell a gap from none);
//   - the original's interval includes 1 (its figures, whatever their ratio, do not
//     tell which is larger; it is not read as a claim of "no gap"): it claims only a
//     ratio within its interval, so ours holds when it lies wholly within it, does not
//     hold when it lies wholly outside it, and is inconclusive otherwise (ours, narrow
//     or wide, lies partly within it and partly outside it).
//
// An interval with Low == High (a ratio with no interval: two scores measured apart with
// no errors, or latencies) is judged by its point. The interval's edges belong to it.
// Not comparable (no benchmark, another setup, no steady state, a unit mismatch, two
// load models) is decided before Judge, by Compare.
func Judge(c Claim, ours Estimate) (Verdict, string) {
	if !(c.Ratio > 0) || !finite(c.Ratio) || !(c.Low >= 0) || !(c.High >= c.Low) ||
		!(ours.Low > 0) || !finite(ours.High) || ours.High < ours.Low {
		return NotComparable, "a ratio is not a positive number"
	}
	orig := "the original's " + interval(c.Ratio, c.Low, c.High)
	if c.Assumed {
		orig += fmt.Sprintf(" (±%.0f %% given to a figure published without an error)", UnpublishedError*100)
	}
	us := "ours, " + interval(ours.Mean, ours.Low, ours.High) + ","
	outside := ours.High < c.Low || ours.Low > c.High
	side := c.Side()
	if side == 0 {
		switch {
		case outside:
			return DoesNotHold, fmt.Sprintf("%s includes 1, so its figures claim only a ratio within that interval; %s lies wholly outside it", orig, us)
		case ours.Low >= c.Low && ours.High <= c.High:
			return Holds, fmt.Sprintf("%s includes 1, so its figures claim only a ratio within that interval; %s lies within it", orig, us)
		}
		return Inconclusive, fmt.Sprintf("%s includes 1, so its figures claim only a ratio within that interval; %s reaches into it and beyond it, so it neither bears that interval out nor rules it out", orig, us)
	}
	where, other := "above", "below"
	if side < 0 {
		where, other = other, where
	}
	switch {
	case side > 0 && ours.High < 1, side < 0 && ours.Low > 1:
		return DoesNotHold, fmt.Sprintf("reversed: %s lies %s 1; %s lies %s it", orig, where, us, other)
	case outside:
		return DoesNotHold, fmt.Sprintf("%s lies %s 1; %s lies wholly outside that interval", orig, where, us)
	case side > 0 && ours.Low > 1, side < 0 && ours.High < 1:
		return Holds, fmt.Sprintf("%s lies %s 1; %s lies %s it too and overlaps that interval", orig, where, us, where)
	}
	return Inconclusive, fmt.Sprintf("%s lies %s 1; %s includes 1: too wide to tell a gap from none", orig, where, us)
}

// interval is a ratio with its interval, "4.07× [3.43, 4.81]", or the ratio alone when
// the interval is a point.
func interval(mean, lo, hi float64) string {
	if lo == hi {
		return times(mean)
	}
	return times(mean) + " " + span(lo, hi)
}

func span(lo, hi float64) string { return "[" + num(lo) + ", " + num(hi) + "]" }

func times(f float64) string { return num(f) + "×" }

// num is a ratio to three significant figures (whole numbers from 100 up), ∞ for an
// unbounded one.
func num(f float64) string {
	switch a := math.Abs(f); {
	case math.IsInf(f, 1):
		return "∞"
	case a >= 100:
		return fmt.Sprintf("%.0f", f)
	case a >= 10:
		return fmt.Sprintf("%.1f", f)
	case a >= 1:
		return fmt.Sprintf("%.2f", f)
	case a >= 0.1 || a == 0:
		return fmt.Sprintf("%.3f", f)
	}
	return fmt.Sprintf("%.4f", f)
}
