package capacity

import (
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// Walk measures the steps srch picks (step measures one) until it is done, a
// generator verdict holds, or the budget (less one confirming run) is spent, and
// says how long its steps measured.
func Walk(c *spec.Capacity, srch Stepper, out *results.Search, step func(rate float64) (results.SearchStep, error)) (spent time.Duration, err error) {
	first := "" // the first verdict of the rate being tried again ("": none is)
	for {
		rate := srch.Next()
		if rate == 0 {
			return spent, nil
		}
		if spent+c.Step+c.Confirm > c.Budget {
			out.OutOfBudget = true
			return spent, nil
		}
		st, err := step(rate)
		if err != nil {
			return spent, err
		}
		spent += c.Step
		// A shared machine stalls now and then: a step that did not pass is tried
		// once more at the same rate, and the second verdict stands. (On the VMs of
		// docs/capacity.md a 1 s step missed p99 ≤ 10 ms at 16k/s, a quarter of the
		// target's capacity, and the search took that for the edge.) Not a rate
		// missed by more than clearOverload (the target is plainly past its edge), nor
		// in a sweep, which needs two failures running anyway. The generator is taken
		// for the limit only when both tries blame it.
		overloaded := st.Verdict == results.VerdictRate && st.Interval != nil &&
			float64(st.Interval.Ops+st.Interval.ErrorCount()) < (1-clearOverload)*rate*st.Interval.Seconds()
		if first == "" && st.Verdict != results.VerdictPass && (st.Verdict == results.VerdictGenerator || !c.Sweep && !overloaded) {
			first = st.Verdict
			continue
		}
		generatorTwice := st.Verdict == results.VerdictGenerator && first == results.VerdictGenerator
		first = ""
		if generatorTwice {
			out.GeneratorBound = true
			return spent, nil
		}
		srch.Observe(rate, st.Verdict == results.VerdictPass)
	}
}

// Confirm checks the search's answer with a longer run (step measures one). A
// failure lowers the rate by one resolution and tries again, while the budget allows
// (walk reserved the first run; spent is what the steps used) and down to half the
// search's answer. When none passes, the answer stays the search's, unconfirmed: the
// runs are in the steps. (A 1 s step's p99 holds at rates where 5 s do not: on the VMs
// of docs/capacity.md http-json's confirming runs failed 5–15 % under the steps' edge.)
func Confirm(c *spec.Capacity, out *results.Search, spent time.Duration, step func(rate float64) (results.SearchStep, error)) error {
	found, low, high := out.Rate, out.Low, out.High
	allGenerator := true // every confirming run so far was set by the generator
	for try, rate := 0, out.Rate; rate >= found*minConfirmShare && rate > 0 && c.Confirm > 0 && !out.GeneratorBound; try++ {
		if try > 0 && spent+c.Confirm > c.Budget {
			out.OutOfBudget = true
			break
		}
		st, err := step(rate)
		if err != nil {
			return err
		}
		spent += c.Confirm
		if st.Verdict == results.VerdictGenerator && try > 0 && allGenerator {
			out.GeneratorBound = true // twice running, as in walk
			break
		}
		allGenerator = allGenerator && st.Verdict == results.VerdictGenerator
		if st.Verdict == results.VerdictPass {
			out.Confirmed, out.Rate, out.Low = true, rate, rate
			if try > 0 {
				out.High = rate * (1 + c.Resolution) // the confirming run that failed last
			}
			break
		}
		rate /= 1 + c.Resolution
	}
	if !out.Confirmed {
		out.Rate, out.Low, out.High = found, low, high
	}
	return nil
}
