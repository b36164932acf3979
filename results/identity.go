package results

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Group is one comparison group: the benchmarks that ran the same workload with
// the same parameters under the same load, over different targets (protocols,
// stacks, transports).
type Group struct {
	// Name is the group's key (GroupOf), e.g. "echo[payload=1024]/closed-c50".
	Name       string
	Benchmarks []Benchmark
}

// Groups splits bs into comparison groups by GroupOf, in first-seen order, keeping
// the order of the benchmarks within each.
func Groups(bs []Benchmark) []Group {
	var gs []Group
	index := map[string]int{}
	for _, b := range bs {
		k := GroupOf(&b)
		i, ok := index[k]
		if !ok {
			i = len(gs)
			index[k] = i
			gs = append(gs, Group{Name: k})
		}
		gs[i].Benchmarks = append(gs[i].Benchmarks, b)
	}
	return gs
}

// GroupOf is b's comparison-group key: b.Group, or for a file written before it
// existed the same key read back from the name (legacyGroup).
func GroupOf(b *Benchmark) string {
	if b.Group != "" {
		return b.Group
	}
	return legacyGroup(b)
}

// SeriesOf is b's target without its transport: b.Series, or for a file written
// before it existed the same read back from the name (legacySeries).
func SeriesOf(b *Benchmark) string {
	if b.Series != "" {
		return b.Series
	}
	return legacySeries(b)
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

// SeriesLabel is the label of a benchmark's target: its series (SeriesOf), and its
// transport; else its protocol options, when set; then TunedMark for a tuned stack.
// What one bar, line or polygon of a chart and one row of a table stand for, e.g.
// "grpc-proto[win-64KiB]/tcp" or "http-json[server=go-tuned-json]/tcp †".
func SeriesLabel(b *Benchmark) string {
	s := SeriesOf(b)
	if b.Transport != "" && b.Transport != InProcess {
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

// MinIntervalDF is the fewest degrees of freedom a ratio's interval is printed with:
// with fewer, Student's t at 99.9 % is over 8.6 and the interval tells the count
// of forks more than the targets (summary warns about it).
const MinIntervalDF = 4
