package launch

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/wirebench/wirebench/protocol"
)

func init() {
	Register(protocol.WorkerPython, Launcher{Command: pythonCommand, StartFactor: 3, ProfileGrace: 10 * time.Second,
		RuntimeArgs: PythonArgs, StartCost: PythonStartCost})
}

// PythonStartCost is what an estimate adds to a fork for each Python worker it starts:
// the interpreter's start and its imports before the worker listens, and, for the
// http-json servers, the start of their worker processes (uvicorn's and granian's, one
// per CPU, each importing FastAPI and Pydantic) until the server answers. A fork starts
// its workers all at once (driver.groupFork.startWorkers), so what a worker adds is its
// share of the fork's start, not its start alone. Measured from the journals of two
// runs alone on the 2-vCPU machine kind on 2026-11-29 (docs/method.md, "What the
// estimate counts"): polyglot's forks (4 Python, 2 Node and 10 Go processes) began their
// first phase 2.0–2.4 s after the fork before ended, and its FastAPI servers took a
// further 0.5–0.6 s each to answer; grpc-bench-polyglot's (2 Python, 1 Node, 5 Go)
// 1.2–1.4 s, and 0.1 s more for each grpcio server. Fitted with NodeStartCost to both:
// 0.4 s. On a loaded machine a Python worker's start takes many times this
// (docs/python-worker.md, "Start-up").
const PythonStartCost = 400 * time.Millisecond

// PythonDefaultArgs are the interpreter options of every Python worker: faulthandler
// on, so that a worker that crashes (a fault in an extension's C code) writes the
// Python stack of each thread to its standard error, which the driver keeps for its
// failure message. Otherwise CPython's defaults, as its users run it.
var PythonDefaultArgs = []string{"-X", "faulthandler"}

// PythonArgs are the interpreter options of a Python worker, as results record them
// (the stack's runtime_args): PythonDefaultArgs, then the user's (Options.RuntimeArgs:
// --runtime-args, a suite's runtime_args), before the worker's script as python takes
// them (e.g. -X importtime, -O; an option's value joined to it: -Xdev). cpus is not
// given: the FastAPI servers read the CPU count from the process's affinity (one worker
// process per CPU).
func PythonArgs(user []string, cpus int) []string {
	return append(slices.Clone(PythonDefaultArgs), user...)
}

// pythonCommand is the command line of a Python worker: the worker's venv interpreter
// (pythonWorkerDir) running worker.py. A profiled one runs under cProfile, the
// interpreter's own profiler, which writes Profile.pstats as the worker exits: the
// worker's main thread, where the asyncio loop runs the control API, the grpc.aio
// server and every client (not the sync grpcio server's pool threads, nor the FastAPI
// servers' processes).
func pythonCommand(c Command) ([]string, error) {
	dir, err := pythonWorkerDir(c.Options)
	if err != nil {
		return nil, err
	}
	argv := append([]string{filepath.Join(dir, ".venv", "bin", "python")}, PythonArgs(c.RuntimeArgs, len(c.CPUs))...)
	if c.Profile != "" {
		argv = append(argv, "-m", "cProfile", "-o", c.Profile+".pstats")
	}
	return append(argv, filepath.Join(dir, "worker.py"), "worker", "--listen", "unix://"+c.Socket), nil
}

// PythonWorkerEnv names the environment variable that points at the Python worker's
// directory (workers/python, with its .venv made by `make python`).
const PythonWorkerEnv = "WIREBENCH_PYTHON_WORKER"

// PythonWorkerPath is the Python worker's directory, from the repository root.
const PythonWorkerPath = "workers/python"

// pythonWorkerDir finds the Python worker: $WIREBENCH_PYTHON_WORKER, then its place
// beside the binary's bin/ directory or under the current one; the directory must have
// its venv (make python).
func pythonWorkerDir(opt Options) (string, error) {
	if dir, ok := findInstalled(opt, PythonWorkerEnv, PythonWorkerPath, filepath.Join(".venv", "bin", "python")); ok {
		return dir, nil
	}
	return "", fmt.Errorf("the Python worker is not installed (no %s/.venv): run `make python` (needs Python 3.11+), or set %s", PythonWorkerPath, PythonWorkerEnv)
}
