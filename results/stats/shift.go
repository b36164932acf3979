package stats

import (
	"math"
	"slices"

	ms "github.com/aclements/go-moremath/stats"
)

// Shift is how far one sample lies above another, with its confidence interval.
type Shift struct {
	// Estimate is the Hodges-Lehmann estimate: the median of every difference y−x.
	Estimate float64
	// Low and High bound the interval at level Conf; −Inf and +Inf when the samples
	// are too small for any interval at that level.
	Low, High float64
	Conf      float64
}

// Contains reports whether v lies in the interval.
func (s Shift) Contains(v float64) bool { return s.Low <= v && v <= s.High }

// ShiftOf estimates the shift of y over x without assuming a distribution: the
// Hodges-Lehmann estimator and Moses's interval, the interval that goes with the
// Mann-Whitney U test (the test benchstat and compare use): it excludes 0 exactly
// when the exact two-sided U test at level 1−conf rejects "no shift". Of the m·n
// differences y_j − x_i sorted, the interval runs from the (k+1)-th smallest to the
// (k+1)-th largest, k the largest count with P(U ≤ k) ≤ (1−conf)/2 under the null
// (moremath's exact U distribution). NaN with an empty sample.
//
// Applied to logarithms it gives a ratio and its interval: exp of the shift of
// log(new) over log(old) estimates new/old.
func ShiftOf(x, y []float64, conf float64) Shift {
	s := Shift{Estimate: math.NaN(), Low: math.NaN(), High: math.NaN(), Conf: conf}
	m, n := len(x), len(y)
	if m == 0 || n == 0 {
		return s
	}
	d := make([]float64, 0, m*n)
	for _, xi := range x {
		for _, yj := range y {
			d = append(d, yj-xi)
		}
	}
	slices.Sort(d)
	s.Estimate = median(d)
	k := uCritical(m, n, (1-conf)/2)
	if k < 0 {
		s.Low, s.High = math.Inf(-1), math.Inf(1)
		return s
	}
	s.Low, s.High = d[k], d[len(d)-1-k]
	return s
}

// uCritical is the largest k with P(U ≤ k) ≤ tail for the U statistic of samples
// of m and n with no ties, or −1 when even P(U ≤ 0) exceeds tail. The exact
// distribution is used up to 50 a side and the normal approximation beyond, where
// the two agree to well under the step of one count.
func uCritical(m, n int, tail float64) int {
	if !(tail > 0) {
		return -1
	}
	cdf := func(k int) float64 { return ms.UDist{N1: m, N2: n}.CDF(float64(k)) }
	if m > 50 || n > 50 {
		mu := float64(m*n) / 2
		sigma := math.Sqrt(float64(m*n*(m+n+1)) / 12)
		cdf = func(k int) float64 { return ms.NormalDist{Mu: mu, Sigma: sigma}.CDF(float64(k) + 0.5) }
	}
	// P(U ≤ k) grows with k: bisect for the last k within tail.
	lo, hi := -1, m*n/2
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if cdf(mid) <= tail*(1+1e-9) { // (1−0.9)/2 is a hair under 0.05 in floating point
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
