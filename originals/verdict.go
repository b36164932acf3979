package originals

import (
	"fmt"
	"math"
)

// Verdict is whether an original's finding holds in our results.
type Verdict string

// Verdicts.
const (
	Holds       Verdict = "holds"
	DoesNotHold Verdict = "does not hold"
	// Inconclusive: our interval is too wide to tell; it holds both 1 and the
	// original's ratio.
	Inconclusive  Verdict = "inconclusive"
	NotComparable Verdict = "not comparable"
)

// The rule's bounds, in one place (docs/suites.md, "The verdict", states them).
const (
	// GapBand: two figures of an original published without errors differ clearly when
	// their ratio is outside [1/GapBand, GapBand]. 10 % is the run-to-run variation
	// rpcecho's README states for its own figures, the only original that states one.
	GapBand = 1.1
	// SizeBand: a finding holds in size when our ratio is within [1/SizeBand, SizeBand]
	// times the original's: a factor of two, since a different machine, runtime and
	// library versions move ratios by tens of per cent, and a finding whose size
	// changed by more than two is a different finding ("10×" is not "4×").
	SizeBand = 2.0
)

// Claim is what an original's finding says: the ratio of its two figures, and whether
// they differ clearly (ClearGap) or are about the same.
type Claim struct {
	Ratio    float64
	ClearGap bool
}

// Judge returns the verdict on an original's claim given our ratio and its interval,
// and why in a sentence. The rule:
//
//   - the original shows a clear gap (its ratio on one side of 1):
//     holds when our whole interval is on the same side of 1 and our ratio is within
//     SizeBand of the original's; inconclusive when our interval includes both 1 and
//     the original's ratio (too wide to tell a gap from none); does not hold when our
//     interval is on the other side, when it includes 1 but not the original's ratio
//     (no clear gap where the original had one), or when it is on the same side but the
//     size differs by more than SizeBand;
//   - the original shows no clear gap (about the same):
//     holds when our whole interval lies within [1/GapBand, GapBand]; inconclusive when
//     it reaches into that band and beyond it (it holds "about the same" and a gap the
//     original did not have, as [0.8, 1.2] does); does not hold when it is wholly
//     outside the band (a gap where the original had none), unless it is on the side
//     of 1 of the original's ratio and within [1/GapBand, GapBand] times it: then it
//     holds, as the gap the original's figures show, which their errors could not tell
//     from none (the sweep's ping-pong rows: the original 0.746× with overlapping
//     errors, ours 0.735× [0.685, 0.788]).
//
// An interval with Low == High (a ratio with no interval: two scores measured apart with
// no errors, or latencies) is judged by its point. Not comparable (no benchmark, another
// setup, no steady state, a unit mismatch) is decided before Judge, by Compare.
func Judge(c Claim, ours Estimate) (Verdict, string) {
	if !(c.Ratio > 0) || !finite(c.Ratio) || !(ours.Low > 0) || !finite(ours.High) {
		return NotComparable, "a ratio is not a positive number"
	}
	rr := ours.Mean / c.Ratio
	if !c.ClearGap {
		switch {
		case ours.Low >= 1/GapBand && ours.High <= GapBand:
			return Holds, fmt.Sprintf("no clear gap in the original, and our interval is within %s", band(GapBand))
		case ours.High >= 1/GapBand && ours.Low <= GapBand:
			return Inconclusive, fmt.Sprintf("no clear gap in the original; our interval reaches into %s and beyond it: too wide to tell", band(GapBand))
		}
		if (ours.Mean-1)*(c.Ratio-1) > 0 && rr >= 1/GapBand && rr <= GapBand {
			return Holds, fmt.Sprintf("no clear gap in the original, but ours, %s, is %s its figures' %s (within %s): the gap they show, measured more tightly", times(ours.Mean), times(rr), times(c.Ratio), band(GapBand))
		}
		return DoesNotHold, fmt.Sprintf("no clear gap in the original, but ours is %s, wholly outside %s", times(ours.Mean), band(GapBand))
	}
	side := 1.0
	if c.Ratio < 1 {
		side = -1
	}
	switch {
	case ours.Low <= 1 && ours.High >= 1 && ours.Low <= c.Ratio && ours.High >= c.Ratio:
		return Inconclusive, fmt.Sprintf("our interval holds both 1 and the original's %s: too wide to tell", times(c.Ratio))
	case ours.Low <= 1 && ours.High >= 1:
		return DoesNotHold, fmt.Sprintf("the original shows a clear gap (%s); our interval includes 1 but not the original's ratio", times(c.Ratio))
	case side > 0 && ours.High < 1, side < 0 && ours.Low > 1:
		return DoesNotHold, fmt.Sprintf("reversed: the original %s, ours %s", times(c.Ratio), times(ours.Mean))
	case rr > SizeBand || rr < 1/SizeBand:
		return DoesNotHold, fmt.Sprintf("same direction, but %s the original's size (outside %s)", times(rr), band(SizeBand))
	}
	return Holds, fmt.Sprintf("same side of 1, and %s the original's size (within %s)", times(rr), band(SizeBand))
}

func times(f float64) string {
	switch a := math.Abs(f); {
	case a >= 10:
		return fmt.Sprintf("%.0f×", f)
	case a >= 1:
		return fmt.Sprintf("%.2f×", f)
	}
	return fmt.Sprintf("%.3f×", f)
}

func band(b float64) string { return fmt.Sprintf("[%s, %s]", times(1/b), times(b)) }
