package cluster

import (
	"fmt"

	"github.com/wirebench/wirebench/contract"

	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/transport"
)

// Resolved is a benchmark checked against the registry: its protocol and the stacks
// of both sides, which say which kind of worker runs each side.
type Resolved struct {
	Spec     spec.Spec
	Protocol *protocol.Protocol
	// Server is the server stack; for an in-process protocol it is the client stack
	// (the service runs in the client), and for an outside target the protocol's
	// default server stack stands for an unknown server (HasServer is false).
	Server, Client *protocol.Stack
}

// HasServer reports whether the benchmark needs a server worker.
func (r Resolved) HasServer() bool { return !r.Protocol.InProcess && r.Spec.Target == "" }

// ServerStackName and ClientStackName are the names a worker is sent: always the
// stack's own name, also for a default stack (which spec.Spec leaves "").
func (r Resolved) ServerStackName() string { return r.Server.Name }
func (r Resolved) ClientStackName() string { return r.Client.Name }

// Resolve validates s (spec.Spec.Validate) and checks its protocol, stacks and
// transport against the registry: the one place both the driver and a worker check a
// benchmark. A stack named in s that is the protocol's default is cleared, so a
// benchmark has one name however its default stacks were asked for.
func Resolve(s spec.Spec) (Resolved, error) {
	if err := s.Validate(); err != nil {
		return Resolved{}, err
	}
	p, err := protocol.Lookup(s.Protocol)
	if err != nil {
		return Resolved{}, err
	}
	r := Resolved{Protocol: p}
	if r.Client, err = protocol.LookupStack(p.Name, s.ClientStack, protocol.ClientSide); err != nil {
		return Resolved{}, err
	}
	if p.InProcess {
		if s.ServerStack != "" && s.ServerStack != r.Client.Name {
			return Resolved{}, fmt.Errorf("%s is in-process: its service runs in the client stack, so it takes no server stack", p.Name)
		}
		r.Server = r.Client
	} else if r.Server, err = protocol.LookupStack(p.Name, s.ServerStack, protocol.ServerSide); err != nil {
		return Resolved{}, err
	}
	if s.ServerStack == p.DefaultServer || p.InProcess {
		s.ServerStack = ""
	}
	if s.ClientStack == p.DefaultClient {
		s.ClientStack = ""
	}
	switch {
	case p.InProcess && s.Target != "":
		return Resolved{}, fmt.Errorf("%s is in-process: it has no server to target", p.Name)
	case p.InProcess:
		s.Transport = spec.InProc
	case s.Transport == spec.InProc:
		return Resolved{}, fmt.Errorf("%s needs a transport, tcp or unix", p.Name)
	case s.Target != "":
		a, err := transport.Parse(s.Target)
		if err != nil {
			return Resolved{}, err
		}
		if s.Transport == spec.TLS && a.Network != spec.TCP {
			return Resolved{}, fmt.Errorf("TLS is for TCP targets, not %s", a)
		}
		s.Target = a.String()
		if s.Transport != spec.TLS {
			s.Transport = a.Network
		}
		if len(s.ServerOptions) > 0 {
			return Resolved{}, fmt.Errorf("server options are for a server wirebench starts, not an outside target")
		}
	}
	if w, err := contract.LookupWorkload(s.Workload); err == nil && w.NewConnection && p.InProcess {
		return Resolved{}, fmt.Errorf("workload %s measures new connections, and %s has none", w.Name, p.Name)
	}
	if s.Transport == spec.TLS {
		if !r.Client.TLS {
			return Resolved{}, fmt.Errorf("the %s client stack of %s does not speak TLS", r.Client.Name, p.Name)
		}
		if s.Target == "" && !r.Server.TLS {
			return Resolved{}, fmt.Errorf("the %s server stack of %s does not speak TLS", r.Server.Name, p.Name)
		}
	}
	r.Spec = s
	return r, nil
}
