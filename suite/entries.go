package suite

import (
	"fmt"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
)

// target is one entry of targets: a protocol, where it runs, and its overrides.
type target struct {
	node           *yaml.Node
	proto          *protocol.Protocol
	label          string // tells apart targets of one protocol; "" for none
	transports     []string
	transportNodes []*yaml.Node
	// serverStacks and clientStacks are the stacks of each side ("" the protocol's
	// default), crossed with each other; their nodes say where a duplicate differs.
	serverStacks, clientStacks         []string
	serverStackNodes, clientStackNodes []*yaml.Node
	address                            string     // set for an outside server
	call                               *spec.Call // an outside server's own call (target:, outside.go)
	options                            map[string]string
	serverOptions                      map[string]string
	settings                           settings
	load                               []loadPoint // nil: not set here
}

// workload is one entry of workloads: a workload, its parameter points, and overrides.
type workload struct {
	node       *yaml.Node
	w          *contract.Workload
	params     []contract.Params
	paramNodes []*yaml.Node
	settings   settings
	load       []loadPoint
}

// paramKeys are a workload entry's parameter lists: its keys but its name.
var paramKeys = spec.KeyNames(spec.WorkloadKeys[1:])

// labelRE is a target label: it goes into benchmark names and file names of charts.
var labelRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$`)

// paramUse maps a workload entry's list key to the contract.Workload.Uses name.
var paramUse = map[string]string{"payloads": "payload", "increments": "increments", "trades": "trades", "trade": "trade"}

// entry returns the fields of a list entry; a bare scalar is shorthand for a mapping
// with only its naming key (- direct is - protocol: direct).
func (c *checker) entry(n *yaml.Node, where, nameKey string, valid []string, hint func(string) string) (map[string]field, bool) {
	if r := resolve(n); r != nil && r.Kind == yaml.ScalarNode && !isNull(r) {
		return map[string]field{nameKey: {key: r, val: r}}, true
	}
	fs, ok := c.fields(n, where, valid, hint)
	if ok && fs[nameKey].key == nil {
		c.at(n, "%s: missing %s", where, nameKey)
		return fs, false
	}
	return fs, ok
}

func (c *checker) readTarget(n *yaml.Node, i int) *target {
	where := fmt.Sprintf("targets[%d]", i)
	fs, ok := c.entry(n, where, "protocol", targetPlace.keys, targetPlace.hint)
	if !ok {
		return nil
	}
	t := &target{node: resolve(n), settings: c.readSettings(fs)}
	name, ok := c.str("protocol", fs["protocol"].val)
	if !ok {
		return nil
	}
	p, err := protocol.Lookup(name)
	if err != nil {
		if len(protocol.Names()) == 0 {
			err = fmt.Errorf("%w; no protocol is registered (a program must import github.com/wirebench/wirebench/stack/all)", err)
		}
		c.at(resolve(fs["protocol"].val), "%v", err)
		return nil
	}
	t.proto = p
	if f, ok := fs["label"]; ok {
		if v, ok := c.str("label", f.val); ok {
			if !labelRE.MatchString(v) {
				c.at(resolve(f.val), "label: %q, want letters, digits, '.', '_' and '-' (e.g. win-64KiB), at most 40", v)
			} else {
				t.label = v
			}
		}
	}
	if f, ok := fs["options"]; ok {
		t.options, _ = c.stringMap("options", f.val)
	}
	if f, ok := fs["server_options"]; ok {
		t.serverOptions, _ = c.stringMap("server_options", f.val)
	}
	if f, ok := fs["load"]; ok {
		t.load = c.readLoad(f.val, where+".load")
	}
	c.readWhere(t, fs)
	c.readOutside(t, fs)
	t.serverStacks, t.serverStackNodes = c.readStacks(t, fs, "server_stack", protocol.ServerSide)
	t.clientStacks, t.clientStackNodes = c.readStacks(t, fs, "client_stack", protocol.ClientSide)
	return t
}

// readStacks reads a target's server_stack or client_stack: one stack name or a list
// of them, each one of the protocol's stacks for that side. A name that is the
// protocol's default is kept as "" (a benchmark names only stacks that are not).
func (c *checker) readStacks(t *target, fs map[string]field, key string, side protocol.Side) ([]string, []*yaml.Node) {
	f, ok := fs[key]
	if !ok {
		return []string{""}, []*yaml.Node{nil}
	}
	switch {
	case side == protocol.ServerSide && t.address != "":
		c.at(f.key, "%s: a target with an address is an outside server, whose stack wirebench does not choose", key)
		return []string{""}, []*yaml.Node{nil}
	case side == protocol.ServerSide && t.proto.InProcess:
		c.at(f.key, "%s: %s is in-process: its service runs in the client stack", key, t.proto.Name)
		return []string{""}, []*yaml.Node{nil}
	}
	items := []*yaml.Node{f.val}
	if r := resolve(f.val); r != nil && r.Kind == yaml.SequenceNode {
		var ok bool
		if items, ok = c.list(key, f.val); !ok {
			return []string{""}, []*yaml.Node{nil}
		}
	}
	var names []string
	var nodes []*yaml.Node
	for _, it := range items {
		name, ok := c.str(key, it)
		if !ok {
			continue
		}
		st, err := protocol.LookupStack(t.proto.Name, name, side)
		if err != nil {
			c.at(resolve(it), "%s: %v", key, err)
			continue
		}
		if st.Name == t.proto.DefaultServer && side == protocol.ServerSide || st.Name == t.proto.DefaultClient && side == protocol.ClientSide {
			name = ""
		}
		names, nodes = append(names, name), append(nodes, resolve(it))
	}
	if len(names) == 0 {
		return []string{""}, []*yaml.Node{nil}
	}
	return names, nodes
}

// readWhere reads transports, tls and address: where the target's server runs. tls:
// true puts TLS on the target's tcp transports (transport "tls"), as listing tls in
// transports does; a suite compares TLS on and off with transports: [tcp, tls]. quic
// carries TLS always, and tls: true leaves it as it is.
func (c *checker) readWhere(t *target, fs map[string]field) {
	c.readTransports(t, fs)
	f, ok := fs["tls"]
	if !ok {
		return
	}
	r, ok := c.scalar("tls", f.val, "true or false")
	if !ok {
		return
	}
	on, err := strconv.ParseBool(r.Value)
	switch {
	case err != nil:
		c.at(r, "tls: %q, want true or false", r.Value)
	case on && t.proto.InProcess:
		c.at(f.key, "tls: %s is in-process: it has no wire to encrypt", t.proto.Name)
	case on:
		for i, tr := range t.transports {
			switch tr {
			case "tcp":
				t.transports[i] = "tls"
			case "unix":
				c.at(f.key, "tls: TLS is for tcp; this target lists unix")
			}
		}
	}
}

func (c *checker) readTransports(t *target, fs map[string]field) {
	if f, ok := fs["address"]; ok {
		s, ok := c.str("address", f.val)
		if !ok {
			return
		}
		switch a, err := transport.Parse(s); {
		case t.proto.InProcess:
			c.at(f.key, "address: %s is in-process: it has no server to address", t.proto.Name)
		case err != nil:
			c.at(resolve(f.val), "address: %v", err)
		default:
			tr := a.Network
			if tr == "udp" {
				tr = "quic" // the one transport over UDP
			}
			t.address, t.transports, t.transportNodes = a.String(), []string{tr}, []*yaml.Node{resolve(f.val)}
		}
		if f, ok := fs["transports"]; ok {
			c.at(f.key, "transports: a target with an address uses the address's transport; drop transports")
		}
		if f, ok := fs["server_options"]; ok {
			c.at(f.key, "server_options: a target with an address is an outside server, which wirebench does not configure")
		}
		return
	}
	t.transports, t.transportNodes = []string{"tcp"}, []*yaml.Node{nil}
	f, ok := fs["transports"]
	if !ok {
		if t.proto.InProcess {
			t.transports[0] = "inproc"
		}
		return
	}
	items, ok := c.list("transports", f.val)
	if !ok {
		return
	}
	t.transports, t.transportNodes = nil, nil
	for _, it := range items {
		s, ok := c.str("transports", it)
		if !ok {
			continue
		}
		if s != "tcp" && s != "unix" && s != "tls" && s != "quic" {
			c.at(resolve(it), "transports: %q, want tcp, unix, tls (tcp with TLS 1.3) or quic (HTTP/3's UDP)", s)
			continue
		}
		t.transports, t.transportNodes = append(t.transports, s), append(t.transportNodes, resolve(it))
	}
	if t.proto.InProcess {
		// An in-process protocol has no wire: its one benchmark per workload runs
		// "inproc", whatever transports the entry lists (a suite can then give every
		// target the same transports).
		t.transports, t.transportNodes = []string{"inproc"}, []*yaml.Node{nil}
	}
}

func (c *checker) readWorkload(n *yaml.Node, i int) *workload {
	where := fmt.Sprintf("workloads[%d]", i)
	fs, ok := c.entry(n, where, "name", workloadPlace.keys, workloadPlace.hint)
	if !ok {
		return nil
	}
	w := &workload{node: resolve(n), settings: c.readSettings(fs)}
	name, ok := c.str("name", fs["name"].val)
	if !ok {
		return nil
	}
	cw, err := contract.LookupWorkload(name)
	if err != nil {
		c.at(resolve(fs["name"].val), "%v", err)
		return nil
	}
	w.w = cw
	if f, ok := fs["load"]; ok {
		w.load = c.readLoad(f.val, where+".load")
	}
	w.params, w.paramNodes = []contract.Params{cw.DefaultParams()}, []*yaml.Node{nil}
	for _, key := range paramKeys {
		f, ok := fs[key]
		if !ok {
			continue
		}
		if err := cw.Takes(paramUse[key]); err != nil {
			c.at(f.key, "%s: %v", key, err)
			continue
		}
		w.params, w.paramNodes = c.crossParam(cw, key, f.val, w.params, w.paramNodes)
	}
	return w
}

// crossParam crosses the parameter points so far with the values of one list key,
// checking each value against the workload's range.
func (c *checker) crossParam(cw *contract.Workload, key string, n *yaml.Node, ps []contract.Params, nodes []*yaml.Node) ([]contract.Params, []*yaml.Node) {
	items, ok := c.list(key, n)
	if !ok || product(len(ps), len(items)) > MaxBenchmarks {
		if ok {
			c.at(n, "%s: %d values is over %d parameter points", key, len(items), MaxBenchmarks)
		}
		return ps, nodes
	}
	var outP []contract.Params
	var outN []*yaml.Node
	for _, it := range items {
		var set func(*contract.Params)
		switch key {
		case "payloads":
			v, ok := c.size(key, it, 0, 1<<50)
			if !ok {
				continue
			}
			set = func(p *contract.Params) { p.Payload = int(v) }
		case "increments":
			v, ok := c.integer(key, it, -1<<31, 1<<31-1)
			if !ok {
				continue
			}
			set = func(p *contract.Params) { p.Increments = int(v) }
		case "trades":
			v, ok := c.integer(key, it, -1<<62, 1<<62)
			if !ok {
				continue
			}
			set = func(p *contract.Params) { p.Trades = v }
		case "trade":
			v, ok := c.str(key, it)
			if !ok {
				continue
			}
			set = func(p *contract.Params) { p.Trade = v }
		}
		for _, p := range ps {
			set(&p)
			if err := cw.Check(p); err != nil {
				c.at(resolve(it), "%s: %v", key, err)
				break
			}
			outP, outN = append(outP, p), append(outN, resolve(it))
		}
	}
	return outP, outN
}
