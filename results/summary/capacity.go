package summary

import "github.com/wirebench/wirebench/results"

// Capacity completes head, a benchmark's description (driver.DescribeResolved),
// with a capacity search's result: the benchmark's figures are the confirming run's
// (or, when it was not confirmed, the last passing step's, or else the last step's),
// and Capacity (whose objectives head holds) the answer and every step. err is the
// search's failure, if any (what it measured is kept).
func Capacity(head results.Benchmark, r *results.Search, err error) results.Benchmark {
	var picked *results.Interval
	if r != nil {
		picked = pick(r.Steps)
	}
	result := &results.Measured{Method: results.MethodSequential, Err: err}
	if picked != nil {
		result.Forks = []*results.Fork{{Intervals: []*results.Interval{picked}}}
	}
	// The search's step verdicts judged the generator (capacity.Judge, which blames
	// lag only where it decided a verdict); a benchmark-wide judgement of the picked
	// step would contradict them.
	b := build(head, result, nil, false)
	capa := &results.Capacity{Steps: []results.CapacityStep{}}
	if head.Capacity != nil {
		capa.SLO, capa.MaxErrorRate = head.Capacity.SLO, head.Capacity.MaxErrorRate
	}
	if r != nil {
		capa.RateOpsS, capa.LowOpsS, capa.HighOpsS = r.Rate, r.Low, r.High
		capa.Confirmed, capa.GeneratorBound, capa.OutOfBudget = r.Confirmed, r.GeneratorBound, r.OutOfBudget
		for _, st := range r.Steps {
			iv := st.Interval
			capa.Steps = append(capa.Steps, results.CapacityStep{RateOpsS: st.Rate,
				AchievedOpsS: float64(iv.Ops+iv.ErrorCount()) / max(iv.Seconds(), 1e-9), Seconds: iv.Seconds(),
				LatencyUs: results.LatencyFrom(iv.Resp), Errors: iv.ErrorCount(), Verdict: st.Verdict, Why: st.Why, Confirm: st.Confirm})
		}
		if r.GeneratorBound {
			b.GeneratorBound = true
			w := results.Warning{Kind: results.WarnGenerator, Text: "the load generator could not go faster; the rate found is a floor of the target's capacity, not its capacity"}
			if r.CheaperClient != "" {
				w.Text += " (try --client-stack " + r.CheaperClient + ", the load generator that costs least per call)"
			}
			b.Warnings = append(b.Warnings, w)
		}
		if !r.Confirmed && r.Rate > 0 && !r.GeneratorBound {
			b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnUnconfirmed, Text: "the capacity found was not confirmed by the longer run"})
		}
		if r.OutOfBudget {
			b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnOutOfBudget, Text: "the budget ended before the bracket was as narrow as asked"})
		}
	}
	b.Capacity = capa
	return b
}

// pick is the step whose figures stand for the search: the confirming run that
// passed, else the last passing step, else the last step; a copy numbered 0.
func pick(steps []results.SearchStep) *results.Interval {
	best := -1
	for i, st := range steps {
		switch {
		case st.Confirm && st.Verdict == results.VerdictPass:
			best = i
		case best >= 0 && steps[best].Confirm && steps[best].Verdict == results.VerdictPass:
		case st.Verdict == results.VerdictPass:
			best = i
		case best < 0 || steps[best].Verdict != results.VerdictPass:
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	iv := *steps[best].Interval
	iv.Index = 0
	return &iv
}
