package suite

import (
	"time"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

// Smoke limits: a smoke run checks that every benchmark of a suite runs, through the
// same code path, in a fraction of the time.
const (
	SmokeSliceTime   = 200 * time.Millisecond
	SmokeSliceOps    = 20
	SmokeTrades      = 1000
	SmokeIncrements  = 100
	SmokeRate        = 2000
	SmokeMaxInFlight = 16
)

// Sequential makes every benchmark of the suite measured one after the other
// (spec.MethodSequential), as `wirebench run --sequential` asks, to compare with the
// interleaved method.
func (s *Suite) Sequential() {
	for i := range s.Benchmarks {
		s.Benchmarks[i].Spec.Method = spec.MethodSequential
	}
}

// Smoke turns the suite into its smoke run: no warmup, one fork of one round of a slice of
// SmokeSliceTime (or at most SmokeSliceOps ops), capacity searches of steps
// of SmokeSliceTime within four of them, streams of at most SmokeTrades
// trades, ping-pongs of at most SmokeIncrements increments, open loops at most
// SmokeRate/s with at most SmokeMaxInFlight calls in flight. Names are recomputed, and
// benchmarks that become the same (two rates over SmokeRate) run once.
func (s *Suite) Smoke() {
	s.SmokeRun = true
	s.rewrite(func(b *Benchmark) error {
		sp := &b.Spec
		sp.Warmup, sp.WarmupMax, sp.Rounds, sp.Forks = 0, 0, 1, 1
		if sp.SliceOps > 0 {
			sp.SliceOps = min(sp.SliceOps, SmokeSliceOps)
		} else {
			sp.SliceTime = SmokeSliceTime
		}
		sp.Params.Trades = min(sp.Params.Trades, SmokeTrades)
		sp.Params.Increments = min(sp.Params.Increments, SmokeIncrements)
		if c := sp.Capacity; c != nil {
			smoke := *c
			smoke.Step, smoke.Confirm = SmokeSliceTime, SmokeSliceTime
			smoke.Budget = 4 * SmokeSliceTime
			sp.Capacity = &smoke
		}
		if sp.Load.Kind == load.Open {
			sp.Load.Rate = min(sp.Load.Rate, SmokeRate)
			sp.Load.Concurrency = min(sp.Load.Concurrency, SmokeMaxInFlight)
			sp.Load.Connections = min(sp.Load.Connections, sp.Load.Concurrency)
		}
		return nil
	})
}
