package rust_test

import (
	"testing"

	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/internal/workertest"
)

// binary is wirebench itself, for the Go workers of the mixed pairs.
var binary string

func TestMain(m *testing.M) { testbin.Main(m, "github.com/wirebench/wirebench/cmd/wirebench", &binary) }

// The driver runs the Rust worker as it runs the others: Rust against Rust, and Rust
// against Go in both directions, each interval with ops, histograms, CPU on both sides
// and (Rust clients count them too) bytes.
func TestDriverRunsRustWorkers(t *testing.T) {
	t.Setenv(launch.RustWorkerEnv, worker(t))
	workertest.DriverRuns(t, binary, true, [][4]string{
		{"grpc-proto", "tonic", "tonic", "person.get"},
		{"grpc-proto", "grpc-go", "tonic", "person.get"},
		{"grpc-proto", "tonic", "grpc-go", "person.get"},
		{"http-json", "axum", "hyper", "person.get"},
		{"http-json", "", "hyper", "person.get"},
		{"http-json", "axum", "", "person.get"},
	})
}
