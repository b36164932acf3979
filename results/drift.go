package results

import "time"

// How far a run can be trusted over time. A ratio's interval covers what varied
// between the rounds and forks of its run; the machine itself also moves (a shared
// VM's neighbours, its host's memory), and a reader must see by how much. Two figures
// say it:
//
//   - Drift, per comparison group, from the group's own slices: how the speed of every
//     target together moved over its rounds.
//   - ReferenceRun, per batch of groups: a fixed workload that depends on the machine
//     alone, measured before the batch's first group and after its last, so that a
//     run's change is a number and two runs' figures say how the machine moved
//     between them.

// Drift is how far the machine's speed moved under one comparison group's rounds,
// read from the group's own slices (summary.Group). Each round's speed index is the
// geometric mean, over the group's targets, of each steady slice's throughput over its
// target's median; the series runs fork by fork, round by round, and its movement is
// read across the forks, not through their spread (stats.MeasureMovementForks). (In a group measured
// sequentially a "round" is a slice's index, whose slices ran at different times:
// the figure there is the targets' common change over their rounds.)
//
// What it sees: a change of speed that every target shares, over the rounds of this
// run. What it cannot see: a change that hits every target alike and evenly is the
// machine's, but pairing cancels it in the ratios, so a large Drift leaves the ratios
// sound and only the absolute scores mixed; a change that reaches one target and not
// the others (docs/method.md: the machine's moves reach some rows and not others) is
// in that target's ratio, not here; and what moves between runs (hours apart, another
// day) it cannot see at all: the ReferenceRun figures of two runs are for that.
type Drift struct {
	// Rounds is the number of rounds in the speed index (every fork's).
	Rounds int `json:"rounds"`
	// Trend is the fitted change of the speed index over the rounds: end over start
	// minus one of a least-squares line through its logs (−0.12: 12 % slower by the
	// end); 0 with fewer than three rounds. TrendSignificant says its slope's 99.9 %
	// interval excludes zero: a trend that is not is noise and does not count in Moved.
	Trend            float64 `json:"trend"`
	TrendSignificant bool    `json:"trend_significant,omitempty"`
	// Levels is the gap between two levels of the speed index, the higher over the
	// lower minus one, when it splits into two (stats.DetectDrift's rule); 0 otherwise.
	Levels float64 `json:"levels,omitempty"`
	// Moved is the drift figure: the larger of |Trend| when significant and Levels
	// (0.12: the machine's speed moved by 12 % under the rounds). A report flags the
	// group when it is larger than a ratio's half-width (WarnDriftOverInterval).
	Moved float64 `json:"moved"`
}

// ReferenceRun is the reference workload measured at the start and at the end of one
// batch of a run (a batch: the groups that share each fork's worker processes, or one
// group). The workload is fixed and depends on the machine alone, not on any stack
// under test: ReferenceWorkload, on one thread pinned to the server's CPUs. When one
// of them was not measured it is nil and Why says why: the server worker is remote
// (the reference runs where the driver runs, which is not where the server does), or
// the measurement failed. A run interrupted inside a batch has its Start alone.
type ReferenceRun struct {
	// Batch is the batch's place in the run, from 0; Groups are its groups' keys
	// (Benchmark.Group), in the order they ran.
	Batch  int              `json:"batch"`
	Groups []string         `json:"groups,omitempty"`
	Start  *ReferenceSample `json:"start,omitempty"`
	End    *ReferenceSample `json:"end,omitempty"`
	Why    string           `json:"why,omitempty"`
}

// ReferenceSample is one measurement of the reference workload.
type ReferenceSample struct {
	// At is when it started (UTC).
	At time.Time `json:"at"`
	// OpsS is its speed: the median of its slices' ops/s, after a warm-up.
	OpsS float64 `json:"ops_s"`
	// Seconds is how long it ran, warm-up included.
	Seconds float64 `json:"seconds"`
	// CPUs is the Linux CPU list its thread was pinned to ("" when not pinned).
	CPUs string `json:"cpus,omitempty"`
	// Workload names what ran (ReferenceWorkload).
	Workload string `json:"workload"`
}

// ReferenceWorkload is the reference's workload: the in-process direct stack's
// person.get loop over the reference service, data set of 20 persons of seed 1, ids
// taken in turn from the first, on one goroutine locked to one thread.
const ReferenceWorkload = "person.get over direct (go-call), 20 persons of seed 1, one thread"

// Change is the end's speed over the start's, minus one (−0.05: 5 % slower at the
// end); ok is false when either is missing.
func (r ReferenceRun) Change() (change float64, ok bool) {
	if r.Start == nil || r.End == nil || r.Start.OpsS <= 0 || r.End.OpsS <= 0 {
		return 0, false
	}
	return r.End.OpsS/r.Start.OpsS - 1, true
}

// ReferenceSpan is a run's reference figures as one: the first batch's start, the
// last batch's end (the first and last measured), and the change between them; ok
// is false when fewer than two were measured.
func ReferenceSpan(runs []ReferenceRun) (first, last *ReferenceSample, ok bool) {
	for i := range runs {
		for _, s := range []*ReferenceSample{runs[i].Start, runs[i].End} {
			if s == nil || s.OpsS <= 0 {
				continue
			}
			if first == nil {
				first = s
			}
			last = s
		}
	}
	return first, last, first != nil && last != nil && first != last
}
