package suite

import (
	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/protocol"
)

// Skip is a pair of stacks a suite leaves out of its expansion, and why: a client
// stack that cannot call a server stack (a transport or HTTP version one of them
// lacks). Reports show the reason where the pair's figures would be (the matrix view).
type Skip struct {
	// Protocol, Server and Client name the pair: stack names as `wirebench list`
	// gives them (a default stack by its own name, never "").
	Protocol, Server, Client string
	// Transport, when set, limits the skip to that transport; "" skips the pair
	// over every transport.
	Transport string
	// Why is the reason, for people.
	Why string
}

// readSkips reads the skip list: each entry a protocol, a server stack and a client
// stack of it (checked against the registry, on their sides), an optional transport,
// and why, required.
func (c *checker) readSkips(n *yaml.Node) ([]Skip, []*yaml.Node) {
	items := resolve(n)
	if items == nil || items.Kind != yaml.SequenceNode || len(items.Content) == 0 {
		c.at(n, "skip: want a list of {protocol, server, client, why} entries (lines starting with -)")
		return nil, nil
	}
	var out []Skip
	var nodes []*yaml.Node
	for _, it := range items.Content {
		fs, ok := c.fields(it, "a skipped pair", []string{"protocol", "server", "client", "transport", "why"}, nil)
		if !ok {
			continue
		}
		var sk Skip
		complete := true
		for _, key := range []string{"protocol", "server", "client", "why"} {
			f, ok := fs[key]
			if !ok {
				c.at(it, "a skipped pair: missing %s (each names the protocol, the server and client stacks, and why they cannot run together)", key)
				complete = false
				continue
			}
			v, _ := c.str(key, f.val)
			switch key {
			case "protocol":
				sk.Protocol = v
			case "server":
				sk.Server = v
			case "client":
				sk.Client = v
			case "why":
				sk.Why = v
			}
		}
		if f, ok := fs["transport"]; ok {
			sk.Transport, _ = c.str("transport", f.val)
		}
		if !complete {
			continue
		}
		if _, err := protocol.Lookup(sk.Protocol); err != nil {
			c.at(resolve(fs["protocol"].val), "skip: %v", err)
			continue
		}
		bad := false
		for _, side := range []struct {
			key  string
			name string
			side protocol.Side
		}{{"server", sk.Server, protocol.ServerSide}, {"client", sk.Client, protocol.ClientSide}} {
			if _, err := protocol.LookupStack(sk.Protocol, side.name, side.side); err != nil {
				c.at(resolve(fs[side.key].val), "skip: %s: %v", side.key, err)
				bad = true
			}
		}
		if !bad {
			out, nodes = append(out, sk), append(nodes, it)
		}
	}
	return out, nodes
}

// skips reports whether b is the pair sk leaves out. b's stacks are as the
// expansion left them ("" for the protocol's default).
func (sk Skip) skips(b Benchmark) bool {
	p, err := protocol.Lookup(b.Spec.Protocol)
	if err != nil || sk.Protocol != p.Name || sk.Transport != "" && sk.Transport != b.Spec.Transport {
		return false
	}
	server, client := b.Spec.ServerStack, b.Spec.ClientStack
	if server == "" {
		server = p.DefaultServer
	}
	if client == "" {
		client = p.DefaultClient
	}
	return server == sk.Server && client == sk.Client
}

// applySkips drops the benchmarks the skips name; a skip that names no benchmark of
// the suite is an error at its entry (a typo would otherwise leave the pair in).
func (c *checker) applySkips(s *Suite, skips []Skip, nodes []*yaml.Node) {
	used := make([]bool, len(skips))
	kept := s.Benchmarks[:0]
	for _, b := range s.Benchmarks {
		drop := false
		for i, sk := range skips {
			if sk.skips(b) {
				used[i], drop = true, true
			}
		}
		if !drop {
			kept = append(kept, b)
		}
	}
	s.Benchmarks = kept
	for i, sk := range skips {
		if !used[i] {
			at := "any transport"
			if sk.Transport != "" {
				at = sk.Transport
			}
			c.at(nodes[i], "skip: no benchmark of the suite is %s server %s with client %s over %s", sk.Protocol, sk.Server, sk.Client, at)
		}
	}
	s.Skips = skips
}
