package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/summary"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// measuredOf is what an earlier run measured of a benchmark, from its journaled
// forks: nil without any; failed when one of them failed (the driver runs no fork of
// a target after one that failed).
func measuredOf(forks []*results.Fork) *results.Measured {
	if len(forks) == 0 {
		return nil
	}
	m := &results.Measured{Forks: forks}
	for _, f := range forks {
		if f.Err != nil && m.Err == nil {
			m.Err = f.Err
		}
	}
	return m
}

// forksOf is the number of forks a group has measured: one past the highest fork
// index of any of its targets.
func forksOf(ms []*results.Measured) int {
	n := 0
	for _, m := range ms {
		if m == nil {
			continue
		}
		for _, f := range m.Forks {
			n = max(n, f.Index+1)
		}
	}
	return n
}

// runForks measures a group with runGroup (driver.MeasureGroup or MeasureOneProcess) until
// each benchmark has want forks, after the forks prev holds (nil: none), and returns
// every fork, prev's first. An
// interleaved group runs its next forks over the targets that have not failed, all
// together, numbered on from the group's last; any other benchmark runs the forks it
// lacks on its own. opt's Observe and ForkDone see the group's target indices; when a
// call runs only some of the targets, their profiles go to a subdirectory of
// opt.ProfileDir named after them (targets-0-2), since the driver names profiles by
// the target's index in the call.
func runForks(ctx context.Context, runGroup groupRunner, specs []spec.Spec, opt driver.Options, prev []*results.Measured, want int) []*results.Measured {
	if forksOf(prev) == 0 && !slices.ContainsFunc(prev, func(m *results.Measured) bool { return m != nil && m.Err != nil }) {
		return runGroup(ctx, withForks(specs, want), opt)
	}
	interleaved := len(specs) > 1 && specs[0].Method == spec.MethodInterleaved
	method := spec.MethodSequential
	if interleaved {
		method = spec.MethodInterleaved
	}
	f := &moreForks{run: runGroup, specs: specs, opt: opt, want: want, out: make([]*results.Measured, len(specs))}
	for k := range specs {
		f.out[k] = &results.Measured{Method: method}
		if k < len(prev) && prev[k] != nil {
			f.out[k].Forks, f.out[k].Err = slices.Clone(prev[k].Forks), prev[k].Err
			f.out[k].Isolation, f.out[k].Workers = prev[k].Isolation, prev[k].Workers
		}
	}
	if interleaved {
		var live []int
		for k := range specs {
			if f.out[k].Err == nil {
				live = append(live, k)
			}
		}
		// A target that lacks forks the others have (its failed ones, dropped by a
		// resume) gets them in forks of every target, numbered on from the group's last,
		// so that its new forks pair with the others'.
		first := forksOf(f.out)
		f.want = max(want, first+want-fewest(f.out, live))
		if f.want > first && len(live) > 0 {
			f.targets(ctx, live, first)
		}
		return f.out
	}
	for k := range specs {
		if f.out[k].Err != nil || len(f.out[k].Forks) >= want {
			continue
		}
		if ctx.Err() != nil {
			f.out[k].Err = ctx.Err()
			continue
		}
		f.targets(ctx, []int{k}, forksOf(f.out[k:k+1]))
	}
	return f.out
}

// fewest is the fewest forks any of the targets has.
func fewest(out []*results.Measured, targets []int) int {
	n := -1
	for _, k := range targets {
		if n < 0 || len(out[k].Forks) < n {
			n = len(out[k].Forks)
		}
	}
	return max(n, 0)
}

// moreForks runs the forks a group lacks (runForks) for some of its targets at a time.
type moreForks struct {
	run   groupRunner
	specs []spec.Spec
	opt   driver.Options
	want  int
	out   []*results.Measured // by the group's target, prev's forks first
}

// targets runs the forks from first to want of the group's targets (indices into
// specs), its events and forks told by the group's target indices.
func (f *moreForks) targets(ctx context.Context, targets []int, first int) {
	sub := make([]spec.Spec, len(targets))
	for j, k := range targets {
		sub[j] = f.specs[k]
	}
	o, err := f.options(targets, first)
	if err != nil {
		for _, k := range targets {
			f.out[k].Err = err
		}
		return
	}
	for j, r := range f.run(ctx, withForks(sub, f.want-first), o) {
		k := targets[j]
		f.out[k].Forks = append(f.out[k].Forks, r.Forks...)
		if f.out[k].Err == nil {
			f.out[k].Err = r.Err
		}
		if f.out[k].Isolation == "" {
			f.out[k].Isolation = r.Isolation // a journaled fork does not say how it was isolated
		}
	}
}

// options are the driver's options for a call on targets from fork first: its
// events and forks mapped back to the group's target indices, and, when the call runs
// only some of the targets, their profiles in a subdirectory named after them.
func (f *moreForks) options(targets []int, first int) (driver.Options, error) {
	opt := f.opt
	o := opt
	o.FirstFork = first
	if opt.Observe != nil {
		o.Observe = func(ev driver.Event) {
			ev.Target = targets[ev.Target]
			opt.Observe(ev)
		}
	}
	if opt.ForkDone != nil {
		o.ForkDone = func(forks map[int]*results.Fork) {
			mapped := map[int]*results.Fork{}
			for j, f := range forks {
				mapped[targets[j]] = f
			}
			opt.ForkDone(mapped)
		}
	}
	if opt.ProfileDir != "" && len(targets) < len(f.specs) {
		names := make([]string, len(targets))
		for j, k := range targets {
			names[j] = strconv.Itoa(k)
		}
		o.ProfileDir = filepath.Join(opt.ProfileDir, "targets-"+strings.Join(names, "-"))
		return o, os.MkdirAll(o.ProfileDir, 0o755)
	}
	return o, nil
}

// withForks is specs with n forks each.
func withForks(specs []spec.Spec, n int) []spec.Spec {
	out := slices.Clone(specs)
	for k := range out {
		out[k].Forks = n
	}
	return out
}

// journalFork journals one fork of a group (driver.Options.ForkDone) and adds it to
// st, where the results of an interrupted run find it.
func journalFork(j *journal, st *journalState, specs []spec.Spec, names []string, forks map[int]*results.Fork) error {
	line := journalLine{Kind: "fork"}
	for k := range specs {
		f, ok := forks[k]
		if !ok {
			continue
		}
		r, err := forkRecordOf(names[k], specSettings(specs[k]), f)
		if err != nil {
			return fmt.Errorf("journaling %s: %w", names[k], err)
		}
		line.Forks = append(line.Forks, r)
	}
	if err := j.append(line); err != nil {
		return err
	}
	for k, f := range forks {
		st.forks[names[k]] = append(st.forks[names[k]], f)
		st.settings[names[k]] = specSettings(specs[k])
	}
	return nil
}

// forkPlan is the forks of one group of bs: how many its plan has, how many are
// finished (summarized, or journaled by an earlier run: forks), and the planned time
// of each, from the group's estimate (plan.Group.Estimate).
func forkPlan(bs []suite.Benchmark, group []int, estimate time.Duration, done map[string]results.Benchmark, forks map[string][]*results.Fork) (total, finished int, each time.Duration) {
	first := bs[group[0]].Spec
	switch {
	case first.Capacity != nil:
		total = 1
		if _, ok := done[bs[group[0]].Name]; ok {
			finished = 1
		}
	case len(group) > 1 && first.Method == spec.MethodInterleaved:
		total = first.Forks
		all := true
		for _, i := range group {
			if _, ok := done[bs[i].Name]; !ok {
				all = false
				finished = max(finished, forksOf([]*results.Measured{measuredOf(forks[bs[i].Name])}))
			}
		}
		if all {
			finished = total
		}
		finished = min(finished, total)
	default:
		for _, i := range group {
			n := bs[i].Spec.Forks
			total += n
			m := measuredOf(forks[bs[i].Name])
			if _, ok := done[bs[i].Name]; ok || m != nil && m.Err != nil {
				finished += n // a failed benchmark runs no more forks
			} else if m != nil {
				finished += min(len(m.Forks), n)
			}
		}
	}
	return total, finished, estimate / time.Duration(total)
}

// pace follows a run's forks against its plan, for Event's Fork, Forks and Left.
type pace struct {
	forks, done int
	// todo is the planned time of the forks not finished, planned that of the forks
	// finished since start.
	todo, planned time.Duration
	start         time.Time
	// refs is the planned time of the references not measured yet (a batch's two,
	// plan.Batch.Reference each), which take their set time however the forks run.
	refs time.Duration
}

// newPace adds up the forks of pl's groups and their planned time, counting those an
// earlier run summarized (done) or journaled (forks) as finished.
func newPace(pl *plan.Plan, done map[string]results.Benchmark, forks map[string][]*results.Fork) *pace {
	p := &pace{start: time.Now()}
	for _, g := range pl.Groups() {
		total, finished, each := forkPlan(pl.Benchmarks, g.Members, g.Estimate(), done, forks)
		p.forks += total
		p.done += finished
		p.todo += time.Duration(total-finished) * each
	}
	return p
}

// finished counts n forks of the given planned time each as finished; add counts n
// more forks in the plan.
func (p *pace) finished(n int, each time.Duration) {
	p.done += n
	p.todo = max(p.todo-time.Duration(n)*each, 0)
	p.planned += time.Duration(n) * each
}

// dropped counts n forks of the given planned time each as settled without running
// (their benchmark failed): no longer to do, and not part of how the finished forks
// took against their plan, which forks that failed at once would bring to nothing.
func (p *pace) dropped(n int, each time.Duration) {
	p.done += n
	p.todo = max(p.todo-time.Duration(n)*each, 0)
}

// referenced counts a reference of planned time d as measured (or not to be).
func (p *pace) referenced(d time.Duration) { p.refs = max(p.refs-d, 0) }

func (p *pace) add(n int, each time.Duration) {
	p.forks += n
	p.todo += time.Duration(n) * each
}

// left is the time the forks not finished should take, their planned time scaled by
// how long the forks finished since start took against theirs, and the references
// left.
func (p *pace) left() time.Duration {
	if p.planned <= 0 {
		return p.todo + p.refs
	}
	return time.Duration(float64(p.todo)*float64(time.Since(p.start))/float64(p.planned)) + p.refs
}

// partialGroup summarizes the benchmarks of group (indices into bs) that are not
// summarized (done) but have finished forks, from those forks, with their ratios to
// each other and a warning that says how many of their forks they have: the results
// of a group that an interruption cut short.
func partialGroup(s *suite.Suite, bs []suite.Benchmark, group []int, done map[string]results.Benchmark, forks map[string][]*results.Fork) []results.Benchmark {
	var have []int
	for _, i := range group {
		if _, ok := done[bs[i].Name]; !ok && len(forks[bs[i].Name]) > 0 {
			have = append(have, i)
		}
	}
	if len(have) == 0 {
		return nil
	}
	total, finished, _ := forkPlan(bs, group, 0, done, forks)
	interleaved := len(group) > 1 && bs[group[0]].Spec.Method == spec.MethodInterleaved
	specs := make([]spec.Spec, len(have))
	m := measured{results: make([]*results.Measured, len(have))}
	for k, i := range have {
		specs[k] = bs[i].Spec
		m.results[k] = measuredOf(forks[bs[i].Name])
		m.results[k].Method = spec.MethodSequential
		if interleaved {
			m.results[k].Method = spec.MethodInterleaved
		}
	}
	out := summarize(specs, m)
	if len(out) > 1 {
		summary.Group(out, baselineOf(s, bs, have))
	}
	for k := range out {
		w := fmt.Sprintf("%d of its group's %d forks finished; resuming the run (run --resume) measures the rest", finished, total)
		if !interleaved {
			w = fmt.Sprintf("%d of its %d forks finished; resuming the run (run --resume) measures the rest", len(m.results[k].Forks), specs[k].Forks)
		}
		out[k].Warnings = append(out[k].Warnings, results.Warning{Kind: results.WarnInterrupted, Text: w})
	}
	return out
}
