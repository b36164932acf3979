package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/results"
)

// Group is one "operation" of a comparison: the benchmarks that ran the same
// workload with the same parameters under the same load, over different
// protocols and transports.
type Group struct {
	// Name is the benchmarks' shared name without protocol and transport,
	// e.g. "echo[payload=1024]/closed-c50".
	Name       string
	Benchmarks []results.Benchmark
}

// Groups splits bs into operations, in first-seen order, keeping the order of
// the benchmarks within each.
func Groups(bs []results.Benchmark) []Group {
	var gs []Group
	index := map[string]int{}
	for _, b := range bs {
		k := groupKey(&b)
		i, ok := index[k]
		if !ok {
			i = len(gs)
			index[k] = i
			gs = append(gs, Group{Name: groupName(&b)})
		}
		gs[i].Benchmarks = append(gs[i].Benchmarks, b)
	}
	return gs
}

// groupKey identifies an operation: everything but protocol, transport, the
// protocol options and the outside target.
func groupKey(b *results.Benchmark) string {
	return b.Workload + "\x00" + paramString(b.Params) + "\x00" + loadName(b.Load)
}

// groupName is the benchmark's name minus its "series/transport/" prefix, as
// spec.Spec.Name builds it, or the same shape rebuilt from the fields for a name
// of another form.
func groupName(b *results.Benchmark) string {
	proto := targetName(b)
	for _, prefix := range []string{proto + "/" + b.Transport + "/", proto + "/"} {
		if rest, ok := strings.CutPrefix(b.Name, prefix); ok && rest != "" && b.Protocol != "" {
			return rest
		}
	}
	s := b.Workload
	if ps := paramString(b.Params); ps != "" {
		s += "[" + ps + "]"
	}
	return s + "/" + loadName(b.Load)
}

// paramString is params as sorted "k=v" pairs joined by commas; numbers read
// back from JSON print as integers when they are.
func paramString(params map[string]any) string {
	parts := make([]string, 0, len(params))
	for k, v := range params {
		parts = append(parts, k+"="+paramValue(v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func paramValue(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// loadName names a load model as bench.LoadName does: closed-c50 (-x4 with 4
// connections), or open-r14000-poisson-c100.
func loadName(l results.Load) string {
	s := fmt.Sprintf("closed-c%d", l.Concurrency)
	if l.Model == results.ModelOpen {
		s = fmt.Sprintf("open-r%g-%s-c%d", l.Rate, l.Arrival, l.Concurrency)
	}
	if l.Connections > 1 {
		s += fmt.Sprintf("-x%d", l.Connections)
	}
	return s
}

// TunedMark follows the series of a benchmark with a tuned stack, in every table
// and chart; TunedLegend explains it.
const (
	TunedMark   = " †"
	TunedLegend = "† tuned: a hand-optimised stack or non-default settings, not what a service ships with by default"
)

// Series is the label of a benchmark's target: its protocol with its label and
// non-default stacks (as in its name), and its transport; else its protocol options,
// when set; then TunedMark for a tuned stack. What one bar, line or polygon of a
// chart stands for, e.g. "grpc-proto[win-64KiB]/tcp" or
// "http-json[server=go-tuned-json]/tcp †".
func Series(b *results.Benchmark) string {
	s := targetName(b)
	if b.Transport != "" && b.Transport != "inproc" {
		s += "/" + b.Transport
	}
	if len(b.Options) > 0 && b.Label == "" {
		kv := make([]string, 0, len(b.Options))
		for k, v := range b.Options {
			kv = append(kv, k+"="+v)
		}
		slices.Sort(kv)
		s += " (" + strings.Join(kv, ",") + ")"
	}
	if b.Tuned() {
		s += TunedMark
	}
	return s
}

// targetName is the protocol with the bracketed tags its name carries (label and
// non-default stacks), e.g. "http-json[server=go-tuned-json]", or with its label
// when the name has another form.
func targetName(b *results.Benchmark) string {
	if rest, ok := strings.CutPrefix(b.Name, b.Protocol+"["); ok && b.Protocol != "" {
		if tags, _, ok := strings.Cut(rest, "]/"); ok {
			return b.Protocol + "[" + tags + "]"
		}
	}
	if b.Label != "" {
		return b.Protocol + "[" + b.Label + "]"
	}
	return b.Protocol
}

// seriesOrder lists every series of r in first-seen order; a series' index
// picks its colour, so a protocol/transport has one colour in every chart.
func seriesOrder(bs []results.Benchmark) map[string]int {
	order := map[string]int{}
	for i := range bs {
		s := Series(&bs[i])
		if _, ok := order[s]; !ok {
			order[s] = len(order)
		}
	}
	return order
}

// ToBest returns each benchmark's score relative to the group's best, 1 for
// the best: score/best in throughput mode, best/score in average-time mode
// (less time is better), so that higher is better either way. A group of mixed
// modes compares throughput. An entry is NaN where there is nothing to
// compare (a zero score); renderers print it as n/a. The best is taken among the
// benchmarks that cross a wire when the group has any: the in-process floor (direct)
// is orders of magnitude ahead and would flatten every other ratio to 0.00×; its own
// ratio is then above 1.
func ToBest(g Group) []float64 {
	avgt := len(g.Benchmarks) > 0
	for _, b := range g.Benchmarks {
		if b.Mode != results.ModeAverageTime || b.Summary.AvgTimeMs == nil {
			avgt = false
		}
	}
	vals := make([]float64, len(g.Benchmarks))
	for i, b := range g.Benchmarks {
		vals[i] = b.Summary.ThroughputOpsS.Mean
		if avgt {
			if t := b.Summary.AvgTimeMs.Mean; t > 0 {
				vals[i] = 1 / t
			} else {
				vals[i] = 0
			}
		}
	}
	wired := acrossWire(g)
	best := 0.0
	for i, v := range vals {
		if isFinite(v) && (!wired || g.Benchmarks[i].Transport != InProcess) {
			best = max(best, v)
		}
	}
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = math.NaN()
		if best > 0 && v > 0 && isFinite(v) {
			out[i] = v / best
		}
	}
	return out
}

// InProcess is the transport of protocols that call the service in the client's own
// process (direct).
const InProcess = "inproc"

func isFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// sweep is a rate sweep: benchmarks of one series that differ only by the
// open model's rate, sorted by rate.
type sweep struct {
	series     string
	benchmarks []results.Benchmark
}

// sweepFamily is the sweeps of one workload, parameters and load shape (all
// but the rate), one per series, in first-seen order.
type sweepFamily struct {
	name   string
	sweeps []sweep
}

// sweeps finds the rate sweeps of bs: open-model benchmarks of one series,
// workload, parameters and load shape at two or more rates.
func sweeps(bs []results.Benchmark) []sweepFamily {
	var fams []sweepFamily
	famIndex := map[string]int{}
	type at struct{ fam, sw int }
	swIndex := map[string]at{}
	for _, b := range bs {
		if b.Load.Model != results.ModelOpen {
			continue
		}
		l := b.Load
		l.Rate = 0
		famKey := b.Workload + "\x00" + paramString(b.Params) + "\x00" + fmt.Sprintf("%s-%d-%d", l.Arrival, l.Concurrency, l.Connections)
		fi, ok := famIndex[famKey]
		if !ok {
			fi = len(fams)
			famIndex[famKey] = fi
			name := b.Workload
			if ps := paramString(b.Params); ps != "" {
				name += "[" + ps + "]"
			}
			name += fmt.Sprintf("/open-%s-c%d", l.Arrival, l.Concurrency)
			if l.Connections > 1 {
				name += fmt.Sprintf("-x%d", l.Connections)
			}
			fams = append(fams, sweepFamily{name: name})
		}
		s := Series(&b)
		k := famKey + "\x00" + s
		a, ok := swIndex[k]
		if !ok {
			a = at{fi, len(fams[fi].sweeps)}
			swIndex[k] = a
			fams[fi].sweeps = append(fams[fi].sweeps, sweep{series: s})
		}
		fams[a.fam].sweeps[a.sw].benchmarks = append(fams[a.fam].sweeps[a.sw].benchmarks, b)
	}
	var out []sweepFamily
	for _, f := range fams {
		var kept []sweep
		for _, s := range f.sweeps {
			rates := map[float64]bool{}
			for _, b := range s.benchmarks {
				rates[b.Load.Rate] = true
			}
			if len(rates) < 2 {
				continue
			}
			slices.SortStableFunc(s.benchmarks, func(a, b results.Benchmark) int {
				return cmpFloat(a.Load.Rate, b.Load.Rate)
			})
			kept = append(kept, s)
		}
		if len(kept) > 0 {
			out = append(out, sweepFamily{name: f.name, sweeps: kept})
		}
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
