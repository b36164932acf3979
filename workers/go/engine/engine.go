// Package engine runs a workload against clients of any protocol under a load model,
// and records every call.
//
// A Session is a sequence of phases its caller asks for one at a time, e.g.
// a warm-up, then measured slices. A phase ends after a time (duration mode) or a number of ops (op-count mode); its
// callers finish the calls they have in flight, the phase's recorders are drained into
// one record.Interval, and the next phase starts, as JMH separates its iterations. In
// an open model the arrival schedule runs on across phases from the session's start, so
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
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/finetimer"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/spec/load"
)

// Phase says what an interval was for.
type Phase string

const (
	Warmup  Phase = "warmup"
	Measure Phase = "measure"
)

// Config is one session: its op, clients and load model. A Session runs it phase by
// phase, as its caller asks.
type Config struct {
	// Op is the workload operation to call (contract.Workload.New).
	Op contract.Op
	// Clients are the connections, one per Model.Connections; callers are dealt to
	// them round-robin. Each must be safe for concurrent use.
	Clients []contract.Service
	// Model is the load model, normalized (load.Model.Normalize).
	Model load.Model
	// CallTimeout fails a call that takes longer (0: no limit but the session's context).
	// It is enforced by a watchdog that looks every CallTimeout/20 (at least 1 ms), so
	// a call may run up to 5 % longer before it is cut.
	CallTimeout time.Duration
	// Seed makes Poisson schedules repeatable.
	Seed uint64
	// SeqOffset and SeqStride place this session's sequence numbers among those of other
	// runs sharing one benchmark (several load generators): caller i of n takes
	// SeqOffset + SeqStride×(i + k×n). Zero values mean 0 and 1.
	SeqOffset, SeqStride uint64
	// Clock is the time the session reads and the open schedule waits on; nil is the
	// machine's (see Clock).
	Clock Clock
}

// Clock is a session's time: every call's intended start, start and end, the phases'
// bounds and deadlines, and the open schedule's waits. Tests inject one to make timing
// deterministic (Go's clock inside a testing/synctest bubble, where time is virtual).
//
// Now is called twice a call by every caller and by the watchdog, so it must be safe
// for concurrent use; Wait is called by one goroutine, the open model's dispatcher.
//
// The machine's clock, used when Config.Clock is nil, reads the monotonic clock once
// per Now (time.Now reads the wall clock too) and ends each wait on a precise timer
// (internal/finetimer). It is built into the session rather than being an implementation
// of this interface, so that the hot path's two reads a call stay direct calls.
type Clock interface {
	Now() time.Time
	// Wait waits until at, and returns false if done is closed first.
	Wait(at time.Time, done <-chan struct{}) bool
}

// ErrCallTimeout is the cause of a call cut by Config.CallTimeout.
var ErrCallTimeout = errors.New("call timeout")

func (c *Config) check() error {
	switch {
	case c.Op == nil:
		return errors.New("engine: no op")
	case len(c.Clients) != c.Model.Connections || len(c.Clients) == 0:
		return fmt.Errorf("engine: %d clients for %d connections", len(c.Clients), c.Model.Connections)
	case c.CallTimeout < 0:
		return errors.New("engine: negative call timeout")
	}
	return nil
}

// PhaseSpec is one phase of a Session.
type PhaseSpec struct {
	// The phase lasts Duration, or Ops ops (arrivals, in an open model): exactly one
	// is set. It ends when the calls in flight have finished.
	Duration time.Duration
	Ops      int64
	// RestartSchedule (open model) starts the arrival schedule afresh at the phase's
	// start, the first arrival due at once, as a slice of an interleaved round needs
	// after the target sat idle. Otherwise the schedule runs on from the previous
	// phase, and the gap between phases shows up as lag.
	RestartSchedule bool
	// Rate (open model), when > 0, replaces the model's rate from this phase on and
	// restarts the schedule.
	Rate float64
}

// Session is one load of a workload on clients, from its first phase to its last: its
// caller asks for the phases one at a time, with the clients connected and the
// callers' state kept in between. It is owned by one goroutine.
type Session struct {
	r *sessionState
}

// Start prepares a session over cfg. No call is made until Phase.
func Start(ctx context.Context, cfg Config) (*Session, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &Session{r: newSessionState(ctx, &cfg)}, nil
}

// Phase runs one phase and returns its interval, with the first error of each kind
// met during it. When the session's context ends, the calls in flight are cancelled
// and the error is the context's; the cut-short interval is not returned.
func (s *Session) Phase(ph PhaseSpec) (*record.Interval, error) {
	switch {
	case (ph.Duration > 0) == (ph.Ops > 0):
		return nil, errors.New("engine: a phase needs exactly one of a duration and an op count")
	case ph.Rate < 0 || math.IsInf(ph.Rate, 0) || math.IsNaN(ph.Rate):
		return nil, fmt.Errorf("engine: phase rate %v, want a positive rate (or 0 to keep the model's)", ph.Rate)
	case ph.Rate > 0 && !s.r.open:
		return nil, errors.New("engine: a phase rate needs the open model")
	}
	r := s.r
	// The schedule starts with the first phase, not at Start: a contract check or a
	// driver's round trip between the two is no lag of the generator's.
	if r.open && (ph.RestartSchedule || ph.Rate > 0 || r.starts == 0) {
		r.restartSchedule(ph.Rate)
	}
	iv := r.runPhase(ph)
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	return iv, nil
}

// Close stops the session: its watchdog and timer end, and any call still in flight
// is cancelled. It does not close the clients.
func (s *Session) Close() { s.r.stop() }

// sessionState is a Session's state, which lasts across its phases.
type sessionState struct {
	ctx     context.Context
	cfg     *Config
	open    bool
	recs    []*record.Recorder
	callers []*caller
	pacer   load.Pacer
	fine    *finetimer.Timer // the dispatcher's precise sleep; nil: Go timers only
	begin   time.Time        // the open schedule's time zero
	pending *time.Time       // an arrival drawn past a phase's end, for the next phase
	window  time.Time        // where the next phase's part of the open schedule begins (see runPhase)
	last    time.Time        // the intended time of the last arrival handed out
	seq     uint64           // the open model's next sequence number (the dispatcher's alone)
	stride  uint64           // the step between this session's sequence numbers
	busy    atomic.Int64     // open model: arrivals handed to callers (or waiting for one) and not finished
	model   load.Model       // the model, with the rate of the current schedule
	starts  uint64           // schedules started, to vary a restarted Poisson schedule's seed

	errMu       sync.Mutex
	firstErrors map[record.ErrorKind]string

	watchStop chan struct{}
	watchDone chan struct{}

	clock Clock     // nil: the machine's clock, from epoch and fine
	epoch time.Time // the origin of the machine clock's readings
}

// now returns the current time: the injected clock's, or the machine's from one read
// of the monotonic clock (time.Now reads the wall clock too, a second clock read per
// call). The machine's wall part is the session's start plus the monotonic time since, so
// it does not follow steps of the wall clock; only differences of these times are
// used.
func (r *sessionState) now() time.Time {
	if r.clock != nil {
		return r.clock.Now()
	}
	return r.epoch.Add(time.Since(r.epoch))
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

func newSessionState(ctx context.Context, cfg *Config) *sessionState {
	r := &sessionState{ctx: ctx, cfg: cfg, open: cfg.Model.Kind == load.Open, model: cfg.Model,
		stride: max(cfg.SeqStride, 1), seq: cfg.SeqOffset, clock: cfg.Clock, epoch: time.Now()}
	n := cfg.Model.Concurrency
	r.recs = make([]*record.Recorder, shards(n))
	for i := range r.recs {
		r.recs[i] = record.NewRecorder(r.open)
	}
	r.callers = make([]*caller, n)
	for i := range r.callers {
		c := &caller{client: cfg.Clients[load.ConnectionOf(i, len(cfg.Clients))], rec: r.recs[i%len(r.recs)],
			next: cfg.SeqOffset + r.stride*uint64(i)}
		c.renew(ctx)
		r.callers[i] = c
	}
	if r.open && r.clock == nil {
		r.fine = finetimer.New()
	}
	if cfg.CallTimeout > 0 {
		r.watchStop, r.watchDone = make(chan struct{}), make(chan struct{})
		go r.watchdog()
	}
	return r
}

func (r *sessionState) stop() {
	if r.fine != nil {
		r.fine.Close()
	}
	if r.watchStop != nil {
		close(r.watchStop)
		<-r.watchDone
	}
	for _, c := range r.callers {
		c.cc.Load().cancel(context.Canceled)
	}
}

func (r *sessionState) watchdog() {
	defer close(r.watchDone)
	tick := max(r.cfg.CallTimeout/20, time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	limit := int64(r.cfg.CallTimeout)
	for {
		select {
		case <-r.watchStop:
			return
		case <-t.C:
			now := r.now() // the callers' clock
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

// restartSchedule starts the open schedule afresh now, at rate when > 0 (else the
// current one). A restarted Poisson schedule draws new gaps (the seed moves on), so
// slices of one session do not repeat one pattern.
func (r *sessionState) restartSchedule(rate float64) {
	if rate > 0 {
		r.model.Rate = rate
	}
	r.pacer = load.NewPacer(r.model, r.cfg.Seed+r.starts)
	r.starts++
	r.pending = nil
	r.begin = r.now()
	r.window = r.begin
}

// runPhase runs one phase and returns its interval.
func (r *sessionState) runPhase(ph PhaseSpec) *record.Interval {
	start := r.now()
	var deadline time.Time
	if ph.Duration > 0 {
		deadline = start.Add(ph.Duration)
	}
	var wg sync.WaitGroup
	var overflow int64
	if r.open {
		jobs := make(chan job)
		for _, c := range r.callers {
			wg.Go(func() { r.serveJobs(c, jobs) })
		}
		overflow = r.dispatch(jobs, deadline, ph.Ops)
		close(jobs)
	} else {
		var budget *atomic.Int64
		if ph.Ops > 0 {
			budget = new(atomic.Int64)
			budget.Store(ph.Ops)
		}
		for _, c := range r.callers {
			wg.Go(func() { r.closedLoop(c, deadline, budget) })
		}
	}
	wg.Wait()
	end := r.now() // the last call's end: draining is not part of the phase
	iv := record.NewInterval(r.open)
	for _, rec := range r.recs {
		rec.Drain(iv)
	}
	iv.Start, iv.End, iv.Overflow = start, end, overflow
	if r.open {
		// An open phase's interval is its part of the schedule: the arrivals it made
		// are those due from where the previous phase's part ended (or the schedule
		// began) to its deadline (or its last arrival). Those that fell due between
		// two phases (while a driver read the last one) are made late, at this one's
		// start: counted over the phase's own start to end they would make the
		// throughput exceed the rate, at 5000/s in bench by 1-2 %.
		if r.window.Before(iv.Start) {
			iv.Start = r.window
		}
		r.window = r.last
		if !deadline.IsZero() {
			r.window = deadline
			if iv.End.Before(deadline) { // the last arrival came before it
				iv.End = deadline
			}
		}
	}
	r.errMu.Lock()
	iv.FirstErrors, r.firstErrors = r.firstErrors, nil
	r.errMu.Unlock()
	return iv
}

// closedLoop calls back to back until the deadline passes, the budget is spent, or the
// session ends. Caller i of n takes sequence numbers i, i+n, i+2n, ... across the whole
// session (scaled by the stride and moved by the offset of a shared benchmark), so ops
// pick ids in turn and never repeat one without sharing a counter.
//
// The deadline is checked against the end of the caller's last call, which is the
// time the next call would start: two clock reads a call, not three.
func (r *sessionState) closedLoop(c *caller, deadline time.Time, budget *atomic.Int64) {
	n := uint64(len(r.callers)) * r.stride
	now := r.now()
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
func (r *sessionState) call(c *caller, seq uint64, intended time.Time) time.Time {
	cc := c.cc.Load()
	start := r.now()
	timed := r.watchStop != nil
	if timed {
		c.started.Store(start.UnixNano())
	}
	err := r.cfg.Op(cc.ctx, c.client, seq)
	end := r.now()
	timedOut := timed && !c.started.CompareAndSwap(start.UnixNano(), 0)
	if timedOut {
		c.started.Store(0)
	}
	if intended.IsZero() {
		intended = start // closed model: a call is due when it starts
	}
	if err == nil && !timedOut {
		// The context can only be spent here if the session is stopping, which the
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
		return end // the session is stopping; this phase is discarded anyway
	default:
		kind = classify(err)
	}
	c.rec.RecordError(kind)
	r.noteError(kind, err)
	return end
}

func (r *sessionState) noteError(kind record.ErrorKind, err error) {
	r.errMu.Lock()
	if _, ok := r.firstErrors[kind]; !ok {
		if r.firstErrors == nil {
			r.firstErrors = map[record.ErrorKind]string{}
		}
		r.firstErrors[kind] = err.Error()
	}
	r.errMu.Unlock()
}

// job is one open-model arrival.
type job struct {
	seq      uint64
	intended time.Time
}

func (r *sessionState) serveJobs(c *caller, jobs <-chan job) {
	for j := range jobs {
		r.call(c, j.seq, j.intended)
		r.busy.Add(-1)
	}
}

// dispatch hands arrivals to idle callers on schedule until the deadline or the op
// count, and returns how many arrivals found every caller busy. Such an arrival waits
// for a caller: it is never dropped, and its lag and response time count the wait.
func (r *sessionState) dispatch(jobs chan<- job, deadline time.Time, ops int64) (overflow int64) {
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
		r.seq += r.stride
		r.last = at
		// busy counts the arrivals handed out and not finished: it is raised before
		// the hand-off, so a caller finishing at once cannot take it below zero.
		r.busy.Add(1)
		select {
		case jobs <- j:
			continue
		default:
		}
		// No caller was waiting. Only when every caller is busy is it overflow; else
		// the free callers have not reached the channel yet (at a phase's start,
		// or after a scheduling delay), and the wait shows as lag.
		if r.busy.Load() > int64(len(r.callers)) {
			overflow++
		}
		select {
		case jobs <- j:
		case <-done:
			r.busy.Add(-1) // never handed out
			return overflow
		}
	}
	return overflow
}

// fineQuantum is the fine timer's granularity (see sleepUntil).
const fineQuantum = 100 * time.Microsecond

// sleepUntil waits until at, or returns false when the session ends first: on the injected
// clock, or on the machine's a Go timer until finetimer.CoarseSlack before at, the
// rest on the fine timer (finetimer.Wait), which is unresponsive to the session's end for
// at most that.
//
// The wake-up is rounded up to a multiple of fineQuantum on the schedule's clock, so
// at high rates one wake-up (three system calls) starts every arrival due in its
// quantum: lag grows by at most fineQuantum, the timer's cost falls with the rate.
func (r *sessionState) sleepUntil(at time.Time, timer *time.Timer, done <-chan struct{}) bool {
	if off := at.Sub(r.begin) % fineQuantum; off > 0 {
		at = at.Add(fineQuantum - off)
	}
	if r.clock != nil {
		return r.clock.Wait(at, done)
	}
	ok, failed := finetimer.Wait(r.fine, at, timer, done)
	if failed {
		// The fine timer failed: the coarse one is late but sure.
		r.fine.Close()
		r.fine = nil
		return r.sleepUntil(at, timer, done)
	}
	return ok
}

func (r *sessionState) nextArrival() time.Time {
	if p := r.pending; p != nil {
		r.pending = nil
		return *p
	}
	return r.begin.Add(r.pacer.Next())
}
