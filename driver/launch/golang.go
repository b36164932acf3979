package launch

import "github.com/wirebench/wirebench/protocol"

func init() { Register(protocol.WorkerGo, Launcher{Command: goCommand}) }

// goCommand is the command line of a Go worker: the wirebench executable's own
// worker command. A profiled one writes a CPU profile to Profile.pprof.
func goCommand(c Command) ([]string, error) {
	argv := []string{c.Binary, "worker", "--listen", "unix://" + c.Socket}
	if c.Profile != "" {
		argv = append(argv, "--cpu-profile", c.Profile+".pprof")
	}
	return argv, nil
}
