package stats

import (
	"math"
	"slices"
)

// SteadyClass is how a target's series of slice scores settled within one fork, in
// the four classes of Barrett et al., "Virtual Machine Warmup Blows Hot and Cold"
// (OOPSLA 2017).
type SteadyClass string

const (
	// Flat: no change of level (or only changes smaller than EquivalentChange).
	Flat SteadyClass = "flat"
	// WarmedUp: the last segment is steady and no earlier segment was better.
	WarmedUp SteadyClass = "warmed up"
	// Slowdown: the last segment is steady but some earlier segment was better.
	Slowdown SteadyClass = "slowdown"
	// NoSteadyState: the level still changed near the end, or still drifts there.
	NoSteadyState SteadyClass = "no steady state"
)

// Steady-state thresholds.
const (
	// MinSteadyValues is the fewest usable values (> 0) ClassifySteady classifies;
	// with fewer it says Flat with TooFew set.
	MinSteadyValues = 10
	// MinSteadyShare and MinSteadySlices: the last segment must hold at least this
	// share of the usable values and this many of them to be a steady state; a change
	// point later than that means the series never settled (Barrett et al. asked for
	// no change in the last 500 of 2000 in-process iterations, the same quarter).
	MinSteadyShare  = 0.25
	MinSteadySlices = 5
	// EquivalentChange: two segments whose levels differ by less than this fraction
	// are the same level (Barrett et al.'s "equivalent" segments), so a series that
	// moves and comes back by less is flat.
	EquivalentChange = 0.02
	// SteadyPenaltyBase and SteadyPenalty make the change-point penalty
	// (SteadyPenaltyBase + SteadyPenalty·ln n)·σ̂², n the number of values and σ̂ the
	// noise of a slice's log: BIC-like in its growth with n, plus a constant for what
	// BIC leaves out at these lengths (σ̂ is itself estimated, from few values when n
	// is small, and the best of n split points is a multiple test). They were set by
	// simulation (1000 seeds a length) so that noise is classified Flat in 99 % of
	// series of 20 to 1000 values (98.9–100 %), log-normal or with the log's noise
	// Student's t with 3 degrees of freedom (97–98 % at 10 values, 98–99 % at 15). At
	// n = 200 the penalty is 19σ̂², so a step in the middle is found once it exceeds
	// about 4.4 standard errors of the difference of the halves' means: a +15 % step
	// under 20 % noise (4.9 of them) is found in about 75 % of series (and taken for
	// a drift in 3 %), at a quarter of the way in about 60 %, and a +3 % step never.
	SteadyPenaltyBase = 11.0
	SteadyPenalty     = 1.5
	// MinSteadySegment is the fewest values in a segment, so that one outlier
	// (already clipped, see ClassifySteady) cannot become a level of its own.
	MinSteadySegment = 3
)

// Steady is the classification of one series of slice scores.
type Steady struct {
	Class SteadyClass
	// Start is the index in xs of the first slice of the steady state: 0 when Flat,
	// len(xs) when NoSteadyState.
	Start int
	// Change is the steady level over the first segment's level, minus one, in the
	// better direction: +0.8 means 80 % better once steady (for a latency, the first
	// segment's over the steady one's, minus one). 0 when Flat or NoSteadyState.
	Change float64
	// ChangePoints are the indices in xs where segments start (0 excluded), after
	// equivalent neighbours were merged.
	ChangePoints []int
	// Noise is the estimated standard deviation of one slice's log (0.2 ≈ 20 %).
	Noise float64
	// TooFew is set when xs held fewer than MinSteadyValues usable values: the
	// class is then Flat because there is too little to tell.
	TooFew bool
}

// ClassifySteady classifies a target's slice scores xs in time order (a throughput
// when higherIsBetter, a latency otherwise). Values ≤ 0 (a slice with no successful
// op) are skipped, as are NaN and +Inf. It is a pure function.
//
// Method. The noise of a slice is multiplicative and large (15–25 % sd for a 50 ms
// slice, roughly log-normal, sometimes heavy-tailed), so the series is taken as logs,
// where it is additive and symmetric. The noise scale σ̂ comes from the first
// differences, which a change of level moves only once (see diffNoise). Each log is
// clipped to within 3σ̂ of the median of the 7 values around it (itself included),
// which bounds what one heavy-tailed slice can weigh while keeping steps (a running
// median follows a step). Change points are then found by PELT (Killick et al. 2012, what Barrett et
// al. used) with the Gaussian cost of a change in mean, Σ(log − segment mean)²/σ̂²,
// and the penalty above per change point. PELT rather than binary segmentation
// because PELT finds the exact optimum of the penalised cost, and a warm-up
// staircase (several steps close together) is where binary segmentation's greedy
// first split goes wrong; at a few thousand slices it costs nothing. Adjacent
// segments whose levels differ by less than EquivalentChange are then merged.
//
// Classes. NoSteadyState when the last segment is shorter than MinSteadyShare of
// the values or MinSteadySlices, or when a straight line from one of the change
// points (or from the start) to the end explains the series at least as well as
// the segments do, its slope costing one more penalty (driftFits): PELT cuts a
// steady drift into a staircase, and this is how a series still rising at the end
// is told from one that rose and stopped. Otherwise Flat when there is no change
// point, Slowdown when some earlier segment was better than the last by more than
// EquivalentChange, else WarmedUp.
//
// Start is where PELT puts the last change: for a step, within a slice or two; for
// a gradual warm-up, where the level comes within about the noise of a handful of
// slices of the plateau, which can be well before the ramp's end (a ramp of +100 %
// over 60 slices under 20 % noise is cut around slice 40).
func ClassifySteady(xs []float64, higherIsBetter bool) Steady {
	var idx []int // idx[i]: the index in xs of the i-th usable value
	var ls []float64
	for i, x := range xs {
		if x > 0 && !math.IsInf(x, 1) {
			idx = append(idx, i)
			ls = append(ls, math.Log(x))
		}
	}
	if len(ls) < MinSteadyValues {
		return Steady{Class: Flat, TooFew: true}
	}
	n := len(ls)
	sigma := diffNoise(ls)
	ls = clipToRunningMedian(ls, 3*sigma, 3)
	penalty := SteadyPenaltyBase + SteadyPenalty*math.Log(float64(n))
	cuts := mergeEquivalent(ls, pelt(ls, penalty, sigma))

	s := Steady{Class: Flat, Noise: sigma}
	for _, c := range cuts {
		s.ChangePoints = append(s.ChangePoints, idx[c])
	}
	bounds := append(append([]int{0}, cuts...), n)
	last := bounds[len(bounds)-2]
	if float64(n-last) < MinSteadyShare*float64(n) || n-last < MinSteadySlices ||
		driftFits(ls, bounds, sigma, penalty) {
		s.Class, s.Start = NoSteadyState, len(xs)
		return s
	}
	if len(cuts) == 0 {
		return s
	}

	sign := 1.0
	if !higherIsBetter {
		sign = -1
	}
	means := make([]float64, len(bounds)-1) // in the better direction
	for i := range means {
		means[i] = sign * mean(ls[bounds[i]:bounds[i+1]])
	}
	tol := math.Log1p(EquivalentChange)
	steady := means[len(means)-1]
	s.Class = WarmedUp
	for _, m := range means[:len(means)-1] {
		if m-steady > tol {
			s.Class = Slowdown
		}
	}
	s.Start = idx[last]
	s.Change = math.Expm1(steady - means[0])
	return s
}

// diffNoise estimates the standard deviation of the noise about a piecewise-constant
// level in ls from the first differences, each of which holds two values' noise
// (hence /√2) and of which a change of level moves only one. A MAD alone (1.4826 ×
// the median absolute deviation) is robust but inefficient: from the 9 differences
// of 10 values its relative standard error is about 40 % (against 24 % for a root
// mean square), and a low σ̂ multiplies every segment's cost, which makes noise look
// like change points. So the differences are winsorized at 3 MADs and their root
// mean square taken, divided by E[min(Z², 9)] = 0.9950 for a standard normal Z; a
// step or an outlier still weighs at most one clipped difference. The result is
// floored at 0.001 (0.1 %), which no slice is measured better than, so that a
// noise-free series has a finite penalty.
func diffNoise(ls []float64) float64 {
	d := make([]float64, len(ls)-1)
	for i := range d {
		d[i] = ls[i+1] - ls[i]
	}
	m := median(d)
	dev := make([]float64, len(d))
	for i := range d {
		dev[i] = math.Abs(d[i] - m)
	}
	lim := 3 * 1.4826 * median(dev)
	var ss float64
	for _, x := range d {
		x = min(max(x-m, -lim), lim)
		ss += x * x
	}
	return max(math.Sqrt(ss/float64(len(d))/0.9950/2), 1e-3)
}

// clipToRunningMedian returns ls with each value clipped to within limit of the
// median of the values at most half away on either side.
func clipToRunningMedian(ls []float64, limit float64, half int) []float64 {
	out := make([]float64, len(ls))
	for i, l := range ls {
		m := median(ls[max(i-half, 0):min(i+half+1, len(ls))])
		out[i] = min(max(l, m-limit), m+limit)
	}
	return out
}

// median of xs (not modified); xs is not empty.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// pelt returns the change points (segment starts, 0 excluded) minimising
// Σ segments Σ(x − segment mean)²/sigma² + penalty·(number of change points), with
// every segment at least MinSteadySegment long, by PELT. The pruning is exact: once
// F(s) + C(s,t) > F(t), s cannot be the last change point of any t' ≥ t+MinSteadySegment
// (for those t itself is a feasible last change point and C(s,t') ≥ C(s,t)+C(t,t')),
// so s leaves the candidates MinSteadySegment steps later.
func pelt(ls []float64, penalty, sigma float64) []int {
	n := len(ls)
	sum := make([]float64, n+1)
	sum2 := make([]float64, n+1)
	m := mean(ls) // centred, so that the prefix sums of squares do not cancel
	for i, l := range ls {
		sum[i+1] = sum[i] + (l - m)
		sum2[i+1] = sum2[i] + (l-m)*(l-m)
	}
	cost := func(a, b int) float64 {
		s := sum[b] - sum[a]
		return max(sum2[b]-sum2[a]-s*s/float64(b-a), 0) / (sigma * sigma)
	}
	f := make([]float64, n+1) // f[t]: the best penalised cost of ls[:t]
	prev := make([]int, n+1)  // prev[t]: the last change point of that optimum
	for t := range f {
		f[t] = math.Inf(1)
	}
	f[0] = -penalty
	type candidate struct{ s, dropAt int }
	cands := []candidate{{0, n + 1}}
	for t := MinSteadySegment; t <= n; t++ {
		if t-MinSteadySegment >= MinSteadySegment { // t−MinSteadySegment can now end a first segment
			cands = append(cands, candidate{t - MinSteadySegment, n + 1})
		}
		kept := cands[:0]
		for _, c := range cands {
			if c.dropAt > t {
				kept = append(kept, c)
			}
		}
		cands = kept
		for _, c := range cands {
			if v := f[c.s] + cost(c.s, t) + penalty; v < f[t] {
				f[t], prev[t] = v, c.s
			}
		}
		for i, c := range cands {
			if f[c.s]+cost(c.s, t) > f[t] {
				cands[i].dropAt = min(c.dropAt, t+MinSteadySegment)
			}
		}
	}
	var cuts []int
	for t := prev[n]; t > 0; t = prev[t] {
		cuts = append(cuts, t)
	}
	slices.Reverse(cuts)
	return cuts
}

// mergeEquivalent removes change points between adjacent segments whose means differ
// by less than EquivalentChange, the closest pair first, until none is left.
func mergeEquivalent(ls []float64, cuts []int) []int {
	tol := math.Log1p(EquivalentChange)
	for {
		bounds := append(append([]int{0}, cuts...), len(ls))
		best, at := tol, -1
		for i := range cuts {
			d := math.Abs(mean(ls[bounds[i]:bounds[i+1]]) - mean(ls[bounds[i+1]:bounds[i+2]]))
			if d < best {
				best, at = d, i
			}
		}
		if at < 0 {
			return cuts
		}
		cuts = slices.Delete(slices.Clone(cuts), at, at+1)
	}
}

// driftFits says whether the series ls, cut at bounds (0, the change points, len(ls)),
// is explained at least as well by its first segments followed by one straight line
// to the end as by its segments. Both are scored as PELT scores a segmentation,
// squared residuals over sigma² plus penalty for each change point, and the line's
// slope costs one penalty more. A steady drift to the end is cut by PELT into a
// staircase, which a line then beats; a level that rose and stayed is not.
func driftFits(ls []float64, bounds []int, sigma, penalty float64) bool {
	sse := make([]float64, len(bounds)-1) // of each segment about its mean
	var total float64
	for i := range sse {
		sse[i] = meanSSE(ls[bounds[i]:bounds[i+1]])
		total += sse[i]
	}
	steps := total/(sigma*sigma) + penalty*float64(len(bounds)-2)
	var before float64 // the SSE of the segments before bounds[j]
	for j := range len(bounds) - 1 {
		line := (before+lineSSE(ls[bounds[j]:]))/(sigma*sigma) + penalty*float64(j+1)
		if line <= steps {
			return true
		}
		before += sse[j]
	}
	return false
}

// meanSSE is the sum of squared deviations of xs from their mean.
func meanSSE(xs []float64) float64 {
	m := mean(xs)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return ss
}

// lineSSE is the sum of squared residuals of the least-squares line through ls
// against its index.
func lineSSE(ls []float64) float64 {
	n := float64(len(ls))
	mt, ml := (n-1)/2, mean(ls)
	var stt, stl, sll float64
	for i, l := range ls {
		stt += (float64(i) - mt) * (float64(i) - mt)
		stl += (float64(i) - mt) * (l - ml)
		sll += (l - ml) * (l - ml)
	}
	if stt == 0 {
		return sll
	}
	return max(sll-stl*stl/stt, 0)
}
