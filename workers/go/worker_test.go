package worker

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
)

func TestGCPercentFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 100},               // unknown: the default
		{1 << 20, 2000},        // 1 MiB live: capped at 21 × the live heap
		{8 << 20, 1600},        // 8 MiB: the heap may reach 136 MiB
		{64 << 20, 200},        // 64 MiB: 192 MiB
		{minHeapGoal, 100},     // from minHeapGoal on, the default
		{4 << 30, 100},         // a large live heap is paced as usual
		{minHeapGoal / 3, 300}, // rounding down
		{minHeapGoal * 2 / 3, 150},
	} {
		if got := gcPercentFor(tc.live); got != tc.want {
			t.Errorf("gcPercentFor(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

func TestPaceGCRestores(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := paceGC()
	if p := debug.SetGCPercent(100); p < 100 {
		t.Errorf("paced GOGC = %d, want at least 100", p)
	}
	debug.SetGCPercent(137)
	restore()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC after restore = %d, want the 100 it had", p)
	}

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	paceGC()()
	repaceGC()
	if p := debug.SetGCPercent(100); p != 50 {
		t.Errorf("GOGC with GOGC=50 in the environment = %d, want 50 untouched", p)
	}
}

func TestCheckNamesItsTimeLimit(t *testing.T) {
	timedOut := func(context.Context, contract.Service, uint64) error {
		return fmt.Errorf("GetPerson: %w", context.DeadlineExceeded)
	}
	r := &Generator{Services: []contract.Service{nil, nil}, Op: timedOut}
	err := r.Check(context.Background(), 0)
	if err == nil || !strings.Contains(err.Error(), "no answer within 30s") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("check of a silent target: %v; want it to name the 30s it waited", err)
	}
	if err := r.Check(context.Background(), time.Minute); err == nil || !strings.Contains(err.Error(), "within 1m0s") {
		t.Errorf("check with a 1 min call timeout: %v; want the longer limit", err)
	}
	failing := func(context.Context, contract.Service, uint64) error { return errors.New("wrong answer") }
	r.Op = failing
	if err := r.Check(context.Background(), 0); err == nil || strings.Contains(err.Error(), "no answer") {
		t.Errorf("check of a wrong target: %v; want the op's error alone", err)
	}
}
