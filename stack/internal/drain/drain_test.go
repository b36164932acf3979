package drain

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestWait(t *testing.T) {
	var active atomic.Int64
	if err := Wait(context.Background(), &active); err != nil {
		t.Fatalf("no calls in progress: %v, want nil", err)
	}

	active.Store(1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Wait(ctx, &active); !errors.Is(err, context.Canceled) {
		t.Fatalf("a call in progress and an ended context: %v, want context.Canceled", err)
	}

	done := make(chan error)
	go func() { done <- Wait(context.Background(), &active) }()
	active.Add(-1)
	if err := <-done; err != nil {
		t.Fatalf("the call ended: %v, want nil", err)
	}
}
