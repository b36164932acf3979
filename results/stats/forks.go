package stats

import "math"

// ForkedRatio is a paired ratio measured in rounds nested in forks (fresh processes),
// with the variance of its log split into its two levels.
type ForkedRatio struct {
	Ratio
	// Forks is the number of forks that gave at least one pair.
	Forks int
	// Within is the variance of one round's log ratio about its fork's mean (pooled
	// over the forks), and Between the variance of the fork means beyond what their
	// rounds explain (Between = Var(fork means) − Within/n, at least 0): what a whole
	// process brings for its life (memory layout, heap, a JIT's choices, where its
	// connections landed) and what the machine does for a fork's length. NaN when
	// not estimable (Between needs two forks, Within two rounds in a fork).
	Within, Between float64
	// DF is the degrees of freedom of the interval: forks − 1 with two forks or more,
	// rounds − 1 with one.
	DF float64
}

// PairedRatioForks estimates target/baseline from samples paired by round within
// forks: target[f][i] and baseline[f][i] were measured in round i of fork f. Pairs
// with a sample ≤ 0 are skipped, and so are forks left without a pair.
//
// With one fork it is PairedRatio: the interval then holds only what varies from
// round to round, and the Between component is unknown (NaN).
//
// With two forks or more the estimate is the mean of the forks' mean log ratios,
// each fork weighing the same, and its interval is Student's t with forks − 1
// degrees of freedom on the standard error of the fork means (the classical
// estimator of a two-level nested design, as Kalibera and Jones use for executions
// × iterations): the fork means vary by Between + Within/n, so a process effect
// that lasts a fork's whole life is inside the interval, which more rounds could
// never put there. The standard error is never taken below √(Within/rounds), what
// the rounds alone say, so that forks agreeing by chance cannot make the interval
// narrower than its rounds allow: the interval is at least the one-level interval of
// the rounds pooled within their forks.
func PairedRatioForks(target, baseline [][]float64, conf float64) ForkedRatio {
	var forks [][]float64
	total := 0
	for f := range min(len(target), len(baseline)) {
		if logs := pairedLogs(target[f], baseline[f]); len(logs) > 0 {
			forks = append(forks, logs)
			total += len(logs)
		}
	}
	nan := math.NaN()
	out := ForkedRatio{Ratio: Ratio{Conf: conf, N: total, Mean: nan, Low: nan, High: nan},
		Forks: len(forks), Within: nan, Between: nan, DF: nan}
	switch len(forks) {
	case 0:
		return out
	case 1:
		out.Ratio = logRatio(forks[0], conf)
		if total >= 2 {
			out.Within = Summarize(forks[0], conf).StdDev
			out.Within *= out.Within
			out.DF = float64(total - 1)
		}
		return out
	}
	means := make([]float64, len(forks))
	var ssWithin, dfWithin, invN float64
	for f, logs := range forks {
		s := Summarize(logs, conf)
		means[f] = s.Mean
		invN += 1 / float64(len(logs))
		if len(logs) >= 2 {
			ssWithin += s.StdDev * s.StdDev * float64(len(logs)-1)
			dfWithin += float64(len(logs) - 1)
		}
	}
	m := Summarize(means, conf)
	F := float64(len(forks))
	varMeans := m.StdDev * m.StdDev
	out.DF = F - 1
	q := 1 - (1-conf)/2
	half := tQuantile(q, out.DF) * math.Sqrt(varMeans/F)
	if dfWithin > 0 {
		out.Within = ssWithin / dfWithin
		// The harmonic mean of the forks' round counts is the n for which
		// Within/n is the mean sampling variance of a fork mean.
		nh := F / invN
		out.Between = max(0, varMeans-out.Within/nh)
		half = max(half, tQuantile(q, dfWithin)*math.Sqrt(out.Within/float64(total)))
	}
	out.Mean = math.Exp(m.Mean)
	out.Low, out.High = math.Exp(m.Mean-half), math.Exp(m.Mean+half)
	return out
}
