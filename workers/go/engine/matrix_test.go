package engine_test

import (
	"context"
	"testing"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/protocoltest"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec/load"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/workers/go/engine"
)

// Every protocol × transport × workload × load model runs through the engine with
// every answer verified and no error: the engine is protocol-agnostic, and no
// combination is left untried.
func TestEveryProtocolWorkloadModel(t *testing.T) {
	models := []load.Model{
		{Kind: load.Closed, Concurrency: 4, Connections: 2},
		{Kind: load.Open, Rate: 2000, Arrival: load.Poisson, Concurrency: 8},
	}
	for _, p := range protocol.All() {
		networks := protocoltest.Networks
		if p.InProcess {
			networks = []string{"inproc"}
		}
		for _, network := range networks {
			t.Run(p.Name+"/"+network, func(t *testing.T) {
				tg := protocoltest.Start(t, p.Name, network, nil, protocol.ServerConfig{})
				var counter transport.Counter
				for _, w := range contract.Workloads() {
					if w.NeedsMessages() {
						continue // protocoltest's message suite runs it, with a schema
					}
					params := w.DefaultParams()
					params.Trades, params.Increments = 100, 10 // small, the same code path
					op, err := w.New(params, tg.Dataset)
					if err != nil {
						t.Fatal(err)
					}
					for _, m := range models {
						m, err := m.Normalize()
						if err != nil {
							t.Fatal(err)
						}
						clients := make([]contract.Service, m.Connections)
						for i := range clients {
							clients[i] = tg.Client(t, &counter)
						}
						s, err := engine.Start(context.Background(), engine.Config{Op: op, Clients: clients, Model: m})
						if err != nil {
							t.Fatalf("%s %s: %v", w.Name, m.Kind, err)
						}
						for range 2 {
							iv, err := s.Phase(engine.PhaseSpec{Ops: 10})
							if err != nil {
								t.Fatalf("%s %s: %v", w.Name, m.Kind, err)
							}
							if iv.Ops != 10 || iv.ErrorCount() != 0 {
								t.Errorf("%s %s: %d ops, errors %v (first: %v)", w.Name, m.Kind, iv.Ops, iv.Errors, iv.FirstErrors)
							}
						}
						s.Close()
					}
				}
				if !p.InProcess && (counter.Sent() == 0 || counter.Received() == 0) {
					t.Errorf("no bytes counted: sent %d, received %d", counter.Sent(), counter.Received())
				}
			})
		}
	}
}
