package summary

import (
	"testing"
	"time"

	"github.com/wirebench/wirebench/results"
)

// A group's plan takes its widest ratio's components and its measured costs: two
// targets of 50 ms slices after 0.2 s warmups cost 0.5 + 0.4 = 0.9 s a fork and
// 2 × 0.053 s a round; with no between-fork variance the budget's plan is the most
// rounds its forks allow, and a precision no plan reaches within the grid says so.
func TestPlans(t *testing.T) {
	between := 0.0
	bs := []results.Benchmark{
		{Name: "a/tcp/person.get", Workload: "person.get", WarmupSeconds: 0.2, SliceSeconds: 0.05},
		{Name: "b/tcp/person.get", Workload: "person.get", WarmupSeconds: 0.2, SliceSeconds: 0.05,
			Summary: results.Summary{Relative: &results.Relative{Baseline: "a/tcp/person.get", Rounds: 100, Forks: 10,
				Ratio:    results.Ratio{Mean: 1.2, CILow: 1.1, CIHigh: 1.3},
				Variance: &results.Variance{WithinRound: 0.09, BetweenForks: &between}}}},
	}
	oh := Overhead{Start: 500 * time.Millisecond, Phase: 3 * time.Millisecond}
	ps := Plans(bs, oh, 90*time.Second, 0.05)
	if len(ps) != 1 {
		t.Fatalf("%d plans, want the one group's", len(ps))
	}
	p := ps[0]
	if p.Forks != 10 || p.Rounds != 10 || p.Within != 0.09 || p.Between != 0 {
		t.Errorf("measured %+v", p)
	}
	if d := p.ForkCost - 0.9; d > 1e-9 || d < -1e-9 {
		t.Errorf("fork cost %v, want 0.9 s", p.ForkCost)
	}
	if d := p.RoundCost - 0.106; d > 1e-9 || d < -1e-9 {
		t.Errorf("round cost %v, want 0.106 s", p.RoundCost)
	}
	if p.Budget.Seconds > 90 || p.Budget.HalfWidth <= 0 {
		t.Errorf("budget plan %+v, want one within 90 s", p.Budget)
	}
	// sd 30 % a round, nothing between forks: ±5 % at 99.9 % needs about
	// (3.3 × 0.3 / 0.049)² ≈ 410 rounds in all, which the grid allows.
	if !p.PrecisionOK || p.Precision.HalfWidth > 0.05 || p.Precision.Forks*p.Precision.Rounds < 380 {
		t.Errorf("precision plan %+v ok %v", p.Precision, p.PrecisionOK)
	}
	// Adaptive warm-ups cost what they lasted: forks of 14 s and 18 s warm up for
	// 16 s on average, in place of the 0.2 s setting.
	bs[1].Forks = []results.ForkResult{{Warmup: &results.Warmup{Seconds: 14, Adaptive: true}}, {Warmup: &results.Warmup{Seconds: 18, Adaptive: true}}}
	if d := Plans(bs, oh, 90*time.Second, 0.05)[0].ForkCost - 16.7; d > 1e-9 || d < -1e-9 {
		t.Errorf("fork cost with recorded warm-ups %v, want 0.5 + 0.2 + 16 = 16.7 s", d+16.7)
	}
	if none := Plans(bs[:1], Overhead{}, time.Minute, 0.05); len(none) != 0 {
		t.Errorf("a group without ratios got a plan: %+v", none)
	}
}

// A plan for a budget is never expected wider than what the run measured in it (issue
// 46: a 5 × 4 run measured ±71 % in about 10 s, and plan proposed ±82 % for 10 s). Here
// 5 forks × 4 rounds of two 50 ms slices cost 5 × (0.9 + 4 × 0.106) = 6.62 s and
// measured ±10 % ([1.1, 1.32] around 1.2: 1.32/1.2 = 1.1); the model, from a between-fork
// variance of 0.25 (sd 50 %), expects far wider from any grid plan (at least 10 rounds,
// and 7 s buys at most one fork of them beyond the cheapest): the measured shape is
// proposed, with its measured ±10 %.
func TestPlansNeverWiderThanMeasured(t *testing.T) {
	between := 0.25
	bs := []results.Benchmark{
		{Name: "a/tcp/person.get", Workload: "person.get", WarmupSeconds: 0.2, SliceSeconds: 0.05},
		{Name: "b/tcp/person.get", Workload: "person.get", WarmupSeconds: 0.2, SliceSeconds: 0.05,
			Summary: results.Summary{Relative: &results.Relative{Baseline: "a/tcp/person.get", Rounds: 20, Forks: 5,
				Ratio:    results.Ratio{Mean: 1.2, CILow: 1.2 / 1.1, CIHigh: 1.32},
				Variance: &results.Variance{WithinRound: 0.01, BetweenForks: &between}}}},
	}
	oh := Overhead{Start: 500 * time.Millisecond, Phase: 3 * time.Millisecond}
	p := Plans(bs, oh, 7*time.Second, 0.05)[0]
	if !p.BudgetMeasured || p.Budget.Forks != 5 || p.Budget.Rounds != 4 || p.Budget.HalfWidth > 0.1+1e-9 {
		t.Errorf("budget plan %+v (measured shape %v), want the measured 5 × 4 at ±10 %%", p.Budget, p.BudgetMeasured)
	}
	if d := p.Budget.Seconds - 6.62; d > 1e-9 || d < -1e-9 {
		t.Errorf("measured shape costs %v s, want 6.62", p.Budget.Seconds)
	}
	// A budget too small for the measured shape (5 s): the model's plan, not the
	// measured one, and no claim about it beyond the model's.
	if q := Plans(bs, oh, 5*time.Second, 0.05)[0]; q.BudgetMeasured {
		t.Errorf("5 s budget took the 6.62 s measured shape: %+v", q.Budget)
	}
}
