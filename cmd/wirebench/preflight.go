package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
)

// missingWorkers says what is not there to start the local workers of specs (a jar, a
// binary, a runtime on PATH), each once, with how to build it; "" when every one can
// start. It asks each stack's launcher for the command line it would run
// (launch.Launcher.Command), as the driver does when it starts the worker, so a run
// that cannot start one of its targets stops in a second instead of after measuring
// the others. Sides that run elsewhere (an outside target, remote workers) are not
// checked: their host has what it has.
func missingWorkers(specs []spec.Spec, hosts spec.Hosts, opt launch.Options) string {
	var missing []string
	seen := map[string]bool{}
	check := func(proto, name string, side protocol.Side) {
		st, err := protocol.LookupStack(proto, name, side)
		if err != nil {
			return // the suite's validation says it, at its line
		}
		key := st.Worker + "/" + st.Family
		if seen[key] {
			return
		}
		seen[key] = true
		if err := workerMissing(st, opt); err != nil {
			missing = append(missing, fmt.Sprintf("%s (%s side of %s): %v", st.Name, side, proto, err))
		}
	}
	for _, s := range specs {
		if s.Address == "" && hosts.Server == "" {
			check(s.Protocol, s.ServerStack, protocol.ServerSide)
		}
		if len(hosts.Clients) == 0 {
			check(s.Protocol, s.ClientStack, protocol.ClientSide)
		}
	}
	slices.Sort(missing)
	return strings.Join(missing, "\n  ")
}

// workerMissing says why the worker that runs st cannot start here (its jar or binary
// not built, its runtime not on PATH) and how to get it; nil when it can.
func workerMissing(st *protocol.Stack, opt launch.Options) error {
	l, err := launch.For(st.Worker)
	if err != nil {
		return err
	}
	_, err = l.Command(launch.Command{Options: opt, Stack: st, Socket: filepath.Join(os.TempDir(), "wirebench-preflight.sock")})
	return err
}

// launchOptions are the launch options the runner's driver gives its workers, as far
// as they decide whether a worker can start: this executable.
func launchOptions() launch.Options {
	bin, _ := os.Executable()
	return launch.Options{Binary: bin}
}
