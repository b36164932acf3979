package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// groupRuns carries out a run's plan: its batches in order, each group made ready to
// measure when first asked for (get), with what every group's bookkeeping shares:
// the journal, the pace, the progress events.
type groupRuns struct {
	s    *suite.Suite
	plan *plan.Plan
	bs   []suite.Benchmark
	done map[string]results.Benchmark
	st   *journalState
	opt  Options
	j    *journal
	p    *pace
	// total is the number of benchmarks.
	total   int
	observe func(Event)
	// stop stops the driver and jerr is set when the journal cannot be written.
	stop func()
	jerr error
	runs map[int]*groupRun
	// batch measures a batch of groups that share their workers (driver.MeasureBatch;
	// a test's recorder).
	batch func(context.Context, [][]spec.Spec, []driver.Options) [][]*results.Measured
	// single measures a group of its own: driver.MeasureGroup, or driver.MeasureOneProcess
	// for a suite of process: one.
	single groupRunner
	// reference measures the reference workload (driver.MeasureReference; a test's
	// counter), and refs are the run's references so far, an earlier run's included.
	reference func(ctx context.Context, d time.Duration, cpus []int) (*results.ReferenceSample, error)
	refs      []results.ReferenceRun
}

func newGroupRuns(s *suite.Suite, p *plan.Plan, done map[string]results.Benchmark, st *journalState, opt Options, j *journal) *groupRuns {
	r := &groupRuns{s: s, plan: p, bs: p.Benchmarks, done: done, st: st, opt: opt, j: j, total: len(p.Benchmarks),
		runs: map[int]*groupRun{}, batch: driver.MeasureBatch, single: driver.MeasureGroup, stop: func() {},
		reference: driver.MeasureReference, refs: st.references}
	if s.Process == suite.ProcessOne {
		r.single = driver.MeasureOneProcess
	}
	r.observe = func(e Event) {
		if opt.Observe != nil {
			opt.Observe(e)
		}
	}
	r.p = newPace(p, done, st.forks)
	if driver.ReferenceWhyNot(opt.Hosts) == "" {
		for _, b := range p.Batches {
			if b.Reference > 0 && r.pending(b) {
				r.p.refs += 2 * b.Reference
			}
		}
	}
	return r
}

// runPlan measures the plan's batches in order, the groups of a batch on shared
// workers, and summarizes and journals each group. It returns ctx's error when ctx
// ended (runErr), and err when nothing more can be kept safely (a journal that cannot
// be written, a profile directory that cannot be made).
func (r *groupRuns) runPlan(ctx context.Context, out *Outcome) (runErr, err error) {
	// The driver runs under its own context, so that a journal that cannot be
	// written stops it.
	dctx, stop := context.WithCancel(ctx)
	defer stop()
	r.stop = stop
	for _, b := range r.plan.Batches {
		ref, err := r.referenceStart(dctx, b)
		if err != nil {
			return nil, err
		}
		prior, err := r.runShared(dctx, b)
		if err != nil {
			return nil, err
		}
		for _, pg := range b.Groups {
			if err := r.runGroup(ctx, dctx, pg, prior, out); err != nil || ctx.Err() != nil {
				return ctx.Err(), err
			}
		}
		if err := r.referenceEnd(dctx, b, ref); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// runGroup measures group pg, after what its batch measured of it (prior, by group
// index), unless an earlier run summarized all of it.
func (r *groupRuns) runGroup(ctx, dctx context.Context, pg plan.Group, prior map[int][]*results.Measured, out *Outcome) error {
	r.skipped(pg)
	g, err := r.get(pg)
	if err != nil || g == nil {
		return err
	}
	if m, ok := prior[pg.Index]; ok {
		g.prior = m
	}
	return r.measure(ctx, dctx, g, out)
}

// skipped reports the group's benchmarks an earlier run summarized.
func (r *groupRuns) skipped(pg plan.Group) {
	for _, i := range pg.Members {
		if _, ok := r.done[r.bs[i].Name]; ok {
			r.observe(Event{Kind: KindSkipped, Index: i, Total: r.total, Name: r.bs[i].Name})
		}
	}
}

// runShared measures a batch whose groups share each fork's workers, and returns what
// it measured of each group, by the group's index (nil for a batch of one group: the
// group is measured on its own).
func (r *groupRuns) runShared(ctx context.Context, b plan.Batch) (map[int][]*results.Measured, error) {
	if !b.Shared() {
		return nil, nil
	}
	specs := make([][]spec.Spec, len(b.Groups))
	opts := make([]driver.Options, len(b.Groups))
	for k, pg := range b.Groups {
		g, err := r.get(pg)
		if err != nil {
			return nil, err
		}
		specs[k], opts[k] = g.specs, g.copts
	}
	out := map[int][]*results.Measured{}
	for k, m := range r.batch(ctx, specs, opts) {
		out[b.Groups[k].Index] = m
	}
	return out, r.jerr
}

// measure measures group g (after what its batch measured of it, g.prior), then
// journals and reports its summaries. ctx is the run's context, dctx the driver's.
func (r *groupRuns) measure(ctx, dctx context.Context, g *groupRun, out *Outcome) error {
	if r.jerr != nil || ctx.Err() != nil {
		return r.jerr // nothing more can be kept safely
	}
	g.start()
	summaries, errs := measureGroup(dctx, g.runner, g.specs, g.copts, g.base, r.opt, g.prior, func(n int) {
		g.added += n
		r.p.add(n, g.each)
	})
	if r.jerr == nil && ctx.Err() != nil && r.opt.KeepCut {
		r.keepCut(g, summaries)
	}
	if r.jerr != nil || ctx.Err() != nil {
		return r.jerr
	}
	if err := r.j.append(journalLine{Kind: "group", Benchmarks: summaries}); err != nil {
		return err
	}
	if rest := g.planned - g.resumed + g.added - g.counted; rest > 0 {
		// Forks the plan had and no fork reported: a capacity search (journaled
		// whole), or the forks a failed target did not run.
		g.forksDone(rest, errs.any())
	}
	for k, i := range g.group {
		r.done[r.bs[i].Name] = summaries[k]
		if errs.err[k] != nil {
			out.Failed++
		}
		r.observe(Event{Kind: KindDone, Index: i, Total: r.total, Name: r.bs[i].Name, Result: &summaries[k], Err: errs.err[k]})
	}
	return nil
}

// keepCut keeps what g's benchmarks measured before the run was interrupted, the fork
// in progress included (Options.KeepCut), each marked interrupted. They are not
// journaled: a resume measures their forks again.
func (r *groupRuns) keepCut(g *groupRun, summaries []results.Benchmark) {
	for k, i := range g.group {
		b := summaries[k]
		if b.Summary.Ops == 0 && b.Summary.Errors == 0 {
			continue // nothing measured: partialGroup's journaled forks, if any, say the rest
		}
		b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnInterrupted,
			Text: "interrupted: what its forks measured before the interruption, the one in progress included"})
		r.done[r.bs[i].Name] = b
	}
}

// results are the run's results in suite order, the groups an interruption cut
// short from their finished forks, and what earlier runs journaled for this suite.
func (r *groupRuns) results(env *results.Environment) *results.Results {
	for _, pg := range r.plan.Groups() {
		for _, b := range partialGroup(r.s, r.bs, pg.Members, r.done, r.st.forks) {
			r.done[b.Name] = b
		}
	}
	res := &results.Results{SchemaVersion: results.SchemaVersion, Environment: *env,
		Command: r.opt.Command, Smoke: r.s.SmokeRun, Suite: suiteInfo(r.s), Reference: r.refs}
	for _, b := range r.bs {
		if b, ok := r.done[b.Name]; ok {
			res.Benchmarks = append(res.Benchmarks, b)
		}
	}
	for _, b := range r.st.benchmarks {
		if !contains(res.Benchmarks, b.Name) {
			res.Benchmarks = append(res.Benchmarks, b) // filtered out this time
		}
	}
	return res
}

// groupRun is one comparison group of a run: its benchmarks not yet summarized, and
// how they are measured, journaled and reported.
type groupRun struct {
	rs    *groupRuns
	plan  plan.Group
	group []int // indices into rs.bs, of the members not done
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

// get is group pg made ready (once), or nil when all its benchmarks are done.
func (r *groupRuns) get(pg plan.Group) (*groupRun, error) {
	if g, ok := r.runs[pg.Index]; ok {
		return g, nil
	}
	g := &groupRun{rs: r, plan: pg}
	for _, i := range pg.Members {
		if _, ok := r.done[r.bs[i].Name]; !ok {
			g.group = append(g.group, i)
		}
	}
	if len(g.group) == 0 {
		r.runs[pg.Index] = nil
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
		g.rounds = g.specs[0].Rounds
	}
	g.planned, g.resumed, g.each = forkPlan(r.bs, pg.Members, pg.Estimate(), r.done, r.st.forks)
	g.key = g.specs[0].RoundsGroup(g.specs[0].ServerStack)
	g.base = baselineOf(r.s, r.bs, g.group)
	g.runner = r.single
	profiles, err := r.profileDir(g)
	if err != nil {
		return nil, err
	}
	g.copts = driver.Options{Binary: r.opt.Binary, Seed: r.opt.Seed, Hosts: r.opt.Hosts, ProfileDir: profiles, TLS: r.opt.TLS,
		Observe: g.observeInterval, ForkDone: g.forkDone}
	r.runs[pg.Index] = g
	return g, nil
}

// profileDir makes the directory of g's workers' profiles, one per group when the
// run has several (the workers' file names count targets within a group; a batch's
// workers write theirs in its first group's). "" when the run is not profiled.
func (r *groupRuns) profileDir(g *groupRun) (string, error) {
	if r.opt.ProfileDir == "" {
		return "", nil
	}
	dir := r.opt.ProfileDir
	if len(r.plan.Groups()) > 1 {
		dir = filepath.Join(dir, fmt.Sprintf("group-%03d", g.group[0]))
	}
	return dir, os.MkdirAll(dir, 0o755)
}

// observeInterval reports a phase of one of g's targets (driver.Options.Observe).
func (g *groupRun) observeInterval(ev driver.Event) {
	g.start() // a group of a batch starts with its first phase
	r := g.rs
	i := g.group[ev.Target]
	r.observe(Event{Kind: KindInterval, Index: i, Total: r.total, Name: r.bs[i].Name, Interval: &ev})
}

// forkDone journals a fork of g's targets (driver.Options.ForkDone) and counts it.
func (g *groupRun) forkDone(forks map[int]*results.Fork) {
	r := g.rs
	if r.jerr = journalFork(r.j, r.st, g.specs, g.names, forks); r.jerr != nil {
		r.stop()
		return
	}
	n := len(forks) // a fork of each target it ran
	if g.rounds > 0 {
		n = 1 // one fork of every target
	}
	g.forksDone(n, measuredNothing(forks))
}

// start reports the group's start, once.
func (g *groupRun) start() {
	if g.started {
		return
	}
	g.started = true
	r := g.rs
	r.observe(Event{Kind: KindStart, Index: g.group[0], Total: r.total, Name: g.names[0], Group: g.names, GroupKey: g.key,
		Estimate: g.plan.Estimate(), Rounds: g.rounds, Resumed: g.resumed, Fork: r.p.done, Forks: r.p.forks, Left: r.p.left()})
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
