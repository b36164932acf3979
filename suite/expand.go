package suite

import (
	"maps"

	"go.yaml.in/yaml/v3"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/spec"
)

// origin is where a benchmark came from: the target entry, transport item, server and
// client stack items, workload entry, parameter item, rate, concurrency and
// connections items (nil for values the file did not set). Two benchmarks with one
// name are told apart by the first of these that differs.
type origin [9]*yaml.Node

// expand crosses targets × transports × server stacks × client stacks × workloads ×
// params × load points, in file order.
// Settings come from the defaults, then the target entry, then the workload entry; the
// load from the workload entry, else the target entry, else the top level.
func expand(c *checker, base settings, baseLoad []loadPoint, targets []*target, workloads []*workload, doc *yaml.Node) []Benchmark {
	total := 0
	for _, t := range targets {
		for _, w := range workloads {
			total += product(len(t.transports), len(t.serverStacks), len(t.clientStacks), len(w.params), len(pointsOf(t, w, baseLoad)))
			if total > MaxBenchmarks {
				c.at(doc, "the suite expands to over %d benchmarks", MaxBenchmarks)
				return nil
			}
		}
	}
	out := make([]Benchmark, 0, total)
	seen := map[string]origin{}
	invalid := map[*yaml.Node]bool{}
	for _, t := range targets {
		for ti, tr := range t.transports {
			for si, ss := range t.serverStacks {
				for ci, cs := range t.clientStacks {
					for _, w := range workloads {
						set := base.over(t.settings).over(w.settings)
						for pi, p := range w.params {
							for _, lp := range pointsOf(t, w, baseLoad) {
								b := benchmark(t, tr, ss, cs, w.w, p, lp, set)
								// Each key was checked as it was read; this finds the
								// settings that are wrong together (warmup_max under the
								// warmup), once per entry.
								if err := b.Spec.Validate(); err != nil {
									at := t.node
									if w.node != nil && w.settings.sets("warmup", "warmup_max") {
										at = w.node
									}
									if !invalid[at] {
										invalid[at] = true
										c.at(at, "%v", err)
									}
									continue
								}
								o := origin{t.node, t.transportNodes[ti], t.serverStackNodes[si], t.clientStackNodes[ci],
									w.node, w.paramNodes[pi], lp.rateNode, lp.concurrencyNode, lp.connNode}
								if first, dup := seen[b.Name]; dup {
									at, firstAt := differ(first, o)
									c.at(at, "duplicate benchmark %q, also made by line %d: a name is protocol, stacks, transport, workload, params and load, so entries that differ only in options or settings collide; give targets a label", b.Name, firstAt.Line)
									continue
								}
								seen[b.Name] = o
								out = append(out, b)
							}
						}
					}
				}
			}
		}
	}
	return out
}

func pointsOf(t *target, w *workload, base []loadPoint) []loadPoint {
	switch {
	case w.load != nil:
		return w.load
	case t.load != nil:
		return t.load
	}
	return base
}

// differ returns the first node where two origins differ, for both of them.
func differ(first, later origin) (at, firstAt *yaml.Node) {
	for i := range later {
		if later[i] != first[i] && later[i] != nil && first[i] != nil {
			return later[i], first[i]
		}
	}
	for i := range later {
		if later[i] != first[i] && later[i] != nil {
			return later[i], later[i]
		}
	}
	return later[0], first[0]
}

// benchmark builds one benchmark; its Spec is the one `wirebench bench` builds from the
// same values: spec.Default's settings, with those the suite sets over them.
func benchmark(t *target, transport, serverStack, clientStack string, w *contract.Workload, p contract.Params, lp loadPoint, s settings) Benchmark {
	sp := spec.Default()
	sp.Protocol, sp.ServerStack, sp.ClientStack, sp.Label = t.proto.Name, serverStack, clientStack, t.label
	sp.Transport, sp.Address, sp.Workload, sp.Params = transport, t.address, w.Name, p
	sp.Call = t.call
	sp.ClientOptions, sp.ServerOptions = cloneMap(t.options), cloneMap(t.serverOptions)
	sp.Load, sp.Capacity = lp.model, lp.capacity
	s.apply(&sp)
	return Benchmark{Name: sp.Name(), Spec: sp}
}

// cloneMap copies options so that no two benchmarks share a map; an empty map is nil,
// as the bench command leaves it.
func cloneMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}
