package node_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/internal/testtool"
	"github.com/wirebench/wirebench/internal/workertest"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/stack/node"
)

// binary is wirebench itself, for the Go workers of the mixed pairs.
var binary string

func TestMain(m *testing.M) { testbin.Main(m, "../../cmd/wirebench", &binary) }

// workerDir returns the Node worker's directory with its node_modules, or skips the
// test (fails it in CI).
func workerDir(t *testing.T) string {
	t.Helper()
	testtool.Command(t, "node")
	dir := os.Getenv(launch.NodeWorkerEnv)
	if dir == "" {
		dir = filepath.Join("..", "..", filepath.FromSlash(launch.NodeWorkerPath))
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@grpc", "grpc-js")); err != nil {
		testtool.Missing(t, "the Node worker has no node_modules in %s (run `make node`; needs Node.js 20+ and npm)", dir)
	}
	return dir
}

var worker = workertest.Worker{
	Kind: protocol.WorkerNode, Language: "node", Version: node.Node, Stacks: node.Stacks, Tools: nodeTools,
	Command: func(ctx context.Context, t *testing.T, args ...string) *exec.Cmd {
		return exec.CommandContext(ctx, "node", append([]string{filepath.Join(workerDir(t), "worker.js")}, args...)...)
	},
}

// The versions node.go names are the ones workers/node/package.json pins exactly and
// its package-lock.json locks.
func TestVersionsMatchPackageJSON(t *testing.T) {
	var pkg struct{ Dependencies map[string]string }
	var lock struct {
		Packages map[string]struct{ Version string }
	}
	for name, v := range map[string]any{"package.json": &pkg, "package-lock.json": &lock} {
		b, err := os.ReadFile(filepath.Join("..", "..", "workers", "node", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for dep, v := range pkg.Dependencies {
		if locked := lock.Packages["node_modules/"+dep].Version; locked != v {
			t.Errorf("package.json pins %s %q, package-lock.json locks %q", dep, v, locked)
		}
	}
	worker.CheckPins(t, "workers/node/package.json", pkg.Dependencies)
}

func TestStacksRegistered(t *testing.T) { worker.CheckRegistered(t) }

func TestWorkerListsTheRegisteredStacks(t *testing.T) { worker.CheckList(t) }

func TestGoClientsAgainstNodeServers(t *testing.T) {
	workerDir(t)
	worker.GoClientsAgainstServers(t)
}

func TestNodeClientsAgainstGoServers(t *testing.T) {
	workerDir(t)
	worker.ClientsAgainstGoServers(t)
}

// nodeTools are the tools users reach for, run by TestGoClientsAgainstNodeServers on
// each server it starts, fresh: curl on Fastify (TCP and Unix sockets), grpcurl and ghz
// on grpc-js (TCP). Each skips, saying why, when its tool is missing (fails in CI).
func nodeTools(t *testing.T, s *protocol.Stack, network string, addr transport.Addr) {
	switch {
	case s.Protocol == "http-json" && s.Name == "fastify":
		t.Run("curl", func(t *testing.T) {
			testtool.Command(t, "curl")
			workertest.CheckCurl(t, addr)
		})
	case s.Protocol == "grpc-proto" && s.Name == "grpc-js" && network == "tcp":
		t.Run("grpcurl", func(t *testing.T) { workertest.CheckGrpcurl(t, testtool.Command(t, "grpcurl"), addr) })
		t.Run("ghz", func(t *testing.T) { workertest.CheckGhz(t, testtool.Command(t, "ghz"), addr) })
	}
}

// The Node clients count their bytes on the wire (node:net's counts of their sockets:
// workers/node/lib/bytes.js), every interval within what a person.get takes.
func TestNodeClientsCountBytes(t *testing.T) {
	t.Setenv(launch.NodeWorkerEnv, workerDir(t))
	workertest.DriverCountsBytes(t, binary, [][3]string{
		{"grpc-proto", "grpc-go", "grpc-js"},
		{"http-json", "", "node-http"},
	})
}

// The driver runs the Node worker as it runs the others: Node against Node, Node
// against Go in both directions, and the Connect server under the Go Connect client;
// every client counts its bytes, over Unix sockets too.
func TestDriverRunsNodeWorkers(t *testing.T) {
	t.Setenv(launch.NodeWorkerEnv, workerDir(t))
	workertest.DriverRuns(t, binary, true, [][4]string{
		{"grpc-proto", "grpc-js", "grpc-js", "person.get"},
		{"grpc-proto", "grpc-js", "", "stream"},
		{"grpc-proto", "grpc-go", "grpc-js", "echo+stats"},
		{"http-json", "fastify", "node-http", "person.get"},
		{"http-json", "fastify", "", "echo+stats"},
		{"http-json", "", "node-http", "stream"},
		{"connect-proto", "connect-node", "", "person.get"},
		{"grpc-web", "connect-node", "", "stream"},
	})
}
