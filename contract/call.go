package contract

import (
	"context"
	"errors"
)

// Caller is the client of an outside server's own method or endpoint (package
// outside): not the contract, so it is no Service of the contract's operations, only
// the one call the user named. Implementations must be safe for concurrent use.
type Caller interface {
	// Call makes the op seq: one call (a whole stream, for a streaming method) with
	// the request data seq picks, its status and its reply checked.
	Call(ctx context.Context, seq uint64) error
}

// CallWorkload is the workload of an outside call: one Caller.Call per op. It is
// found by LookupWorkload but is not in Workloads, whose every entry any server of
// the contract serves.
var CallWorkload = &Workload{
	Name:    "call",
	Summary: "one call of your own method or endpoint (docs/your-service.md)",
	Calls:   one,
	New: func(Params, *Dataset) (Op, error) {
		return func(ctx context.Context, s Service, seq uint64) error {
			c, ok := s.(Caller)
			if !ok {
				return errors.New("the call workload runs on an outside call's client, not a contract client")
			}
			return c.Call(ctx, seq)
		}, nil
	},
}
