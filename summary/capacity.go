package summary

import (
	"slices"
	"strings"

	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/instrument"
	"github.com/wirebench/wirebench/results"
)

// Capacity builds the result of a capacity search: the benchmark's figures are the
// confirming run's (or, when it was not confirmed, the last passing step's, or else
// the last step's), and Capacity holds the answer and every step. err is the search's
// failure, if any (what it measured is kept).
func Capacity(res cluster.Resolved, r *cluster.CapacityResult, err error) results.Benchmark {
	var picked *cluster.Interval
	if r != nil {
		picked = pick(r.Steps)
	}
	result := &cluster.Result{Method: "sequential", Err: err}
	if picked != nil {
		result.Trials = []*cluster.Trial{{Intervals: []*cluster.Interval{picked}}}
	}
	b := Benchmark(res, result, nil)
	// The search's step verdicts judged the generator (cluster.judgeStep, which blames
	// lag only where it decided a verdict); the benchmark-wide check of the picked
	// step would contradict them.
	b.GeneratorBound = false
	b.Warnings = slices.DeleteFunc(b.Warnings, func(w string) bool { return strings.HasPrefix(w, generatorWarning) })
	c := res.Spec.Capacity
	capa := &results.Capacity{MaxErrorRate: c.MaxErrorRate, Steps: []results.CapacityStep{}}
	for _, o := range c.SLOs {
		capa.SLO = append(capa.SLO, o.String())
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
			w := generatorWarning + " the load generator could not go faster; the rate found is a floor of the target's capacity, not its capacity"
			if cheaper := instrument.Name; res.Client.Name != cheaper { // the client stack built to load a server cheaply
				if _, err := protocol.LookupStack(res.Protocol.Name, cheaper, protocol.ClientSide); err == nil {
					w += " (try --client-stack " + cheaper + ", the load generator that costs least per call)"
				}
			}
			b.Warnings = append(b.Warnings, w)
		}
		if !r.Confirmed && r.Rate > 0 && !r.GeneratorBound {
			b.Warnings = append(b.Warnings, "the capacity found was not confirmed by the longer run")
		}
		if r.OutOfBudget {
			b.Warnings = append(b.Warnings, "the budget ended before the bracket was as narrow as asked")
		}
	}
	b.Capacity = capa
	return b
}

// pick is the step whose figures stand for the search: the confirming run that
// passed, else the last passing step, else the last step; a copy numbered 0.
func pick(steps []cluster.CapacityStep) *cluster.Interval {
	best := -1
	for i, st := range steps {
		switch {
		case st.Confirm && st.Verdict == cluster.VerdictPass:
			best = i
		case best >= 0 && steps[best].Confirm && steps[best].Verdict == cluster.VerdictPass:
		case st.Verdict == cluster.VerdictPass:
			best = i
		case best < 0 || steps[best].Verdict != cluster.VerdictPass:
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
