package stats

import (
	"math"
	"testing"
)

func TestShiftOf(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name           string
		x, y           []float64
		conf           float64
		est, low, high float64
	}{
		// The nine differences y−x are 1 2 2 3 3 3 4 4 5: median 3. Of the C(6,3) = 20
		// orders of two samples of three only one has U = 0, so P(U ≤ 0) = 0.05: at
		// 90 % (0.05 a tail) k = 0 and the interval is the extreme differences.
		{"3v3 at 90%", []float64{1, 2, 3}, []float64{4, 5, 6}, 0.90, 3, 1, 5},
		// At 95 % (0.025 a tail) not even U = 0 is rare enough: no interval.
		{"3v3 at 95%", []float64{1, 2, 3}, []float64{4, 5, 6}, 0.95, 3, -inf, inf},
		// Five a side: U = 0, 1, 2, 3 have 1, 1, 2, 3 of the 252 orders, so P(U ≤ 2) =
		// 4/252 ≤ 0.025 < 7/252 = P(U ≤ 3): k = 2 (the printed table's critical value).
		// The 25 differences of y = x+10 are 10+(j−i) for i, j in 0..4: sorted, the
		// third smallest is 10−3 = 7 (one −4, two −3) and the third largest 13.
		{"5v5 at 95%", []float64{0, 1, 2, 3, 4}, []float64{10, 11, 12, 13, 14}, 0.95, 10, 7, 13},
	} {
		s := ShiftOf(c.x, c.y, c.conf)
		if s.Estimate != c.est || s.Low != c.low || s.High != c.high {
			t.Errorf("%s: %v [%v, %v], want %v [%v, %v]", c.name, s.Estimate, s.Low, s.High, c.est, c.low, c.high)
		}
	}
	if s := ShiftOf(nil, []float64{1}, 0.95); !math.IsNaN(s.Estimate) {
		t.Errorf("empty sample: %+v, want NaN", s)
	}
}

// The normal approximation beyond 50 a side agrees with the exact distribution
// where both apply.
func TestUCriticalApproximation(t *testing.T) {
	for _, n := range []int{20, 40, 50} {
		exact := uCritical(n, n, 0.025)
		mu := float64(n*n) / 2
		sigma := math.Sqrt(float64(n*n*(2*n+1)) / 12)
		approx := int(math.Floor(mu - 1.959964*sigma - 0.5))
		if d := exact - approx; d < -1 || d > 1 {
			t.Errorf("n=%d: exact k %d, normal approximation %d", n, exact, approx)
		}
	}
}
