package results

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Group is one "operation" of a comparison: the benchmarks that ran the same
// workload with the same parameters under the same load, over different
// protocols and transports.
type Group struct {
	// Name is the benchmarks' shared name without protocol and transport,
	// e.g. "echo[payload=1024]/closed-c50".
	Name       string
	Benchmarks []Benchmark
}

// Groups splits bs into operations, in first-seen order, keeping the order of
// the benchmarks within each.
func Groups(bs []Benchmark) []Group {
	var gs []Group
	index := map[string]int{}
	for _, b := range bs {
		k := groupKey(&b)
		i, ok := index[k]
		if !ok {
			i = len(gs)
			index[k] = i
			gs = append(gs, Group{Name: GroupName(&b)})
		}
		gs[i].Benchmarks = append(gs[i].Benchmarks, b)
	}
	return gs
}

// groupKey identifies an operation: everything but protocol, transport, the
// protocol options and the outside target.
func groupKey(b *Benchmark) string {
	return b.Workload + "\x00" + ParamString(b.Params) + "\x00" + LoadName(b.Load)
}

// GroupName is the benchmark's name minus its "series/transport/" prefix, as
// spec.Spec.Name builds it, or the same shape rebuilt from the fields for a name
// of another form.
func GroupName(b *Benchmark) string {
	proto := targetName(b)
	for _, prefix := range []string{proto + "/" + b.Transport + "/", proto + "/"} {
		if rest, ok := strings.CutPrefix(b.Name, prefix); ok && rest != "" && b.Protocol != "" {
			return rest
		}
	}
	s := b.Workload
	if ps := ParamString(b.Params); ps != "" {
		s += "[" + ps + "]"
	}
	return s + "/" + LoadName(b.Load)
}

// ParamString is params as sorted "k=v" pairs joined by commas; numbers read
// back from JSON print as integers when they are.
func ParamString(params map[string]any) string {
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

// LoadName names a load model as bench.LoadName does: closed-c50 (-x4 with 4
// connections), or open-r14000-poisson-c100.
func LoadName(l Load) string {
	s := fmt.Sprintf("closed-c%d", l.Concurrency)
	if l.Model == ModelOpen {
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
func Series(b *Benchmark) string {
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
func targetName(b *Benchmark) string {
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

// MachineChanged starts the warning a group's baseline carries when the machine's
// speed trended or moved between levels under the group's rounds.
const MachineChanged = "the machine changed under this group's rounds"

// MinIntervalDF is the fewest degrees of freedom a ratio's interval is printed with:
// with fewer, Student's t at 99.9 % is over 8.6 and the interval tells the count
// of forks more than the targets (summary warns about it).
const MinIntervalDF = 4
