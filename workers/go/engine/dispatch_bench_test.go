package engine

// BenchmarkOpenDispatcher measures the open model's generator alone: the dispatcher
// and its callers, in this process, with an op that spins for -dispatch.work (what a
// client spends on a call) and no network, so that lag comes from the generator and
// not from a target. Each run is b.N arrivals at -dispatch.rate over 64 callers; it
// reports the achieved rate, lag p50/p99/p99.9 and the arrivals that found every
// caller busy. Run pinned to one CPU, under the measurement lock, e.g.
//
//	flock /tmp/wirebench-cpu.lock taskset -c 1 go test -run '^$' -bench OpenDispatcher \
//	    -benchtime 150000x -cpu 1 -dispatch.work 10us ./engine

import (
	"context"
	"flag"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/spec/load"
)

var (
	dispatchRate = flag.Float64("dispatch.rate", 50000, "BenchmarkOpenDispatcher: arrivals per second")
	dispatchWork = flag.Duration("dispatch.work", 5*time.Microsecond, "BenchmarkOpenDispatcher: CPU each op spins for")
)

func BenchmarkOpenDispatcher(b *testing.B) {
	work := *dispatchWork
	op := func(context.Context, contract.Service, uint64) error {
		for end := time.Now().Add(work); time.Now().Before(end); {
		}
		return nil
	}
	m, err := load.Model{Kind: load.Open, Concurrency: 64, Connections: 1, Rate: *dispatchRate}.Normalize()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	s, err := Start(context.Background(), Config{Op: op, Clients: clients(1), Model: m})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	iv, err := s.Phase(PhaseSpec{Ops: int64(b.N)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(iv.Ops)/iv.Seconds(), "achieved/s")
	b.ReportMetric(float64(iv.Lag.ValueAtQuantile(50))/1e3, "lag-p50-us")
	b.ReportMetric(float64(iv.Lag.ValueAtQuantile(99))/1e3, "lag-p99-us")
	b.ReportMetric(float64(iv.Lag.ValueAtQuantile(99.9))/1e3, "lag-p999-us")
	b.ReportMetric(float64(iv.Overflow), "overflow")
}
