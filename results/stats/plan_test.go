package stats

import (
	"math"
	"testing"
)

func TestPlanForBudget(t *testing.T) {
	tests := []struct {
		name   string
		in     PlanInput
		budget float64
		want   Plan
	}{
		{
			// No fork effect (Between = 0): only the total rounds F·n count for se,
			// se = 0.2/√(F·n), so without the t quantile the fewest forks would win
			// (each fork's 10 s of start-up is 10 rounds lost). At 99.9 % the quantile
			// falls fast with df; with n the most rounds that fit in 100 s:
			//   F=4 n=15: se 0.025820, t(3) 12.923979 → e^0.33369−1 = 39.6 %
			//   F=5 n=10: se 0.028284, t(4)  8.610302 → 27.6 %
			//   F=6 n=6:  se 0.033333, t(5)  6.868827 → 25.7 %
			//   F=7 n=4:  se 0.037796, t(6)  5.958816 → e^0.22522−1 = 25.26 %
			//   F=8 n=2:  se 0.050000, t(7)  5.407883 → 31.0 %
			// (F=2 and 3 are far wider, F=10 does not fit): 7 forks of 4 rounds, 98 s.
			name: "no fork effect, 99.9 %",
			in: PlanInput{Within: 0.04, ForkCost: 10, RoundCost: 1, Conf: 0.999,
				MinForks: 2, MaxForks: 10, MinRounds: 1, MaxRounds: 100},
			budget: 100,
			want:   Plan{Forks: 7, Rounds: 4, Seconds: 98, HalfWidth: 0.252600865007577},
		},
		{
			// No round effect (Within = 0): rounds add nothing, so one round a fork and as
			// many forks as fit: 9 × (10+1) = 99 s; se = 0.1/3, t(8) = 5.041305,
			// e^0.168044−1 = 18.30 %.
			name: "no round effect",
			in: PlanInput{Between: 0.01, ForkCost: 10, RoundCost: 1, Conf: 0.999,
				MinForks: 2, MaxForks: 10, MinRounds: 1, MaxRounds: 100},
			budget: 100,
			want:   Plan{Forks: 9, Rounds: 1, Seconds: 99, HalfWidth: 0.182988086598784},
		},
		{
			// A budget below the cheapest plan (2 forks of 1 round, 22 s): that plan,
			// its Seconds above the budget saying so.
			name: "budget too small",
			in: PlanInput{Within: 0.04, ForkCost: 10, RoundCost: 1, Conf: 0.999,
				MinForks: 2, MaxForks: 10, MinRounds: 1, MaxRounds: 100},
			budget: 15,
			want:   Plan{Forks: 2, Rounds: 1, Seconds: 22, HalfWidth: math.Expm1(636.619249 * 0.2 / math.Sqrt2)},
		},
	}
	for _, tt := range tests {
		got := PlanForBudget(tt.in, tt.budget)
		if got.Forks != tt.want.Forks || got.Rounds != tt.want.Rounds || got.Seconds != tt.want.Seconds ||
			!close(got.HalfWidth, tt.want.HalfWidth, 1e-6) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// With many forks the t quantile hardly changes with F, and the best plan's rounds per
// fork approach the two-stage optimum n* = √(ForkCost·σ²_w/(RoundCost·σ²_b)).
func TestPlanForBudgetNearOptimum(t *testing.T) {
	// n* = √(100·0.04/(1·0.0004)) = 100; a fork of 100 rounds costs 200 s, so 4000 s
	// buy about 20 of them (the search gives 21 forks of 90 rounds, 3990 s: the
	// variance–cost product is flat near n*, and a 21st fork also lowers t).
	in := PlanInput{Within: 0.04, Between: 0.0004, ForkCost: 100, RoundCost: 1, Conf: 0.95, MaxForks: 50}
	got := PlanForBudget(in, 4000)
	if got.Rounds < 70 || got.Rounds > 140 || got.Forks < 16 || got.Forks > 25 {
		t.Errorf("got %+v, want about 20 forks of about n* = 100 rounds", got)
	}
}

func TestPlanForBudgetMonotonic(t *testing.T) {
	// A larger budget only adds plans to choose from, so the half-width never grows.
	in := PlanInput{Within: 0.03, Between: 0.002, ForkCost: 8, RoundCost: 0.5, MaxForks: 40, MaxRounds: 400}
	prev := math.Inf(1)
	for budget := 10.0; budget <= 3000; budget += 23 {
		got := PlanForBudget(in, budget)
		if got.Seconds <= budget && got.HalfWidth > prev {
			t.Fatalf("budget %v: half-width %v, wider than %v with less", budget, got.HalfWidth, prev)
		}
		if got.Seconds <= budget {
			prev = got.HalfWidth
		}
	}
	if math.IsInf(prev, 1) {
		t.Fatal("no budget fitted any plan")
	}
}

func TestPlanForPrecision(t *testing.T) {
	// σ_w = 10 %, σ_b = 1 %, a fork 5 s, a round 1 s, 95 %, up to 20 forks and 200 rounds.
	in := PlanInput{Within: 0.01, Between: 0.0001, ForkCost: 5, RoundCost: 1, Conf: 0.95,
		MaxForks: 20, MaxRounds: 200}
	tests := []struct {
		name string
		p    float64
		want Plan
		ok   bool
	}{
		{
			// ±5 %: 6 forks of 5 rounds, 60 s: se² = 0.0001/6 + 0.01/30 = 3.5e-4,
			// se = 0.018708, t(5) = 2.570582, e^0.048091−1 = 4.927 %. Every plan under
			// 60 s misses (the best of each fork count: F=3 n=14 7.3 %, F=4 n=9 5.69 %,
			// F=5 n=6 5.36 %, F=6 n=4 5.50 %, F=7 n=3 5.57 %, F=8 n=2 6.2 %). At 60 s,
			// 5 forks of 7 rounds also make it (se² = 3.0571e-4, t(4) = 2.776445,
			// 4.974 %); the tie on cost goes to the more precise.
			name: "±5 %", p: 0.05, ok: true,
			want: Plan{Forks: 6, Rounds: 5, Seconds: 60, HalfWidth: 0.0492663257608463},
		},
		{
			// ±0.4 %: with 20 forks the fork means alone leave t(19)·σ_b/√20 =
			// 2.093024·0.01/4.472136 = 0.468 % however many rounds: impossible, and the
			// most precise plan of the grid (20 forks of 200 rounds) comes back.
			name: "±0.4 %, impossible", p: 0.004, ok: false,
			want: Plan{Forks: 20, Rounds: 200, Seconds: 4100, HalfWidth: math.Expm1(2.093024 * math.Sqrt(0.0001/20+0.01/4000))},
		},
	}
	for _, tt := range tests {
		got, ok := PlanForPrecision(in, tt.p)
		if ok != tt.ok || got.Forks != tt.want.Forks || got.Rounds != tt.want.Rounds ||
			got.Seconds != tt.want.Seconds || !close(got.HalfWidth, tt.want.HalfWidth, 1e-6) {
			t.Errorf("%s: got %+v, %v; want %+v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}

	// A tighter precision never costs less, and the plan found for a budget's
	// half-width costs no more than that budget.
	prev := 0.0
	for p := 0.2; p >= 0.006; p *= 0.9 {
		got, ok := PlanForPrecision(in, p)
		if !ok {
			t.Fatalf("±%.4f: not reached; the grid reaches 0.575 %%", p)
		}
		if got.Seconds < prev {
			t.Errorf("±%.4f costs %v s, less than a looser precision's %v s", p, got.Seconds, prev)
		}
		prev = got.Seconds
	}
	for _, budget := range []float64{40, 100, 500} {
		b := PlanForBudget(in, budget)
		if got, ok := PlanForPrecision(in, b.HalfWidth); !ok || got.Seconds > budget {
			t.Errorf("budget %v gives ±%v, for which PlanForPrecision gives %+v, %v", budget, b.HalfWidth, got, ok)
		}
	}
}

func TestPlanDefaults(t *testing.T) {
	// Zero bounds and level: forks from 2 (one degree of freedom) to
	// DefaultPlanMaxForks, rounds from 1 to DefaultPlanMaxRounds, at 99.9 %. With
	// no noise at all every plan is exact, and the cheapest is 2 forks of 1 round.
	got := PlanForBudget(PlanInput{ForkCost: 3, RoundCost: 1}, 1e9)
	if got != (Plan{Forks: 2, Rounds: 1, Seconds: 8, HalfWidth: 0}) {
		t.Errorf("no noise: %+v", got)
	}
	// Only Between, huge budget: one round a fork and the most forks.
	got = PlanForBudget(PlanInput{Between: 0.01, ForkCost: 3, RoundCost: 1}, 1e9)
	if got.Forks != DefaultPlanMaxForks || got.Rounds != 1 {
		t.Errorf("between only: %+v, want %d forks of 1 round", got, DefaultPlanMaxForks)
	}
	// Only Within, huge budget: the most of both.
	got = PlanForBudget(PlanInput{Within: 0.01, ForkCost: 3, RoundCost: 1}, 1e9)
	if got.Forks != DefaultPlanMaxForks || got.Rounds != DefaultPlanMaxRounds {
		t.Errorf("within only: %+v, want %d forks of %d rounds", got, DefaultPlanMaxForks, DefaultPlanMaxRounds)
	}
}
