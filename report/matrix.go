package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/wirebench/wirebench/results"
)

// The matrix view: every client stack against every server stack of a protocol, as
// grids with a row per client and a column per server. A column is one server's
// comparison group when the suite interleaves per server (interleave_by: server), so
// the figures down a column were measured in the same rounds; across a row they come
// from different rounds.

// matrixKey is one grid: a protocol over a transport, one operation (workload,
// parameters and load).
type matrixKey struct{ protocol, transport, operation string }

// matrixGrid is the benchmarks of one grid by client and server stack name, with
// both axes in first-seen order.
type matrixGrid struct {
	key              matrixKey
	clients, servers []string
	tuned            map[string]bool // an axis name whose stack is tuned (row or column)
	cells            map[[2]string]*results.Benchmark
	// skipped are the pairs the suite left out, by client and server, with why.
	skipped map[[2]string]string
}

// matrixOperation is b's operation without its target: workload, parameters, load.
func matrixOperation(b *results.Benchmark) string {
	op := b.Workload
	if ps := results.ParamString(b.Params); ps != "" {
		op += "[" + ps + "]"
	}
	return op + "/" + results.LoadName(b.Load)
}

// matrixGrids sorts bs into grids. Only benchmarks with both a server and a client
// stack of their own count: an in-process protocol (direct) runs its service in the
// client, and an outside --address has no known server; capacity searches answer
// another question.
func matrixGrids(bs []results.Benchmark, skips []results.SkippedPair) []*matrixGrid {
	var grids []*matrixGrid
	index := map[matrixKey]*matrixGrid{}
	for i := range bs {
		b := &bs[i]
		if b.ServerStack == nil || b.ClientStack == nil || b.Transport == results.InProcess || b.Address != "" || b.Capacity != nil {
			continue
		}
		k := matrixKey{b.Protocol, b.Transport, matrixOperation(b)}
		g := index[k]
		if g == nil {
			g = &matrixGrid{key: k, tuned: map[string]bool{}, cells: map[[2]string]*results.Benchmark{}, skipped: map[[2]string]string{}}
			index[k] = g
			grids = append(grids, g)
		}
		c, s := b.ClientStack.Name, b.ServerStack.Name
		if _, seen := g.cells[[2]string{c, s}]; seen {
			continue // options or labels split a pair; the first one stands for it
		}
		if !slices.Contains(g.clients, c) {
			g.clients = append(g.clients, c)
		}
		if !slices.Contains(g.servers, s) {
			g.servers = append(g.servers, s)
		}
		g.tuned["c:"+c] = g.tuned["c:"+c] || b.ClientStack.Tier == results.TierTuned
		g.tuned["s:"+s] = g.tuned["s:"+s] || b.ServerStack.Tier == results.TierTuned
		g.cells[[2]string{c, s}] = b
	}
	// A pair the suite skipped has a cell in each grid of its protocol (and transport,
	// when the skip names one), its stacks a row and a column if no benchmark gave them.
	for _, g := range grids {
		for _, sk := range skips {
			if sk.Protocol != g.key.protocol || sk.Transport != "" && sk.Transport != g.key.transport {
				continue
			}
			if !slices.Contains(g.clients, sk.ClientStack) {
				g.clients = append(g.clients, sk.ClientStack)
			}
			if !slices.Contains(g.servers, sk.ServerStack) {
				g.servers = append(g.servers, sk.ServerStack)
			}
			g.skipped[[2]string{sk.ClientStack, sk.ServerStack}] = sk.Why
		}
	}
	return grids
}

// matrixMetric is one figure of a grid's cells: its title, how to read it from a
// benchmark that was measured (NaN: unknown), how to print it, and whether more is
// better (for the heat map's colours).
type matrixMetric struct {
	title  string
	value  func(b *results.Benchmark, calls float64) float64
	format func(b *results.Benchmark, calls, v float64) string
	higher bool
}

var matrixMetrics = []matrixMetric{
	{
		title: "throughput, calls/s (± half-width of the 99.9 % interval, in % of the mean)",
		value: func(b *results.Benchmark, calls float64) float64 { return b.Summary.ThroughputOpsS.Mean * calls },
		format: func(b *results.Benchmark, calls, v float64) string {
			t := b.Summary.ThroughputOpsS
			s := fixed(v, 0)
			if t.N >= 2 && t.Mean > 0 && isFinite(t.Error) {
				s += fmt.Sprintf(" ± %s %%", fixed(100*t.Error/t.Mean, 1))
			}
			return s
		},
		higher: true,
	},
	{
		title:  "p99 response time, µs",
		value:  func(b *results.Benchmark, _ float64) float64 { return b.Summary.LatencyUs.P99 },
		format: func(_ *results.Benchmark, _, v float64) string { return latencyUs(v) },
	},
	{
		title: "server CPU per call, µs",
		value: func(b *results.Benchmark, calls float64) float64 {
			if b.Summary.ServerCPUUsPerOp == nil {
				return math.NaN()
			}
			return *b.Summary.ServerCPUUsPerOp / calls
		},
		format: func(_ *results.Benchmark, _, v float64) string { return fixed(v, 2) },
	},
	{
		title:  "client CPU per call, µs",
		value:  func(b *results.Benchmark, calls float64) float64 { return b.Summary.ClientCPUUsPerOp / calls },
		format: func(_ *results.Benchmark, _, v float64) string { return fixed(v, 2) },
	},
}

// notRun is the cell of a pair the results hold no benchmark of.
const notRun = "not run"

// pairFailure is why a pair has no figures: it measured nothing (its target failed
// to start, was refused before it ran, or failed every round); "" when it has some.
func pairFailure(b *results.Benchmark) string {
	if b.Summary.ThroughputOpsS.N > 0 || b.Summary.Ops > 0 {
		return ""
	}
	if f := b.Warnings.Of(results.WarnFailed); len(f) > 0 {
		return firstLine(f[0].Text)
	}
	for _, t := range b.Forks {
		if t.Error != "" {
			return firstLine(t.Error)
		}
	}
	return "nothing measured"
}

// maxCellReason is the most of a failure's reason a cell shows, in characters: a
// driver's error can run to a few hundred, and the whole of it is under Warnings and
// errors.
const maxCellReason = 100

// cellReason is reason shortened to maxCellReason characters (where it happened, the
// fork and phase, is left for the warnings: Warning.Text holds the reason alone).
func cellReason(reason string) string {
	if r := []rune(reason); len(r) > maxCellReason {
		reason = string(r[:maxCellReason-1]) + "…"
	}
	return reason
}

// matrixView is the grids of r: for each protocol/transport and operation, one
// table per figure (throughput, p99, server CPU and client CPU per call), a row per
// client stack and a column per server stack. A pair that ran nothing, or that the
// suite skipped, says why in its throughput cell; another pair not in the results
// reads "not run".
func matrixView(r *results.Results) view {
	v := view{Title: "Client × server matrix",
		Note: "A row per client stack, a column per server stack († tuned). Throughput is the mean over every slice of every fork in calls/s, with the half-width of its 99.9 % interval (Student t over the slices); p99 is response time from the intended start; CPU per call is each process's CPU time from /proc over the measured slices divided by successful calls. With interleave_by: server, each column's clients were measured in the same rounds (the figures down a column are the close comparison). A pair that failed, or that the suite skipped, gives its reason in its throughput cell (failed or skipped in the others; a failure's whole error is under Warnings and errors); the HTML report shades each grid from worst (red) to best (green), on a log scale."}
	var skips []results.SkippedPair
	if r.Suite != nil {
		skips = r.Suite.Skipped
	}
	for _, g := range matrixGrids(r.Benchmarks, skips) {
		for i, m := range matrixMetrics {
			v.Tables = append(v.Tables, g.table(m, i == 0))
		}
	}
	return v
}

// axis is a row's or column's heading: the stack's name, marked when tuned.
func (g *matrixGrid) axis(side, name string) string {
	if g.tuned[side+name] {
		return name + results.TunedMark
	}
	return name
}

// table is the grid of one metric; a failed or skipped pair's reason is written out
// in the first grid of its operation, "failed" or "skipped" in the others.
func (g *matrixGrid) table(m matrixMetric, first bool) table {
	t := table{Title: fmt.Sprintf("%s/%s %s: %s", g.key.protocol, g.key.transport, g.key.operation, m.title),
		Head: []string{"client \\ server"}, Align: "l"}
	for _, s := range g.servers {
		t.Head = append(t.Head, g.axis("s:", s))
		t.Align += "r"
	}
	values := make([][]float64, len(g.clients))
	for r, c := range g.clients {
		row := []string{g.axis("c:", c)}
		values[r] = make([]float64, len(g.servers))
		for k, s := range g.servers {
			values[r][k] = math.NaN()
			b, ok := g.cells[[2]string{c, s}]
			why, skipped := g.skipped[[2]string{c, s}]
			switch {
			case !ok && skipped && first:
				row = append(row, "skipped: "+why)
				continue
			case !ok && skipped:
				row = append(row, "skipped")
				continue
			case !ok:
				row = append(row, notRun)
				continue
			case pairFailure(b) != "" && first:
				row = append(row, "failed: "+cellReason(pairFailure(b)))
				continue
			case pairFailure(b) != "":
				row = append(row, "failed")
				continue
			}
			calls := float64(max(b.CallsPerOp, 1))
			x := m.value(b, calls)
			if isFinite(x) && x > 0 {
				values[r][k] = x
			}
			row = append(row, m.format(b, calls, x))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Shade = heatShades(values, m.higher)
	return t
}

// heatShades colours each cell of values (NaN: no colour) from the worst (light red)
// through light yellow to the best (light green), on a log scale, since stacks
// differ by multiples; one column of shades for the row headings is left empty.
// All-equal values are drawn in the middle colour.
func heatShades(values [][]float64, higher bool) [][]string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range values {
		for _, x := range row {
			if isFinite(x) {
				lo, hi = min(lo, math.Log(x)), max(hi, math.Log(x))
			}
		}
	}
	out := make([][]string, len(values))
	for r, row := range values {
		out[r] = make([]string, len(row)+1)
		for k, x := range row {
			if !isFinite(x) {
				continue
			}
			f := 0.5
			if hi > lo {
				f = (math.Log(x) - lo) / (hi - lo)
			}
			if !higher {
				f = 1 - f
			}
			out[r][k+1] = heatColour(f)
		}
	}
	return out
}

// heatStops are the heat map's colours from worst to best: light enough for black
// text on every one.
var heatStops = [3][3]float64{{0xf4, 0xc7, 0xc3}, {0xfc, 0xef, 0xc4}, {0xc6, 0xe6, 0xbd}}

// heatColour is the colour at f in [0, 1] (0 worst, 1 best), as #rrggbb.
func heatColour(f float64) string {
	f = min(max(f, 0), 1)
	a, b, u := heatStops[0], heatStops[1], f*2
	if f > 0.5 {
		a, b, u = heatStops[1], heatStops[2], f*2-1
	}
	var c [3]int
	for i := range c {
		c[i] = int(math.Round(a[i] + (b[i]-a[i])*u))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}
