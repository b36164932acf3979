package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/results/stats"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
	"github.com/wirebench/wirebench/workers/go/engine"
)

// Options of a driver.
type Options struct {
	// Binary is the wirebench executable to start Go workers from ("" for this one).
	Binary string
	// Launch is what every worker's launcher is told beyond Binary, StartTimeout and
	// ProfileDir, which the driver sets: a language's own settings (where its worker
	// is built) and the runtime options before each benchmark's own.
	Launch launch.Options
	// TempDir holds worker control sockets and unix benchmark sockets ("" for the
	// system's temp dir).
	TempDir string
	// StartTimeout bounds a worker's start (default 10 s; three times that for a JVM).
	StartTimeout time.Duration
	// ProfileDir, when set, receives a profile of each worker process it spawns,
	// named after the worker (server-T-N, client-T-N for target T of a group, fork N):
	// a Go worker's CPU profile (.pprof), a JVM worker's JFR recording (.jfr, JFR's
	// profile settings) and GC log (.gc.log).
	ProfileDir string
	// Seed orders the targets of interleaved rounds (the same seed, the same order).
	Seed uint64
	// Observe, when set, receives events as they happen (from one goroutine at a time).
	Observe func(Event)
	// ForkDone, when set, is called after each fork that ended before ctx did, with
	// what it measured of each target it ran, by the target's index in the group (a
	// fork of MeasureGroup's sequential method runs one target; any other fork every
	// target that did not fail in an earlier one), from the goroutine that called the
	// driver.
	ForkDone func(forks map[int]*results.Fork)
	// Hosts places the workers (the zero Hosts: one server and one client worker
	// spawned here) and the link between them.
	Hosts spec.Hosts
	// FirstFork numbers the forks of this call from it: a run that adds
	// forks to a group's earlier ones (runner's --precision) keeps every fork's
	// index, profile names and round order distinct.
	FirstFork int
	// TLS holds the certificates of benchmarks over the "tls" transport, given by the
	// user: the server's certificate and key, and the CA its clients trust. When it
	// has no server certificate, each server started gets a certificate made for it
	// (transport.EphemeralTLS), and its clients trust that one alone. An outside
	// --address over TLS needs TLS.CAPEM.
	TLS transport.TLS

	// pair is the namespaces of a group run with Hosts.Netns.
	pair *nspair.Pair
}

// Event is progress reported by the driver: one finished phase of one target.
type Event struct {
	// Target is the benchmark's index in the group (0 for Measure).
	Target   int
	Fork     int // 0-based
	Interval *results.Interval
}

// Line is the one-line progress report of an event's interval.
func (e Event) Line() string {
	iv := e.Interval
	return fmt.Sprintf("fork %d %-7s %-3d %12.1f ops/s  p99 %9.1f µs  errors %d", e.Fork+1, iv.Phase, iv.Index+1,
		iv.Throughput(), float64(iv.Resp.ValueAtQuantile(99))/1e3, iv.ErrorCount())
}

// Measure measures one benchmark's forks, each with fresh workers, and returns every fork;
// a fork that failed carries its error and what it measured, and Measure stops at the
// first failure (later forks would fail the same way) and returns it too.
func Measure(ctx context.Context, s spec.Spec, opt Options) ([]*results.Fork, error) {
	r := MeasureGroup(ctx, []spec.Spec{s}, opt)[0]
	return r.Forks, r.Err
}

// MeasureGroup measures a comparison group: benchmarks that differ only in their target. With
// more than one benchmark and the interleaved method (every spec's Method), each fork
// starts every target at once, warms each up in turn, then measures in rounds (every
// spec's Rounds): each round gives every target one slice in a
// random order, so that the targets' samples are close in time and their ratios can be
// paired by round. Otherwise the benchmarks are measured one after the other. A
// benchmark that fails does not stop the others; when ctx ends, every result not
// finished carries ctx's error.
func MeasureGroup(ctx context.Context, specs []spec.Spec, opt Options) []*results.Measured {
	measured := make([]*results.Measured, len(specs))
	for i := range measured {
		measured[i] = &results.Measured{Method: spec.MethodSequential}
	}
	resolved, err := resolveAll(specs)
	if err != nil {
		for i := range measured {
			measured[i].Err = err[i]
		}
		return measured
	}
	if len(specs) > 1 && interleaved(specs) {
		for _, r := range measured {
			r.Method = spec.MethodInterleaved
		}
		runShared(ctx, [][]control.Resolved{resolved}, []Options{opt}, [][]*results.Measured{measured})
		return measured
	}
	ws, err0 := setUp(&opt, nil)
	if err0 != nil {
		failAll([][]*results.Measured{measured}, err0)
		return measured
	}
	defer ws.close()
	for i, res := range resolved {
		runSequential(ctx, res, i, opt, ws.dir, measured[i])
		if ctx.Err() != nil {
			failAll([][]*results.Measured{measured[i+1:]}, ctx.Err())
			break
		}
	}
	return measured
}

// resolveAll resolves every spec; when one does not, it returns each spec's error
// (nil for those that resolved).
func resolveAll(specs []spec.Spec) ([]control.Resolved, []error) {
	resolved := make([]control.Resolved, len(specs))
	errs := make([]error, len(specs))
	ok := true
	for i, s := range specs {
		var err error
		if resolved[i], err = control.Resolve(s); err != nil {
			errs[i], ok = err, false
		}
	}
	if !ok {
		return nil, errs
	}
	return resolved, nil
}

// failAll sets err on every result that has no error yet.
func failAll(out [][]*results.Measured, err error) {
	for _, ms := range out {
		for _, m := range ms {
			if m.Err == nil {
				m.Err = err
			}
		}
	}
}

// workspace is what a call of the driver sets up before its first fork: the
// options filled in, the hosts' network namespaces, a temporary directory for
// sockets, and for interleaved targets their isolation.
type workspace struct {
	dir  string
	iso  *isolation
	pair *nspair.Pair
}

// setUp fills opt in and sets up a workspace; specs, when given, are a group to
// isolate (isolationFor).
func setUp(opt *Options, specs []spec.Spec) (*workspace, error) {
	if err := opt.fill(); err != nil {
		return nil, err
	}
	pair, err := launch.NewPair(opt.Hosts)
	if err != nil {
		return nil, err
	}
	ws := &workspace{pair: pair}
	opt.pair = pair
	if ws.dir, err = os.MkdirTemp(opt.TempDir, "wb-"); err != nil {
		ws.close()
		return nil, err
	}
	if specs != nil {
		if ws.iso, err = isolationFor(specs, opt.Hosts); err != nil {
			ws.close()
			return nil, err
		}
	}
	return ws, nil
}

// close removes the workspace: the directory and the namespaces (the isolation is
// closed by its user, whose results its error goes to).
func (ws *workspace) close() {
	if ws.dir != "" {
		os.RemoveAll(ws.dir)
	}
	if ws.pair != nil {
		ws.pair.Close()
	}
}

// MeasureBatch measures groups that share their targets' worker processes, fork by fork:
// each fork starts every target's workers once and measures the groups on them in
// turn, each group in interleaved rounds with a warm-up of its own per target, so
// that a JVM pays its start-up and first warm-up once per fork rather than once per
// group (spec.WorkersPerFork). The batch is the caller's (package plan decides it):
// every group must have the same number of targets, target by target of the same
// spec.Spec.WorkersKey, interleaved, with the same plan; a group that does not, or
// whose benchmarks do not resolve, is run on its own (MeasureGroup), so a wrong batch
// measures right, only slower. opts[g] observes group g and is told of its forks
// (Options.ForkDone); the other options are opts[0]'s. Each benchmark's result says
// which groups its workers served (results.Measured.Workers).
func MeasureBatch(ctx context.Context, groups [][]spec.Spec, opts []Options) [][]*results.Measured {
	out := make([][]*results.Measured, len(groups))
	var batch []int // the groups run together, by index
	var rs [][]control.Resolved
	for g, specs := range groups {
		if r, ok := batchable(specs, groups[0]); ok {
			batch, rs = append(batch, g), append(rs, r)
		}
	}
	if len(batch) >= 2 {
		measured := make([][]*results.Measured, len(batch))
		bopts := make([]Options, len(batch))
		for k, g := range batch {
			measured[k] = make([]*results.Measured, len(groups[g]))
			for i := range measured[k] {
				measured[k][i] = &results.Measured{Method: spec.MethodInterleaved, Workers: &results.WorkersShare{Groups: len(batch), Position: k + 1}}
			}
			out[g], bopts[k] = measured[k], opts[g]
		}
		runShared(ctx, rs, bopts, measured)
	}
	for g, specs := range groups {
		if out[g] == nil {
			out[g] = MeasureGroup(ctx, specs, opts[g])
		}
	}
	return out
}

// runShared measures interleaved groups of the same targets on each fork's shared
// workers (runBatch), in a workspace of their own.
func runShared(ctx context.Context, rs [][]control.Resolved, opts []Options, out [][]*results.Measured) {
	specs := make([]spec.Spec, len(rs[0]))
	for i, r := range rs[0] {
		specs[i] = r.Spec
	}
	opt := opts[0]
	ws, err := setUp(&opt, specs)
	if err != nil {
		failAll(out, err)
		return
	}
	defer ws.close()
	opts = slices.Clone(opts)
	opts[0] = opt
	for _, ms := range out {
		for _, m := range ms {
			m.Isolation = ws.iso.Method()
		}
	}
	runBatch(ctx, rs, opts, ws.dir, ws.iso, out)
	if err := ws.iso.close(); err != nil {
		failAll(out, err)
	}
}

// batchable resolves the group specs when it can share the workers of the group
// first (MeasureBatch, spec.SameWorkers).
func batchable(specs, first []spec.Spec) ([]control.Resolved, bool) {
	if !spec.SameWorkers(first, specs) {
		return nil, false
	}
	rs := make([]control.Resolved, len(specs))
	for i, s := range specs {
		var err error
		if rs[i], err = control.Resolve(s); err != nil {
			return nil, false
		}
	}
	return rs, true
}

func interleaved(specs []spec.Spec) bool {
	for _, s := range specs {
		if s.Method != spec.MethodInterleaved {
			return false
		}
	}
	return true
}

func (opt *Options) fill() error {
	if err := CheckHosts(opt.Hosts); err != nil {
		return err
	}
	if opt.StartTimeout == 0 {
		opt.StartTimeout = 10 * time.Second
	}
	if opt.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		opt.Binary = exe
	}
	return nil
}

func (opt Options) observe(target, fork int, iv *results.Interval) {
	if opt.Observe != nil {
		opt.Observe(Event{Target: target, Fork: fork, Interval: iv})
	}
}

// warmupPhase and measurePhase are the phases a benchmark's plan asks for. A slice of
// an adaptive warm-up restarts an open schedule, as a round's slice does: each is
// judged on its own latency, not on a backlog left by the slices before it.
func warmupPhase(index int, d time.Duration, slice bool) *controlpb.Phase {
	return &controlpb.Phase{Kind: string(engine.Warmup), Index: int32(index), DurationNanos: int64(d), RestartSchedule: slice}
}

func measurePhase(s spec.Spec, index int, restart bool) *controlpb.Phase {
	return &controlpb.Phase{Kind: string(engine.Measure), Index: int32(index), DurationNanos: int64(s.SliceTime),
		Ops: s.SliceOps, RestartSchedule: restart}
}

// warmUp warms a target up as s says, into tr: one phase of s.Warmup, or, adaptive
// (s.WarmupMax), phases of spec.WarmupSlice until the warm-up has lasted s.Warmup
// and stats.WarmupSettled says its slices stopped changing, or until it has lasted
// s.WarmupMax. Lasted is the wall time of its own phases: a slice ends when its calls
// in flight have, which for a server far behind its schedule is later than its
// nominal length. Each phase is observed as it ends.
//
// w runs the phases. Its pause runs before each one (an interleaved group's
// keep-alive slices for the targets warmed up before this one, keepAlives), and a
// fixed warm-up longer than w.chunk runs in phases of at most w.chunk so that pause
// gets its turns; such a phase after the first restarts an open schedule, as a
// round's slice does, rather than make up for the pause.
func warmUp(ctx context.Context, w warmer, s spec.Spec, tr *results.Fork, observe func(*results.Interval)) error {
	if s.WarmupMax <= 0 {
		if s.Warmup <= 0 {
			return nil
		}
		var parts []*results.Interval
		for left := s.Warmup; left > 0; {
			d := left
			if w.chunk > 0 && d > w.chunk {
				d = w.chunk
			}
			w.pause()
			iv, err := w.phase(ctx, warmupPhase(len(parts), d, len(parts) > 0))
			if err != nil {
				return err
			}
			parts = append(parts, iv)
			left -= d
		}
		tr.Warmup = joinSlices(parts)
		if len(parts) == 1 {
			tr.Warmup = parts[0]
		}
		observe(tr.Warmup)
		return nil
	}
	open := s.Load.Kind == load.Open
	var levels []float64
	var lasted time.Duration
	for lasted < s.WarmupMax {
		w.pause()
		began := time.Now()
		iv, err := w.phase(ctx, warmupPhase(len(tr.WarmupSlices), spec.WarmupSlice, true))
		if err != nil {
			return err
		}
		lasted += time.Since(began)
		observe(iv)
		tr.WarmupSlices = append(tr.WarmupSlices, iv)
		level := iv.Level(open)
		if open && level > 0 {
			level = 1 / level
		}
		levels = append(levels, level)
		if lasted >= s.Warmup && stats.WarmupSettled(levels) {
			tr.WarmupSettled = true
			break
		}
	}
	tr.Warmup = joinSlices(tr.WarmupSlices)
	return nil
}

// warmer runs the phases of one target's warm-up (warmUp): phase runs one, pause
// runs before each, and a fixed warm-up runs in phases of at most chunk (0: one).
type warmer struct {
	phase func(context.Context, *controlpb.Phase) (*results.Interval, error)
	pause func()
	chunk time.Duration
}

// warmerOf runs t's warm-up phases as they come, with no pauses.
func warmerOf(t *target) warmer {
	return warmer{phase: t.phase, pause: func() {}}
}

// keepAlives gives the targets of one group and fork that have warmed up their
// keep-alive slices (spec.Spec.KeepAlive) while the others warm up: a target that
// has not run for its KeepAlive runs one spec.KeepAliveSlice of its own load, alone
// and not measured, counted in its fork (results.Fork.KeepAlive). A frozen target is
// idle as far as its own timers can tell: Blaze's server (http4s 0.18) closes a
// connection idle for 30 s, and measured on metrifier's group (2026-11-28), a Blaze
// pair frozen 40 s while a neighbour warmed up began its rounds at 2,860 calls/s
// where it had warmed up to 10,000, and needed most of its 20 rounds to return, where
// after a 10 s wait it began at 9,000 (docs/method.md, "Keep-alive").
type keepAlives struct {
	fork    int
	iso     *isolation
	every   []time.Duration // by target; 0: none
	lastRan []time.Time     // by target: the end of its warm-up or last keep-alive; zero before
	run     func(i int, p *controlpb.Phase) error
	forks   []*results.Fork
	fail    func(i int, err error)
	now     func() time.Time // time.Now; a test's clock
}

// warmed marks target i as warmed up now.
func (k *keepAlives) warmed(i int) { k.lastRan[i] = k.now() }

// chunk is the longest a phase of target busy's warm-up may run so that the others
// get their keep-alives on time: the shortest of their KeepAlive; 0 for none.
func (k *keepAlives) chunk(busy int) time.Duration {
	var c time.Duration
	for i, d := range k.every {
		if i != busy && d > 0 && (c == 0 || d < c) {
			c = d
		}
	}
	return c
}

// due runs the keep-alive slices due while target busy warms up.
func (k *keepAlives) due(busy int) {
	for i, d := range k.every {
		if i == busy || d <= 0 || k.lastRan[i].IsZero() || k.forks[i].Err != nil || k.now().Sub(k.lastRan[i]) < d {
			continue
		}
		err := k.iso.alone(i, func() error {
			return k.run(i, warmupPhase(0, spec.KeepAliveSlice, true))
		})
		if err != nil {
			k.fail(i, where(k.fork, "keep-alive", err))
			continue
		}
		k.forks[i].KeepAlive++
		k.lastRan[i] = k.now()
	}
}

// joinSlices merges consecutive phases of one target into one interval spanning them.
func joinSlices(ivs []*results.Interval) *results.Interval {
	m := &results.Interval{Phase: ivs[0].Phase, Interval: &record.Interval{}}
	for _, iv := range ivs {
		m.AddCounts(iv)
		m.ClientCPUs = max(m.ClientCPUs, iv.ClientCPUs)
		m.ServerCPU += iv.ServerCPU
		m.Server = iv.Server
	}
	return m
}

// runSequential measures one benchmark on its own: per fork, fresh workers, the
// warmup, then its rounds back to back, one slice each (an open schedule runs on
// across them).
func runSequential(ctx context.Context, res control.Resolved, idx int, opt Options, dir string, out *results.Measured) {
	for i := opt.FirstFork; i < opt.FirstFork+res.Spec.Forks; i++ {
		tr := &results.Fork{Index: i}
		out.Forks = append(out.Forks, tr)
		tr.Err = sequentialFork(ctx, res, idx, opt, dir, tr)
		if opt.ForkDone != nil && ctx.Err() == nil {
			opt.ForkDone(map[int]*results.Fork{idx: tr})
		}
		if tr.Err != nil {
			out.Err = tr.Err
			return
		}
	}
}

// sequentialFork measures fork tr of runSequential's benchmark on fresh workers.
func sequentialFork(ctx context.Context, res control.Resolved, idx int, opt Options, dir string, tr *results.Fork) error {
	s, i := res.Spec, tr.Index
	t, err := startTarget(ctx, res, opt, dir, i, idx)
	if err != nil {
		return where(i, "start", err)
	}
	defer t.close()
	if err := warmUp(ctx, warmerOf(t), s, tr, func(iv *results.Interval) { opt.observe(idx, i, iv) }); err != nil {
		return where(i, "warmup", err)
	}
	for k := range s.Rounds {
		iv, err := t.phase(ctx, measurePhase(s, k, false))
		if err != nil {
			return where(i, fmt.Sprintf("round %d", k+1), err)
		}
		tr.Intervals = append(tr.Intervals, iv)
		opt.observe(idx, i, iv)
	}
	return nil
}

// where says in which fork and phase err happened (a results.ForkError); a cancelled
// run is left as it is.
func where(fork int, phase string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &results.ForkError{Fork: fork, Phase: phase, Err: err}
}

// runBatch measures groups of targets that share their workers (MeasureBatch; one group
// for MeasureGroup's interleaved method), fork by fork: each fork starts the targets'
// workers once, then measures each group in turn on them, in rounds. Every group has
// the same plan (rounds, slice, forks) and, target by target, the same WorkersKey;
// each target has its own warm-up in each group. iso keeps the targets apart: each
// runs in its own warm-up and slices only, the others frozen. opts[g] observes group
// g and is told of its forks; the rest of the options are opts[0]'s.
func runBatch(ctx context.Context, groups [][]control.Resolved, opts []Options, dir string, iso *isolation, out [][]*results.Measured) {
	b := &batchRun{ctx: ctx, groups: groups, opts: opts, opt: opts[0], dir: dir, iso: iso, out: out, n: len(groups[0])}
	first := b.opt.FirstFork
	for fork := first; fork < first+groups[0][0].Spec.Forks; fork++ {
		f := &forkRun{batchRun: b, fork: fork, targets: make([]*target, b.n)}
		for g := range groups {
			if !f.measureGroup(g) {
				return // ctx ended
			}
		}
		f.release()
	}
}

// batchRun is what every fork of a batch shares (runBatch).
type batchRun struct {
	ctx    context.Context
	groups [][]control.Resolved
	opts   []Options
	opt    Options // opts[0]
	dir    string
	iso    *isolation
	out    [][]*results.Measured
	n      int // targets of each group
}

// forkRun is one fork of a batch: its targets' workers, which serve the batch's
// groups one after the other.
type forkRun struct {
	*batchRun
	fork    int
	targets []*target // by target; nil: not started, or let go
}

// drop lets target i's workers go: thawed, then stopped.
func (f *forkRun) drop(i int) error {
	if f.targets[i] == nil {
		return nil
	}
	err := f.iso.release(i)
	f.targets[i].close()
	f.targets[i] = nil
	return err
}

// release lets every target's workers go at the end of the fork; a target whose
// workers cannot be let go (thawed) runs no more forks.
func (f *forkRun) release() {
	for i, err := range f.dropAll() {
		if err == nil {
			continue
		}
		for g := range f.out {
			if f.out[g][i].Err == nil {
				f.out[g][i].Err = where(f.fork, "isolation", err)
			}
		}
	}
}

// dropAll lets every target's workers go, as drop does, and returns each target's
// error of thawing. The thawing is done in turn (the isolation is owned by one
// goroutine); the stopping at once, target by target each on a goroutine of its own:
// a worker asked to quit takes its time to exit (a JVM about a third of a second on
// the 2-vCPU machine kind, 2026-11-29), and grpc-params' 18 JVM targets, stopped in
// turn, took 13 s at the end of each fork where at once they take about 2 s
// (docs/architecture.md, "The check"). Each target still stops its clients before
// its server (target.close).
func (f *forkRun) dropAll() []error {
	errs := make([]error, len(f.targets))
	var wg sync.WaitGroup
	for i, t := range f.targets {
		if t == nil {
			continue
		}
		errs[i] = f.iso.release(i)
		f.targets[i] = nil
		wg.Go(t.close)
	}
	wg.Wait()
	return errs
}

// groupFork is one group's part of a fork.
type groupFork struct {
	*forkRun
	g    int
	rs   []control.Resolved
	recs []*results.Fork // by target
	live []int           // the targets that run in this fork
	keep *keepAlives
}

// measureGroup measures group g in this fork: its targets' workers started where
// needed, each target's session opened and warmed up alone, the rounds, the sessions
// closed. It reports false when ctx ended, with every result not finished failed.
func (f *forkRun) measureGroup(g int) bool {
	gf := &groupFork{forkRun: f, g: g, rs: f.groups[g], recs: make([]*results.Fork, f.n)}
	for i := range gf.rs {
		gf.recs[i] = &results.Fork{Index: f.fork}
		if f.out[g][i].Err != nil {
			continue // failed in an earlier fork: later ones would fail the same way
		}
		f.out[g][i].Forks = append(f.out[g][i].Forks, gf.recs[i])
		gf.live = append(gf.live, i)
	}
	gf.startWorkers()
	gf.warmUpAll()
	gf.rounds()
	gf.closeSessions()
	if f.ctx.Err() != nil {
		gf.cancel()
		return false
	}
	if done := f.opts[g].ForkDone; done != nil {
		forks := map[int]*results.Fork{}
		for _, i := range gf.live {
			forks[i] = gf.recs[i]
		}
		done(forks)
	}
	return true
}

// fail records target i's failure in this fork and lets its workers go.
func (gf *groupFork) fail(i int, err error) {
	gf.recs[i].Err = err
	if gf.out[gf.g][i].Err == nil {
		gf.out[gf.g][i].Err = err
	}
	if rerr := gf.drop(i); rerr != nil {
		gf.recs[i].Err = errors.Join(gf.recs[i].Err, rerr)
	}
}

// startWorkers starts the workers of the targets that have none (the fork's first
// group, or a target whose workers an earlier group's failure stopped), all at once:
// a fork's start-up is most of what it costs beyond its rounds, and the targets'
// workers are independent processes. Each is frozen once started, and thawed for its
// own sessions, warm-ups and slices only.
func (gf *groupFork) startWorkers() {
	starts := make([]error, gf.n)
	var wg sync.WaitGroup
	for _, i := range gf.live {
		if gf.targets[i] == nil {
			wg.Go(func() { gf.targets[i], starts[i] = spawnTarget(gf.ctx, gf.rs[i], gf.opt, gf.dir, gf.fork, i) })
		}
	}
	wg.Wait()
	for _, i := range gf.live {
		if starts[i] != nil {
			gf.fail(i, where(gf.fork, "start", starts[i]))
			continue
		}
		if t := gf.targets[i]; t != nil && t.sessions == 0 {
			if err := gf.iso.add(i, fmt.Sprintf("t%d-f%d", i, gf.fork), t.pids()); err != nil {
				gf.fail(i, where(gf.fork, "isolation", err))
			}
		}
	}
}

// warmUpAll opens each target's session (the server set up, the clients connected
// and checked) and warms it up alone; those warmed up before it get their keep-alive
// slices between its phases.
func (gf *groupFork) warmUpAll() {
	gf.keep = &keepAlives{fork: gf.fork, iso: gf.iso, every: make([]time.Duration, gf.n), now: time.Now,
		lastRan: make([]time.Time, gf.n), forks: gf.recs, fail: gf.fail,
		run: func(i int, p *controlpb.Phase) error { _, err := gf.targets[i].phase(gf.ctx, p); return err }}
	for _, i := range gf.live {
		gf.keep.every[i] = gf.rs[i].Spec.KeepAlive
	}
	for _, i := range gf.live {
		if gf.targets[i] != nil {
			gf.warmUpOne(i)
		}
	}
}

// warmUpOne opens target i's session and warms it up, alone.
func (gf *groupFork) warmUpOne(i int) {
	t := gf.targets[i]
	gf.keep.due(i)
	if err := gf.iso.alone(i, func() error { return t.open(gf.rs[i], gf.opt, gf.dir) }); err != nil {
		gf.fail(i, where(gf.fork, "start", err))
		return
	}
	w := warmer{chunk: gf.keep.chunk(i), pause: func() { gf.keep.due(i) },
		phase: func(ctx context.Context, p *controlpb.Phase) (iv *results.Interval, err error) {
			err = gf.iso.alone(i, func() error { iv, err = t.phase(ctx, p); return err })
			return iv, err
		}}
	observe := func(iv *results.Interval) { gf.opts[gf.g].observe(i, gf.fork, iv) }
	if err := warmUp(gf.ctx, w, gf.rs[i].Spec, gf.recs[i], observe); err != nil {
		gf.fail(i, where(gf.fork, "warmup", err))
		return
	}
	gf.keep.warmed(i)
}

// rounds gives every live target one slice a round, alone, in each round's order.
func (gf *groupFork) rounds() {
	plan := gf.groups[0][0].Spec
	for round, order := range Rounds(gf.n, plan.Rounds, gf.opt.Seed, uint64(gf.fork)) {
		for _, i := range order {
			gf.slice(i, round)
		}
		if gf.ctx.Err() != nil {
			return
		}
	}
}

// slice measures target i's slice of the round, when it runs in this fork.
func (gf *groupFork) slice(i, round int) {
	t := gf.targets[i]
	if !slices.Contains(gf.live, i) || t == nil || gf.recs[i].Err != nil {
		return
	}
	var iv *results.Interval
	err := gf.iso.alone(i, func() (err error) {
		iv, err = t.phase(gf.ctx, measurePhase(gf.rs[i].Spec, round, true))
		return err
	})
	if err != nil {
		gf.fail(i, where(gf.fork, fmt.Sprintf("round %d", round+1), err))
		return
	}
	gf.recs[i].Intervals = append(gf.recs[i].Intervals, iv)
	gf.opts[gf.g].observe(i, gf.fork, iv)
}

// closeSessions ends the group's sessions; the workers stay for the next group.
func (gf *groupFork) closeSessions() {
	for _, i := range gf.live {
		t := gf.targets[i]
		if t == nil || gf.recs[i].Err != nil {
			continue
		}
		if err := gf.iso.alone(i, t.closeSession); err != nil && gf.ctx.Err() == nil {
			gf.fail(i, where(gf.fork, "end of session", err))
		}
	}
}

// cancel stops every worker and fails what this group and the later ones did not
// finish with ctx's error.
func (gf *groupFork) cancel() {
	gf.dropAll()
	err := gf.ctx.Err()
	for _, i := range gf.live {
		if gf.out[gf.g][i].Err == nil {
			gf.fail(i, err)
		}
	}
	for _, rest := range gf.out[gf.g+1:] {
		for _, m := range rest {
			if m.Err == nil {
				m.Err = err
			}
		}
	}
}
