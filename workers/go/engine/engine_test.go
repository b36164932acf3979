package engine

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/spec/load"
)

func model(t *testing.T, m load.Model) load.Model {
	t.Helper()
	m, err := m.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func clients(n int) []contract.Service {
	ref := contract.NewReference(contract.MustDataset(contract.DefaultSeed, contract.DefaultSize))
	cs := make([]contract.Service, n)
	for i := range cs {
		cs[i] = ref
	}
	return cs
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// goClock is Go's own clock and timers. Inside a testing/synctest bubble that time is
// virtual: it moves only when every goroutine of the bubble is blocked, so a test's
// calls, arrivals and phases fall on exact instants and the test takes no wall time.
// There a closed model's op must take some time (time.Sleep), or its callers never
// block and time never reaches the phase's deadline.
type goClock struct{}

var _ Clock = goClock{}

func (goClock) Now() time.Time { return time.Now() }

func (goClock) Wait(at time.Time, done <-chan struct{}) bool {
	t := time.NewTimer(time.Until(at))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}

// plan is what a driver asks of a Session (package driver's does it over the wire): a warmup
// when warmup > 0, then iterations phases like phase.
type plan struct {
	warmup     time.Duration
	iterations int
	phase      PhaseSpec
}

// planResult is what a plan measured: the warmup's interval (nil without one) and
// the iterations that finished.
type planResult struct {
	warmup    *record.Interval
	intervals []*record.Interval
}

// runPlan runs p over cfg in one session. When a phase fails (the context ended), it
// returns the intervals that finished with the error.
func runPlan(ctx context.Context, cfg Config, p plan) (planResult, error) {
	var res planResult
	s, err := Start(ctx, cfg)
	if err != nil {
		return res, err
	}
	defer s.Close()
	if p.warmup > 0 {
		if res.warmup, err = s.Phase(PhaseSpec{Duration: p.warmup}); err != nil {
			return res, err
		}
	}
	for range p.iterations {
		iv, err := s.Phase(p.phase)
		if err != nil {
			return res, err
		}
		res.intervals = append(res.intervals, iv)
	}
	return res, nil
}

// An op-count run makes exactly the ops asked, and each iteration's span is its ops'
// time: 500 ops of 1 ms over 4 callers take 125 ms, 4000 ops/s.
func TestClosedOpCount(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int64
		var seen [4000]atomic.Int32
		res, err := runPlan(context.Background(), Config{
			Op: func(ctx context.Context, s contract.Service, seq uint64) error {
				calls.Add(1)
				seen[seq].Add(1) // 1000 ops over 4 callers: below 4000 however they share them
				time.Sleep(time.Millisecond)
				return nil
			},
			Clients: clients(2),
			Model:   model(t, load.Model{Kind: load.Closed, Concurrency: 4, Connections: 2}),
			Clock:   goClock{},
		}, plan{iterations: 2, phase: PhaseSpec{Ops: 500}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.intervals) != 2 || calls.Load() != 1000 {
			t.Fatalf("%d intervals, %d calls; want 2 and 1000", len(res.intervals), calls.Load())
		}
		for i, iv := range res.intervals {
			if iv.Ops != 500 || iv.Resp.TotalCount() != 500 {
				t.Errorf("iteration %d: %d ops, %d latencies; want 500", i, iv.Ops, iv.Resp.TotalCount())
			}
			if d, tp := iv.End.Sub(iv.Start), iv.Throughput(); d != 125*time.Millisecond || tp != 4000 {
				t.Errorf("iteration %d: %v, %v ops/s; want 125ms and 4000 (4 callers, 1 ms an op)", i, d, tp)
			}
			if iv.Lag != nil {
				t.Error("a closed model has no lag histogram")
			}
		}
		// Four callers take sequence numbers i, i+4, ... across iterations: none twice.
		distinct := 0
		for seq := range seen {
			switch n := seen[seq].Load(); {
			case n > 1:
				t.Fatalf("sequence number %d used %d times", seq, n)
			case n == 1:
				distinct++
			}
		}
		if distinct != 1000 {
			t.Errorf("%d distinct sequence numbers, want 1000", distinct)
		}
	})
}

// A duration run stops each phase at its deadline: a caller whose call ends at or
// past it makes no other. Two callers of 1 ms calls make 100 calls each in a 100 ms
// phase, each taking exactly 1 ms; the warmup is reported apart.
func TestClosedDuration(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		res, err := runPlan(context.Background(), Config{
			Op: func(ctx context.Context, s contract.Service, seq uint64) error {
				time.Sleep(time.Millisecond)
				return nil
			},
			Clients: clients(1),
			Model:   model(t, load.Model{Kind: load.Closed, Concurrency: 2}),
			Clock:   goClock{},
		}, plan{warmup: 100 * time.Millisecond, iterations: 3, phase: PhaseSpec{Duration: 100 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 400*time.Millisecond {
			t.Errorf("4 phases of 100ms took %v", d)
		}
		if res.warmup == nil || res.warmup.Ops != 200 || len(res.intervals) != 3 {
			t.Fatalf("warmup %v, %d intervals; want a warmup of 200 ops and 3", res.warmup, len(res.intervals))
		}
		for _, iv := range res.intervals {
			if iv.Ops != 200 {
				t.Errorf("%d ops in 100ms with 2 callers sleeping 1ms each; want 200", iv.Ops)
			}
			// The histogram keeps 3 significant digits: 1 ms reads back within 0.1 %.
			if lo, hi := iv.Resp.Min(), iv.Resp.Max(); math.Abs(ms(lo)-1) > 0.001 || math.Abs(ms(hi)-1) > 0.001 {
				t.Errorf("response times %v to %v; want every call's 1 ms", time.Duration(lo), time.Duration(hi))
			}
		}
	})
}

// The coordinated-omission test: in an open run at 1000/s with one caller, arrival
// 100 (at 100 ms) stalls 200 ms. Arrivals 101 to 299 wait for the caller and are all
// answered at 300 ms, so their response times, counted from the schedule, are 200 ms
// down to 1 ms: 200 of the 1000 calls, and the rest 0. So p90 (the 900th value) is
// 100 ms and p99 (the 990th) 190 ms. Lag (start − intended) is 199 ms down to 1 ms
// for arrivals 101 to 299, so its p99 is the 990th of 801 zeros then 1…199: 189 ms.
// Service time, from each call's actual start, sees only the one slow call.
func TestOpenLoopCountsStalls(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		res, err := runPlan(context.Background(), Config{
			Op: func(ctx context.Context, s contract.Service, seq uint64) error {
				if seq == 100 {
					time.Sleep(200 * time.Millisecond)
				}
				return nil
			},
			Clients: clients(1),
			Model:   model(t, load.Model{Kind: load.Open, Rate: 1000, Concurrency: 1}),
			Clock:   goClock{},
		}, plan{iterations: 1, phase: PhaseSpec{Duration: time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		iv := res.intervals[0]
		if iv.Ops != 1000 {
			t.Errorf("%d ops, want the 1000 arrivals of 1 s at 1000/s", iv.Ops)
		}
		// The histogram keeps 3 significant digits: values read back within 0.1 %.
		near := func(got int64, wantMs float64) bool { return math.Abs(ms(got)-wantMs) <= wantMs/1000 }
		for _, c := range []struct {
			name   string
			got    int64
			wantMs float64
		}{
			{"response p90", iv.Resp.ValueAtQuantile(90), 100},
			{"response p99", iv.Resp.ValueAtQuantile(99), 190},
			{"response max", iv.Resp.Max(), 200},
			{"lag p99", iv.Lag.ValueAtQuantile(99), 189},
			{"service max", iv.Service.Max(), 200},
		} {
			if !near(c.got, c.wantMs) {
				t.Errorf("%s %.3fms, want %gms", c.name, ms(c.got), c.wantMs)
			}
		}
		if svc := iv.Service.ValueAtQuantile(99.9); svc > 1 {
			t.Errorf("service p99.9 %v: only one call in 1000 took any time", time.Duration(svc))
		}
		// Arrival 101 finds the caller stalled. The 199 after it are handed over at
		// 300 ms back to back, and whether each finds the caller busy or already
		// waiting is a race between the two goroutines.
		if iv.Overflow < 1 || iv.Overflow > 200 {
			t.Errorf("overflow %d, want between 1 and the 200 late arrivals", iv.Overflow)
		}
	})
}

// An open phase spans its part of the schedule, so its throughput cannot exceed the
// rate. At 1000/s, a first 100 ms phase makes the arrivals due at 0, 1, ..., 99 ms:
// 100 over [0, 100 ms], 1000/s; it returns at 99 ms, with its last (instant) call.
// The driver then takes 21 ms before asking for the next 100 ms phase, which starts
// at 120 ms with a deadline of 220 ms: it makes the 20 arrivals that fell due
// meanwhile (100 to 119 ms, late) and the 100 of 120 to 219 ms.
// Its interval is [100 ms, 220 ms]: 120 ops over 120 ms, 1000/s; over its own start to
// end ([120 ms, 219 ms]) it would be 120 over 99 ms, 1212/s, above the rate.
func TestOpenPhaseSpansItsSchedule(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s, err := Start(context.Background(), Config{
			Op:      func(context.Context, contract.Service, uint64) error { return nil },
			Clients: clients(1),
			Model:   model(t, load.Model{Kind: load.Open, Rate: 1000, Concurrency: 1}),
			Clock:   goClock{},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		t0 := time.Now()
		first, err := s.Phase(PhaseSpec{Duration: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(21 * time.Millisecond) // the driver's round trip (virtual time)
		second, err := s.Phase(PhaseSpec{Duration: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name       string
			iv         *record.Interval
			ops        int64
			start, end time.Duration
		}{
			{"first", first, 100, 0, 100 * time.Millisecond},
			{"second", second, 120, 100 * time.Millisecond, 220 * time.Millisecond},
		} {
			if c.iv.Ops != c.ops || c.iv.Start.Sub(t0) != c.start || c.iv.End.Sub(t0) != c.end {
				t.Errorf("%s phase: %d ops over [%v, %v]; want %d over [%v, %v]", c.name, c.iv.Ops,
					c.iv.Start.Sub(t0), c.iv.End.Sub(t0), c.ops, c.start, c.end)
			}
			if tp := c.iv.Throughput(); math.Abs(tp-1000) > 1e-9 {
				t.Errorf("%s phase: %v ops/s, want the rate, 1000", c.name, tp)
			}
		}
	})
}

// An open run in op-count mode makes exactly that many arrivals, on the schedule: it
// ends with the last arrival's instant call, at that arrival's offset (rounded up to
// the dispatcher's quantum).
func TestOpenOpCount(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int64
		m := model(t, load.Model{Kind: load.Open, Rate: 2000, Arrival: load.Poisson, Concurrency: 4})
		const seed = 7
		start := time.Now()
		res, err := runPlan(context.Background(), Config{
			Op:      func(context.Context, contract.Service, uint64) error { calls.Add(1); return nil },
			Clients: clients(1),
			Model:   m,
			Seed:    seed,
			Clock:   goClock{},
		}, plan{iterations: 2, phase: PhaseSpec{Ops: 200}})
		if err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 400 || res.intervals[0].Ops+res.intervals[1].Ops != 400 {
			t.Fatalf("%d calls, want 400", calls.Load())
		}
		p := load.NewPacer(m, seed)
		var last time.Duration
		for range 400 {
			last = p.Next()
		}
		if off := last % fineQuantum; off > 0 {
			last += fineQuantum - off
		}
		if d := time.Since(start); d != last {
			t.Errorf("400 arrivals at 2000/s took %v; want %v, the 400th arrival's offset", d, last)
		}
	})
}

// Calls past the call timeout are cut, counted as timeouts, and the callers go on.
// Caller 0 takes even numbers and hangs each time; the watchdog looks every 2.5 ms
// (50 ms / 20) and cuts a call once it is over 50 ms old, at 52.5 ms: calls start at
// 0, 52.5, …, 262.5 ms, six of them before the 300 ms deadline. Caller 1 takes odd
// numbers, 1 ms each: 300 calls.
func TestCallTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		res, err := runPlan(context.Background(), Config{
			Op: func(ctx context.Context, s contract.Service, seq uint64) error {
				if seq%2 == 0 {
					<-ctx.Done() // a call that would hang for ever
					return ctx.Err()
				}
				time.Sleep(time.Millisecond)
				return nil
			},
			Clients:     clients(1),
			Model:       model(t, load.Model{Kind: load.Closed, Concurrency: 2}),
			CallTimeout: 50 * time.Millisecond,
			Clock:       goClock{},
		}, plan{iterations: 1, phase: PhaseSpec{Duration: 300 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		iv := res.intervals[0]
		if n := iv.Errors[record.Timeout]; n != 6 {
			t.Errorf("%d timeouts (errors %v), want 6", n, iv.Errors)
		}
		if iv.Ops != 300 {
			t.Errorf("%d ops; want the 300 of the caller with odd numbers", iv.Ops)
		}
		if iv.FirstErrors[record.Timeout] == "" {
			t.Error("the first timeout's text was not kept")
		}
	})
}

// Errors are counted by kind, and failed calls stay out of the latency histograms.
func TestErrorsByKind(t *testing.T) {
	t.Parallel()
	res, err := runPlan(context.Background(), Config{
		Op: func(ctx context.Context, s contract.Service, seq uint64) error {
			switch seq % 3 {
			case 0:
				return contract.Errorf(contract.NotFound, "no")
			case 1:
				return contract.ErrWrongAnswer
			}
			return nil
		},
		Clients: clients(1),
		Model:   model(t, load.Model{Kind: load.Closed, Concurrency: 1}),
	}, plan{iterations: 1, phase: PhaseSpec{Ops: 300}})
	if err != nil {
		t.Fatal(err)
	}
	iv := res.intervals[0]
	if iv.Ops != 100 || iv.Errors[record.ErrorKind(contract.NotFound)] != 100 || iv.Errors[record.WrongAnswer] != 100 {
		t.Errorf("ops %d, errors %v; want 100 of each", iv.Ops, iv.Errors)
	}
	if iv.Resp.TotalCount() != 100 {
		t.Errorf("%d latencies recorded, want only the 100 successful calls", iv.Resp.TotalCount())
	}
}

// Cancelling the run mid-phase stops it at once: the calls in flight are cancelled,
// the dispatcher stops waiting, the phase returns the context's error, and the phases
// that finished are kept. Phases of 100 ms end when their last 1 ms call does, so the
// third is under way at 250 ms.
func TestCancel(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var cancelled time.Time
		time.AfterFunc(250*time.Millisecond, func() { cancelled = time.Now(); cancel() })
		res, err := runPlan(ctx, Config{
			Op: func(ctx context.Context, s contract.Service, seq uint64) error {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(time.Millisecond):
					return nil
				}
			},
			Clients: clients(1),
			Model:   model(t, load.Model{Kind: load.Open, Rate: 5000, Concurrency: 100}),
			Clock:   goClock{},
		}, plan{iterations: 100, phase: PhaseSpec{Duration: 100 * time.Millisecond}})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("returned %v, want context.Canceled", err)
		}
		if d := time.Since(cancelled); d != 0 {
			t.Errorf("returned %v after the cancellation; want at once", d)
		}
		if len(res.intervals) != 2 {
			t.Fatalf("kept %d intervals, want the 2 that finished", len(res.intervals))
		}
	})
}

func TestConfigErrors(t *testing.T) {
	op := func(context.Context, contract.Service, uint64) error { return nil }
	m := model(t, load.Model{Kind: load.Closed, Concurrency: 2, Connections: 2})
	for _, c := range []Config{
		{Clients: clients(2), Model: m},                          // no op
		{Op: op, Clients: clients(1), Model: m},                  // 1 client for 2 connections
		{Op: op, Clients: clients(2), Model: m, CallTimeout: -1}, // negative timeout
	} {
		if s, err := Start(context.Background(), c); err == nil {
			s.Close()
			t.Errorf("Start(%+v) succeeded, want a config error", c)
		}
	}
	s, err := Start(context.Background(), Config{Op: op, Clients: clients(2), Model: m})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, ph := range []PhaseSpec{
		{},                              // neither time nor ops
		{Duration: time.Second, Ops: 1}, // both
		{Ops: 1, Rate: -1},              // a negative rate
		{Ops: 1, Rate: math.Inf(1)},     // an infinite rate
		{Ops: 1, Rate: 100},             // a rate for the closed model
	} {
		if _, err := s.Phase(ph); err == nil {
			t.Errorf("Phase(%+v) succeeded, want an error", ph)
		}
	}
}

// Overflow counts only arrivals that found every caller busy: a phase with more
// callers than arrivals has none, even on its first arrival, which the dispatcher
// sends before the callers reach their channel (10 arrivals a phase, 64 callers).
func TestOpenNoOverflowWhenCallersFree(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s, err := Start(context.Background(), Config{
			Op:      func(context.Context, contract.Service, uint64) error { return nil },
			Clients: clients(1),
			Model:   model(t, load.Model{Kind: load.Open, Rate: 200, Concurrency: 64}),
			Clock:   goClock{},
		})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for range 5 {
			iv, err := s.Phase(PhaseSpec{Duration: 50 * time.Millisecond, RestartSchedule: true})
			if err != nil {
				t.Fatal(err)
			}
			if iv.Overflow != 0 || iv.Ops != 10 {
				t.Errorf("%d ops, overflow %d; want 10 and none with 64 callers for instant calls", iv.Ops, iv.Overflow)
			}
		}
	})
}

// Every caller blocked: arrivals beyond the cap overflow. Two callers take the
// arrivals at 0 and 1 ms and block until 100 ms; the third arrival, at 2 ms, finds
// both busy. The seven after it are handed over at 100 ms back to back, and whether
// each finds a caller waiting is a race between the goroutines.
func TestOpenOverflowWhenCallersBusy(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		block := make(chan struct{})
		time.AfterFunc(100*time.Millisecond, func() { close(block) })
		res, err := runPlan(context.Background(), Config{
			Op: func(ctx context.Context, _ contract.Service, _ uint64) error {
				select {
				case <-block:
				case <-ctx.Done():
				}
				return nil
			},
			Clients: clients(1),
			Model:   model(t, load.Model{Kind: load.Open, Rate: 1000, Concurrency: 2}),
			Clock:   goClock{},
		}, plan{iterations: 1, phase: PhaseSpec{Ops: 10}})
		if err != nil {
			t.Fatal(err)
		}
		if iv := res.intervals[0]; iv.Overflow < 1 || iv.Overflow > 8 {
			t.Errorf("overflow %d with 2 callers blocked for 100 ms at 1000/s; want the third arrival and at most the 7 after it", iv.Overflow)
		}
	})
}
