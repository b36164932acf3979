package stats

import (
	"math"
	"testing"
)

// forksOf makes forks of rounds values: fork k's r-th value is level[k] × perRound^(its
// place in the whole run).
func forksOf(levels []float64, rounds int, perRound float64) [][]float64 {
	var out [][]float64
	for k, lv := range levels {
		var xs []float64
		for r := range rounds {
			xs = append(xs, lv*math.Pow(perRound, float64(k*rounds+r)))
		}
		out = append(out, xs)
	}
	return out
}

// Forks whose speeds differ (fresh processes) but do not trend are not a machine
// moving. Five forks of 4 rounds, each fork flat at 1.15, 0.95, 1.05, 0.85 and 0.9:
// one line through the 20 rounds has slope −0.01447 a round at t = 5.13 on 18 degrees
// of freedom, over t(0.9995, 18) = 3.92, so MeasureMovement calls it a significant
// 24 % fall; through the five fork means (at rounds 1.5, 5.5, … 17.5) the slope is
// −0.01504 at t = 2.20 on 3 degrees of freedom, under t(0.9995, 3) = 12.92: no trend,
// and nothing moved.
func TestMovementForksSpreadIsNotDrift(t *testing.T) {
	forks := forksOf([]float64{1.15, 0.95, 1.05, 0.85, 0.9}, 4, 1)
	var flat []float64
	for _, f := range forks {
		flat = append(flat, f...)
	}
	if old := MeasureMovement(flat); !old.Significant || old.Moved() < 0.2 {
		t.Fatalf("one line through every round: %+v; this case was to be one it calls significant", old)
	}
	m := MeasureMovementForks(forks)
	if m.N != 20 || m.Significant || m.Moved() != 0 || math.Abs(m.Trend-(-0.2485)) > 0.001 {
		t.Errorf("across forks: %+v; want 20 samples, trend −0.2485 not significant, moved 0", m)
	}
}

// A machine slowing 1 % a round, through three forks of 4 rounds: the fork means lie on
// the same line (slope ln 0.99 a round, at rounds 1.5, 5.5 and 9.5), so the trend over
// the run, rounds 0 to 11, is 0.99^11 − 1 = −0.104662, significant (no residual).
func TestMovementForksTrend(t *testing.T) {
	m := MeasureMovementForks(forksOf([]float64{1, 1, 1}, 4, 0.99))
	if !m.Significant || math.Abs(m.Trend-(-0.104662)) > 1e-6 || math.Abs(m.Moved()-0.104662) > 1e-6 {
		t.Errorf("%+v; want trend −0.104662, significant", m)
	}
}

// Two forks are too few for a line through their means: the slope is taken within
// them. Fork 1 at 1, fork 2 at 0.7 (a fresh process 30 % slower), each slowing 1 % a
// round: within each fork the logs fall by ln 0.99 a round, so over the run's 8 rounds
// (0 to 7) the trend is 0.99^7 − 1 = −0.067935, significant (no residual), and the 30 %
// between the forks is not in it.
func TestMovementTwoForksWithin(t *testing.T) {
	forks := [][]float64{{1, 0.99, 0.9801, 0.970299}, {0.7, 0.693, 0.68607, 0.6792093}}
	m := MeasureMovementForks(forks)
	if !m.Significant || math.Abs(m.Trend-(-0.067935)) > 1e-5 || m.Levels != 0 {
		t.Errorf("%+v; want trend −0.067935, significant, no levels", m)
	}
}
