package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDetectDrift(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	noisy := func(n int, level func(i int) float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = level(i) * math.Exp(0.08*r.NormFloat64())
		}
		return xs
	}
	tests := []struct {
		name          string
		xs            []float64
		trend, levels bool
	}{
		// A steady machine with 8 % noise per sample: nothing to say.
		{"steady", noisy(200, func(int) float64 { return 20000 }), false, false},
		// The two levels the issue saw (12–15k and 24–25k ops/s), in phases of 20 samples.
		{"two levels", noisy(200, func(i int) float64 {
			if (i/20)%2 == 0 {
				return 13500
			}
			return 24500
		}), false, true},
		// 30 % faster by the end, evenly.
		{"trend", noisy(200, func(i int) float64 { return 20000 * (1 + 0.3*float64(i)/199) }), true, false},
		// A 5 % trend is within a shared machine's wobble: not reported.
		{"small trend", noisy(200, func(i int) float64 { return 20000 * (1 + 0.05*float64(i)/199) }), false, false},
		// One outlier is no level.
		{"one outlier", append(noisy(100, func(int) float64 { return 20000 }), 5000), false, false},
		// Too few samples to say anything.
		{"short", []float64{1, 100, 1, 100}, false, false},
	}
	for _, tt := range tests {
		d := DetectDrift(tt.xs)
		if d.Trending != tt.trend || d.TwoLevels != tt.levels {
			t.Errorf("%s: trending %v (%.3f), two levels %v (%.0f/%.0f); want %v, %v", tt.name, d.Trending, d.Trend,
				d.TwoLevels, d.Low, d.High, tt.trend, tt.levels)
		}
	}
	if d := DetectDrift(tests[2].xs); math.Abs(d.Trend-0.3) > 0.05 {
		t.Errorf("trend of a 30 %% rise: %.3f", d.Trend)
	}
}
