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
	Results   string        `arg:"" name:"RESULTS" help:"A results file (results.json) of an interleaved run with forks, or its run directory."`
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
	file, err := resultsFile(c.Results)
	if err != nil {
		return err
	}
	res, err := results.ReadFile(file)
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
		} else if g.BudgetMeasured {
			fmt.Fprintf(e.stdout, "  within %v: %d forks × %d rounds, %.0f s, as measured: ±%.1f %% (no other plan within it is expected narrower)\n",
				c.Budget, g.Budget.Forks, g.Budget.Rounds, g.Budget.Seconds, g.Budget.HalfWidth*100)
		} else {
			fmt.Fprintf(e.stdout, "  within %v: %d forks × %d rounds, %.0f s, expected %s\n",
				c.Budget, g.Budget.Forks, g.Budget.Rounds, g.Budget.Seconds, expectedWidth(g.Budget.HalfWidth))
		}
		if g.PrecisionOK {
			fmt.Fprintf(e.stdout, "  for ±%s: %d forks × %d rounds, %.0f s, expected %s\n",
				c.Precision, g.Precision.Forks, g.Precision.Rounds, g.Precision.Seconds, expectedWidth(g.Precision.HalfWidth))
		} else {
			fmt.Fprintf(e.stdout, "  for ±%s: out of reach within 60 forks × 2000 rounds (best %s in %.0f s)\n",
				c.Precision, expectedWidth(g.Precision.HalfWidth), g.Precision.Seconds)
		}
	}
	return nil
}

// expectedWidth is a plan's expected half-width, "±8.2 %", or what it means past
// ±100 %: a 99.9 % interval over two or three forks spans orders of magnitude
// (Student's t of one degree of freedom is 637), which a percentage only hides.
func expectedWidth(hw float64) string {
	if hw > 1 || math.IsInf(hw, 1) {
		return "wider than ±100 % (too few forks for a 99.9 % interval: give it more time)"
	}
	return fmt.Sprintf("±%.1f %%", hw*100)
}
