package stats

import (
	"math"
	"sort"
)

// Drift thresholds: a change smaller than these is within what a shared machine does
// from second to second, and is no news.
const (
	// MinTrend is the smallest fitted change over a run (as a fraction of its start)
	// reported as a trend.
	MinTrend = 0.10
	// MinLevelGap is the smallest difference between two levels (as a fraction of the
	// lower) reported as two levels, and MinLevelSeparation the smallest distance
	// between their means in pooled standard deviations.
	MinLevelGap        = 0.15
	MinLevelSeparation = 4.0
	// MinLevelShare is the smallest share of the samples the rarer level must hold.
	MinLevelShare = 0.10
)

// Drift says whether the speed of a machine changed under a run, from a series of
// speeds (e.g. throughputs per round, in time order).
type Drift struct {
	// Trend is the fitted change over the series, end over start minus one, of a
	// least-squares line through the logs (0.2: the end is 20 % faster). Trending is
	// set when |Trend| ≥ MinTrend and the slope's 99.9 % t interval excludes zero.
	Trend    float64
	Trending bool
	// Low and High are the means of the two levels of the best split of the series
	// (two-means on logs); TwoLevels is set when they differ by at least MinLevelGap,
	// are MinLevelSeparation pooled standard deviations apart, and the rarer level
	// holds at least MinLevelShare of the samples (and 3 of them).
	Low, High float64
	TwoLevels bool
}

// DetectDrift looks for a trend or two levels in xs (values ≤ 0 are skipped). Fewer
// than 10 samples say nothing.
func DetectDrift(xs []float64) Drift {
	ts, ls := logSeries(xs)
	var d Drift
	if len(ls) < 10 {
		return d
	}
	d.Trend, d.Trending = trend(ts, ls)
	d.Low, d.High, d.TwoLevels = levels(ls)
	return d
}

// trend fits ls = a + b·ts by least squares and returns the change over the span
// and whether it is significant and large.
func trend(ts, ls []float64) (float64, bool) {
	change, significant := fitTrend(ts, ls)
	return change, significant && math.Abs(change) >= MinTrend
}

// fitTrend fits ls = a + b·ts by least squares and returns the change over the span,
// exp(b·(last − first)) − 1, and whether the slope's 99.9 % t interval excludes zero.
// It needs three points at least (0, false with fewer).
func fitTrend(ts, ls []float64) (float64, bool) {
	if len(ts) < 3 {
		return 0, false
	}
	n := float64(len(ts))
	var mt, ml float64
	for i := range ts {
		mt += ts[i]
		ml += ls[i]
	}
	mt, ml = mt/n, ml/n
	var stt, stl float64
	for i := range ts {
		stt += (ts[i] - mt) * (ts[i] - mt)
		stl += (ts[i] - mt) * (ls[i] - ml)
	}
	if stt == 0 {
		return 0, false
	}
	b := stl / stt
	var sse float64
	for i := range ts {
		r := ls[i] - (ml + b*(ts[i]-mt))
		sse += r * r
	}
	se := math.Sqrt(sse / (n - 2) / stt)
	change := math.Exp(b*(ts[len(ts)-1]-ts[0])) - 1
	return change, math.Abs(b) > tQuantile(0.9995, n-2)*se
}

// levels splits ls (logs) in two at the cut that minimises the within-level sum of
// squares (the exact two-means of a sorted line).
func levels(ls []float64) (low, high float64, two bool) {
	s := append([]float64(nil), ls...)
	sort.Float64s(s)
	n := len(s)
	prefix := make([]float64, n+1)
	prefix2 := make([]float64, n+1)
	for i, x := range s {
		prefix[i+1] = prefix[i] + x
		prefix2[i+1] = prefix2[i] + x*x
	}
	ss := func(a, b int) float64 { // within sum of squares of s[a:b]
		m := float64(b - a)
		sum := prefix[b] - prefix[a]
		return prefix2[b] - prefix2[a] - sum*sum/m
	}
	best, cut := math.Inf(1), 0
	for k := 1; k < n; k++ {
		if w := ss(0, k) + ss(k, n); w < best {
			best, cut = w, k
		}
	}
	m1 := (prefix[cut] - prefix[0]) / float64(cut)
	m2 := (prefix[n] - prefix[cut]) / float64(n-cut)
	low, high = math.Exp(m1), math.Exp(m2)
	pooled := math.Sqrt(max(best, 0) / float64(n-2))
	rare := min(cut, n-cut)
	two = high/low-1 >= MinLevelGap && rare >= 3 && float64(rare) >= MinLevelShare*float64(n) &&
		(pooled == 0 || (m2-m1)/pooled >= MinLevelSeparation)
	return low, high, two
}

// MinMovementSamples is the fewest samples Movement fits a trend to.
const MinMovementSamples = 3

// Movement is how far a speed series moved, as a figure that is always given (where
// Drift only says whether a move was news): the fitted trend whatever its size, with
// whether it is more than noise, and the gap between two levels when DetectDrift finds
// them.
type Movement struct {
	// N is the number of samples (values ≤ 0 skipped).
	N int
	// Trend is the change over the series of a least-squares line through the logs,
	// end over start minus one (−0.1: 10 % slower at the end); 0 with fewer than
	// MinMovementSamples. Significant: the slope's 99.9 % t interval excludes zero.
	Trend       float64
	Significant bool
	// Levels is the gap between two levels, the higher over the lower minus one, when
	// DetectDrift finds two (its TwoLevels); 0 otherwise.
	Levels float64
}

// Moved is the movement as one figure: the larger of the trend's size, when it is
// significant, and the gap between two levels.
func (m Movement) Moved() float64 {
	moved := m.Levels
	if m.Significant {
		moved = max(moved, math.Abs(m.Trend))
	}
	return moved
}

// MeasureMovement is xs's Movement (xs in time order; values ≤ 0 are skipped).
func MeasureMovement(xs []float64) Movement {
	ts, ls := logSeries(xs)
	m := Movement{N: len(ls)}
	m.Trend, m.Significant = fitTrend(ts, ls)
	if d := DetectDrift(xs); d.TwoLevels {
		m.Levels = d.High/d.Low - 1
	}
	return m
}

// logSeries is xs's positive values as logs (ls) with their places (ts); the others
// are skipped.
func logSeries(xs []float64) (ts, ls []float64) {
	for i, x := range xs {
		if x > 0 {
			ts = append(ts, float64(i))
			ls = append(ls, math.Log(x))
		}
	}
	return ts, ls
}

// MeasureMovementForks is the Movement of a speed series measured in forks: forks[k]
// are fork k's values in time order, the forks in the order they ran. Each fork starts
// fresh processes, whose speed differs from the others' by what a fresh process brings
// (placement, memory): that spread is inside the ratios' intervals already (their
// unit is the fork), and fitting one line through every round would read it as the
// machine moving. So with three forks or more the trend is fitted to the forks' means,
// each at its mean place in time, with forks − 2 degrees of freedom; with fewer forks,
// within them: each fork's values less its own mean, on one common slope (n − forks − 1
// degrees of freedom). Two levels are looked for within the forks only (each fork's
// values less its own mean, DetectDrift's rule): on one fork's processes, two levels are
// the machine's, where fork means at two levels are two kinds of fresh process. The
// trend is the fitted change over the whole run, from its first value's place to its
// last's. With one fork it is MeasureMovement's figure.
func MeasureMovementForks(forks [][]float64) Movement {
	var mt, ml, wt, wl []float64
	pos, n, nf := 0.0, 0, 0
	first, last := math.Inf(1), math.Inf(-1)
	for _, xs := range forks {
		ts, ls := logSeries(xs)
		for i := range ts {
			ts[i] += pos
		}
		pos += float64(len(xs))
		if len(ls) == 0 {
			continue
		}
		nf++
		n += len(ls)
		first, last = min(first, ts[0]), max(last, ts[len(ts)-1])
		t0, l0 := mean(ts), mean(ls)
		mt, ml = append(mt, t0), append(ml, l0)
		for i := range ts {
			wt, wl = append(wt, ts[i]-t0), append(wl, ls[i]-l0)
		}
	}
	m := Movement{N: n}
	if n < MinMovementSamples {
		return m
	}
	var b, se, df float64
	if nf >= 3 {
		b, se, df = slope(mt, ml, 2)
	} else {
		b, se, df = slope(wt, wl, 1+float64(nf))
	}
	if df >= 1 {
		m.Trend = math.Exp(b*(last-first)) - 1
		m.Significant = math.Abs(b) > tQuantile(0.9995, df)*se
	}
	exps := make([]float64, len(wl))
	for i, l := range wl {
		exps[i] = math.Exp(l)
	}
	if d := DetectDrift(exps); d.TwoLevels {
		m.Levels = d.High/d.Low - 1
	}
	return m
}

// slope fits ls = a + b·ts by least squares and returns b, its standard error and
// its degrees of freedom, len − lost (lost: the parameters fitted, 2 for a line, 1 +
// forks for a common slope through each fork's own mean).
func slope(ts, ls []float64, lost float64) (b, se, df float64) {
	mt, ml := mean(ts), mean(ls)
	var stt, stl float64
	for i := range ts {
		stt += (ts[i] - mt) * (ts[i] - mt)
		stl += (ts[i] - mt) * (ls[i] - ml)
	}
	df = float64(len(ts)) - lost
	if stt == 0 || df < 1 {
		return 0, 0, 0
	}
	b = stl / stt
	var sse float64
	for i := range ts {
		r := ls[i] - (ml + b*(ts[i]-mt))
		sse += r * r
	}
	return b, math.Sqrt(sse / df / stt), df
}
