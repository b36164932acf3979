// Package drain waits for a server's calls in progress to finish, for the Go stacks
// whose libraries have no graceful shutdown of their own (capnp-go, Apache Thrift's Go
// server, net/rpc): the stack counts its calls, stops accepting, and waits here.
package drain

import (
	"context"
	"sync/atomic"
	"time"
)

// Wait returns when active reaches zero, checking every 5 ms, or with ctx's error when
// ctx ends first.
func Wait(ctx context.Context, active *atomic.Int64) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for active.Load() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}
