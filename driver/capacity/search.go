// Package capacity is the maths of a capacity search, apart from what measures it:
// which rate to try next (Search, Sweep), a step's verdict from its interval (Judge),
// and the walk of steps and confirming runs within a budget (Walk, Confirm), each a
// function of numbers and of the verdicts it is given, so that its schedule is
// table-tested. The driver runs the steps on a target (driver.Capacity).
package capacity

import "math"

// Thresholds of a step's verdict, beside the generator's (results.MinAchieved, the
// share of the target rate a step must achieve to pass; results.MaxClientCPU;
// results.MaxLagP99, the lag p99 above which calls started late although a caller
// was free, which counts in the response time and so is judged against the
// objectives too: lagShare).
const (
	// lagShare: lag p99 under this share of the tightest objective cannot decide a
	// step's verdict, however late the generator was.
	lagShare = 0.1
	// clearOverload: a step that achieved less than this share under its rate failed
	// plainly, and is not tried again.
	clearOverload = 0.05
	// minConfirmShare: confirming runs, each one resolution under the last, go down to
	// this share of the search's answer.
	minConfirmShare = 0.5
	// minRate ends a search that finds nothing passing above it.
	minRate = 1.0
)

// Search is the state of a capacity search over rates: grow by doubling until a
// step fails, then bisect (on a log scale, as rates span orders of magnitude) between
// the highest passing and the lowest failing rate until they are within the
// resolution. Pure, so its schedule is table-tested.
type Search struct {
	resolution float64
	pass, fail float64 // highest passing and lowest failing rate in force (0: none)
	start      float64
	passes     []float64 // every passing rate in force, for a later failure below them
}

// Stepper picks a capacity search's rates: Search (grow and bisect) or Sweep. Owned
// by one goroutine.
type Stepper interface {
	// Next is the next rate to measure; 0 when the search is done.
	Next() float64
	// Observe records whether the step at rate passed.
	Observe(rate float64, ok bool)
	// Bracket is the highest passing and the lowest failing rate found (0: none).
	Bracket() (pass, fail float64)
}

// Sweep steps through every rate from the start, each factor times the last, until
// two steps running fail.
type Sweep struct {
	next_, factor float64
	pass, fail    float64
	lastFail      float64 // the rate of the last step, when it failed (0 after a pass)
	done          bool
}

// NewSweep is a sweep from start, each rate factor times the last.
func NewSweep(start, factor float64) *Sweep { return &Sweep{next_: start, factor: factor} }

// Next is the rate after the last one observed, or 0 once two failed running.
func (s *Sweep) Next() float64 {
	if s.done {
		return 0
	}
	return s.next_
}

// Observe ends the sweep at the first two failing steps in a row. The answer is the
// last pass before them, the bracket's top the first of the two: a lone failure below
// passing rates is noise under the capacity's edge (on a shared VM a 1 s step misses a
// p99 objective now and then far below it), as a lone pass above would be over it.
func (s *Sweep) Observe(rate float64, ok bool) {
	switch {
	case ok:
		s.pass, s.lastFail = rate, 0
	case s.lastFail != 0:
		s.fail, s.done = s.lastFail, true
	default:
		s.lastFail = rate
	}
	s.next_ = rate * s.factor
}

// Bracket is the last pass before two failures running, and the first of them.
func (s *Sweep) Bracket() (float64, float64) { return s.pass, s.fail }

// NewSearch is a search that starts at start and stops when the bracket's top is
// within resolution (a share) of its bottom.
func NewSearch(start, resolution float64) *Search {
	return &Search{start: start, resolution: resolution}
}

// Next returns the next rate to measure, or 0 when the bracket is narrow enough (or
// nothing passes above minRate).
func (s *Search) Next() float64 {
	switch {
	case s.pass == 0 && s.fail == 0:
		return s.start
	case s.pass == 0:
		if r := s.fail / 2; r >= minRate {
			return r
		}
		return 0
	case s.fail == 0:
		return s.pass * 2
	case s.fail/s.pass-1 <= s.resolution:
		return 0
	}
	return math.Sqrt(s.pass * s.fail)
}

// Bracket is the highest passing and the lowest failing rate in force (0: none).
func (s *Search) Bracket() (float64, float64) { return s.pass, s.fail }

// Observe records whether a step at rate passed. Verdicts near the capacity are
// noisy on a shared machine; when one contradicts an earlier one (a pass above a
// failure, a failure below a pass), the latest wins and the bracket moves.
func (s *Search) Observe(rate float64, ok bool) {
	if ok {
		s.passes = append(s.passes, rate)
		s.pass = max(s.pass, rate)
		if s.fail != 0 && s.fail <= rate {
			s.fail = 0
		}
		return
	}
	if s.fail == 0 || rate < s.fail {
		s.fail = rate
	}
	kept := s.passes[:0]
	s.pass = 0
	for _, p := range s.passes {
		if p < rate {
			kept = append(kept, p)
			s.pass = max(s.pass, p)
		}
	}
	s.passes = kept
}
