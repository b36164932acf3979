package suite

import (
	"math"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
)

// loadKeys are the keys of a load block (spec.LoadKeys), and capacityKeys those of
// its capacity block (spec.CapacitySettings).
var (
	loadKeys     = spec.LoadKeyNames()
	capacityKeys = spec.CapacityKeys()
)

// loadPoint is one load model of a load block, with the list items it came from (nil
// for a value the block did not set), which say where a duplicate benchmark differs.
type loadPoint struct {
	model                               load.Model
	capacity                            *spec.Capacity // a capacity search instead of one load
	rateNode, concurrencyNode, connNode *yaml.Node
}

// defaultLoad is the load of a suite that sets none: spec.Default's, as `wirebench
// bench` has.
func defaultLoad() []loadPoint {
	return []loadPoint{{model: spec.Default().Load}}
}

// loadAxes are the lists of a load block, with the nodes of their items.
type loadAxes struct {
	kind                            load.Kind
	rates                           []float64
	concs, conns                    []int
	rateNodes, concNodes, connNodes []*yaml.Node
	arrival                         load.Arrival
	arrivalNode                     *yaml.Node
}

// readLoad reads a load block into its points: rates × concurrency × connections, in
// that order. With rates the points are open (concurrency caps the calls in flight);
// without, closed. It returns nil after reporting an error.
func (c *checker) readLoad(n *yaml.Node, where string) []loadPoint {
	fs, ok := c.fields(n, where, loadKeys, nil)
	if !ok {
		return nil
	}
	if isNull(resolve(n)) || len(fs) == 0 {
		c.at(n, "%s: empty; set concurrency (closed loop) or rates (open loop), or leave load out", where)
		return nil
	}
	var capa *capacityBlock
	if f, ok := fs["capacity"]; ok {
		if f, ok := fs["rates"]; ok {
			c.at(f.key, "%s: rates and capacity are two kinds of load: a capacity search finds the rate itself (its start_rate is where it begins)", where)
			return nil
		}
		if capa, ok = c.readCapacity(f.val, where+".capacity"); !ok {
			return nil
		}
	}
	ax, ok := c.readAxes(fs)
	if !ok {
		return nil
	}
	if capa != nil {
		ax.kind, ax.rates = load.Open, []float64{capa.startRate}
		if ax.concNodes[0] == nil {
			ax.concs[0] = 0 // no concurrency given: the open model's default cap
		}
	}
	if product(len(ax.rates), len(ax.concs), len(ax.conns)) > MaxBenchmarks {
		c.at(n, "%s: %d rates × %d concurrencies × %d connection counts is over %d load points", where, len(ax.rates), len(ax.concs), len(ax.conns), MaxBenchmarks)
		return nil
	}
	var points []loadPoint
	bad := map[*yaml.Node]bool{}
	for i, r := range ax.rates {
		for j, cc := range ax.concs {
			for k, cn := range ax.conns {
				m := load.Model{Kind: ax.kind, Concurrency: cc, Connections: cn, Rate: r, Arrival: ax.arrival}
				nm, err := m.Normalize()
				if err != nil {
					// One error per bad value: a bad connections count crossed with
					// every concurrency would otherwise say the same thing many times.
					if at := culprit(m, ax.rateNodes[i], ax.concNodes[j], ax.connNodes[k], ax.arrivalNode, n); !bad[at] {
						bad[at] = true
						c.at(at, "%v", err)
					}
					continue
				}
				lp := loadPoint{model: nm, rateNode: ax.rateNodes[i], concurrencyNode: ax.concNodes[j], connNode: ax.connNodes[k]}
				if capa != nil {
					lp.capacity = capa.Capacity
				}
				points = append(points, lp)
			}
		}
	}
	if len(bad) > 0 {
		return nil
	}
	return points
}

// capacityBlock is a capacity block read: the search and its start rate.
type capacityBlock struct {
	*spec.Capacity
	startRate float64
}

// readCapacity reads a load block's capacity block: spec.DefaultCapacitySpec with
// the keys it sets (spec.CapacitySettings, each read as its kind is written and
// checked against its bounds), checked by spec.Capacity.Validate (whose error is
// placed at the block).
func (c *checker) readCapacity(n *yaml.Node, where string) (*capacityBlock, bool) {
	fs, ok := c.fields(n, where, capacityKeys, nil)
	if !ok {
		return nil, false
	}
	sp := spec.DefaultCapacitySpec()
	for _, st := range spec.CapacitySettings {
		f, set := fs[st.Key]
		if !set {
			continue
		}
		v, good := c.settingValue(st, f.val)
		if good {
			if msg := st.Check(v); msg != "" {
				c.at(resolve(f.val), "%s: %s", st.Key, msg)
				good = false
			}
		}
		if !good {
			ok = false
			continue
		}
		st.Set(&sp, v)
	}
	if !ok {
		return nil, false
	}
	b := &capacityBlock{Capacity: sp.Capacity, startRate: sp.Load.Rate}
	if err := b.Validate(); err != nil {
		c.at(n, "%s: %v", where, err)
		return nil, false
	}
	if !(b.startRate > 0) || math.IsInf(b.startRate, 0) {
		c.at(n, "%s: start_rate %v, want a positive rate", where, b.startRate)
		return nil, false
	}
	return b, true
}

// slos reads one objective or a list of them (pQUANTILE=DURATION each).
func (c *checker) slos(key string, n *yaml.Node) ([]spec.SLO, bool) {
	items := []*yaml.Node{n}
	if r := resolve(n); r != nil && r.Kind == yaml.SequenceNode {
		var ok bool
		if items, ok = c.list(key, n); !ok {
			return nil, false
		}
	}
	var out []spec.SLO
	ok := true
	for _, it := range items {
		v, good := c.str(key, it)
		if !good {
			ok = false
			continue
		}
		o, err := spec.ParseSLO(v)
		if err != nil {
			c.at(resolve(it), "%s: %v", key, err)
			ok = false
			continue
		}
		out = append(out, o)
	}
	return out, ok
}

// readAxes reads the lists of a load block; a list the block leaves out is one default
// value with a nil node.
func (c *checker) readAxes(fs map[string]field) (loadAxes, bool) {
	d := spec.Default().Load
	ax := loadAxes{kind: load.Closed, rates: []float64{0}, rateNodes: []*yaml.Node{nil},
		concs: []int{d.Concurrency}, concNodes: []*yaml.Node{nil}, conns: []int{d.Connections}, connNodes: []*yaml.Node{nil}}
	if f, ok := fs["rates"]; ok {
		ax.kind, ax.concs[0] = load.Open, 0 // 0: Normalize's default cap
		items, ok := c.list("rates", f.val)
		if !ok {
			return ax, false
		}
		ax.rates, ax.rateNodes = nil, nil
		for _, it := range items {
			r, ok := c.number("rates", it)
			if !ok {
				return ax, false
			}
			ax.rates, ax.rateNodes = append(ax.rates, r), append(ax.rateNodes, resolve(it))
		}
	}
	ok := true
	if f, set := fs["concurrency"]; set {
		ax.concs, ax.concNodes, ok = c.intList("concurrency", f.val, math.MinInt32, spec.MaxConcurrency)
	}
	if f, set := fs["connections"]; set && ok {
		ax.conns, ax.connNodes, ok = c.intList("connections", f.val, math.MinInt32, spec.MaxConcurrency)
	}
	if f, set := fs["arrival"]; set && ok {
		var s string
		s, ok = c.str("arrival", f.val)
		ax.arrival, ax.arrivalNode = load.Arrival(s), resolve(f.val)
	}
	return ax, ok
}

// culprit returns the node of the setting that makes Normalize refuse m, checked in
// the order Normalize checks them; the message itself is Normalize's.
func culprit(m load.Model, rate, conc, conn, arrival, block *yaml.Node) *yaml.Node {
	pick := func(n *yaml.Node) *yaml.Node {
		if n != nil {
			return n
		}
		return block
	}
	if m.Kind == load.Open {
		switch {
		case !(m.Rate > 0) || math.IsInf(m.Rate, 0):
			return pick(rate)
		case m.Arrival != "" && m.Arrival != load.Constant && m.Arrival != load.Poisson:
			return pick(arrival)
		case m.Concurrency < 0:
			return pick(conc)
		}
	} else if m.Concurrency < 1 {
		return pick(conc)
	} else if m.Arrival != "" {
		return pick(arrival)
	}
	return pick(conn)
}

func (c *checker) intList(key string, n *yaml.Node, lo, hi int64) ([]int, []*yaml.Node, bool) {
	items, ok := c.list(key, n)
	if !ok {
		return nil, nil, false
	}
	vals, nodes := make([]int, 0, len(items)), make([]*yaml.Node, 0, len(items))
	for _, it := range items {
		v, ok := c.integer(key, it, lo, hi)
		if !ok {
			return nil, nil, false
		}
		vals, nodes = append(vals, int(v)), append(nodes, resolve(it))
	}
	return vals, nodes, true
}

// product multiplies counts, stopping above MaxBenchmarks so it cannot overflow.
func product(ns ...int) int {
	p := 1
	for _, n := range ns {
		p *= n
		if p > MaxBenchmarks {
			return MaxBenchmarks + 1
		}
	}
	return p
}
