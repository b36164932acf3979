package summary

import (
	"math"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

// driftGroup is a group of two targets, a (the baseline, 1000 ops/s) and b (500
// ops/s), measured in 12 rounds of one fork on a machine whose speed is multiplied by
// perRound each round. Each slice of a is off by exp(−eps·p) and each of b by
// exp(+eps·p), p repeating +1, −1, −1, +1: the products a × b cancel the offsets, so
// the machine's speed index (the geometric mean of the two, each over its median) is
// exactly perRound^round times a constant; b over a is 0.5 × exp(2·eps·p), whose
// pattern sums to zero and is orthogonal to the round number.
func driftGroup(perRound, eps float64) []results.Benchmark {
	p := []float64{1, -1, -1, 1}
	var a, b []float64
	for r := range 12 {
		speed := math.Pow(perRound, float64(r))
		a = append(a, 1000*speed*math.Exp(-eps*p[r%4]))
		b = append(b, 500*speed*math.Exp(eps*p[r%4]))
	}
	return []results.Benchmark{benchmarkOf("a", a), benchmarkOf("b", b)}
}

// TestDriftFigure works each group's figure and flag out by hand.
//
// The speed index's logs lie on a line of slope ln 0.99 = −0.0100503 per round, so
// the fitted change over rounds 0 to 11 is exp(11 × −0.0100503) − 1 = 0.99^11 − 1 =
// −0.104662, its slope significant (no residual), and no two levels (the two halves
// of a line 6 rounds apart differ by exp(6 × 0.01005) − 1 = 6.2 %, under 15 %).
//
// b's ratio: the log ratios are ln 0.5 ± 2·eps with mean ln 0.5, sample sd
// 2·eps·√(12/11) = 2.0889·eps, 11 degrees of freedom, t(0.9995, 11) = 4.437: the
// half-width is exp(4.437 × 2.0889·eps / √12) − 1 = exp(2.6756·eps) − 1.
// eps 0.005: exp(0.013378) − 1 = 1.35 %, under the 10.5 % the machine moved: flagged.
// eps 0.15: exp(0.40134) − 1 = 49 %, wider than the move: not flagged.
func TestDriftFigure(t *testing.T) {
	for _, c := range []struct {
		name            string
		perRound, eps   float64
		trend, moved    float64
		significant     bool
		flagged, warned bool
		flag            string
	}{
		// Every target 1 % slower each round: a 10.5 % move, ratio ±1.3 %.
		{name: "slowing", perRound: 0.99, eps: 0.005, trend: -0.104662, moved: 0.104662, significant: true,
			flagged: true, warned: true,
			flag: "the machine moved more than this group's intervals: the machine's speed moved 10 % under the " +
				"rounds, more than the interval of its ratio is wide (±1.3 %): this run's ±1.3 % does not " +
				"cover how much the machine moved under it"},
		// A flat machine: no trend, nothing moved, nothing flagged.
		{name: "flat", perRound: 1, eps: 0.005},
		// The same 10.5 % move, but the ratio's interval (±49 %) is wider: no flag (the
		// trend's own warning stays: it is over 10 % and significant).
		{name: "wide", perRound: 0.99, eps: 0.15, trend: -0.104662, moved: 0.104662, significant: true, warned: true},
	} {
		bs := driftGroup(c.perRound, c.eps)
		Group(bs, 0)
		d := bs[0].Summary.Drift
		if d == nil || bs[1].Summary.Drift != nil {
			t.Fatalf("%s: drift on the baseline %+v, on the other %+v; want it on the baseline only", c.name, d, bs[1].Summary.Drift)
		}
		// A flat series's slope is zero but for rounding: whether that counts as
		// significant is moot, as its size (at most 1e-6) is what Moved holds.
		if d.Rounds != 12 || math.Abs(d.Trend-c.trend) > 1e-6 || c.significant && !d.TrendSignificant ||
			d.Levels != 0 || math.Abs(d.Moved-c.moved) > 1e-6 {
			t.Errorf("%s: drift %+v; want 12 rounds, trend %.6f (significant %v), no levels, moved %.6f",
				c.name, *d, c.trend, c.significant, c.moved)
		}
		flags := bs[0].Warnings.Of(results.WarnDriftOverInterval)
		if got := len(flags) > 0; got != c.flagged {
			t.Errorf("%s: flagged %v (%q), want %v", c.name, got, flags.Strings(), c.flagged)
		}
		if len(flags) > 1 {
			t.Errorf("%s: %d flags, want one", c.name, len(flags))
		}
		if c.flag != "" && (len(flags) == 0 || !strings.HasPrefix(flags[0].String(), c.flag)) {
			t.Errorf("%s: flag %q\nwant it to begin %q", c.name, flags.Strings(), c.flag)
		}
		if got := bs[0].Warnings.Has(results.WarnMachineChanged); got != c.warned {
			t.Errorf("%s: machine-changed warning %v, want %v", c.name, got, c.warned)
		}
	}
}

// A ratio without an interval (too few rounds) is no reference for the flag: five
// rounds of a machine losing a tenth each round move it 34 % (0.9^4 − 1), the ratio's
// interval rests on 4 degrees of freedom and is printed, so it is flagged; with two
// rounds there is no trend to fit (fewer than three) and no interval: no figure to
// speak of, and no flag.
func TestDriftTooFewRounds(t *testing.T) {
	for _, c := range []struct {
		rounds  int
		moved   float64
		flagged bool
	}{{5, 0.3439, true}, {2, 0, false}} {
		var a, b []float64
		for r := range c.rounds {
			speed := math.Pow(0.9, float64(r))
			a = append(a, 1000*speed*(1+0.001*float64(r%2)))
			b = append(b, 500*speed)
		}
		bs := []results.Benchmark{benchmarkOf("a", a), benchmarkOf("b", b)}
		Group(bs, 0)
		d := bs[0].Summary.Drift
		if d == nil || d.Rounds != c.rounds || math.Abs(d.Moved-c.moved) > 0.002 {
			t.Errorf("%d rounds: drift %+v, want moved %.4f", c.rounds, d, c.moved)
		}
		if got := bs[0].Warnings.Has(results.WarnDriftOverInterval); got != c.flagged {
			t.Errorf("%d rounds: flagged %v, want %v", c.rounds, got, c.flagged)
		}
	}
}

// In the open model the throughput is the fixed rate: no drift figure.
func TestDriftOpenModel(t *testing.T) {
	bs := driftGroup(0.99, 0.005)
	for i := range bs {
		bs[i].Load.Model = results.ModelOpen
	}
	Group(bs, 0)
	if d := bs[0].Summary.Drift; d != nil {
		t.Errorf("open model: drift %+v, want none", d)
	}
}

// FillDrift gives a group of a file written before drift figures the figure Group
// would have given it, from its stored slices, and leaves a group that has one alone.
func TestFillDrift(t *testing.T) {
	bs := driftGroup(0.99, 0.005)
	Group(bs, 0)
	want := *bs[0].Summary.Drift
	wantWarnings := len(bs[0].Warnings)
	// As an older file holds it: the ratios, no drift figure, no warnings on the baseline.
	bs[0].Summary.Drift, bs[0].Warnings = nil, nil
	FillDrift(bs)
	if d := bs[0].Summary.Drift; d == nil || *d != want {
		t.Fatalf("filled drift %+v, want %+v", d, want)
	}
	if !bs[0].Warnings.Has(results.WarnDriftOverInterval) || len(bs[0].Warnings) != wantWarnings-1 {
		// The machine-changed warning is Group's, written when it ran: FillDrift adds only the flag.
		t.Errorf("filled warnings %q", bs[0].Warnings.Strings())
	}
	FillDrift(bs)
	if n := len(bs[0].Warnings.Of(results.WarnDriftOverInterval)); n != 1 {
		t.Errorf("filled twice: %d flags, want 1", n)
	}
}
