package spec

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/spec/load"
)

// Capacity asks for the highest open-loop rate a target sustains within a latency
// objective, instead of a measurement at a given load (wirebench capacity, and a
// suite's capacity load points). The benchmark's Load is then the open model whose
// Concurrency caps the calls in flight, and its Rate is where the search starts.
type Capacity struct {
	// SLOs are the latency objectives a step must meet, on response time (from the
	// intended start), e.g. p99 ≤ 10 ms.
	SLOs []SLO
	// MaxErrorRate is the largest share of failed calls a step may have (0: none).
	MaxErrorRate float64
	// Budget bounds the search's measuring time (steps and the confirmation).
	Budget time.Duration
	// Step is the length of one step; Confirm the length of the confirming run at the
	// rate found.
	Step, Confirm time.Duration
	// Resolution is the relative width at which the bisection stops: the answer is
	// known within [rate, rate × (1 + Resolution)].
	Resolution float64
	// Sweep measures every rate from the start, each (1 + Resolution) times the last,
	// instead of searching, until a step fails twice running or the budget ends: the
	// slow, fine answer a search is checked against, and a rate–latency curve.
	Sweep bool
}

// SLO is one latency objective: the response time at Quantile (0 to 100, e.g. 99)
// at most Max.
type SLO struct {
	Quantile float64
	Max      time.Duration
}

func (o SLO) String() string {
	return "p" + strconv.FormatFloat(o.Quantile, 'f', -1, 64) + "=" + o.Max.String()
}

// Capacity defaults.
const (
	DefaultCapacityStep       = time.Second
	DefaultCapacityConfirm    = 5 * time.Second
	DefaultCapacityBudget     = 2 * time.Minute
	DefaultCapacityResolution = 0.05
	DefaultCapacityStart      = 1000.0
)

// DefaultCapacity is a search for p99 ≤ 10 ms with the default step, budget and
// resolution.
func DefaultCapacity() *Capacity {
	return &Capacity{SLOs: []SLO{{Quantile: 99, Max: 10 * time.Millisecond}}, Budget: DefaultCapacityBudget,
		Step: DefaultCapacityStep, Confirm: DefaultCapacityConfirm, Resolution: DefaultCapacityResolution}
}

// CapacitySettings is the table of a capacity search's settings, as Settings is of a
// benchmark's: the keys of a suite's capacity block (in the order its "valid:" list
// names them) and the flags of `wirebench capacity`, with their help, bounds and
// defaults (DefaultCapacitySpec's). Their fields are in Spec.Capacity, which must be
// set, but for start_rate, the open model's Rate, where the search starts. Their
// values are checked together by Capacity.Validate; the table's bounds are the
// ones a value is refused by at its place in a suite file.
var CapacitySettings = []*Setting{
	{Key: "slo", Flag: "slo", Kind: SLOs,
		Help:  "Latency objective on response time, pQUANTILE=DURATION (repeatable), e.g. p99=10ms, p99.9=50ms.",
		field: func(s *Spec) any { return &s.Capacity.SLOs }},
	{Key: "max_error_rate", Flag: "max-error-rate", Kind: Float,
		Help:  "Largest share of failed calls a step may have, e.g. 0.001.",
		field: func(s *Spec) any { return &s.Capacity.MaxErrorRate }},
	{Key: "budget", Flag: "budget", Kind: Duration, Max: int64(MaxTime),
		Help:  "Time the search may measure (steps and the confirming run).",
		field: func(s *Spec) any { return &s.Capacity.Budget }},
	{Key: "step", Flag: "step", Kind: Duration, Max: int64(MaxTime),
		Help:  "Length of each step.",
		field: func(s *Spec) any { return &s.Capacity.Step }},
	{Key: "confirm", Flag: "confirm", Kind: Duration, Max: int64(MaxTime),
		Help:  "Length of the run that confirms the rate found (0: none).",
		field: func(s *Spec) any { return &s.Capacity.Confirm }},
	{Key: "resolution", Flag: "resolution", Kind: Float,
		Help:  "Stop bisecting when the bracket is this narrow (0.05: within 5 %).",
		field: func(s *Spec) any { return &s.Capacity.Resolution }},
	{Key: "start_rate", Flag: "start-rate", Kind: Float,
		Help:  "First rate tried, in ops/s; the search doubles it until a step fails, then bisects.",
		field: func(s *Spec) any { return &s.Load.Rate }},
	{Key: "sweep", Flag: "sweep", Kind: Bool,
		Help:  "Measure every rate from the start rate up, each (1 + resolution) times the last, until a step fails twice running (a fine sweep: slow, the curve in full).",
		field: func(s *Spec) any { return &s.Capacity.Sweep }},
}

// CapacityKeys returns the keys of a suite's capacity block, in table order.
func CapacityKeys() []string { return keysOf(CapacitySettings) }

// DefaultCapacitySpec is Default made a capacity search with the default
// objectives, step, budget and resolution (DefaultCapacity), from the default start
// rate, with the open model's default cap on calls in flight: what `wirebench
// capacity` and a suite's capacity block start from.
func DefaultCapacitySpec() Spec {
	s := Default()
	s.Capacity = DefaultCapacity()
	s.Load = load.Model{Kind: load.Open, Rate: DefaultCapacityStart, Concurrency: load.DefaultMaxInFlight, Connections: s.Load.Connections}
	return s
}

// ParseSLO reads an objective as users write it: "p99=10ms", "p99.9=50ms",
// "p50=1ms".
func ParseSLO(s string) (SLO, error) {
	q, d, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok || !strings.HasPrefix(q, "p") {
		return SLO{}, fmt.Errorf("SLO %q: want pQUANTILE=DURATION, e.g. p99=10ms", s)
	}
	quant, err := strconv.ParseFloat(q[1:], 64)
	if err != nil || !(quant > 0 && quant <= 100) {
		return SLO{}, fmt.Errorf("SLO %q: the quantile after p is a number from 0 (excluded) to 100, e.g. p99 or p99.9", s)
	}
	// p999 is the common spelling of the 99.9th percentile, as in wirebench's tables.
	if q == "p999" {
		quant = 99.9
	}
	max, err := time.ParseDuration(d)
	if err != nil || max <= 0 {
		return SLO{}, fmt.Errorf("SLO %q: the bound is a positive duration, e.g. 10ms", s)
	}
	return SLO{Quantile: quant, Max: max}, nil
}

// Validate checks a capacity search's settings; the error names the setting.
func (c *Capacity) Validate() error {
	switch {
	case len(c.SLOs) == 0:
		return bad("slo", "a capacity search needs at least one latency objective, e.g. p99=10ms")
	case c.MaxErrorRate < 0 || c.MaxErrorRate >= 1 || math.IsNaN(c.MaxErrorRate):
		return bad("max_error_rate", "%v, want a share from 0 to below 1", c.MaxErrorRate)
	case c.Step <= 0 || c.Step > MaxTime:
		return bad("step", "%v, want a positive duration", c.Step)
	case c.Confirm < 0 || c.Confirm > MaxTime:
		return bad("confirm", "%v, want 0 (none) or a positive duration", c.Confirm)
	case c.Budget < c.Step || c.Budget > MaxTime:
		return bad("budget", "%v, want at least one step (%v)", c.Budget, c.Step)
	case !(c.Resolution > 0 && c.Resolution < 1):
		return bad("resolution", "%v, want a fraction between 0 and 1, e.g. 0.05", c.Resolution)
	}
	seen := map[float64]bool{}
	for _, o := range c.SLOs {
		if seen[o.Quantile] {
			return bad("slo", "p%v given twice", o.Quantile)
		}
		seen[o.Quantile] = true
	}
	return nil
}

// Name is the load part of a capacity benchmark's name: capacity-p99=10ms (objectives
// by quantile), then -c and -x for the cap on calls in flight and the connections.
func (c *Capacity) Name(concurrency, connections int) string {
	slos := append([]SLO(nil), c.SLOs...)
	sort.Slice(slos, func(i, j int) bool { return slos[i].Quantile < slos[j].Quantile })
	var b strings.Builder
	b.WriteString("capacity")
	for _, o := range slos {
		b.WriteString("-" + o.String())
	}
	fmt.Fprintf(&b, "-c%d", concurrency)
	if connections > 1 {
		fmt.Fprintf(&b, "-x%d", connections)
	}
	return b.String()
}
