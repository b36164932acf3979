package python_test

import (
	"context"
	"testing"
	"time"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/launch"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/spec"
)

// binary is wirebench itself, for the Go workers of the mixed pairs.
var binary string

func TestMain(m *testing.M) { testbin.Main(m, "../../cmd/wirebench", &binary) }

// The driver runs the Python worker as it runs the others: Python against Python, and
// Python against Go in both directions, each interval with ops, histograms, and CPU on
// both sides (the Python clients count no bytes: -1, as the control API allows).
func TestDriverRunsPythonWorkers(t *testing.T) {
	t.Setenv(launch.PythonWorkerEnv, workerDir(t))
	pairs := []struct{ proto, server, client, workload string }{
		{"grpc-proto", "grpcio", "grpcio-aio", "person.get"},
		{"grpc-proto", "grpcio-aio", "", "stream"},
		{"grpc-proto", "grpc-go", "grpcio-aio", "echo+stats"},
		{"http-json", "fastapi-uvicorn", "aiohttp", "person.get"},
		{"http-json", "fastapi-granian", "", "echo+stats"},
		{"http-json", "", "aiohttp", "stream"},
	}
	for _, p := range pairs {
		for _, model := range []load.Model{{Kind: load.Closed, Concurrency: 4, Connections: 2}, {Kind: load.Open, Rate: 100, Concurrency: 8}} {
			t.Run(p.proto+"/"+p.server+"-"+p.client+"/"+string(model.Kind), func(t *testing.T) {
				s := spec.Default()
				s.Protocol, s.Transport, s.ServerStack, s.ClientStack = p.proto, "unix", p.server, p.client
				s.Workload = p.workload
				var err error
				if s.Load, err = model.Normalize(); err != nil {
					t.Fatal(err)
				}
				s.Warmup, s.Iterations, s.IterationTime, s.Forks = 100*time.Millisecond, 2, 300*time.Millisecond, 1
				s.CallTimeout, s.ServerCPUs, s.ClientCPUs = 5*time.Second, nil, nil
				s.Method = spec.MethodSequential
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				forks, err := driver.Run(ctx, s, driver.Options{Binary: binary})
				if err != nil {
					t.Fatal(err)
				}
				for _, tr := range forks {
					if tr.Err != nil || len(tr.Intervals) != 2 {
						t.Fatalf("fork %d: %v, %d intervals", tr.Index, tr.Err, len(tr.Intervals))
					}
					for k, iv := range tr.Intervals {
						if iv.Ops == 0 || iv.Resp.TotalCount() != iv.Ops || iv.ErrorCount() != 0 || iv.Index != k {
							t.Errorf("interval %d: index %d, %d ops, %d latencies, errors %v", k, iv.Index, iv.Ops, iv.Resp.TotalCount(), iv.Errors)
						}
						if iv.ClientCPU <= 0 {
							t.Errorf("interval %d: client CPU %v", k, iv.ClientCPU)
						}
						if iv.Server == nil || iv.ServerCPU <= 0 || iv.Server.PeakRSS <= 0 {
							t.Errorf("interval %d: server reading %+v, CPU %v", k, iv.Server, iv.ServerCPU)
						}
						if model.Kind == load.Open && (iv.Lag == nil || iv.Lag.TotalCount() != iv.Ops) {
							t.Errorf("interval %d: open model without a lag per op", k)
						}
					}
				}
			})
		}
	}
}
