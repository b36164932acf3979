package report

import (
	"fmt"
	"math"
	"time"

	"github.com/wirebench/wirebench/results"
)

// driftNote is what a group's title says of the machine's move under its rounds,
// from its baseline b: "; machine drift 10 % (trend −10 % over 12 rounds), see the
// warnings". A file with no drift figure says only that the machine changed, when
// its baseline was warned of it.
func driftNote(b *results.Benchmark) string {
	warned := b.Warnings.Has(results.WarnMachineChanged) || b.Warnings.Has(results.WarnDriftOverInterval)
	d := b.Summary.Drift
	if d == nil {
		if warned {
			return "; the machine changed under the rounds, see the warnings"
		}
		return ""
	}
	s := "; machine drift " + driftFigure(d)
	if warned {
		s += ", see the warnings"
	}
	return s
}

// driftFigure is a group's drift figure with what it is made of: "10 % (trend −10 %
// over 12 rounds)", "18 % (two levels 18 % apart; trend +2.0 % over 40 rounds, within
// noise)", "within noise (trend +0.4 % over 40 rounds)", "unknown (2 rounds)".
func driftFigure(d *results.Drift) string {
	if d.Rounds < 3 {
		return fmt.Sprintf("unknown (%d %s)", d.Rounds, plural(d.Rounds, "round", "rounds"))
	}
	trend := fmt.Sprintf("trend %s over %d rounds", signedPercent(d.Trend), d.Rounds)
	if d.Moved <= 0 {
		return "within noise (" + trend + ")"
	}
	if !d.TrendSignificant {
		trend += ", within noise"
	}
	if d.Levels > 0 {
		trend = "two levels " + sharePercent(d.Levels) + " apart; " + trend
	}
	return sharePercent(d.Moved) + " (" + trend + ")"
}

// referenceLine is a run's reference figures (results.Results.Reference) as one
// line for the top of a report: the machine's own speed at the run's start and end
// and the change, and the range of the changes within its batches; "" when the run
// has none. A run whose reference could not be measured says why.
func referenceLine(refs []results.ReferenceRun) string {
	first, last, both := results.ReferenceSpan(refs)
	if first == nil {
		for _, r := range refs {
			if r.Why != "" {
				return "Reference (the machine's own speed): not measured: " + r.Why + "."
			}
		}
		return ""
	}
	where := ""
	if first.CPUs != "" {
		where = " on CPUs " + first.CPUs
	}
	s := fmt.Sprintf("Reference, the machine's own speed (%s%s): %s ops/s at the start (%s)",
		first.Workload, where, Significant(first.OpsS, 4), clock(first.At))
	if both {
		s += fmt.Sprintf(", %s at the end (%s): %s", Significant(last.OpsS, 4), clock(last.At),
			signedPercent(last.OpsS/first.OpsS-1))
	}
	lo, hi, n := 0.0, 0.0, 0
	for _, r := range refs {
		if c, ok := r.Change(); ok {
			if n == 0 || c < lo {
				lo = c
			}
			if n == 0 || c > hi {
				hi = c
			}
			n++
		}
	}
	if n > 1 {
		s += fmt.Sprintf("; from start to end of each of its %d batches %s to %s", n, signedPercent(lo), signedPercent(hi))
	}
	return s + ". Set beside another run's, it says how the machine moved between them."
}

// clock is a time of day in UTC, "10:42:13 UTC".
func clock(t time.Time) string { return t.UTC().Format("15:04:05 UTC") }

// sharePercent is a share as a percentage, whole from 10 % up and to one decimal
// below: "10 %", "1.3 %".
func sharePercent(f float64) string {
	if p := f * 100; p >= 10 || p <= -10 {
		return fmt.Sprintf("%.0f %%", p)
	}
	return fmt.Sprintf("%.1f %%", f*100)
}

// signedPercent is a change as a percentage with its sign, "−10 %", "+0.4 %".
func signedPercent(f float64) string {
	s := sharePercent(math.Abs(f))
	switch {
	case s == sharePercent(0):
		return s
	case f < 0:
		return "−" + s
	}
	return "+" + s
}
