package contract

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A delayed service answers as the service does, and a call whose context ends
// during the wait fails with the context's error without reaching the service.
// (No timing is asserted: the machine is shared.)
func TestDelayed(t *testing.T) {
	ref := NewReference(MustDataset(DefaultSeed, DefaultSize))
	svc := Delayed(ref, time.Microsecond)
	if n, err := svc.Increment(context.Background(), 41); err != nil || n != 42 {
		t.Fatalf("Increment(41) = %d, %v", n, err)
	}
	if got, err := svc.Echo(context.Background(), "hi"); err != nil || got != "hi" {
		t.Fatalf("Echo = %q, %v", got, err)
	}
	slow := Delayed(ref, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := slow.Echo(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v, want context.Canceled", err)
	}
	st, err := ref.Stats(context.Background())
	if err != nil || st.Calls != 1 {
		t.Errorf("the service saw %d echo calls (%v), want 1: the cancelled one must not reach it", st.Calls, err)
	}
	if Delayed(ref, 0) != ref {
		t.Errorf("a zero delay should return the service itself")
	}
}
