// Package plan is a run's schedule as a value, built before anything runs: from a
// suite's benchmarks (or `bench`'s one), the comparison groups, the batches of groups
// that share each fork's worker processes, their forks and rounds, each target's
// warm-up and keep-alive slices, the reference measured before and after each batch,
// and what each of those is expected to cost. `run
// --list` prints its estimate, the runner carries out its batches in order (journaling
// and resuming them) and reports the time left from it, and the driver runs each
// batch it is given. Nothing else decides the schedule, so the estimate and what runs
// cannot drift apart.
//
// The costs come from measurements on this project's 2-vCPU machine kind (each
// constant says where); start-up costs come from each worker language's launcher
// (launch.Launcher.StartCost), so no language is named here.
package plan

import (
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// Plan is what a run will measure, in order. It is a plain value: a caller may change
// it before carrying it out (a test does), and the estimate follows.
type Plan struct {
	// Benchmarks are the run's benchmarks, in suite order; groups index them.
	Benchmarks []suite.Benchmark
	// Batches are run one after the other, each as one call to the driver.
	Batches []Batch
	// Untimed are the benchmarks whose slices are a number of calls (rpcecho's lines)
	// with no measured length to count (Known.Measured): the estimate counts their slices
	// as nothing, so it is a lower bound.
	Untimed []string
	// measured is what an earlier run timed (Known.Measured).
	measured Timings
	// inProcess: the targets run in the suite's own process (Known.InProcess).
	inProcess bool
}

// Timings are what only a run can time, as an earlier run of a suite measured it, by
// benchmark name: how long a slice of a number of calls lasted (Slices), and how long
// an adaptive warm-up did (Warmups), each the mean over the run's forks.
type Timings struct {
	Slices  map[string]time.Duration
	Warmups map[string]time.Duration
}

// Any says whether t times anything.
func (t Timings) Any() bool { return len(t.Slices)+len(t.Warmups) > 0 }

// Measured are res's Timings: the mean slice of each benchmark whose slices were a
// number of calls, and the mean adaptive warm-up of each benchmark that had one; other
// benchmarks are left out. A smoke run's slices and warm-ups are not the suite's, so
// it gives none.
func Measured(res *results.Results) Timings {
	out := Timings{Slices: map[string]time.Duration{}, Warmups: map[string]time.Duration{}}
	if res == nil || res.Smoke {
		return out
	}
	for _, b := range res.Benchmarks {
		var slices, warmups mean
		for _, f := range b.Forks {
			for _, it := range f.Slices {
				slices.add(it.Seconds)
			}
			if w := f.Warmup; w != nil && w.Adaptive {
				warmups.add(w.Seconds)
			}
		}
		if b.SliceOps > 0 && slices.n > 0 {
			out.Slices[b.Name] = slices.duration()
		}
		if b.WarmupMaxSeconds > 0 && warmups.n > 0 {
			out.Warmups[b.Name] = warmups.duration()
		}
	}
	return out
}

// mean is a running mean of seconds.
type mean struct {
	sum float64
	n   int
}

func (m *mean) add(seconds float64) { m.sum += seconds; m.n++ }

func (m mean) duration() time.Duration {
	return time.Duration(m.sum / float64(m.n) * float64(time.Second))
}

// costed are the specs of g's members as the estimate counts them: a slice of a
// number of calls lasts what p.measured says (nothing when it says nothing), and an
// adaptive warm-up that p.measured times counts as a fixed one of that length (within
// the warm-up's bounds now, which may not be the earlier run's), on new workers or
// warm ones alike (the next run of the suite has the same batches).
func (p *Plan) costed(g Group) []spec.Spec {
	specs := p.Specs(g)
	for k, i := range g.Members {
		name := p.Benchmarks[i].Name
		if d := p.measured.Slices[name]; specs[k].SliceOps > 0 && d > 0 {
			specs[k].SliceTime = d
		}
		if d := p.measured.Warmups[name]; specs[k].WarmupMax > 0 && specs[k].Capacity == nil && d > 0 {
			specs[k].Warmup, specs[k].WarmupMax = min(max(d, specs[k].Warmup), specs[k].WarmupMax), 0
		}
	}
	return specs
}

// Batch is one or more comparison groups measured on the same worker processes, fork
// by fork: each fork starts the targets' workers once and measures the groups on them
// in turn. A batch of several groups is interleaved, its groups of the same targets
// (spec.SameWorkers); a batch of one group is any group.
type Batch struct {
	Groups []Group
	// Reference is how long the reference workload runs before the batch's first group
	// and after its last (spec.Spec.Reference of its first benchmark; 0: not at all).
	// It is never inside a group's rounds.
	Reference time.Duration
}

// Estimate is the batch's expected time: its groups' and its two references'.
func (b Batch) Estimate() time.Duration {
	t := 2 * b.Reference
	for _, g := range b.Groups {
		t += g.Estimate()
	}
	return t
}

// Shared reports whether the batch's groups share each fork's workers.
func (b Batch) Shared() bool { return len(b.Groups) > 1 }

// Kind says how a group is measured.
type Kind int

const (
	// Interleaved: two or more targets up at once, measured in rounds of slices.
	Interleaved Kind = iota
	// Sequential: each benchmark on its own, its forks one after the other.
	Sequential
	// Capacity: one capacity search.
	Capacity
)

// Group is one comparison group: benchmarks that differ only in their target.
type Group struct {
	// Index is the group's place among the run's groups (suite.Groups order).
	Index int
	// Members are the group's benchmarks, as indices into Plan.Benchmarks.
	Members []int
	Kind    Kind
	// Forks is the group's number of forks (Sequential: each member's), Rounds the
	// rounds of each fork (Interleaved) or each member's rounds.
	Forks, Rounds int
	// Fork is what one fork of an Interleaved group costs; the other kinds' costs are
	// their members' Alone.
	Fork ForkCost
	// Alone is what each member costs measured on its own (Sequential, Capacity), by
	// member.
	Alone []time.Duration
	// Resumed says an earlier run journaled forks or results of the group's
	// benchmarks: it runs alone, on fresh workers, whatever its targets.
	Resumed bool
}

// ForkCost is what one fork of an interleaved group is expected to cost.
type ForkCost struct {
	// Start is the time to start and stop the fork's worker processes and check each
	// target (0 for a group on workers an earlier group of its batch started).
	Start time.Duration
	// Warmups are each target's warm-up, by member: cold on new workers, or on
	// workers that served only the other kind of call; warm otherwise.
	Warmups []time.Duration
	// Warm says, by member, whether its warm-up counts as warm.
	Warm []bool
	// KeepAlive is the keep-alive slices the targets warmed up first get while the
	// others warm up (spec.Spec.KeepAlive).
	KeepAlive time.Duration
	// Rounds is the time of the fork's rounds: every target's slices and the
	// handover between phases.
	Rounds time.Duration
}

// Total is the fork's expected time.
func (f ForkCost) Total() time.Duration {
	t := f.Start + f.KeepAlive + f.Rounds
	for _, w := range f.Warmups {
		t += w
	}
	return t
}

// Estimate is the group's expected time.
func (g Group) Estimate() time.Duration {
	if g.Kind == Interleaved {
		return time.Duration(g.Forks) * g.Fork.Total()
	}
	var t time.Duration
	for _, d := range g.Alone {
		t += d
	}
	return t
}

// Specs are the specs of g's members in p.
func (p *Plan) Specs(g Group) []spec.Spec {
	out := make([]spec.Spec, len(g.Members))
	for k, i := range g.Members {
		out[k] = p.Benchmarks[i].Spec
	}
	return out
}

// Groups are every batch's groups, in the order they run.
func (p *Plan) Groups() []Group {
	var out []Group
	for _, b := range p.Batches {
		out = append(out, b.Groups...)
	}
	return out
}

// Estimate is the run's expected time: the sum of its batches' (their groups' and
// references').
func (p *Plan) Estimate() time.Duration {
	var t time.Duration
	for _, b := range p.Batches {
		t += b.Estimate()
	}
	return t
}
