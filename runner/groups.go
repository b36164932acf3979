package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// groupRuns are the comparison groups of one run (Run), each made ready to measure
// when first asked for (get), with what every group's bookkeeping shares: the
// journal, the pace, the progress events.
type groupRuns struct {
	s       *suite.Suite
	bs      []suite.Benchmark
	groups  [][]int
	done    map[string]results.Benchmark
	st      *journalState
	opt     Options
	j       *journal
	p       *pace
	total   int
	observe func(Event)
	// stop stops the driver and jerr is set when the journal cannot be written.
	stop func()
	jerr *error
	// estimates are the groups' planned times (suite.GroupEstimates).
	estimates []time.Duration
	runs      map[int]*groupRun
}

// groupRun is one comparison group of a run: its benchmarks not yet summarized, and
// how they are measured, journaled and reported.
type groupRun struct {
	rs    *groupRuns
	index int   // in rs.groups
	group []int // indices into rs.bs
	specs []spec.Spec
	names []string
	// prior is what an earlier run journaled of each (nil entries: nothing).
	prior []*results.Measured
	// rounds is the rounds of an interleaved group (0: another method).
	rounds int
	key    string
	base   int
	runner groupRunner
	copts  driver.Options
	// planned, resumed and each are forkPlan's; counted is the forks counted
	// finished so far, added those --precision added to the plan.
	planned, resumed, counted, added int
	each                             time.Duration
	started                          bool
}

// get is group gi made ready (once), or nil when all its benchmarks are done.
func (r *groupRuns) get(gi int) (*groupRun, error) {
	if g, ok := r.runs[gi]; ok {
		return g, nil
	}
	all := r.groups[gi]
	g := &groupRun{rs: r, index: gi}
	for _, i := range all {
		if _, ok := r.done[r.bs[i].Name]; !ok {
			g.group = append(g.group, i)
		}
	}
	if len(g.group) == 0 {
		r.runs[gi] = nil
		return nil, nil
	}
	n := len(g.group)
	g.specs, g.names, g.prior = make([]spec.Spec, n), make([]string, n), make([]*results.Measured, n)
	for k, i := range g.group {
		g.specs[k], g.names[k] = r.bs[i].Spec, r.bs[i].Name
		if runtime.NumCPU() < 2 {
			g.specs[k].ServerCPUs, g.specs[k].ClientCPUs = nil, nil
		}
		g.prior[k] = measuredOf(r.st.forks[g.names[k]])
	}
	if n > 1 && g.specs[0].Method == spec.MethodInterleaved {
		g.rounds = g.specs[0].Iterations
	}
	g.planned, g.resumed, g.each = forkPlan(r.bs, all, r.estimates[gi], r.done, r.st.forks)
	g.key = g.specs[0].RoundsGroup(g.specs[0].ServerStack)
	g.base = baselineOf(r.s, r.bs, g.group)
	g.runner = driver.RunGroup
	if r.s.Process == suite.ProcessOne {
		g.runner = driver.RunOneProcess
	}
	profiles := ""
	if r.opt.ProfileDir != "" {
		// One directory per group: the workers' file names count targets within a
		// group (a batch's workers write theirs in its first group's).
		profiles = filepath.Join(r.opt.ProfileDir, fmt.Sprintf("group-%03d", g.group[0]))
		if err := os.MkdirAll(profiles, 0o755); err != nil {
			return nil, err
		}
	}
	g.copts = driver.Options{Binary: r.opt.Binary, Seed: r.opt.Seed, Hosts: r.opt.Hosts, ProfileDir: profiles,
		Observe: func(ev driver.Event) {
			g.start() // a group of a batch starts with its first phase
			i := g.group[ev.Target]
			r.observe(Event{Kind: KindInterval, Index: i, Total: r.total, Name: r.bs[i].Name, Interval: &ev})
		},
		ForkDone: func(forks map[int]*results.Fork) {
			if *r.jerr = journalFork(r.j, r.st, g.specs, g.names, forks); *r.jerr != nil {
				r.stop()
				return
			}
			n := len(forks) // a fork of each target it ran
			if g.rounds > 0 {
				n = 1 // one fork of every target
			}
			g.forksDone(n, measuredNothing(forks))
		}}
	r.runs[gi] = g
	return g, nil
}

// start reports the group's start, once.
func (g *groupRun) start() {
	if g.started {
		return
	}
	g.started = true
	r := g.rs
	r.observe(Event{Kind: KindStart, Index: g.group[0], Total: r.total, Name: g.names[0], Group: g.names, GroupKey: g.key,
		Estimate: r.estimates[g.index], Rounds: g.rounds, Resumed: g.resumed, Fork: r.p.done, Forks: r.p.forks, Left: r.p.left()})
}

// forksDone counts n of the group's forks finished, or, when notRun, settled without
// measuring (they failed before their first slice, or were left out after a failure).
func (g *groupRun) forksDone(n int, notRun bool) {
	r := g.rs
	g.counted += n
	ev := Event{Kind: KindFork, Index: g.group[0], Total: r.total, Name: g.names[0], Group: g.names, GroupKey: g.key}
	if notRun {
		r.p.dropped(n, g.each)
		ev.NotRun = n
	} else {
		r.p.finished(n, g.each)
	}
	ev.Fork, ev.Forks, ev.Left = r.p.done, r.p.forks, r.p.left()
	r.observe(ev)
}

// measuredNothing reports forks none of which measured a slice or warmed up.
func measuredNothing(forks map[int]*results.Fork) bool {
	for _, f := range forks {
		if f.Warmup != nil || len(f.Intervals) > 0 {
			return false
		}
	}
	return true
}

// batchFrom is the groups, from gi on in the run's order, that share each fork's
// workers with gi (driver.RunBatch): consecutive groups of the same targets (their
// spec.Spec.WorkersKey, target by target) and plan, all interleaved in worker processes,
// none with a benchmark done or journaled by an earlier run (a resumed group runs
// the forks it lacks on its own). One group alone is no batch.
func (r *groupRuns) batchFrom(gi int) ([]int, error) {
	fresh := func(gj int) (*groupRun, error) {
		g, err := r.get(gj)
		if err != nil || g == nil || len(g.group) != len(r.groups[gj]) || forksOf(g.prior) > 0 || !spec.SharesWorkers(g.specs) {
			return nil, err
		}
		return g, nil
	}
	first, err := fresh(gi)
	if first == nil {
		return nil, err
	}
	members := []int{gi}
	for gj := gi + 1; gj < len(r.groups); gj++ {
		g, err := fresh(gj)
		if err != nil {
			return nil, err
		}
		if g == nil || !spec.SameWorkers(first.specs, g.specs) {
			break
		}
		members = append(members, gj)
	}
	return members, nil
}

// runBatch measures the groups members (indices into r.groups, made ready by get)
// as one batch, and returns what it measured of each.
func (r *groupRuns) runBatch(ctx context.Context, members []int) [][]*results.Measured {
	specs := make([][]spec.Spec, len(members))
	opts := make([]driver.Options, len(members))
	for k, gi := range members {
		g := r.runs[gi]
		specs[k], opts[k] = g.specs, g.copts
	}
	return driver.RunBatch(ctx, specs, opts)
}
