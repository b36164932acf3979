package stats

import "math"

// An adaptive warm-up (spec.Spec.WarmupMax) runs the load in slices of WarmupSlice and
// ends once the last WarmupWindow slices' mean level is within WarmupTolerance of the
// WarmupWindow slices' before them: the level stopped moving by more than the
// tolerance over two windows. What it must catch is a JIT's warm-up: here an Akka
// gRPC 0.4 server under 100 calls in flight rose from 180 to 7,000 calls/s over 26
// one-second slices and still crept up by about 1.5 % a second at the end (docs/
// method.md); a creep that fast moves two 4-slice windows apart by about 6 %, so the
// warm-up goes on, where 3-slice windows and a 5 % tolerance had let it stop. Once
// flat, slices here vary by about 3 %, so a window's mean varies by 1.5 % and two
// windows agree within 3 % in most checks. What is left, slower drifts and smaller
// steps, is what the steady-state check (ClassifySteady) finds in the measured rounds;
// it decides where each fork's measurement starts. One-second slices are JMH's
// default iteration, long enough to hold a GC pause or a compilation burst. A series
// whose slices swing by far more than that (within each window, a standard deviation
// of the logs over WarmupMaxNoise) has no level for two windows to agree on: an
// http4s 0.23 Ember server here swung between 1,200 and 12,400 calls/s from one
// second to the next after its first 20 s, and two such windows' means agree by
// chance; its warm-up goes on to its cap, and the warnings say so.
const (
	WarmupWindow    = 4
	WarmupTolerance = 0.03
	WarmupMaxNoise  = 0.10
)

// WarmupSettled reports whether a warm-up whose slices scored xs (in order, higher
// better; a latency is passed as its reciprocal) has settled: at least two windows of
// WarmupWindow slices, the geometric mean of the last within WarmupTolerance of the
// one before it, and the slices' logs within the windows no noisier than
// WarmupMaxNoise. A slice that scored 0 or less (nothing finished) keeps it unsettled
// while it is in either window.
func WarmupSettled(xs []float64) bool {
	n := len(xs)
	if n < 2*WarmupWindow {
		return false
	}
	var windows [2][]float64
	for i := n - 2*WarmupWindow; i < n; i++ {
		if !(xs[i] > 0) || math.IsInf(xs[i], 0) {
			return false
		}
		w := 0
		if i >= n-WarmupWindow {
			w = 1
		}
		windows[w] = append(windows[w], math.Log(xs[i]))
	}
	var means [2]float64
	var ss float64
	for w, logs := range windows {
		means[w] = mean(logs)
		for _, l := range logs {
			ss += (l - means[w]) * (l - means[w])
		}
	}
	noise := math.Sqrt(ss / float64(2*WarmupWindow-2))
	return math.Abs(means[1]-means[0]) <= math.Log1p(WarmupTolerance) && noise <= WarmupMaxNoise
}
