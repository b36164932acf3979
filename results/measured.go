package results

import (
	"time"

	"github.com/wirebench/wirebench/results/record"
)

// Interval is one phase of one fork of one benchmark as the driver saw it: the
// merged recordings of its client workers, with the CPU, bytes and process
// readings around them.
type Interval struct {
	// Phase is what the interval was for: "warmup" or "measure" (engine.Phase).
	Phase string
	// Index counts within the phase; in an interleaved group it is the round.
	Index int
	*record.Interval
	BytesSent, BytesReceived int64
	ClientCPU                time.Duration
	ClientCPUs               int
	// LinkCPU is the CPU the clients' link proxies used (0 without one).
	LinkCPU time.Duration
	// Parts are the client workers' own intervals when there are several, in worker
	// order; the interval is their merge (Merge). Nil with one.
	Parts []*Interval
	// Server is the server worker's reading at the end of the phase and ServerCPU the
	// CPU it used during the phase; nil and 0 without a server worker.
	Server    *ProcReading
	ServerCPU time.Duration
}

// Merge merges the intervals of one phase from several client workers: histograms
// merge exactly, ops, errors, bytes and CPU add up, the span covers all (so the
// throughput is the sum of the workers' while their spans agree), and the CPUs the
// generators had add up too. One interval is returned as it is.
func Merge(parts []*Interval) *Interval {
	if len(parts) == 1 {
		return parts[0]
	}
	m := &Interval{Phase: parts[0].Phase, Index: parts[0].Index, Interval: &record.Interval{}, Parts: parts}
	for _, p := range parts {
		m.AddCounts(p)
		m.ClientCPUs += p.ClientCPUs
	}
	return m
}

// AddCounts adds o's calls, histograms, bytes and client-side CPU to iv's, and widens
// iv's span to cover o's.
func (iv *Interval) AddCounts(o *Interval) {
	iv.Interval.Add(o.Interval)
	iv.BytesSent += o.BytesSent
	iv.BytesReceived += o.BytesReceived
	iv.ClientCPU += o.ClientCPU
	iv.LinkCPU += o.LinkCPU
}

// Level is the figure a slice is judged by when looking for a steady state: the
// median latency under open-loop load (its throughput is the schedule's), the
// throughput otherwise. It is in nanoseconds or ops/s; lower is better for the first.
func (iv *Interval) Level(open bool) float64 {
	if open {
		return float64(iv.Resp.ValueAtQuantile(50))
	}
	return iv.Throughput()
}

// ProcReading is a reading of a worker process, cumulative since it started.
type ProcReading struct {
	Time         time.Time
	CPU          time.Duration
	RSS, PeakRSS int64
}

// Fork is what one fork of one benchmark measured, with fresh worker processes. A fork cut short keeps what finished.
type Fork struct {
	Index int
	// Warmup is the whole warm-up, its slices merged; WarmupSlices are those slices
	// for an adaptive warm-up (spec.Spec.WarmupMax), nil for a fixed one, and
	// WarmupSettled says whether it ended because its slices stopped changing
	// (stats.WarmupSettled) rather than at WarmupMax.
	Warmup        *Interval
	WarmupSlices  []*Interval
	WarmupSettled bool
	// KeepAlive counts the keep-alive slices the target got while its group's other
	// targets warmed up after it (spec.Spec.KeepAlive): unmeasured slices of its own
	// load.
	KeepAlive int
	Intervals []*Interval
	Err       error
}

// Measured is what the driver measured of one benchmark of a comparison group.
type Measured struct {
	// Forks are the benchmark's forks, in order.
	Forks []*Fork
	// Method is how it was measured: MethodInterleaved or MethodSequential.
	Method string
	// Isolation is how its group's other targets were kept from running during its
	// slices (Benchmark.Isolation); "" when measured alone.
	Isolation string
	// Workers, when its worker processes served the groups of a batch, says how
	// many and which one it was (Benchmark.Workers); nil otherwise.
	Workers *WorkersShare
	// Err is why it failed (its forks keep what finished), or nil.
	Err error
}

// Verdicts of a capacity search's step.
const (
	VerdictPass      = "pass"
	VerdictSLO       = "slo"       // a latency objective was missed
	VerdictRate      = "rate"      // the achieved rate fell under the share of the target a step must reach
	VerdictErrors    = "errors"    // more failed calls than allowed
	VerdictGenerator = "generator" // the load generator, not the target, set the result
)

// SearchStep is one measured step of a capacity search.
type SearchStep struct {
	Rate     float64
	Interval *Interval
	// Verdict is one of the Verdict constants; Why says which figure decided it.
	Verdict, Why string
	// Confirm marks the confirming run at the rate found.
	Confirm bool
}

// Search is what a capacity search found.
type Search struct {
	Warmup *Interval
	Steps  []SearchStep
	// Rate is the answer: the highest rate that passed and was confirmed (0 when
	// none did). Low and High bracket the capacity: the last passing and the first
	// failing rate (High is 0 when no rate failed).
	Rate, Low, High float64
	// Confirmed says whether the confirming run passed at Rate.
	Confirmed bool
	// GeneratorBound: the search stopped because the load generator could not go
	// faster; Rate is then a floor of the target's capacity, not its capacity.
	GeneratorBound bool
	// OutOfBudget: the budget ended before the bracket was as narrow as asked.
	OutOfBudget bool
	// CheaperClient names a client stack of the same protocol that costs less per
	// call than the one the search used ("" when there is none), for the advice
	// to a generator-bound search.
	CheaperClient string
}
