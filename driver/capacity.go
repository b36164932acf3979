package driver

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/capacity"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/workers/go/engine"
)

// Capacity runs a capacity search on one target (res.Spec.Capacity must be set):
// fresh workers, the warmup at the start rate, then steps of Capacity.Step at the
// rates the search picks, each restarting the open schedule at its rate, until the
// bracket is within the resolution or the budget is spent; then a confirming run of
// Capacity.Confirm at the rate found (one resolution lower if it fails). observe, when
// set, is told each step. A failure of the target's workers ends the search with the
// steps so far and the error.
func Capacity(ctx context.Context, res control.Resolved, opt Options, observe func(results.SearchStep)) (*results.Search, error) {
	s := res.Spec
	c := s.Capacity
	if c == nil {
		return nil, fmt.Errorf("%s: not a capacity search", s.Name())
	}
	if err := opt.fill(); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(opt.TempDir, "wb-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	t, err := startTarget(ctx, res, opt, dir, 0, 0)
	if err != nil {
		return nil, err
	}
	defer t.close()
	out := &results.Search{CheaperClient: cheaperClient(res)}
	start := s.Load.Rate
	if s.Warmup > 0 {
		if out.Warmup, err = t.phase(ctx, &controlpb.Phase{Kind: string(engine.Warmup), DurationNanos: int64(s.Warmup), Rate: start}); err != nil {
			return out, err
		}
	}
	step := func(rate float64, d time.Duration, confirm bool, index int) (results.SearchStep, error) {
		iv, err := t.phase(ctx, &controlpb.Phase{Kind: string(engine.Measure), Index: int32(index), DurationNanos: int64(d), Rate: rate})
		if err != nil {
			return results.SearchStep{}, err
		}
		st := results.SearchStep{Rate: rate, Interval: iv, Confirm: confirm}
		st.Verdict, st.Why = capacity.Judge(c, rate, iv)
		out.Steps = append(out.Steps, st)
		if observe != nil {
			observe(st)
		}
		return st, nil
	}
	var srch capacity.Stepper = capacity.NewSearch(start, c.Resolution)
	if c.Sweep {
		srch = capacity.NewSweep(start, 1+c.Resolution)
	}
	spent, err := capacity.Walk(c, srch, out, func(rate float64) (results.SearchStep, error) {
		return step(rate, c.Step, false, len(out.Steps))
	})
	if err != nil {
		return out, err
	}
	out.Low, out.High = srch.Bracket()
	out.Rate = out.Low
	if err := capacity.Confirm(c, out, spent, func(rate float64) (results.SearchStep, error) {
		return step(rate, c.Confirm, true, len(out.Steps))
	}); err != nil {
		return out, err
	}
	return out, nil
}

// cheaperClient is the client stack built to load a server cheaply (the instrument,
// protocol.LoadClient), when res's protocol has it and res uses another.
func cheaperClient(res control.Resolved) string {
	name := protocol.LoadClient(res.Protocol.Name, res.Client.Name)
	if name == res.Client.Name {
		return ""
	}
	return name
}
