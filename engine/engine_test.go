package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/record"
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

// An op-count run makes exactly the ops asked, and each iteration's span covers its
// ops: 500 ops of at least 1 ms over 4 callers take at least 125 ms, so the
// throughput is at most 4000/s, and at least 500 over the whole run's wall time.
func TestClosedOpCount(t *testing.T) {
	var calls atomic.Int64
	var seen [4000]atomic.Int32
	began := time.Now()
	res, err := Run(context.Background(), Config{
		Op: func(ctx context.Context, s contract.Service, seq uint64) error {
			calls.Add(1)
			seen[seq].Add(1) // 1000 ops over 4 callers: below 4000 however they share them
			time.Sleep(time.Millisecond)
			return nil
		},
		Clients:      clients(2),
		Model:        model(t, load.Model{Kind: load.Closed, Concurrency: 4, Connections: 2}),
		Iterations:   2,
		IterationOps: 500,
	})
	if err != nil {
		t.Fatal(err)
	}
	wall := time.Since(began)
	if len(res.Intervals) != 2 || calls.Load() != 1000 {
		t.Fatalf("%d intervals, %d calls; want 2 and 1000", len(res.Intervals), calls.Load())
	}
	for i, iv := range res.Intervals {
		if iv.Ops != 500 || iv.Resp.TotalCount() != 500 {
			t.Errorf("iteration %d: %d ops, %d latencies; want 500", i, iv.Ops, iv.Resp.TotalCount())
		}
		if tp, lo := iv.Throughput(), 500/wall.Seconds(); tp > 4000 || tp < lo {
			t.Errorf("throughput %v, want between %v (500 over the run's %v) and 4000 (4 callers, 1 ms an op)", tp, lo, wall)
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
}

// A duration run stops each phase at its deadline (plus the calls in flight), reports
// the warmup apart, and calls OnInterval at each boundary.
func TestClosedDuration(t *testing.T) {
	var phases []Phase
	start := time.Now()
	res, err := Run(context.Background(), Config{
		Op: func(ctx context.Context, s contract.Service, seq uint64) error {
			time.Sleep(time.Millisecond)
			return nil
		},
		Clients:       clients(1),
		Model:         model(t, load.Model{Kind: load.Closed, Concurrency: 2}),
		Warmup:        100 * time.Millisecond,
		Iterations:    3,
		IterationTime: 100 * time.Millisecond,
		OnInterval:    func(p Phase, i int, iv *record.Interval) { phases = append(phases, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 400*time.Millisecond || d > 2*time.Second {
		t.Errorf("4 phases of 100ms took %v", d)
	}
	if res.Warmup == nil || len(res.Intervals) != 3 {
		t.Fatalf("warmup %v, %d intervals; want a warmup and 3", res.Warmup != nil, len(res.Intervals))
	}
	if want := []Phase{Warmup, Measure, Measure, Measure}; len(phases) != 4 || phases[0] != want[0] || phases[3] != want[3] {
		t.Errorf("OnInterval phases %v, want %v", phases, want)
	}
	for _, iv := range res.Intervals {
		// Two callers, 1 ms+ per call, 100 ms: at most 200 ops.
		if iv.Ops < 20 || iv.Ops > 200 {
			t.Errorf("%d ops in 100ms with 2 callers sleeping 1ms each", iv.Ops)
		}
		if p50 := iv.Resp.ValueAtQuantile(50); p50 < int64(time.Millisecond) {
			t.Errorf("p50 %v, below the 1 ms each call sleeps", time.Duration(p50))
		}
	}
}

// The coordinated-omission test: one call stalls 200 ms in an open run at 1000/s with
// one caller. The arrivals scheduled during the stall wait for the caller; their
// response times, counted from the schedule, spread from 200 ms down to 0, so about
// 200 of 1000 calls are slow: p90 ≈ 100 ms and p99 ≈ 190 ms. Service time, counted
// from each call's actual start, sees only the one slow call.
func TestOpenLoopCountsStalls(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	res, err := Run(context.Background(), Config{
		Op: func(ctx context.Context, s contract.Service, seq uint64) error {
			if seq == 100 {
				time.Sleep(200 * time.Millisecond)
			}
			return nil
		},
		Clients:       clients(1),
		Model:         model(t, load.Model{Kind: load.Open, Rate: 1000, Concurrency: 1}),
		Iterations:    1,
		IterationTime: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	iv := res.Intervals[0]
	p90, p99 := ms(iv.Resp.ValueAtQuantile(90)), ms(iv.Resp.ValueAtQuantile(99))
	svc99 := ms(iv.Service.ValueAtQuantile(99))
	lag99 := ms(iv.Lag.ValueAtQuantile(99))
	t.Logf("ops %d, response p90 %.1fms p99 %.1fms, service p99 %.3fms, lag p99 %.1fms, overflow %d",
		iv.Ops, p90, p99, svc99, lag99, iv.Overflow)
	if iv.Ops < 950 || iv.Ops > 1001 {
		t.Errorf("%d ops, want the 1000 arrivals of 1 s at 1000/s", iv.Ops)
	}
	if p90 < 60 || p90 > 140 {
		t.Errorf("response p90 %.1fms, want about 100ms", p90)
	}
	if p99 < 150 || p99 > 230 {
		t.Errorf("response p99 %.1fms, want about 190ms", p99)
	}
	if svc99 > 20 {
		t.Errorf("service p99 %.1fms: only one call in 1000 was slow", svc99)
	}
	if lag99 < 150 {
		t.Errorf("lag p99 %.1fms, want the ~190ms the stalled arrivals waited", lag99)
	}
	// During the stall the dispatcher waits with one arrival in hand; after it, the
	// ~200 late arrivals are handed over back to back, and whether each finds the
	// caller busy or already waiting for it is a race between the two goroutines.
	if iv.Overflow < 1 || iv.Overflow > 250 {
		t.Errorf("overflow %d, want between 1 and the ~200 late arrivals", iv.Overflow)
	}
}

// An open run in op-count mode makes exactly that many arrivals, at the rate.
func TestOpenOpCount(t *testing.T) {
	var calls atomic.Int64
	start := time.Now()
	res, err := Run(context.Background(), Config{
		Op:           func(context.Context, contract.Service, uint64) error { calls.Add(1); return nil },
		Clients:      clients(1),
		Model:        model(t, load.Model{Kind: load.Open, Rate: 2000, Arrival: load.Poisson, Concurrency: 4}),
		Iterations:   2,
		IterationOps: 200,
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 400 || res.Intervals[0].Ops+res.Intervals[1].Ops != 400 {
		t.Fatalf("%d calls, want 400", calls.Load())
	}
	// 400 arrivals at 2000/s take about 200 ms.
	if d := time.Since(start); d < 100*time.Millisecond || d > 2*time.Second {
		t.Errorf("400 arrivals at 2000/s took %v", d)
	}
}

// Calls past the call timeout are cut, counted as timeouts, and the callers go on.
func TestCallTimeout(t *testing.T) {
	res, err := Run(context.Background(), Config{
		Op: func(ctx context.Context, s contract.Service, seq uint64) error {
			if seq%2 == 0 {
				<-ctx.Done() // a call that would hang for ever
				return ctx.Err()
			}
			return nil
		},
		Clients:       clients(1),
		Model:         model(t, load.Model{Kind: load.Closed, Concurrency: 2}),
		Iterations:    1,
		IterationTime: 300 * time.Millisecond,
		CallTimeout:   50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	iv := res.Intervals[0]
	// Caller 0 takes even numbers and hangs each time: about 300/50 = 6 timeouts.
	if n := iv.Errors[record.Timeout]; n < 3 || n > 8 {
		t.Errorf("%d timeouts (errors %v), want about 6", n, iv.Errors)
	}
	if iv.Ops < 1 {
		t.Error("the caller with odd numbers made no calls")
	}
	if res.FirstErrors[record.Timeout] == "" {
		t.Error("the first timeout's text was not kept")
	}
}

// Errors are counted by kind, and failed calls stay out of the latency histograms.
func TestErrorsByKind(t *testing.T) {
	res, err := Run(context.Background(), Config{
		Op: func(ctx context.Context, s contract.Service, seq uint64) error {
			switch seq % 3 {
			case 0:
				return contract.Errorf(contract.NotFound, "no")
			case 1:
				return contract.ErrWrongAnswer
			}
			return nil
		},
		Clients:      clients(1),
		Model:        model(t, load.Model{Kind: load.Closed, Concurrency: 1}),
		Iterations:   1,
		IterationOps: 300,
	})
	if err != nil {
		t.Fatal(err)
	}
	iv := res.Intervals[0]
	if iv.Ops != 100 || iv.Errors[record.ErrorKind(contract.NotFound)] != 100 || iv.Errors[record.WrongAnswer] != 100 {
		t.Errorf("ops %d, errors %v; want 100 of each", iv.Ops, iv.Errors)
	}
	if iv.Resp.TotalCount() != 100 {
		t.Errorf("%d latencies recorded, want only the 100 successful calls", iv.Resp.TotalCount())
	}
}

// Cancelling the run stops it promptly, cancels the calls in flight, and keeps the
// iterations that finished.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var res *Result
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err = Run(ctx, Config{
			Op: func(ctx context.Context, s contract.Service, seq uint64) error {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(time.Millisecond):
					return nil
				}
			},
			Clients:       clients(1),
			Model:         model(t, load.Model{Kind: load.Open, Rate: 5000, Concurrency: 100}),
			Iterations:    100,
			IterationTime: 100 * time.Millisecond,
			OnInterval: func(p Phase, i int, iv *record.Interval) {
				if i == 1 {
					cancel()
				}
			},
		})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return within 5s of cancellation")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	if res == nil || len(res.Intervals) != 2 {
		t.Fatalf("kept %v intervals, want the 2 that finished", res)
	}
}

func TestConfigErrors(t *testing.T) {
	op := func(context.Context, contract.Service, uint64) error { return nil }
	m := model(t, load.Model{Kind: load.Closed, Concurrency: 2, Connections: 2})
	for _, c := range []Config{
		{Clients: clients(2), Model: m, Iterations: 1, IterationOps: 1},                                     // no op
		{Op: op, Clients: clients(1), Model: m, Iterations: 1, IterationOps: 1},                             // 1 client for 2 connections
		{Op: op, Clients: clients(2), Model: m, Iterations: 0, IterationOps: 1},                             // no iterations
		{Op: op, Clients: clients(2), Model: m, Iterations: 1},                                              // neither time nor ops
		{Op: op, Clients: clients(2), Model: m, Iterations: 1, IterationOps: 1, IterationTime: time.Second}, // both
	} {
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("Run(%+v) succeeded, want a config error", c)
		}
	}
}

// Overflow counts only arrivals that found every caller busy: a phase with more
// callers than arrivals has none, even on its first arrival, which the dispatcher may
// send before the callers reach their channel (10 arrivals a phase, 64 callers: the
// callers cannot all be busy however the machine schedules them).
func TestOpenNoOverflowWhenCallersFree(t *testing.T) {
	s, err := Start(context.Background(), Config{
		Op:      func(context.Context, contract.Service, uint64) error { return nil },
		Clients: clients(1),
		Model:   model(t, load.Model{Kind: load.Open, Rate: 200, Concurrency: 64}),
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
		if iv.Overflow != 0 || iv.Ops == 0 {
			t.Errorf("%d ops, overflow %d; want none with 64 callers for instant calls", iv.Ops, iv.Overflow)
		}
	}
	// Every caller blocked: arrivals beyond the cap overflow.
	block := make(chan struct{})
	s2, err := Start(context.Background(), Config{
		Op: func(ctx context.Context, _ contract.Service, _ uint64) error {
			select {
			case <-block:
			case <-ctx.Done():
			}
			return nil
		},
		Clients: clients(1),
		Model:   model(t, load.Model{Kind: load.Open, Rate: 1000, Concurrency: 2}),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	go func() { time.Sleep(100 * time.Millisecond); close(block) }()
	iv, err := s2.Phase(PhaseSpec{Ops: 10})
	if err != nil {
		t.Fatal(err)
	}
	// The third arrival (at 2 ms) finds both callers blocked until 100 ms.
	if iv.Overflow < 1 || iv.Overflow > 8 {
		t.Errorf("overflow %d with 2 callers blocked for 100 ms at 1000/s; want the third arrival and at most the 8 after the first two", iv.Overflow)
	}
}
