package worker

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec/load"
	"github.com/wirebench/wirebench/stack/outside"
)

// Generator is a load generator's clients and op: what a client worker runs its
// phases with (engine.Config), and what a one-process run measures its lines with.
// Owned by one goroutine; the engine calls Services concurrently, as its contract
// allows.
type Generator struct {
	// Op is the workload's op, Services the clients it runs on (one per connection)
	// and Model the load this generator's share of the callers applies.
	Op       contract.Op
	Services []contract.Service
	Model    load.Model
	// Counter counts the bytes the clients' connections send and receive.
	Counter transport.Counter
	clients []protocol.Client
	outside bool // an outside call (spec.Call), not the contract
}

// NewGenerator opens a load generator's clients of target, for share of count
// generators (load.Share). noProbe is
// protocol.ClientConfig.NoProbe: a client that would check its target with a
// connection of its own does not (its first call dials).
func NewGenerator(ctx context.Context, res control.Resolved, target string, tc transport.TLS, share, count int, noProbe bool) (*Generator, error) {
	bad := func(err error) error { return status.Error(codes.InvalidArgument, err.Error()) }
	s := res.Spec
	w, err := contract.LookupWorkload(s.Workload)
	if err != nil {
		return nil, bad(err)
	}
	ds, err := contract.NewDataset(s.DataSeed, s.DataSize)
	if err != nil {
		return nil, bad(err)
	}
	op, err := w.New(s.Params, ds)
	if err != nil {
		return nil, bad(err)
	}
	model, err := s.Load.Normalize()
	if err == nil {
		model, err = load.Share(model, share, count)
	}
	if err != nil {
		return nil, bad(err)
	}
	r := &Generator{Op: op, Model: model, outside: s.Call != nil}
	cfg := protocol.ClientConfig{MaxMessageSize: s.MaxMessageSize, Options: s.ClientOptions, TLS: tc, NoProbe: noProbe,
		// Callers are dealt to the clients round-robin, so none carries more than this.
		Concurrency: (model.Concurrency + model.Connections - 1) / model.Connections, Message: s.MessageType()}
	if res.Protocol.InProcess {
		cfg.Local = contract.NewReference(ds)
	} else {
		if cfg.Address, err = transport.Parse(target); err != nil {
			return nil, bad(fmt.Errorf("target: %w", err))
		}
		if cfg.Address.Network == "udp" {
			cfg.Packet = transport.PacketListener(&r.Counter)
		} else {
			cfg.Dial = transport.Dialer(cfg.Address, &r.Counter)
		}
	}
	for range model.Connections {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		var c protocol.Client
		if s.Call != nil {
			// A user's own method or endpoint, not the contract: the outside client,
			// whatever the protocol's client stack.
			c, err = outside.NewClient(dctx, res.Protocol.Name, s.Call, cfg)
		} else {
			c, err = res.Client.NewClient(dctx, cfg)
		}
		cancel()
		if err != nil {
			r.Close()
			return nil, status.Errorf(codes.Unavailable, "connecting to %s over %s with %s: %v", target, res.Protocol.Name, res.Client.Name, err)
		}
		r.clients = append(r.clients, c)
		r.Services = append(r.Services, c)
	}
	if w.NewConnection {
		// The clients above showed the target answers; each op now opens (and closes)
		// a client of its own.
		r.Close()
		r.clients = nil
		for i := range r.Services {
			r.Services[i] = protocol.PerCall(res.Client, cfg)
		}
	}
	return r, nil
}

// checkTimeout bounds each op of the contract check: a cold server's first answers may
// take long, so it is not the run's call timeout unless that is longer.
const checkTimeout = 30 * time.Second

// Check runs the workload's op once on every client with its answers verified, so a
// target that does less than the contract asks fails before anything is measured.
func (r *Generator) Check(ctx context.Context, callTimeout time.Duration) error {
	limit := max(checkTimeout, callTimeout)
	what := "the target failed the contract check"
	if r.outside {
		what = "the outside call's first call failed"
	}
	for i, c := range r.Services {
		cctx, cancel := context.WithTimeout(ctx, limit)
		err := r.Op(cctx, c, uint64(i))
		cancel()
		switch {
		case err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded):
			return fmt.Errorf("%s (connection %d): no answer within %v: %w", what, i+1, limit, err)
		case err != nil:
			return fmt.Errorf("%s (connection %d): %w", what, i+1, err)
		}
	}
	return nil
}

// Close closes the clients.
func (r *Generator) Close() {
	for _, c := range r.clients {
		c.Close()
	}
}

// CPUs is the number of CPUs this process may run on.
func CPUs() int {
	n, err := cpuset.CPUs(0)
	if err != nil {
		return runtime.NumCPU()
	}
	return n
}
