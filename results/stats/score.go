package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Score summarises the scores of measured slices (JMH's iterations) the way JMH reports
// them: Mean ± Error, where Error is the half-width of the two-sided confidence
// interval at level Conf from Student's t with N-1 degrees of freedom.
type Score struct {
	Mean float64
	// Error is the half-width of the confidence interval; NaN when N < 2, for
	// which JMH prints no error at all.
	Error float64
	// Conf is the confidence level Error was computed at, e.g. 0.999.
	Conf float64
	// StdDev is the sample standard deviation (n-1 denominator); NaN when N < 2.
	StdDev float64
	Min    float64
	Max    float64
	N      int
}

// Summarize computes the Score of xs at confidence level conf (0 < conf < 1;
// wirebench uses 0.999 as JMH does). Error = t(1-(1-conf)/2, N-1) · StdDev/√N.
// With no samples every field but Conf is NaN and N is 0.
func Summarize(xs []float64, conf float64) Score {
	s := Score{Conf: conf, N: len(xs), Error: math.NaN(), StdDev: math.NaN()}
	if len(xs) == 0 {
		s.Mean, s.Min, s.Max = math.NaN(), math.NaN(), math.NaN()
		return s
	}
	s.Min, s.Max = xs[0], xs[0]
	var sum float64
	for _, x := range xs {
		sum += x
		s.Min = math.Min(s.Min, x)
		s.Max = math.Max(s.Max, x)
	}
	n := float64(len(xs))
	s.Mean = sum / n
	if len(xs) < 2 {
		return s
	}
	// Two passes (deviations from the mean) rather than sum of squares, which
	// cancels badly when scores are large and close, as throughputs are.
	var ss float64
	for _, x := range xs {
		d := x - s.Mean
		ss += d * d
	}
	s.StdDev = math.Sqrt(ss / (n - 1))
	s.Error = tQuantile(1-(1-conf)/2, n-1) * s.StdDev / math.Sqrt(n)
	return s
}

// tQuantile returns the p-quantile of Student's t with df degrees of freedom,
// and NaN outside 0 < p < 1 where distuv panics: a bad confidence level gives
// no interval rather than a crash.
//
// gonum v0.17.0's quantile is trusted because it agrees with an independent
// bisection on the t distribution's CDF for the quantiles wirebench asks for
// (0.9995 for its 99.9 % intervals, 0.975 and 0.995): to 1e-11 relative for every
// integer df up to 20000 and to 3e-10 up to df = 1e6. Its known weakness, a wrong answer far in the
// tail (-81.65 for p = 1e-9, df = 1e5, where the quantile is about -6), is at a
// p wirebench never uses.
func tQuantile(p, df float64) float64 {
	if !(p > 0 && p < 1) {
		return math.NaN()
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}
