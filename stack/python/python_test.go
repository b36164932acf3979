package python_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/internal/workertest"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/stack/python"
)

// binary is wirebench itself, for the Go workers of the mixed pairs.
var binary string

func TestMain(m *testing.M) { testbin.Main(m, "../../cmd/wirebench", &binary) }

// workerDir returns the Python worker's directory with its venv, or skips the test
// (fails it in CI).
func workerDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(launch.PythonWorkerEnv)
	if dir == "" {
		dir = filepath.Join("..", "..", filepath.FromSlash(launch.PythonWorkerPath))
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".venv", "bin", "python")); err != nil {
		testtool.Missing(t, "the Python worker has no venv in %s (run `make python`; needs Python 3.11+)", dir)
	}
	return dir
}

var worker = workertest.Worker{
	Kind: protocol.WorkerPython, Language: "python", Version: python.Python, Stacks: python.Stacks, Tools: pythonTools,
	Command: func(ctx context.Context, t *testing.T, args ...string) *exec.Cmd {
		dir := workerDir(t)
		return exec.CommandContext(ctx, filepath.Join(dir, ".venv", "bin", "python"), append([]string{filepath.Join(dir, "worker.py")}, args...)...)
	},
}

// The versions python.go names are the ones workers/python/requirements.txt pins (==).
func TestVersionsMatchRequirements(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "workers", "python", "requirements.txt"))
	if err != nil {
		t.Fatal(err)
	}
	pins := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, v, ok := strings.Cut(line, "==")
		if !ok {
			t.Errorf("requirements.txt: %q is not pinned with ==", line)
			continue
		}
		pins[strings.ToLower(strings.ReplaceAll(name, "_", "-"))] = v
	}
	worker.CheckPins(t, "workers/python/requirements.txt", pins)
}

func TestStacksRegistered(t *testing.T) { worker.CheckRegistered(t) }

func TestWorkerListsTheRegisteredStacks(t *testing.T) { worker.CheckList(t) }

func TestGoClientsAgainstPythonServers(t *testing.T) {
	workerDir(t)
	worker.GoClientsAgainstServers(t)
}

func TestPythonClientsAgainstGoServers(t *testing.T) {
	workerDir(t)
	worker.ClientsAgainstGoServers(t)
}

// pythonTools are the tools users reach for, run by TestGoClientsAgainstPythonServers
// on each server it starts, fresh: curl on FastAPI (uvicorn and granian, TCP and Unix
// sockets), grpcurl and ghz on grpcio's sync and aio servers (TCP). Each skips, saying
// why, when its tool is missing (fails in CI).
func pythonTools(t *testing.T, s *protocol.Stack, network string, addr transport.Addr) {
	switch {
	case s.Protocol == "http-json" && (s.Name == "fastapi-uvicorn" || s.Name == "fastapi-granian"):
		t.Run("curl", func(t *testing.T) {
			testtool.Command(t, "curl")
			workertest.CheckCurl(t, addr)
		})
	case s.Protocol == "grpc-proto" && (s.Name == "grpcio" || s.Name == "grpcio-aio") && network == "tcp":
		t.Run("grpcurl", func(t *testing.T) { workertest.CheckGrpcurl(t, testtool.Command(t, "grpcurl"), addr) })
		t.Run("ghz", func(t *testing.T) { workertest.CheckGhz(t, testtool.Command(t, "ghz"), addr) })
	}
}

// The Python clients count their bytes on the wire over TCP (the kernel's TCP_INFO of
// their connections: workers/python/wirebench_worker/sockbytes.py), every interval
// within what a person.get takes.
func TestPythonClientsCountBytes(t *testing.T) {
	t.Setenv(launch.PythonWorkerEnv, workerDir(t))
	workertest.DriverCountsBytes(t, binary, [][3]string{
		{"grpc-proto", "grpc-go", "grpcio-aio"},
		{"http-json", "", "aiohttp"},
	})
}

// The driver runs the Python worker as it runs the others: Python against Python, and
// Python against Go in both directions (over Unix sockets, where the Python clients
// count no bytes: -1, as the control API allows; the kernel keeps no byte counts of a
// Unix socket).
func TestDriverRunsPythonWorkers(t *testing.T) {
	t.Setenv(launch.PythonWorkerEnv, workerDir(t))
	workertest.DriverRuns(t, binary, false, [][4]string{
		{"grpc-proto", "grpcio", "grpcio-aio", "person.get"},
		{"grpc-proto", "grpcio-aio", "", "stream"},
		{"grpc-proto", "grpc-go", "grpcio-aio", "echo+stats"},
		{"http-json", "fastapi-uvicorn", "aiohttp", "person.get"},
		{"http-json", "fastapi-granian", "", "echo+stats"},
		{"http-json", "", "aiohttp", "stream"},
	})
}
