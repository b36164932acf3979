package plan

import (
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results/stats"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// StartOverhead and PhaseOverhead are spec's: what an estimate adds for a fork's
// start-up and for each handover between two phases.
const (
	StartOverhead        = spec.StartOverhead
	ProcessStartOverhead = spec.ProcessStartOverhead
	PhaseOverhead        = spec.PhaseOverhead
	FreezeOverhead       = spec.FreezeOverhead
)

// Build plans bs, in suite order (suite.Groups). resumed, when not nil, says which
// benchmarks an earlier run journaled (forks or results): a group with one of them
// runs in a batch of its own. Consecutive interleaved groups of the same targets
// (spec.SameWorkers), none resumed, form one batch: each fork's workers start once and
// serve them all. A slice of a number of calls counts as nothing (Plan.Untimed); see
// BuildWith.
func Build(bs []suite.Benchmark, resumed func(name string) bool) *Plan {
	return BuildWith(bs, Known{Resumed: resumed})
}

// Known is what a plan is built with beyond its benchmarks.
type Known struct {
	// Resumed, when not nil, says which benchmarks an earlier run journaled (Build).
	Resumed func(name string) bool
	// Measured times the slices of a number of calls and the adaptive warm-ups, by
	// benchmark (an earlier run's, plan.Measured); the benchmarks of slices of a number
	// of calls it gives no time are the plan's Untimed.
	Measured Timings
	// InProcess is true for a suite of process: one (suite.ProcessOne): its forks
	// start no worker processes, so no worker's start is counted.
	InProcess bool
}

// BuildWith is Build with what known says: resumed benchmarks, the slices and
// adaptive warm-ups an earlier run timed, and whether the targets run in the suite's
// own process.
func BuildWith(bs []suite.Benchmark, known Known) *Plan {
	p := &Plan{Benchmarks: bs, measured: known.Measured, inProcess: known.InProcess}
	resumed := known.Resumed
	for _, b := range bs {
		if b.Spec.SliceOps > 0 && p.measured.Slices[b.Name] <= 0 {
			p.Untimed = append(p.Untimed, b.Name)
		}
	}
	isResumed := func(members []int) bool {
		for _, i := range members {
			if resumed != nil && resumed(bs[i].Name) {
				return true
			}
		}
		return false
	}
	open := -1             // the batch later groups may join, by index; -1: none
	ran := map[bool]bool{} // the kinds of call (streamsWorkload) open's workers ran
	for gi, members := range suite.Groups(bs) {
		g := Group{Index: gi, Members: members, Resumed: isResumed(members)}
		specs := p.costed(g)
		first := specs[0]
		g.Forks, g.Rounds = first.Forks, first.Rounds
		switch {
		case len(specs) == 1 && first.Capacity != nil:
			g.Kind = Capacity
		case len(specs) < 2 || first.Method != spec.MethodInterleaved:
			g.Kind = Sequential
		}
		if g.Kind != Interleaved {
			for _, sp := range specs {
				g.Alone = append(g.Alone, p.alone(sp))
			}
			p.Batches = append(p.Batches, Batch{Groups: []Group{g}, Reference: first.Reference})
			open = -1
			continue
		}
		joins := open >= 0 && !g.Resumed && spec.SameWorkers(p.Specs(p.Batches[open].Groups[0]), p.Specs(g))
		if !joins {
			ran = map[bool]bool{}
		}
		kind := streamsWorkload(first)
		g.Fork = p.forkCost(specs, joins, joins && ran[kind])
		ran[kind] = true
		if joins {
			p.Batches[open].Groups = append(p.Batches[open].Groups, g)
			continue
		}
		p.Batches = append(p.Batches, Batch{Groups: []Group{g}, Reference: first.Reference})
		open = -1
		if !g.Resumed && spec.SharesWorkers(p.Specs(g)) {
			open = len(p.Batches) - 1
		}
	}
	return p
}

// forkCost is one fork of an interleaved group: on workers of its own (onShared
// false: it starts them), or on workers an earlier group of its batch started, which
// have run its kind of call already (warm) or not.
func (p *Plan) forkCost(specs []spec.Spec, onShared, warm bool) ForkCost {
	f := ForkCost{Warmups: make([]time.Duration, len(specs)), Warm: make([]bool, len(specs))}
	if !onShared {
		f.Start = StartOverhead
	}
	phase := phaseCost(specs)
	for k, sp := range specs {
		f.Warm[k] = warm
		if warm {
			f.Warmups[k] = WarmWarmup(sp)
		} else {
			f.Warmups[k] = ColdWarmup(sp)
		}
		if !onShared {
			f.Start += p.workerStarts(sp)
		}
		f.Rounds += time.Duration(sp.Rounds) * (sp.SliceTime + phase)
	}
	f.KeepAlive = keepAliveCost(specs, f.Warmups, phase)
	return f
}

// phaseCost is what each handover between two phases of an interleaved group costs:
// PhaseOverhead, and FreezeOverhead when the other targets' processes are frozen
// during each one's slices.
func phaseCost(specs []spec.Spec) time.Duration {
	if len(specs) > 1 && specs[0].Isolation == spec.IsolationFreeze {
		return PhaseOverhead + FreezeOverhead
	}
	return PhaseOverhead
}

// alone is what a benchmark costs measured on its own: per fork, new workers (when p's
// targets run in worker processes), its cold warm-up and its rounds (a capacity
// search: its warm-up bound and budget). Slices of a number of ops that p has no time
// for count as nothing, so for them it is a lower bound.
func (p *Plan) alone(sp spec.Spec) time.Duration {
	if c := sp.Capacity; c != nil {
		return sp.WarmupBound() + c.Budget + StartOverhead
	}
	fork := StartOverhead + p.workerStarts(sp) + ColdWarmup(sp) + time.Duration(sp.Rounds)*(sp.SliceTime+PhaseOverhead)
	return time.Duration(sp.Forks) * fork
}

// keepAliveCost is what a fork of an interleaved group spends on keep-alive slices
// (spec.Spec.KeepAlive): each target gets one for each of its KeepAlive that the
// warm-ups after its own (warmups, by target) last.
func keepAliveCost(specs []spec.Spec, warmups []time.Duration, phase time.Duration) time.Duration {
	var total, after time.Duration
	for k := len(specs) - 1; k >= 0; k-- {
		if ka := specs[k].KeepAlive; ka > 0 {
			total += time.Duration(after/ka) * (spec.KeepAliveSlice + phase)
		}
		after += warmups[k]
	}
	return total
}

// workerStarts is what starting sp's worker processes adds to a fork beyond
// StartOverhead: for each side's process, ProcessStartOverhead and its launcher's
// StartCost (a JVM's start and class loading). An outside server (spec.Spec.Address) is
// not started here; a stack that is not registered counts as nothing; nor does any
// in a plan of process: one (Known.InProcess).
func (p *Plan) workerStarts(sp spec.Spec) time.Duration {
	var d time.Duration
	if p.inProcess {
		return 0
	}
	for _, side := range []struct {
		name string
		side protocol.Side
	}{{sp.ServerStack, protocol.ServerSide}, {sp.ClientStack, protocol.ClientSide}} {
		if sp.Address != "" && side.side == protocol.ServerSide {
			continue
		}
		st, err := protocol.LookupStack(sp.Protocol, side.name, side.side)
		if err != nil {
			continue
		}
		d += ProcessStartOverhead
		if l, err := launch.For(st.Worker); err == nil {
			d += l.StartCost
		}
	}
	return d
}

// streamsWorkload says whether sp's workload streams (contract.Workload.Streams): a
// JVM that has run only unary calls has not compiled a stream's code, nor the reverse.
// Measured on the 2-vCPU machine kind (2026-11-28, docs/results/rest-vs-grpc.md):
// rest-vs-grpc's JVM rows, with adaptive warm-ups of 4–20 s, warmed up for 11–21 s
// (17.3 s on average) on ping-pong after the stream group had warmed their workers,
// where metrifier's, unary after unary, took 11.5–17.5 s (WarmWarmup). An unknown
// workload counts as unary.
func streamsWorkload(sp spec.Spec) bool {
	w, err := contract.LookupWorkload(sp.Workload)
	return err == nil && w.Streams
}

// ColdWarmup is what an estimate counts for the warm-up of a target on workers that
// have just started, or that have served only the other kind of call
// (streamsWorkload): a fixed warm-up at its length; an adaptive one at
// ColdAdaptiveWarmup, within its minimum and WarmupMax.
func ColdWarmup(sp spec.Spec) time.Duration {
	if sp.WarmupMax <= 0 {
		return sp.Warmup
	}
	return min(sp.WarmupMax, max(sp.Warmup, ColdAdaptiveWarmup))
}

// ColdAdaptiveWarmup is how long an adaptive warm-up on new workers is counted
// (ColdWarmup). Measured on the 2-vCPU machine kind (2026-11-28, the first group of
// each fork, 5 forks a suite): metrifier's Blaze pair 29.9 s on average (its
// warmup_max 60 s), grpc-java's Netty and Avro pairs and http4s 0.23 18.6–19.4 s (20 s),
// metrifier-v1's Blaze pair 22.5 s (60 s); Akka HTTP 21.4 s and Akka gRPC 25.5 s (30 s).
// Counting each at its warmup_max made metrifier-v1's estimate 24 % long.
const ColdAdaptiveWarmup = 25 * time.Second

// WarmWarmup is what an estimate counts for the warm-up of a target whose workers are
// warm (an earlier group of the fork ran on them): a fixed warm-up at its length; an
// adaptive one at three windows of slices (stats.WarmupSettled needs two at least),
// within its minimum and WarmupMax. Measured (docs/results/metrifier.md, 2026-11-28):
// metrifier's four JVM rows on warm workers warmed up for 46–70 s a group and fork
// together, 11.5–17.5 s each, where two windows (8 s) would count 32 s and three (12 s)
// count 48 s.
func WarmWarmup(sp spec.Spec) time.Duration {
	if sp.WarmupMax <= 0 {
		return sp.Warmup
	}
	return min(sp.WarmupMax, max(sp.Warmup, 3*stats.WarmupWindow*spec.WarmupSlice))
}
