package control

import (
	"fmt"
	"strings"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
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
func (r Resolved) HasServer() bool { return !r.Protocol.InProcess && r.Spec.Address == "" }

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
	if s.Call != nil && s.ClientStack != "" {
		return Resolved{}, fmt.Errorf("an outside call is made by wirebench's own client of it (stack/outside, in the Go worker), not by the %s client stack", s.ClientStack)
	}
	switch {
	case p.InProcess && s.Address != "":
		return Resolved{}, fmt.Errorf("%s is in-process: it has no server at an address", p.Name)
	case p.InProcess:
		s.Transport = spec.InProc
	case s.Transport == spec.InProc:
		return Resolved{}, fmt.Errorf("%s needs a transport: tcp, unix, tls or quic", p.Name)
	case s.Address != "":
		a, err := transport.Parse(s.Address)
		if err != nil {
			return Resolved{}, err
		}
		switch {
		case s.Transport == spec.TLS && a.Network != spec.TCP:
			return Resolved{}, fmt.Errorf("TLS is for TCP addresses, not %s", a)
		case s.Transport == spec.QUIC && a.Network != "udp":
			return Resolved{}, fmt.Errorf("the quic transport's addresses are udp://HOST:PORT, not %s", a)
		}
		s.Address = a.String()
		switch {
		case a.Network == "udp":
			s.Transport = spec.QUIC // the one transport over UDP
		case s.Transport != spec.TLS:
			s.Transport = a.Network
		}
		if len(s.ServerOptions) > 0 {
			return Resolved{}, fmt.Errorf("server options are for a server wirebench starts, not an outside server")
		}
	}
	if w, err := contract.LookupWorkload(s.Workload); err == nil && w.NewConnection && p.InProcess {
		return Resolved{}, fmt.Errorf("workload %s measures new connections, and %s has none", w.Name, p.Name)
	}
	if err := checkQUIC(r, s); err != nil {
		return Resolved{}, err
	}
	if err := checkTradeShape(r, s); err != nil {
		return Resolved{}, err
	}
	if err := checkMessages(r, &s); err != nil {
		return Resolved{}, err
	}
	if s.Transport == spec.TLS {
		if !r.Client.SpeaksTLS(protocol.ClientSide) {
			return Resolved{}, fmt.Errorf("the %s client stack of %s does not speak TLS", r.Client.Name, p.Name)
		}
		if s.Address == "" && !r.Server.SpeaksTLS(protocol.ServerSide) {
			return Resolved{}, fmt.Errorf("the %s server stack of %s does not speak TLS", r.Server.Name, p.Name)
		}
	}
	r.Spec = s
	return r, nil
}

// checkTradeShape refuses a benchmark that asks for the original's trade (trade:
// original) of a stack that does not carry it, naming the stack and the shape: such
// a stack would otherwise stream nothing, or the compact trade.
func checkTradeShape(r Resolved, s spec.Spec) error {
	if s.Params.Trade != contract.TradeOriginal {
		return nil
	}
	if !r.Client.OriginalTrades {
		return fmt.Errorf("the %s client stack of %s does not carry the original trade shape (trade: %s); only the %s shape", r.Client.Name, r.Protocol.Name, contract.TradeOriginal, contract.TradeCompact)
	}
	if r.HasServer() && !r.Server.OriginalTrades {
		return fmt.Errorf("the %s server stack of %s does not carry the original trade shape (trade: %s); only the %s shape", r.Server.Name, r.Protocol.Name, contract.TradeOriginal, contract.TradeCompact)
	}
	return nil
}

// checkQUIC says what is wrong when the quic transport and the stacks do not go
// together: HTTP/3 stacks run over quic and nothing else, and quic carries nothing
// but them.
func checkQUIC(r Resolved, s spec.Spec) error {
	type side struct {
		side  string
		stack *protocol.Stack
	}
	quic := s.Transport == spec.QUIC
	sides := []side{{"client", r.Client}}
	if s.Address == "" {
		sides = append(sides, side{"server", r.Server})
	}
	for _, sd := range sides {
		switch {
		case sd.stack.QUIC && !quic:
			return fmt.Errorf("the %s %s stack of %s speaks HTTP/3, over QUIC only: use the quic transport (--transport quic), not %s",
				sd.stack.Name, sd.side, r.Protocol.Name, s.Transport)
		case !sd.stack.QUIC && quic:
			var h3 []string
			for _, st := range protocol.Stacks(r.Protocol.Name) {
				if st.QUIC {
					h3 = append(h3, st.Name)
				}
			}
			also := fmt.Sprintf("%s has no HTTP/3 stack", r.Protocol.Name)
			if len(h3) > 0 {
				also = fmt.Sprintf("%s's HTTP/3 stacks: %s", r.Protocol.Name, strings.Join(h3, ", "))
			}
			return fmt.Errorf("the quic transport carries HTTP/3, which the %s %s stack of %s does not speak (%s)",
				sd.stack.Name, sd.side, r.Protocol.Name, also)
		}
	}
	return nil
}
