// Package launch starts the worker processes of a run and reaches remote ones: the
// process itself (pinned to a CPU set, dying with its parent, in a network namespace
// when asked), the command line of each worker language (a registry of launchers,
// keyed by protocol.Stack.Worker), and the driver's handle on a worker, spawned or
// remote, over the control API. It knows nothing of benchmarks: the driver says
// which stack, where and on which CPUs.
package launch

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/wirebench/wirebench/protocol"
)

// Launcher starts the workers of one language: the worker kind it is registered under
// (protocol.Stack.Worker). Adding a language registers a launcher (Register); the
// driver finds it by the stack it runs and knows nothing else of the language. Its
// functions must be safe for concurrent use: a fork starts its targets' workers at
// once.
type Launcher struct {
	// Command is the command line of a worker for c: it serves the control API on the
	// Unix socket c.Socket and prints "listening on ADDR" as its first line of
	// standard output. An error says what is missing to start one (a worker not built,
	// a runtime not on PATH) and how to get it.
	Command func(c Command) ([]string, error)
	// StartFactor multiplies Options.StartTimeout for this language's workers (0: 1):
	// a JVM takes a few seconds to start on a busy machine.
	StartFactor int
	// ProfileGrace is how long a profiled worker may take to exit after it was asked
	// to quit before it is killed (0: as long as any worker, two seconds): a JVM
	// writes its JFR recording as it exits.
	ProfileGrace time.Duration
	// RuntimeArgs are the options of the runtime a worker pinned to cpus CPUs (0: not
	// pinned) runs with, the user's (Options.RuntimeArgs) last, as results record
	// them; nil for a language whose runtime takes none.
	RuntimeArgs func(user []string, cpus int) []string
	// StartCost is what a run's estimate (package plan) adds to a fork for each worker
	// of this language it starts, beyond the start of any worker: a JVM's own start and
	// class loading. 0 for a worker that starts in milliseconds.
	StartCost time.Duration
}

// Command is what a launcher is told of the worker to start.
type Command struct {
	Options
	// Stack is the stack the worker is started for.
	Stack *protocol.Stack
	// Socket is the path of the Unix socket the worker's control API listens on.
	Socket string
	// Profile, when set, is the path of the worker's profile files without their
	// extension (Options.ProfileDir and the worker's name).
	Profile string
	// CPUs are the CPUs the worker is pinned to (none: not pinned).
	CPUs []int
}

var (
	mu        sync.RWMutex
	launchers = map[string]Launcher{}
)

// Register adds the launcher of the workers of kind (protocol.Stack.Worker). It
// panics when kind is empty, already has one, or l has no Command: a registration
// is made once, at init.
func Register(kind string, l Launcher) {
	mu.Lock()
	defer mu.Unlock()
	switch _, dup := launchers[kind]; {
	case kind == "":
		panic("launch: a launcher needs a worker kind")
	case dup:
		panic("launch: a second launcher for workers of kind " + kind)
	case l.Command == nil:
		panic("launch: the launcher of " + kind + " has no Command")
	}
	launchers[kind] = l
}

// For returns the launcher of the workers of kind.
func For(kind string) (Launcher, error) {
	mu.RLock()
	defer mu.RUnlock()
	l, ok := launchers[kind]
	if !ok {
		return Launcher{}, fmt.Errorf("no launcher for workers of kind %q (launchers: %v)", kind, kinds())
	}
	return l, nil
}

func kinds() []string { return slices.Sorted(maps.Keys(launchers)) }

// RuntimeArgs are the runtime options of a worker of st pinned to cpus CPUs, with
// user's last (Launcher.RuntimeArgs); nil when its language's runtime takes none.
func RuntimeArgs(st *protocol.Stack, user []string, cpus int) []string {
	l, err := For(st.Worker)
	if err != nil || l.RuntimeArgs == nil {
		return nil
	}
	return l.RuntimeArgs(user, cpus)
}

// Options are what the driver says of every worker it starts.
type Options struct {
	// Binary is the wirebench executable: the Go worker, and the link proxy a worker
	// of another language starts beside itself.
	Binary string
	// JavaWorker is the JVM worker's main jar ("": looked for, javaWorkerJar).
	JavaWorker string
	// RuntimeArgs are the user's options to the worker's runtime (spec.Spec.RuntimeArgs),
	// after the launcher's defaults.
	RuntimeArgs []string
	// StartTimeout bounds a worker's start, times its launcher's StartFactor.
	StartTimeout time.Duration
	// ProfileDir, when set, receives a profile of each worker, named after it.
	ProfileDir string
}
