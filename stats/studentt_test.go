package stats

import (
	"math"
	"testing"
)

func TestStudentTQuantile(t *testing.T) {
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
		// 99.9 % over 30 iterations (3 trials × 10 iterations → df=29).
		{0.9995, 29, 3.65940501946633},
		// 99.9 % over 100 iterations.
		{0.9995, 99, 3.39152883336365},
		// Large df approaches the normal 1.959964 plus (z³+z)/(4df) ≈ 2.4e-6.
		{0.975, 1e6, 1.95996635681411},
		// df=1e4 near the normal 99.9 % value 3.2905.
		{0.9995, 1e4, 3.2914999659416},
		// Infinite df is the standard normal: Φ⁻¹(0.975) = 1.959963985.
		{0.975, math.Inf(1), 1.95996398454005},
		// Non-integer df are valid (the t distribution is defined for real df).
		{0.999, 2.5, 13.822193110866},
		// Near the centre: small positive value (p=0.6, df=7).
		{0.6, 7, 0.263166861352023},
		// Far tail at small df: 1e-6 upper tail, df=5.
		{0.999999, 5, 24.7710297205159},
		// A one-sided 90 % value for df=3.
		{0.9, 3, 1.63774435369621},
		// The median of a symmetric distribution is 0.
		{0.5, 7, 0},
		// Symmetry: the lower quantile is the negated upper one.
		{0.0005, 9, -4.78091258593114},
		// Symmetry for Cauchy: tan(-0.475π).
		{0.025, 1, -12.7062047361747},
	}
	for _, tt := range tests {
		got := StudentTQuantile(tt.p, tt.df)
		if !close(got, tt.want, 1e-10) {
			t.Errorf("StudentTQuantile(%v, %v) = %.15g, want %.15g (rel err %.2g)",
				tt.p, tt.df, got, tt.want, relErr(got, tt.want))
		}
	}
}

func TestStudentTQuantileClosedForms(t *testing.T) {
	// df=1 (Cauchy) and df=2 have closed-form quantiles, so sweep p across
	// the whole range and compare against them.
	for i := 1; i < 1000; i++ {
		p := float64(i) / 1000
		cauchy := math.Tan(math.Pi * (p - 0.5))
		if got := StudentTQuantile(p, 1); !close(got, cauchy, 1e-10) {
			t.Errorf("df=1 p=%v: got %.15g, want %.15g", p, got, cauchy)
		}
		two := (2*p - 1) / math.Sqrt(2*p*(1-p))
		if got := StudentTQuantile(p, 2); !close(got, two, 1e-10) {
			t.Errorf("df=2 p=%v: got %.15g, want %.15g", p, got, two)
		}
	}
}

func TestStudentTQuantileRoundTrip(t *testing.T) {
	// The CDF at the quantile must give back p, for every df wirebench can
	// meet (1 up to many trials × iterations).
	for _, df := range []float64{1, 2, 3, 4, 9, 29, 99, 999, 1e5} {
		for _, p := range []float64{1e-9, 0.001, 0.025, 0.3, 0.5, 0.7, 0.975, 0.9995, 1 - 1e-9} {
			q := StudentTQuantile(p, df)
			// Relative to the smaller tail, so 1e-9 is checked to 9 digits too.
			tol := 1e-9*math.Min(p, 1-p) + 1e-15
			if got := StudentTCDF(q, df); math.Abs(got-p) > tol {
				t.Errorf("CDF(Quantile(%v, df=%v)=%v) = %.15g", p, df, q, got)
			}
		}
	}
}

func TestStudentTQuantileInvalid(t *testing.T) {
	tests := []struct{ p, df float64 }{
		{0, 5},            // p must be strictly inside (0, 1)
		{1, 5},            // the 1-quantile is +∞, not a number we return
		{-0.1, 5},         // negative probability
		{0.5, 0.5},        // df < 1 is outside the documented domain
		{math.NaN(), 5},   // NaN in, NaN out
		{0.9, math.NaN()}, // NaN df
	}
	for _, tt := range tests {
		if got := StudentTQuantile(tt.p, tt.df); !math.IsNaN(got) {
			t.Errorf("StudentTQuantile(%v, %v) = %v, want NaN", tt.p, tt.df, got)
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

func BenchmarkStudentTQuantile(b *testing.B) {
	for b.Loop() {
		StudentTQuantile(0.9995, 29)
	}
}
