package suite_test

import (
	"testing"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// process: one is read into the suite; without the key a suite is measured by workers.
func TestProcessOne(t *testing.T) {
	s := mustParse(t, `
		|process: one
		|targets: [direct, {protocol: grpc-proto, transports: [unix, tcp]}]
		|workloads: [{name: echo+stats, payloads: [11]}]`)
	if s.Process != suite.ProcessOne {
		t.Errorf("process %q, want %q", s.Process, suite.ProcessOne)
	}
	// One process is shared and unpinned, and freezes nothing: spec.Default's split
	// pinning, freezing and sharing workers are dropped.
	for _, b := range s.Benchmarks {
		sp := b.Spec
		if sp.ServerCPUs != nil || sp.ClientCPUs != nil || sp.Shape != spec.ShapeShared || sp.Isolation != spec.IsolationNone || sp.Workers != spec.WorkersPerGroup {
			t.Errorf("%s: CPUs %v/%v, shape %q, isolation %q, worker lifetime %q; want none, shared, none, per-group", b.Name, sp.ServerCPUs, sp.ClientCPUs, sp.Shape, sp.Isolation, sp.Workers)
		}
	}
	if s := mustParse(t, `
		|targets: [direct]
		|workloads: [echo]`); s.Process != "" {
		t.Errorf("no process key: process %q, want empty", s.Process)
	}
}

// What one process cannot hold is an error at the process key, each kind once.
func TestProcessOneRefusals(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"another value", `
			|process: two
			|targets: [direct]
			|workloads: [echo]`,
			`t.yaml:1:10: process: "two", want one (every server and client of a comparison group in the process that runs the suite); leave it out for worker processes`},
		{"pinning", `
			|process: one
			|defaults: {server_cpus: "0", client_cpus: "1"}
			|targets: [grpc-proto, capnp]
			|workloads: [echo]`,
			`t.yaml:1:1: process: one: server_cpus and client_cpus pin worker processes; one process is not pinned`},
		{"a machine shape", `
			|process: one
			|defaults: {shape: split}
			|targets: [grpc-proto]
			|workloads: [echo]`,
			`t.yaml:1:1: process: one: shape, isolation and worker_lifetime place, freeze and keep worker processes; one process is shared and unpinned, freezes nothing and has no workers`},
		{"a JVM stack", `
			|process: one
			|targets: [{protocol: http-json, server_stack: akka-http-10.1}]
			|workloads: [echo]`,
			`t.yaml:1:1: process: one: http-json stack akka-http-10.1 runs in the java worker; one process holds Go stacks only`},
		{"TLS", `
			|process: one
			|targets: [{protocol: grpc-proto, transports: [tls]}]
			|workloads: [echo]`,
			`t.yaml:1:1: process: one: transport tls: one process makes no certificates`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := suite.Parse("t.yaml", []byte(doc(c.text)))
			if err == nil || err.Error() != c.want {
				t.Errorf("got  %v\nwant %s", err, c.want)
			}
		})
	}
}
