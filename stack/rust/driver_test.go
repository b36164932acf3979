package rust_test

import (
	"context"
	"testing"
	"time"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

// binary is wirebench itself, for the Go workers of the mixed pairs.
var binary string

func TestMain(m *testing.M) { testbin.Main(m, "../../cmd/wirebench", &binary) }

// The driver runs the Rust worker as it runs the others: Rust against Rust, and Rust
// against Go in both directions, each interval with ops, histograms, CPU on both sides
// and (Rust clients count them too) bytes.
func TestDriverRunsRustWorkers(t *testing.T) {
	t.Setenv(launch.RustWorkerEnv, worker(t))
	pairs := []struct{ proto, server, client string }{
		{"grpc-proto", "tonic", "tonic"},
		{"grpc-proto", "grpc-go", "tonic"},
		{"grpc-proto", "tonic", "grpc-go"},
		{"http-json", "axum", "hyper"},
		{"http-json", "", "hyper"},
		{"http-json", "axum", ""},
	}
	for _, p := range pairs {
		for _, model := range []load.Model{{Kind: load.Closed, Concurrency: 4, Connections: 2}, {Kind: load.Open, Rate: 400, Concurrency: 8}} {
			t.Run(p.proto+"/"+p.server+"-"+p.client+"/"+string(model.Kind), func(t *testing.T) {
				s := spec.Default()
				s.Protocol, s.Transport, s.ServerStack, s.ClientStack = p.proto, "unix", p.server, p.client
				s.Workload = "person.get"
				var err error
				if s.Load, err = model.Normalize(); err != nil {
					t.Fatal(err)
				}
				s.Warmup, s.Iterations, s.IterationTime, s.Forks = 100*time.Millisecond, 2, 200*time.Millisecond, 1
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
						if iv.BytesSent <= 0 || iv.BytesReceived <= 0 || iv.ClientCPU <= 0 {
							t.Errorf("interval %d: bytes %d/%d, client CPU %v; want all counted", k, iv.BytesSent, iv.BytesReceived, iv.ClientCPU)
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
