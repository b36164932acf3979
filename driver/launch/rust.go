package launch

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirebench/wirebench/protocol"
)

func init() { Register(protocol.WorkerRust, Launcher{Command: rustCommand}) }

// rustCommand is the command line of a Rust worker (rustWorkerBinary). It takes no
// profile.
func rustCommand(c Command) ([]string, error) {
	bin, err := rustWorkerBinary(c.Options)
	if err != nil {
		return nil, err
	}
	return []string{bin, "worker", "--listen", "unix://" + c.Socket}, nil
}

// RustWorkerEnv names the environment variable that points at the Rust worker's binary.
const RustWorkerEnv = "WIREBENCH_RUST_WORKER"

// RustWorkerPath is where `make rust` builds the Rust worker, from the repository root.
const RustWorkerPath = "workers/rust/target/release/wirebench-worker"

// rustWorkerBinary finds the Rust worker: $WIREBENCH_RUST_WORKER, then the build's
// place beside the binary's bin/ directory or under the current one.
func rustWorkerBinary(opt Options) (string, error) {
	cands := []string{os.Getenv(RustWorkerEnv)}
	if opt.Binary != "" {
		cands = append(cands, filepath.Join(filepath.Dir(opt.Binary), "..", RustWorkerPath))
	}
	cands = append(cands, RustWorkerPath)
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("the Rust worker is not built (no %s): run `make rust` (needs cargo), or set %s", RustWorkerPath, RustWorkerEnv)
}
