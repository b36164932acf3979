package stats

import "math"

// Ratio is a paired ratio of two series measured in rounds (target over baseline),
// with its confidence interval.
type Ratio struct {
	// Mean is the geometric mean of the per-round ratios; Low and High bound its
	// two-sided confidence interval at level Conf. NaN with fewer than two rounds
	// (no interval) or none at all.
	Mean, Low, High float64
	Conf            float64
	// N is the number of rounds paired.
	N int
	// Autocorr is the lag-1 autocorrelation of the log ratios (0 when not
	// estimable); a positive one widened the interval.
	Autocorr float64
}

// PairedRatio estimates target/baseline from samples paired by round: target[i] and
// baseline[i] were measured close in time, in round i. Both slices have the same
// length; pairs with a sample ≤ 0 (a slice with no successful op) are skipped.
//
// The estimator: the per-round ratios are averaged on a log scale, with a Student t
// interval at level conf (0.999 in wirebench, as JMH's scores), transformed back. A
// throughput ratio is multiplicative noise (a slice on a slow moment slows the
// numerator and the denominator alike but not exactly), so logs make it symmetric
// and the back-transformed interval is the interval of the ratio of geometric means,
// which the ratio of the targets' scores estimates. When consecutive rounds are
// positively correlated (the machine drifts over several rounds faster than the
// pairing cancels), the rounds carry less information than their number says: the
// standard error is multiplied by √((1+ρ)/(1−ρ)), the variance inflation of an AR(1)
// series with lag-1 autocorrelation ρ, so that the interval still covers what a re-run
// gives.
func PairedRatio(target, baseline []float64, conf float64) Ratio {
	return logRatio(pairedLogs(target, baseline), conf)
}

// pairedLogs are the log ratios of the pairs of target and baseline with both
// samples > 0.
func pairedLogs(target, baseline []float64) []float64 {
	var logs []float64
	for i := range min(len(target), len(baseline)) {
		if target[i] > 0 && baseline[i] > 0 {
			logs = append(logs, math.Log(target[i]/baseline[i]))
		}
	}
	return logs
}

// logRatio is PairedRatio's estimate from the log ratios of its pairs.
func logRatio(logs []float64, conf float64) Ratio {
	r := Ratio{Conf: conf, N: len(logs), Mean: math.NaN(), Low: math.NaN(), High: math.NaN()}
	if len(logs) == 0 {
		return r
	}
	s := Summarize(logs, conf)
	r.Mean = math.Exp(s.Mean)
	if len(logs) < 2 {
		return r
	}
	half := s.Error
	if rho := lag1(logs, s.Mean); len(logs) >= 10 {
		r.Autocorr = rho
		if rho > 0 {
			half *= math.Sqrt((1 + rho) / (1 - min(rho, 0.9)))
		}
	}
	r.Low, r.High = math.Exp(s.Mean-half), math.Exp(s.Mean+half)
	return r
}

// lag1 is the lag-1 autocorrelation of xs about mean.
func lag1(xs []float64, mean float64) float64 {
	var num, den float64
	for i, x := range xs {
		d := x - mean
		den += d * d
		if i > 0 {
			num += d * (xs[i-1] - mean)
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}
