package stats

import (
	"math"
	"testing"
)

// The quantiles Summarize asks for, against published t-table values (an
// independent source): 0.9995 for wirebench's 99.9 % intervals, and 0.975 and
// 0.995 for 95 % and 99 % ones.
func TestTQuantile(t *testing.T) {
	tests := []struct {
		p, df, want float64
	}{
		// The quantile JMH uses for a 99.9 % interval over 10 iterations (t-table, df=9).
		{0.9995, 9, 4.78091258593114},
		// df=1 is the Cauchy distribution: t = tan(π(p-½)) = tan(0.475π).
		{0.975, 1, 12.7062047361747},
		// Cauchy again, far in the tail: tan(0.4995π) = 636.619...
		{0.9995, 1, 636.61924876872},
		// df=2 has the closed form t = (2p-1)/√(2p(1-p)) = 0.95/√0.04875.
		{0.975, 2, 0.95 / math.Sqrt(0.04875)},
		// The textbook 95 % two-sided value for df=10.
		{0.975, 10, 2.22813885198627},
		// The textbook 99 % two-sided value for df=30.
		{0.995, 30, 2.74999565356723},
		// 99.9 % over 5 iterations (df=4); also the closed form for df=4.
		{0.9995, 4, 8.61030158137928},
		// 99.9 % over 30 iterations (3 forks × 10 iterations → df=29).
		{0.9995, 29, 3.65940501946633},
		// 99.9 % over 100 iterations.
		{0.9995, 99, 3.39152883336365},
		// Large df approaches the normal 1.959964 plus (z³+z)/(4df) ≈ 2.4e-6.
		{0.975, 1e6, 1.95996635681411},
		// df=1e4 near the normal 99.9 % value 3.2905.
		{0.9995, 1e4, 3.2914999659416},
	}
	for _, tt := range tests {
		got := tQuantile(tt.p, tt.df)
		if !close(got, tt.want, 1e-10) {
			t.Errorf("tQuantile(%v, %v) = %.15g, want %.15g (rel err %.2g)",
				tt.p, tt.df, got, tt.want, relErr(got, tt.want))
		}
	}
}

func TestTQuantileInvalid(t *testing.T) {
	tests := []struct{ p, df float64 }{
		{0, 5},          // p must be strictly inside (0, 1)
		{1, 5},          // the 1-quantile is +∞, not a number we return
		{-0.1, 5},       // negative probability (distuv would panic)
		{1.5, 5},        // above 1 (distuv would panic)
		{math.NaN(), 5}, // NaN in, NaN out
	}
	for _, tt := range tests {
		if got := tQuantile(tt.p, tt.df); !math.IsNaN(got) {
			t.Errorf("tQuantile(%v, %v) = %v, want NaN", tt.p, tt.df, got)
		}
	}
}

func close(got, want, rel float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= rel*math.Max(1, math.Abs(want))
}

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}
