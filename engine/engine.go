// Package engine runs a workload against clients of any protocol under a load model,
// and records every call.
//
// A run is a sequence of phases: an optional warmup, then measurement iterations. A
// phase ends after a time (duration mode) or a number of ops (op-count mode); its
// callers finish the calls they have in flight, the phase's recorders are drained into
// one record.Interval, and the next phase starts, as JMH separates its iterations. In
// an open model the arrival schedule runs on across phases from the run's start, so
// a slow phase end shows up as lag in the next phase rather than vanishing.
//
// Timing: every call has an intended start (the schedule's time in an open model, the
// actual start in a closed one), a start and an end; response time = end − intended,
// service time = end − start, lag = start − intended.
package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/record"
)

// Phase says what an interval was for.
type Phase string

const (
	Warmup  Phase = "warmup"
	Measure Phase = "measure"
)

// Config is one run.
type Config struct {
	// Op is the workload operation to call (contract.Workload.New).
	Op contract.Op
	// Clients are the connections, one per Model.Connections; callers are dealt to
	// them round-robin. Each must be safe for concurrent use.
	Clients []contract.Service
	// Model is the load model, normalized (load.Model.Normalize).
	Model load.Model
	// Warmup is how long to run before measuring; its interval is reported with
	// Phase Warmup and left out of the results.
	Warmup time.Duration
	// Iterations is the number of measurement intervals (at least 1).
	Iterations int
	// IterationTime is the length of each iteration; IterationOps, when set instead,
	// is the number of ops (arrivals, in an open model) of each iteration.
	IterationTime time.Duration
	IterationOps  int64
	// CallTimeout fails a call that takes longer (0: no limit but the run's context).
	// It is enforced by a watchdog that looks every CallTimeout/20 (at least 1 ms), so
	// a call may run up to 5 % longer before it is cut.
	CallTimeout time.Duration
	// Seed makes Poisson schedules repeatable.
	Seed uint64
	// OnInterval, when set, is called from Run's goroutine with each finished phase,
	// before the next starts (so the caller can read byte counters and CPU at the
	// boundary). iv belongs to the callee.
	OnInterval func(phase Phase, index int, iv *record.Interval)
}

// Result is what a run measured.
type Result struct {
	// Intervals are the measurement iterations that finished, in order.
	Intervals []*record.Interval
	// Warmup is the warmup interval (nil without warmup).
	Warmup *record.Interval
	// FirstErrors keeps the text of the first error of each kind, for reports.
	FirstErrors map[record.ErrorKind]string
}

// ErrCallTimeout is the cause of a call cut by Config.CallTimeout.
var ErrCallTimeout = errors.New("call timeout")

func (c *Config) check() error {
	switch {
	case c.Op == nil:
		return errors.New("engine: no op")
	case len(c.Clients) != c.Model.Connections || len(c.Clients) == 0:
		return fmt.Errorf("engine: %d clients for %d connections", len(c.Clients), c.Model.Connections)
	case c.Iterations < 1:
		return fmt.Errorf("engine: %d iterations, want at least 1", c.Iterations)
	case (c.IterationTime > 0) == (c.IterationOps > 0):
		return errors.New("engine: set exactly one of IterationTime and IterationOps")
	case c.Warmup < 0 || c.CallTimeout < 0:
		return errors.New("engine: negative warmup or call timeout")
	}
	return nil
}

// Run runs cfg until its iterations are done or ctx ends. When ctx ends, the calls in
// flight are cancelled, Run returns within about a second with the intervals that
// finished, and the error is ctx's.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	r := newRun(ctx, &cfg)
	defer r.stop()
	res := &Result{FirstErrors: r.firstErrors}
	phases := cfg.Iterations
	if cfg.Warmup > 0 {
		phases++
	}
	for i := range phases {
		phase, idx, ph := Measure, i, phaseSpec{duration: cfg.IterationTime, ops: cfg.IterationOps}
		if cfg.Warmup > 0 {
			idx = i - 1
			if i == 0 {
				phase, idx, ph = Warmup, 0, phaseSpec{duration: cfg.Warmup}
			}
		}
		iv := r.runPhase(ph)
		if err := ctx.Err(); err != nil {
			return res, err // the cut-short phase is not a measurement
		}
		if phase == Warmup {
			res.Warmup = iv
		} else {
			res.Intervals = append(res.Intervals, iv)
		}
		if cfg.OnInterval != nil {
			cfg.OnInterval(phase, idx, iv)
		}
	}
	return res, nil
}

type phaseSpec struct {
	duration time.Duration
	ops      int64
}

// run is the state that lasts across phases.
type run struct {
	ctx     context.Context
	cfg     *Config
	open    bool
	recs    []*record.Recorder
	callers []*caller
	pacer   load.Pacer
	fine    *fineTimer // the dispatcher's precise sleep; nil: Go timers only
	begin   time.Time  // the open schedule's time zero
	pending *time.Time // an arrival drawn past a phase's end, for the next phase
	seq     uint64     // the open model's next sequence number (the dispatcher's alone)

	errMu       sync.Mutex
	firstErrors map[record.ErrorKind]string

	watchStop chan struct{}
	watchDone chan struct{}
}

// caller is one goroutine's slot: its client, recorder and call context.
//
// Timeouts: while a call is in flight, started holds its start (UnixNano). The
// watchdog claims an expired call by swapping started to claimed, then cancels the
// context it loaded before the swap, with cause ErrCallTimeout; the caller sees the
// claim when its own swap back to idle fails, counts a timeout, and makes a fresh
// context if the old one was cancelled. The swap decides: a call the watchdog did not
// claim is never counted as timed out, and a claimed one always is.
type caller struct {
	client  contract.Service
	rec     *record.Recorder
	cc      atomic.Pointer[callCtx]
	started atomic.Int64
	next    uint64 // the closed model's next sequence number
}

type callCtx struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
}

const claimed = -1

func (c *caller) renew(parent context.Context) {
	ctx, cancel := context.WithCancelCause(parent)
	c.cc.Store(&callCtx{ctx, cancel})
}

// shards is the number of recorders callers share: enough that the callers running at
// one moment (at most one per CPU) rarely meet on a lock, few enough that memory
// (three 220 KiB histograms a recorder) stays small with thousands of callers and
// that draining them at each phase end (about 0.8 ms a recorder: the histograms are
// merged and cleared) stays short, since an open schedule runs on meanwhile and the
// next phase's first arrivals start late by that much.
func shards(callers int) int { return max(1, min(callers, 2*runtime.GOMAXPROCS(0), 32)) }

func newRun(ctx context.Context, cfg *Config) *run {
	r := &run{ctx: ctx, cfg: cfg, open: cfg.Model.Kind == load.Open,
		firstErrors: map[record.ErrorKind]string{}}
	n := cfg.Model.Concurrency
	r.recs = make([]*record.Recorder, shards(n))
	for i := range r.recs {
		r.recs[i] = record.NewRecorder(r.open)
	}
	r.callers = make([]*caller, n)
	for i := range r.callers {
		c := &caller{client: cfg.Clients[load.ConnectionOf(i, len(cfg.Clients))], rec: r.recs[i%len(r.recs)], next: uint64(i)}
		c.renew(ctx)
		r.callers[i] = c
	}
	if r.open {
		r.pacer = load.NewPacer(cfg.Model, cfg.Seed)
		r.fine = newFineTimer()
		r.begin = time.Now()
	}
	if cfg.CallTimeout > 0 {
		r.watchStop, r.watchDone = make(chan struct{}), make(chan struct{})
		go r.watchdog()
	}
	return r
}

func (r *run) stop() {
	if r.fine != nil {
		r.fine.close()
	}
	if r.watchStop != nil {
		close(r.watchStop)
		<-r.watchDone
	}
	for _, c := range r.callers {
		c.cc.Load().cancel(context.Canceled)
	}
}

func (r *run) watchdog() {
	defer close(r.watchDone)
	tick := max(r.cfg.CallTimeout/20, time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	limit := int64(r.cfg.CallTimeout)
	for {
		select {
		case <-r.watchStop:
			return
		case now := <-t.C:
			for _, c := range r.callers {
				s := c.started.Load()
				if s <= 0 || now.UnixNano()-s <= limit {
					continue
				}
				cc := c.cc.Load()
				if c.started.CompareAndSwap(s, claimed) {
					cc.cancel(ErrCallTimeout)
				}
			}
		}
	}
}

// runPhase runs one phase and returns its interval.
func (r *run) runPhase(ph phaseSpec) *record.Interval {
	start := time.Now()
	var deadline time.Time
	if ph.duration > 0 {
		deadline = start.Add(ph.duration)
	}
	var wg sync.WaitGroup
	var overflow int64
	if r.open {
		jobs := make(chan job)
		for _, c := range r.callers {
			wg.Go(func() { r.serveJobs(c, jobs) })
		}
		overflow = r.dispatch(jobs, deadline, ph.ops)
		close(jobs)
	} else {
		var budget *atomic.Int64
		if ph.ops > 0 {
			budget = new(atomic.Int64)
			budget.Store(ph.ops)
		}
		for _, c := range r.callers {
			wg.Go(func() { r.closedLoop(c, deadline, budget) })
		}
	}
	wg.Wait()
	end := time.Now() // the last call's end: draining is not part of the phase
	iv := record.NewInterval(r.open)
	for _, rec := range r.recs {
		rec.Drain(iv)
	}
	iv.Start, iv.End, iv.Overflow = start, end, overflow
	return iv
}

// closedLoop calls back to back until the deadline passes, the budget is spent, or the
// run ends. Caller i of n takes sequence numbers i, i+n, i+2n, ... across the whole
// run, so ops pick ids in turn and never repeat one without sharing a counter.
//
// The deadline is checked against the end of the caller's last call, which is the
// time the next call would start: two clock reads a call, not three.
func (r *run) closedLoop(c *caller, deadline time.Time, budget *atomic.Int64) {
	n := uint64(len(r.callers))
	now := time.Now()
	for {
		if r.ctx.Err() != nil || (!deadline.IsZero() && !now.Before(deadline)) {
			return
		}
		if budget != nil && budget.Add(-1) < 0 {
			return
		}
		now = r.call(c, c.next, time.Time{})
		c.next += n
	}
}

// call makes one call that was intended at intended, records it, and returns its end.
func (r *run) call(c *caller, seq uint64, intended time.Time) time.Time {
	cc := c.cc.Load()
	start := time.Now()
	timed := r.watchStop != nil
	if timed {
		c.started.Store(start.UnixNano())
	}
	err := r.cfg.Op(cc.ctx, c.client, seq)
	end := time.Now()
	timedOut := timed && !c.started.CompareAndSwap(start.UnixNano(), 0)
	if timedOut {
		c.started.Store(0)
	}
	if intended.IsZero() {
		intended = start // closed model: a call is due when it starts
	}
	if err == nil && !timedOut {
		// The context can only be spent here if the run is stopping, which the
		// caller's loop sees before its next call.
		c.rec.Record(intended, start, end)
		return end
	}
	if cc.ctx.Err() != nil {
		c.renew(r.ctx) // the context is spent; the next call gets a fresh one
	}
	var kind record.ErrorKind
	switch {
	case timedOut:
		kind = record.Timeout
		if err == nil {
			err = fmt.Errorf("%w: answered after %v", ErrCallTimeout, end.Sub(start))
		}
	case r.ctx.Err() != nil:
		return end // the run is stopping; this phase is discarded anyway
	default:
		kind = record.Classify(err)
	}
	c.rec.RecordError(kind)
	r.noteError(kind, err)
	return end
}

func (r *run) noteError(kind record.ErrorKind, err error) {
	r.errMu.Lock()
	if _, ok := r.firstErrors[kind]; !ok {
		r.firstErrors[kind] = err.Error()
	}
	r.errMu.Unlock()
}

// job is one open-model arrival.
type job struct {
	seq      uint64
	intended time.Time
}

func (r *run) serveJobs(c *caller, jobs <-chan job) {
	for j := range jobs {
		r.call(c, j.seq, j.intended)
	}
}

// dispatch hands arrivals to idle callers on schedule until the deadline or the op
// count, and returns how many arrivals found every caller busy. Such an arrival waits
// for a caller: it is never dropped, and its lag and response time count the wait.
func (r *run) dispatch(jobs chan<- job, deadline time.Time, ops int64) (overflow int64) {
	done := r.ctx.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for n := int64(0); ops == 0 || n < ops; n++ {
		at := r.nextArrival()
		if !deadline.IsZero() && !at.Before(deadline) {
			r.pending = &at // it belongs to the next phase
			return overflow
		}
		if !r.sleepUntil(at, timer, done) {
			return overflow
		}
		j := job{seq: r.seq, intended: at}
		r.seq++
		select {
		case jobs <- j:
			continue
		default:
		}
		overflow++
		select {
		case jobs <- j:
		case <-done:
			return overflow
		}
	}
	return overflow
}

// coarseSlack is how late a Go timer may fire when the process is idle (its
// epoll_wait timeout is in whole milliseconds), with a margin.
const coarseSlack = 2 * time.Millisecond

// fineQuantum is the fine timer's granularity (see sleepUntil).
const fineQuantum = 100 * time.Microsecond

// sleepUntil waits until at, or returns false when the run ends first. Long waits
// sleep on a Go timer up to coarseSlack before at, the rest on the fine timer, which
// is unresponsive to the run's end for at most coarseSlack.
//
// The wake-up is rounded up to a multiple of fineQuantum on the schedule's clock, so
// at high rates one wake-up (three system calls) starts every arrival due in its
// quantum: lag grows by at most fineQuantum, the timer's cost falls with the rate.
func (r *run) sleepUntil(at time.Time, timer *time.Timer, done <-chan struct{}) bool {
	if off := at.Sub(r.begin) % fineQuantum; off > 0 {
		at = at.Add(fineQuantum - off)
	}
	wait := time.Until(at)
	if wait <= 0 {
		return true
	}
	if r.fine != nil && wait > coarseSlack {
		wait -= coarseSlack
	}
	if r.fine == nil || wait > coarseSlack {
		timer.Reset(wait)
		select {
		case <-timer.C:
		case <-done:
			return false
		}
	}
	if wait := time.Until(at); wait > 0 && r.fine != nil && !r.fine.sleep(wait) {
		// The fine timer failed: the coarse one is late but sure.
		r.fine.close()
		r.fine = nil
		return r.sleepUntil(at, timer, done)
	}
	return true
}

func (r *run) nextArrival() time.Time {
	if p := r.pending; p != nil {
		r.pending = nil
		return *p
	}
	return r.begin.Add(r.pacer.Next())
}
