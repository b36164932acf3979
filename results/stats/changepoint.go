package stats

import (
	"math"
	"sort"

	ms "github.com/aclements/go-moremath/stats"
)

// ChangePoint is a point where the level of a series changed: the series from
// Index on differs from the series before it.
type ChangePoint struct {
	// Index is the first point of the new level.
	Index int
	// Before and After are the means of the segments either side, between the
	// neighbouring change points (or the ends of the series).
	Before, After float64
	// P is the p-value of Welch's t-test of the two segments, multiplied by the
	// number of places the split could have been put (Bonferroni), at most 1.
	P float64
}

// Change is After over Before, minus one: +0.05 for a level 5 % higher.
func (c ChangePoint) Change() float64 {
	if c.Before == 0 {
		return math.NaN()
	}
	return c.After/c.Before - 1
}

// Default settings of DetectChanges.
const (
	// DefaultChangeAlpha is the level a change point must pass, Apache Otava's
	// default p-value.
	DefaultChangeAlpha = 0.001
	// DefaultMinSegment is the fewest points a level may have: fewer cannot be
	// told from an outlier.
	DefaultMinSegment = 3
)

// DetectChanges finds the change points of a series of scores in time order, by
// the method Apache Otava (formerly Hunter, MongoDB's E-Divisive means with a
// deterministic test) uses:
//
//   - the candidate split of a segment is where the energy statistic of E-Divisive
//     means (Matteson and James, 2014) is largest: the split that best separates the
//     two sides' distributions, not only their means;
//   - a candidate is accepted when Welch's t-test of the two sides gives p below
//     alpha, after multiplying p by the number of places the split could have been
//     put (Bonferroni), since the split chosen is the one that looks most like a
//     change. E-Divisive's own test is a permutation test, random and slow; the
//     t-test is deterministic and costs nothing, which a CI gate needs, and the
//     correction keeps the false alarms of a series of noise at most alpha;
//   - segments are split again until no candidate passes, then every change point
//     is tested anew between its neighbours and the weakest one that no longer
//     passes is dropped, until all pass.
//
// Points that are NaN or infinite must be left out by the caller. minSegment
// below 2 is taken as 2 (a t-test needs two points a side); alpha outside (0, 1)
// as DefaultChangeAlpha. The change points are returned in index order.
func DetectChanges(xs []float64, alpha float64, minSegment int) []ChangePoint {
	if !(alpha > 0 && alpha < 1) {
		alpha = DefaultChangeAlpha
	}
	minSegment = max(minSegment, 2)
	var cuts []int // accepted change points, sorted
	for {
		best, bestP := -1, 1.0
		bounds := append(append([]int{0}, cuts...), len(xs))
		for i := 0; i+1 < len(bounds); i++ {
			a, b := bounds[i], bounds[i+1]
			tau, ok := eDivisiveSplit(xs[a:b], minSegment)
			if !ok {
				continue
			}
			if p := splitP(xs[a:b], tau, minSegment); p < bestP {
				best, bestP = a+tau, p
			}
		}
		if best < 0 || bestP >= alpha {
			break
		}
		cuts = append(cuts, best)
		sort.Ints(cuts)
	}
	// Prune: a change point found early may not pass once later ones narrow its
	// neighbours' segments.
	for {
		points := changePoints(xs, cuts, minSegment)
		weakest := -1
		for i, c := range points {
			if c.P >= alpha && (weakest < 0 || c.P > points[weakest].P) {
				weakest = i
			}
		}
		if weakest < 0 {
			return points
		}
		cuts = append(cuts[:weakest], cuts[weakest+1:]...)
	}
}

// changePoints describes every cut between its neighbours.
func changePoints(xs []float64, cuts []int, minSegment int) []ChangePoint {
	out := make([]ChangePoint, 0, len(cuts))
	for i, c := range cuts {
		a, b := 0, len(xs)
		if i > 0 {
			a = cuts[i-1]
		}
		if i+1 < len(cuts) {
			b = cuts[i+1]
		}
		out = append(out, ChangePoint{Index: c, Before: mean(xs[a:c]), After: mean(xs[c:b]),
			P: splitP(xs[a:b], c-a, minSegment)})
	}
	return out
}

// splitP is the Bonferroni-corrected p-value of Welch's t-test of seg[:tau]
// against seg[tau:]: the test's p times the number of splits of seg that leave
// minSegment points a side.
func splitP(seg []float64, tau, minSegment int) float64 {
	candidates := len(seg) - 2*minSegment + 1
	if candidates < 1 {
		return 1
	}
	return math.Min(1, welchP(seg[:tau], seg[tau:])*float64(candidates))
}

// welchP is the two-sided p-value of Welch's t-test of x against y (moremath's, as
// benchstat uses). Two constant sides are different for certain when their values
// differ, and the same when they are equal.
func welchP(x, y []float64) float64 {
	r, err := ms.TwoSampleTTest(ms.Sample{Xs: x}, ms.Sample{Xs: y}, ms.LocationDiffers)
	if err != nil {
		if mean(x) != mean(y) && err == ms.ErrZeroVariance {
			return 0
		}
		return 1
	}
	if math.IsNaN(r.P) {
		return 1
	}
	return r.P
}

// eDivisiveSplit is the split tau of seg (seg[:tau] and seg[tau:], both at least
// minSegment long) that maximises E-Divisive's divergence with exponent 1:
//
//	Q(tau) = m·n/(m+n) · (2/(m·n) Σ|x−y| − 1/C(m,2) Σ|x−x'| − 1/C(n,2) Σ|y−y'|)
//
// for the m points x before tau and the n points y after it. The sums are kept
// up to date as tau moves, so the whole search costs O(len(seg)²).
func eDivisiveSplit(seg []float64, minSegment int) (int, bool) {
	n := len(seg)
	if n < 2*minSegment {
		return 0, false
	}
	// rowSum[i] is Σ_j |seg[i]−seg[j]|; total is the sum over pairs i<j.
	rowSum := make([]float64, n)
	var total float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := math.Abs(seg[i] - seg[j])
			rowSum[i] += d
			rowSum[j] += d
			total += d
		}
	}
	// left is the sum over pairs within seg[:tau], right within seg[tau:];
	// toLeft[i] is Σ_{j<tau} |seg[i]−seg[j]|, kept for the point that moves.
	var left float64
	right := total
	best, bestQ := 0, math.Inf(-1)
	for tau := 1; tau < n; tau++ {
		// Move seg[tau-1] from the right side to the left.
		k := tau - 1
		var toLeft float64
		for j := range k {
			toLeft += math.Abs(seg[k] - seg[j])
		}
		toRight := rowSum[k] - toLeft
		left += toLeft
		right -= toRight
		if tau < minSegment || n-tau < minSegment {
			continue
		}
		m, r := float64(tau), float64(n-tau)
		between := total - left - right
		q := 2 * between / (m * r)
		if tau > 1 {
			q -= left / (m * (m - 1) / 2)
		}
		if n-tau > 1 {
			q -= right / (r * (r - 1) / 2)
		}
		q *= m * r / (m + r)
		if q > bestQ {
			best, bestQ = tau, q
		}
	}
	return best, true
}
