package stats

import "math"

// Planner bounds used when PlanInput leaves them zero.
const (
	DefaultPlanMaxForks  = 30
	DefaultPlanMaxRounds = 1000
	// DefaultPlanConf is the confidence level when PlanInput.Conf is zero, the level
	// of wirebench's intervals.
	DefaultPlanConf = 0.999
)

// Plan is a number of forks and of rounds per fork, with what it costs and the
// precision it is expected to give.
type Plan struct {
	Forks, Rounds int
	// Seconds is Forks·(ForkCost + Rounds·RoundCost).
	Seconds float64
	// HalfWidth is the expected relative half-width of the ratio's interval,
	// exp(t·se) − 1, with t the Student t quantile at Conf with Forks−1 degrees of
	// freedom and se² = Between/Forks + Within/(Forks·Rounds).
	HalfWidth float64
}

// PlanInput describes a comparison for the planner: the variance components of the
// per-round log ratio, the costs, the confidence level and the bounds of the grid.
type PlanInput struct {
	// Within is σ²_w, the variance of the per-round log ratio between rounds of one
	// fork; Between is σ²_b, the variance of fork means beyond what their rounds
	// explain (Kalibera and Jones's two levels). Negative estimates count as 0.
	Within, Between float64
	// ForkCost is the seconds a fork costs before its first measured round (start-up
	// and warm-up), RoundCost the seconds of one round.
	ForkCost, RoundCost float64
	// Conf is the two-sided confidence level (0 means DefaultPlanConf).
	Conf float64
	// The grid searched: forks from MinForks (at least 2, for one degree of freedom)
	// to MaxForks, rounds from MinRounds (at least 1) to MaxRounds; a zero maximum
	// means DefaultPlanMaxForks or DefaultPlanMaxRounds.
	MinForks, MaxForks, MinRounds, MaxRounds int
}

// PlanForBudget returns the plan with the smallest expected half-width that costs at
// most budget seconds (ties: the cheaper, then the one with fewer forks). When no
// plan in the grid fits, it returns the cheapest one, whose Seconds then exceed
// budget.
//
// The design is Kalibera and Jones's ("Rigorous Benchmarking in Reasonable Time",
// ISMM 2013) two-level one: the estimate is the mean of F fork means of n rounds
// each, with variance σ²_b/F + σ²_w/(F·n) and a Student t interval with F−1 degrees
// of freedom. Minimising that variance times the cost F·(ForkCost + n·RoundCost)
// gives the classic two-stage-sampling optimum
//
//	n* = √(ForkCost·σ²_w / (RoundCost·σ²_b))
//
// rounds per fork, independent of the budget. The planner does not use it directly:
// the t quantile falls steeply with few degrees of freedom (at 99.9 %, 636.6 for
// F = 2, 12.9 for 4, 4.6 for 11), which favours more forks with fewer rounds than
// n* when forks are few, and rounding n and F to integers matters at these sizes.
// The grid (forks × rounds) is small, so it is searched exhaustively.
func PlanForBudget(in PlanInput, budget float64) Plan {
	g := in.grid()
	best, cheapest := Plan{HalfWidth: math.Inf(1)}, Plan{Seconds: math.Inf(1)}
	g.each(func(p Plan) {
		if p.Seconds < cheapest.Seconds {
			cheapest = p
		}
		if p.Seconds > budget*(1+1e-12) {
			return
		}
		if p.HalfWidth < best.HalfWidth || (p.HalfWidth == best.HalfWidth && p.Seconds < best.Seconds) {
			best = p
		}
	})
	if best.Forks == 0 {
		return cheapest
	}
	return best
}

// PlanForPrecision returns the cheapest plan whose expected half-width is at most p
// (e.g. 0.05 for ±5 %; ties: the more precise, then the one with fewer forks), and
// ok = true. When no plan in the grid reaches p it returns the most precise plan of
// the grid and ok = false.
func PlanForPrecision(in PlanInput, p float64) (Plan, bool) {
	g := in.grid()
	best, precise := Plan{Seconds: math.Inf(1)}, Plan{HalfWidth: math.Inf(1)}
	g.each(func(c Plan) {
		if c.HalfWidth < precise.HalfWidth || (c.HalfWidth == precise.HalfWidth && c.Seconds < precise.Seconds) {
			precise = c
		}
		if c.HalfWidth > p {
			return
		}
		if c.Seconds < best.Seconds || (c.Seconds == best.Seconds && c.HalfWidth < best.HalfWidth) {
			best = c
		}
	})
	if best.Forks == 0 {
		return precise, false
	}
	return best, true
}

// planGrid is a PlanInput with its defaults and bounds applied.
type planGrid struct {
	within, between, forkCost, roundCost, conf float64
	minF, maxF, minN, maxN                     int
}

func (in PlanInput) grid() planGrid {
	g := planGrid{
		within: max(in.Within, 0), between: max(in.Between, 0),
		forkCost: in.ForkCost, roundCost: in.RoundCost, conf: in.Conf,
		minF: max(in.MinForks, 2), maxF: in.MaxForks, minN: max(in.MinRounds, 1), maxN: in.MaxRounds,
	}
	if g.conf == 0 {
		g.conf = DefaultPlanConf
	}
	if g.maxF == 0 {
		g.maxF = DefaultPlanMaxForks
	}
	if g.maxN == 0 {
		g.maxN = DefaultPlanMaxRounds
	}
	return g
}

// each calls visit with every plan of the grid, forks in the outer loop, in
// increasing order of both (so that ties go to fewer forks, then fewer rounds).
func (g planGrid) each(visit func(Plan)) {
	for f := g.minF; f <= g.maxF; f++ {
		t := tQuantile(1-(1-g.conf)/2, float64(f-1))
		for n := g.minN; n <= g.maxN; n++ {
			se := math.Sqrt(g.between/float64(f) + g.within/float64(f*n))
			visit(Plan{
				Forks: f, Rounds: n,
				Seconds:   float64(f) * (g.forkCost + float64(n)*g.roundCost),
				HalfWidth: math.Expm1(t * se),
			})
		}
	}
}
