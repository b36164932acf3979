package main

import (
	"fmt"
	"math"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/compare"
	"github.com/wirebench/wirebench/results/summary"
	"github.com/wirebench/wirebench/spec"
)

type planCmd struct {
	Results   string        `arg:"" help:"A results file (results.json) of an interleaved run with forks."`
	Budget    time.Duration `default:"90s" help:"Time for one group: the plan with the narrowest expected interval within it."`
	Precision string        `default:"5%" help:"Half-width asked for: the cheapest plan whose expected interval is within it."`
}

// Run prints, per group, the variance components the run measured and the forks ×
// rounds that Kalibera and Jones's planning gives for the budget and the precision.
func (c *planCmd) Run(e *env) error {
	p, err := compare.ParseThreshold(c.Precision)
	if err != nil || p <= 0 {
		return usagef("--precision %q: want a percentage over 0, such as 5%%", c.Precision)
	}
	if c.Budget <= 0 {
		return usagef("--budget: want a positive duration")
	}
	res, err := results.ReadFile(c.Results)
	if err != nil {
		return err
	}
	plans := summary.Plans(res.Benchmarks, summary.Overhead{Start: spec.StartOverhead, Phase: spec.PhaseOverhead}, c.Budget, p/100)
	if len(plans) == 0 {
		return fmt.Errorf("%s has no paired ratio with variance components (a group measured interleaved, by this version)", c.Results)
	}
	for _, g := range plans {
		fmt.Fprintf(e.stdout, "%s\n", g.Name)
		fmt.Fprintf(e.stdout, "  measured: %d forks × %d rounds, widest ratio ±%.1f %%; sd of a round's log ratio %.1f %%, of a fork's beyond its rounds %.1f %%\n",
			g.Forks, g.Rounds, g.HalfWidth*100, math.Sqrt(g.Within)*100, math.Sqrt(g.Between)*100)
		fmt.Fprintf(e.stdout, "  costs: a fork %.2f s (start-up and warm-ups), a round %.3f s\n", g.ForkCost, g.RoundCost)
		if g.Budget.Seconds > c.Budget.Seconds()*(1+1e-9) {
			// PlanForBudget gives the grid's cheapest plan when none fits.
			fmt.Fprintf(e.stdout, "  within %v: no plan fits; the cheapest, %d forks × %d rounds, takes %.0f s\n",
				c.Budget, g.Budget.Forks, g.Budget.Rounds, g.Budget.Seconds)
		} else {
			fmt.Fprintf(e.stdout, "  within %v: %d forks × %d rounds, %.0f s, expected ±%.1f %%\n",
				c.Budget, g.Budget.Forks, g.Budget.Rounds, g.Budget.Seconds, g.Budget.HalfWidth*100)
		}
		if g.PrecisionOK {
			fmt.Fprintf(e.stdout, "  for ±%s: %d forks × %d rounds, %.0f s, expected ±%.1f %%\n",
				c.Precision, g.Precision.Forks, g.Precision.Rounds, g.Precision.Seconds, g.Precision.HalfWidth*100)
		} else {
			fmt.Fprintf(e.stdout, "  for ±%s: out of reach within 60 forks × 2000 rounds (best ±%.1f %% in %.0f s)\n",
				c.Precision, g.Precision.HalfWidth*100, g.Precision.Seconds)
		}
	}
	return nil
}
