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
// per CPU, each importing FastAPI and Pydantic) until the server answers. Measured on
// 2026-11-29 on the 2-vCPU machine kind with other builds running (load average 18):
// the worker listening in 1.1–1.4 s, grpcio serving in 1.4 s, FastAPI on uvicorn in
// 6–8 s and on granian in 10–12 s (docs/python-worker.md, "Start-up"); 4 s is between
// the gRPC and the HTTP servers' costs, as a fork starts one of each kind in a mixed
// group.
const PythonStartCost = 4 * time.Second

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
