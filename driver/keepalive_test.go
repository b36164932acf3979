package driver

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/spec"
)

// keepAliveHarness is a group of three targets whose keep-alive phases are recorded
// instead of run, on a clock the test moves.
type keepAliveHarness struct {
	k      *keepAlives
	clock  time.Time
	ran    []int // targets whose keep-alive phase ran, in order
	failed map[int]error
	broken map[int]bool // targets whose phase fails
}

func newKeepAliveHarness(every ...time.Duration) *keepAliveHarness {
	h := &keepAliveHarness{clock: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC), failed: map[int]error{}, broken: map[int]bool{}}
	n := len(every)
	forks := make([]*results.Fork, n)
	for i := range forks {
		forks[i] = &results.Fork{Index: 1}
	}
	h.k = &keepAlives{fork: 1, iso: &isolation{method: "none"}, every: every, lastRan: make([]time.Time, n), forks: forks,
		now: func() time.Time { return h.clock },
		fail: func(i int, err error) {
			h.failed[i] = err
			forks[i].Err = err
		},
		run: func(i int, p *controlpb.Phase) error {
			if p.Kind != "warmup" || time.Duration(p.DurationNanos) != spec.KeepAliveSlice || !p.RestartSchedule {
				return errors.New("not a keep-alive phase")
			}
			h.ran = append(h.ran, i)
			if h.broken[i] {
				return errors.New("worker gone")
			}
			return nil
		}}
	return h
}

func (h *keepAliveHarness) wait(d time.Duration) { h.clock = h.clock.Add(d) }

func TestKeepAliveRunsWarmedTargetsWhenDue(t *testing.T) {
	h := newKeepAliveHarness(5*time.Second, 5*time.Second, 5*time.Second)
	h.k.due(0) // nobody has warmed up
	h.k.warmed(0)
	h.wait(4 * time.Second)
	h.k.due(1) // target 0 ran 4 s ago: not due
	if len(h.ran) != 0 {
		t.Fatalf("keep-alives %v before anyone was due", h.ran)
	}
	h.wait(time.Second)
	h.k.due(1) // 5 s: due
	h.k.due(1) // just ran: not due again
	h.k.warmed(1)
	h.wait(12 * time.Second)
	h.k.due(2) // both due, target 2 busy (and not warmed)
	want := []int{0, 0, 1}
	if !slices.Equal(h.ran, want) {
		t.Fatalf("keep-alives ran for targets %v, want %v", h.ran, want)
	}
	if got := []int{h.k.forks[0].KeepAlive, h.k.forks[1].KeepAlive, h.k.forks[2].KeepAlive}; !slices.Equal(got, []int{2, 1, 0}) {
		t.Errorf("counted %v keep-alive slices, want [2 1 0]", got)
	}
}

func TestKeepAliveSkipsTheBusyTargetAndTheOff(t *testing.T) {
	h := newKeepAliveHarness(5*time.Second, 0, 5*time.Second)
	for i := range 3 {
		h.k.warmed(i)
	}
	h.wait(time.Minute)
	h.k.due(2)
	if !slices.Equal(h.ran, []int{0}) {
		t.Fatalf("keep-alives ran for %v, want only target 0 (1 has none, 2 is warming up)", h.ran)
	}
	if c := h.k.chunk(2); c != 5*time.Second {
		t.Errorf("chunk while target 2 warms up = %v, want target 0's 5s", c)
	}
	if c := newKeepAliveHarness(0, 0, 3*time.Second).k.chunk(2); c != 0 {
		t.Errorf("chunk with no other target kept alive = %v, want 0", c)
	}
}

func TestKeepAliveFailureFailsThatTargetOnly(t *testing.T) {
	h := newKeepAliveHarness(5*time.Second, 5*time.Second, 5*time.Second)
	h.broken[0] = true
	h.k.warmed(0)
	h.k.warmed(1)
	h.wait(6 * time.Second)
	h.k.due(2)
	var fe *results.ForkError
	if err := h.failed[0]; !errors.As(err, &fe) || fe.Phase != "keep-alive" || fe.Fork != 1 {
		t.Fatalf("target 0 failed with %v, want a fork 1 keep-alive error", err)
	}
	if h.failed[1] != nil || h.k.forks[1].KeepAlive != 1 || h.k.forks[0].KeepAlive != 0 {
		t.Errorf("target 1: error %v, %d keep-alives; target 0: %d keep-alives; want 1 run for target 1 only",
			h.failed[1], h.k.forks[1].KeepAlive, h.k.forks[0].KeepAlive)
	}
	h.wait(time.Minute)
	h.ran = nil
	h.k.due(2) // a failed target gets no more
	if !slices.Equal(h.ran, []int{1}) {
		t.Errorf("after the failure keep-alives ran for %v, want [1]", h.ran)
	}
}

// TestFixedWarmupInChunks: a fixed warm-up longer than the chunk runs in phases of
// at most the chunk, the neighbours' pause before each, each after the first
// restarting an open schedule, merged into one warm-up.
func TestFixedWarmupInChunks(t *testing.T) {
	var phases []*controlpb.Phase
	pauses := 0
	w := warmer{chunk: 5 * time.Second, pause: func() { pauses++ },
		phase: func(_ context.Context, p *controlpb.Phase) (*results.Interval, error) {
			phases = append(phases, p)
			iv := &results.Interval{Phase: p.Kind, Index: int(p.Index), Interval: record.NewInterval(false)}
			iv.Ops = 10
			return iv, nil
		}}
	s := spec.Default()
	s.Warmup, s.WarmupMax = 12*time.Second, 0
	tr := &results.Fork{}
	observed := 0
	if err := warmUp(context.Background(), w, s, tr, func(*results.Interval) { observed++ }); err != nil {
		t.Fatal(err)
	}
	var got []time.Duration
	for _, p := range phases {
		got = append(got, time.Duration(p.DurationNanos))
	}
	want := []time.Duration{5 * time.Second, 5 * time.Second, 2 * time.Second}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("phases %v, want %v", got, want)
	}
	if phases[0].RestartSchedule || !phases[1].RestartSchedule || !phases[2].RestartSchedule {
		t.Errorf("restarts %v %v %v, want false true true", phases[0].RestartSchedule, phases[1].RestartSchedule, phases[2].RestartSchedule)
	}
	if pauses != 3 || observed != 1 || tr.Warmup == nil || tr.Warmup.Ops != 30 || tr.WarmupSlices != nil {
		t.Errorf("pauses %d, observed %d, warm-up %+v, slices %v; want 3, 1, 30 ops in one warm-up, no slices", pauses, observed, tr.Warmup, tr.WarmupSlices)
	}

	// With no chunk, one phase, as before keep-alives.
	phases, pauses = nil, 0
	w.chunk = 0
	if err := warmUp(context.Background(), w, s, &results.Fork{}, func(*results.Interval) {}); err != nil {
		t.Fatal(err)
	}
	if len(phases) != 1 || time.Duration(phases[0].DurationNanos) != 12*time.Second {
		t.Errorf("without a chunk: %d phases, want one of 12s", len(phases))
	}
}
