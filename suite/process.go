package suite

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
)

// readProcess reads the process key and checks that every benchmark can be measured
// that way: one process here holds the servers and the clients, so nothing may ask
// for another host, a pinning per side, a stack of another language's worker, a
// certificate or a capacity search. Each problem is reported once, at the key.
//
// One process is never pinned: the suite's benchmarks lose the default pinning
// (spec.Default's) and are of the shared shape with no isolation (nothing is frozen)
// and no workers to share between groups (spec.WorkersPerGroup),
// and a file that sets server_cpus, client_cpus, shape, isolation or worker_lifetime anywhere is
// refused.
func (c *checker) readProcess(s *Suite, f field, doc *yaml.Node) {
	v, ok := c.str("process", f.val)
	if !ok {
		return
	}
	if v != ProcessOne {
		c.at(resolve(f.val), "process: %q, want %s (every server and client of a comparison group in the process that runs the suite); leave it out for worker processes", v, ProcessOne)
		return
	}
	s.Process = v
	var problems []string
	add := func(format string, args ...any) {
		if p := fmt.Sprintf(format, args...); !slices.Contains(problems, p) {
			problems = append(problems, p)
		}
	}
	if setsKey(doc, "server_cpus", "client_cpus") {
		add("server_cpus and client_cpus pin worker processes; one process is not pinned")
	}
	if setsKey(doc, "shape", "isolation", "worker_lifetime") {
		add("shape, isolation and worker_lifetime place, freeze and keep worker processes; one process is shared and unpinned, freezes nothing and has no workers")
	}
	if s.Hosts.Server != "" || len(s.Hosts.Clients) > 0 || s.Hosts.LocalClients > 1 || s.Hosts.Netns || !s.Hosts.Link.IsZero() {
		add("workers and link place worker processes; one process has none")
	}
	for _, b := range s.Benchmarks {
		sp := b.Spec
		switch {
		case sp.Capacity != nil:
			add("a capacity search runs in worker processes")
		case sp.WarmupMax > 0:
			add("warmup_max: the warm-up in one process is fixed")
		case sp.Secure():
			add("transport %s: one process makes no certificates", sp.Transport)
		case sp.Address != "":
			add("address: one process serves its own targets")
		}
		for _, side := range []protocol.Side{protocol.ServerSide, protocol.ClientSide} {
			name := sp.ServerStack
			if side == protocol.ClientSide {
				name = sp.ClientStack
			}
			st, err := protocol.LookupStack(sp.Protocol, name, side)
			if err == nil && st.Worker != protocol.WorkerGo {
				add("%s stack %s runs in the %s worker; one process holds Go stacks only", sp.Protocol, st.Name, st.Worker)
			}
		}
	}
	for _, p := range problems {
		c.at(f.key, "process: %s: %s", ProcessOne, p)
	}
	for i := range s.Benchmarks {
		sp := &s.Benchmarks[i].Spec
		sp.ServerCPUs, sp.ClientCPUs = nil, nil
		sp.Shape, sp.Isolation = spec.ShapeShared, spec.IsolationNone
		sp.Workers = spec.WorkersPerGroup // no worker processes to share
	}
}

// setsKey reports whether a mapping anywhere under n has one of keys.
func setsKey(n *yaml.Node, keys ...string) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if slices.Contains(keys, n.Content[i].Value) {
				return true
			}
		}
	}
	for _, k := range n.Content {
		if setsKey(k, keys...) {
			return true
		}
	}
	return false
}
