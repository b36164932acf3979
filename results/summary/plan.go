package summary

import (
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/stats"
)

// GroupPlan is what a measured group says of how to measure it again (Kalibera and
// Jones's two-level planning, stats.PlanForBudget and stats.PlanForPrecision): its
// variance components, what one fork and one round cost, the shape it ran and the
// half-width that shape gave, and the best shape for a budget or a precision.
type GroupPlan struct {
	Name string
	// Within and Between are the largest of the group's ratios' variance
	// components (the plan must serve its widest ratio).
	Within, Between float64
	// ForkCost and RoundCost are in seconds: a fork's start-up and warm-ups, a
	// round's slices and the handovers between them (Overhead).
	ForkCost, RoundCost float64
	Forks, Rounds       int
	// HalfWidth is the widest ratio's relative half-width as measured.
	HalfWidth float64
	// Budget is the best plan within the budget asked for; Precision the cheapest
	// reaching the precision asked for, and PrecisionOK whether one does.
	Budget      stats.Plan
	Precision   stats.Plan
	PrecisionOK bool
	// BudgetMeasured: Budget is the shape the run measured, its HalfWidth the one it
	// measured, because that shape fits the budget and the model's best plan within it
	// was expected wider (the model's variance components are estimates from the same
	// few forks: it must never propose worse than what the same time already gave).
	BudgetMeasured bool
}

// Overhead is what a fork and a slice cost beyond their measured time: Start
// for starting and stopping a fork's processes (spec.StartOverhead), Phase for the
// handover between two phases (spec.PhaseOverhead).
type Overhead struct {
	Start, Phase time.Duration
}

// warmupCost is what b's warm-up cost a fork: the mean of its forks' recorded
// warm-ups (an adaptive one lasts what it lasts), else its setting.
func warmupCost(b results.Benchmark) float64 {
	var sum float64
	n := 0
	for _, t := range b.Forks {
		if t.Warmup != nil {
			sum += t.Warmup.Seconds
			n++
		}
	}
	if n == 0 {
		return b.WarmupSeconds
	}
	return sum / float64(n)
}

// Plans plans every group of bs that has paired ratios with variance components,
// with the overheads oh, for a budget (seconds of one group) and a precision (0.05:
// ±5 %).
func Plans(bs []results.Benchmark, oh Overhead, budget time.Duration, precision float64) []GroupPlan {
	var out []GroupPlan
	for _, g := range results.Groups(bs) {
		p := GroupPlan{Name: g.Name, ForkCost: oh.Start.Seconds()}
		found := false
		for _, b := range g.Benchmarks {
			p.ForkCost += warmupCost(b)
			p.RoundCost += b.SliceSeconds + oh.Phase.Seconds()
			r := b.Summary.Relative
			if r == nil || r.Variance == nil {
				continue
			}
			found = true
			p.Within = max(p.Within, r.Variance.WithinRound)
			if v := r.Variance.BetweenForks; v != nil {
				p.Between = max(p.Between, *v)
			}
			p.Forks = max(p.Forks, r.Forks)
			if r.Forks > 0 {
				p.Rounds = max(p.Rounds, (r.Rounds+r.Forks-1)/r.Forks)
			}
			if r.Ratio.Mean > 0 && r.Ratio.CILow > 0 {
				p.HalfWidth = max(p.HalfWidth, r.HalfWidth())
			}
		}
		if !found {
			continue
		}
		in := stats.PlanInput{Within: p.Within, Between: p.Between, ForkCost: p.ForkCost, RoundCost: p.RoundCost,
			Conf: Confidence, MinForks: 2, MaxForks: 60, MinRounds: 10, MaxRounds: 2000}
		p.Budget = stats.PlanForBudget(in, budget.Seconds())
		measured := stats.Plan{Forks: p.Forks, Rounds: p.Rounds, HalfWidth: p.HalfWidth,
			Seconds: float64(p.Forks) * (p.ForkCost + float64(p.Rounds)*p.RoundCost)}
		if p.HalfWidth > 0 && measured.Seconds <= budget.Seconds()*(1+1e-9) &&
			(p.Budget.HalfWidth > p.HalfWidth || p.Budget.Seconds > budget.Seconds()*(1+1e-9)) {
			p.Budget, p.BudgetMeasured = measured, true
		}
		p.Precision, p.PrecisionOK = stats.PlanForPrecision(in, precision)
		out = append(out, p)
	}
	return out
}
