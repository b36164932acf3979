package launch

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/wirebench/wirebench/protocol"
)

func init() {
	Register(protocol.WorkerNode, Launcher{Command: nodeCommand, StartFactor: 2, ProfileGrace: 10 * time.Second,
		RuntimeArgs: NodeArgs, StartCost: NodeStartCost})
}

// NodeStartCost is what an estimate adds to a fork for each Node worker it starts: the
// runtime's start and its modules (grpc-js, proto-loader parsing the two .proto files)
// before the worker listens, and for the fastify server its cluster workers' own start
// until each listens: its share of a fork that starts its workers all at once, fitted
// with PythonStartCost to two runs alone on the 2-vCPU machine kind on 2026-11-29 (see
// there). On a loaded machine a start takes several times this (docs/node-worker.md,
// "Start-up").
const NodeStartCost = 300 * time.Millisecond

// NodeDefaultArgs are the runtime options of every Node worker: Node's defaults, as its
// users run it, but the V8 old-space limit made explicit so that no figure depends on
// how V8 sized it from the machine's memory: 4096 MiB, what Node 20's V8 chooses by
// itself on the 24 GiB machine kind here (heap_size_limit 4144 MiB with the young
// generation).
var NodeDefaultArgs = []string{"--max-old-space-size=4096"}

// NodeArgs are the runtime options of a Node worker, as results record them (the
// stack's runtime_args): NodeDefaultArgs, then the user's (Options.RuntimeArgs:
// --runtime-args, a suite's runtime_args), before the worker's script as node takes
// them (e.g. --max-old-space-size=8192, which wins over the default's). cpus is not
// given: the fastify server reads its CPU count from the process's affinity (one
// cluster worker per CPU).
func NodeArgs(user []string, cpus int) []string {
	return append(slices.Clone(NodeDefaultArgs), user...)
}

// nodeCommand is the command line of a Node worker: node (on PATH) running the
// worker's worker.js (nodeWorkerDir). A profiled one runs with V8's CPU profiler
// (--cpu-prof), which writes Profile.cpuprofile (Chrome DevTools' format) as the worker
// exits: the worker's thread (not the fastify server's cluster processes).
func nodeCommand(c Command) ([]string, error) {
	dir, err := nodeWorkerDir(c.Options)
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("the Node stacks need Node.js 20 or later: node is not on PATH")
	}
	argv := append([]string{node}, NodeArgs(c.RuntimeArgs, len(c.CPUs))...)
	if c.Profile != "" {
		argv = append(argv, "--cpu-prof", "--cpu-prof-dir="+filepath.Dir(c.Profile), "--cpu-prof-name="+filepath.Base(c.Profile)+".cpuprofile")
	}
	return append(argv, filepath.Join(dir, "worker.js"), "worker", "--listen", "unix://"+c.Socket), nil
}

// NodeWorkerEnv names the environment variable that points at the Node worker's
// directory (workers/node, with its node_modules made by `make node`).
const NodeWorkerEnv = "WIREBENCH_NODE_WORKER"

// NodeWorkerPath is the Node worker's directory, from the repository root.
const NodeWorkerPath = "workers/node"

// nodeWorkerDir finds the Node worker: $WIREBENCH_NODE_WORKER, then its place beside
// the binary's bin/ directory or under the current one; the directory must have its
// node_modules (make node: npm ci).
func nodeWorkerDir(opt Options) (string, error) {
	if dir, ok := findInstalled(opt, NodeWorkerEnv, NodeWorkerPath, filepath.Join("node_modules", "@grpc", "grpc-js")); ok {
		return dir, nil
	}
	return "", fmt.Errorf("the Node worker is not installed (no %s/node_modules): run `make node` (needs Node.js 20+ and npm), or set %s", NodeWorkerPath, NodeWorkerEnv)
}
