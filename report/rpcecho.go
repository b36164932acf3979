package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirebench/wirebench/results"
)

// rpcecho printed one line per protocol × transport × payload, e.g.
//
//	--- test with 1K payload ---
//	Invoking echo directly
//	1000 calls using direct call: 1 microsec
//	1000 calls using gRPC  on :8991: 180 millisec
//
// where "calls" are iterations of its loop (each an echo then a stats call in its
// 2022-09-04 version) and the time is the loop's wall time cut down to 10 ms
// (pkg/echoclient: d1.Milliseconds() / 10 * 10), the direct call's in whole µs.

// rpcechoName is how rpcecho's lines named each protocol, padded as it padded them
// ("http " and "gRPC " beside "Capnp").
func rpcechoName(protocol string) string {
	switch protocol {
	case "http-json":
		return "http "
	case "grpc-proto":
		return "gRPC "
	case "capnp":
		return "Capnp"
	}
	return protocol
}

// rpcechoAddr is where a call went, in rpcecho's style; the port or path was
// ephemeral, hence the ellipsis.
func rpcechoAddr(transport string) string {
	switch transport {
	case "tcp":
		return "tcp://127.0.0.1:…"
	case "unix":
		return "unix:///…"
	}
	return transport
}

// payloadName is a payload as rpcecho's headers named it: "Hello World" (its 11
// bytes), 1K, 10K and 100K (its files of 1000, 10000 and 100000 bytes); other
// sizes in KiB or bytes.
func payloadName(params map[string]any) string {
	n, ok := params["payload"].(float64)
	if !ok {
		if i, isInt := params["payload"].(int); isInt {
			n, ok = float64(i), true
		}
	}
	switch {
	case !ok:
		return "?"
	case n == 11:
		return "Hello World"
	case n == 1000 || n == 10000 || n == 100000:
		return strconv.FormatFloat(n/1000, 'f', -1, 64) + "K"
	case n >= 1024 && int64(n)%1024 == 0:
		return strconv.FormatInt(int64(n)/1024, 10) + " KiB"
	}
	return strconv.FormatFloat(n, 'f', -1, 64) + " B"
}

// cutTo10ms is a line's time as rpcecho printed it: whole milliseconds
// (time.Duration.Milliseconds truncates), then down to a multiple of 10.
func cutTo10ms(seconds float64) int64 {
	return time.Duration(math.Round(seconds*1e9)).Milliseconds() / 10 * 10
}

// rpcechoLine is one of rpcecho's lines: ops ops of protocol over transport
// that took seconds, printed as rpcecho printed them.
func rpcechoLine(protocol, transport string, ops int64, seconds float64) string {
	if protocol == "direct" {
		return fmt.Sprintf("%d calls using direct call: %d microsec", ops, time.Duration(math.Round(seconds*1e9)).Microseconds())
	}
	return fmt.Sprintf("%d calls using %s on %s: %d millisec", ops, rpcechoName(protocol), rpcechoAddr(transport), cutTo10ms(seconds))
}

// exactTime is a line's time to the µs (ms), or to the ns (µs) for the direct call.
func exactTime(protocol string, seconds float64) string {
	if protocol == "direct" {
		return fixed(seconds*1e6, 3) + " µs"
	}
	return fixed(seconds*1e3, 3) + " ms"
}

// msPerLine is the time one caller takes for ops ops, from the score: the time per
// op (avgt, or 1/throughput × callers) times ops. NaN when unknown.
func msPerLine(b *results.Benchmark, ops int64) float64 {
	msPerOp := 0.0
	if a := b.Summary.AvgTimeMs; b.Mode == results.ModeAverageTime && a != nil {
		msPerOp = a.Mean
	} else if t := b.Summary.ThroughputOpsS.Mean; t > 0 {
		msPerOp = 1e3 * float64(max(b.Load.Concurrency, 1)) / t
	}
	if msPerOp <= 0 {
		return math.NaN()
	}
	return msPerOp * float64(ops)
}

// lineOps is the number of ops of one of b's lines: its slices' (count-bounded
// ones), else 1000, rpcecho's count, whose time then comes from the score.
func lineOps(b *results.Benchmark) (ops int64, measured bool) {
	if b.SliceOps > 0 {
		return b.SliceOps, true
	}
	return 1000, false
}

// withExact sets each line's exact time (its part after a tab) in a column after
// the longest line.
func withExact(lines []string) []string {
	w := 0
	for _, l := range lines {
		if head, _, ok := strings.Cut(l, "\t"); ok {
			w = max(w, len([]rune(head)))
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		head, exact, ok := strings.Cut(l, "\t")
		if !ok {
			out[i] = l
			continue
		}
		out[i] = head + strings.Repeat(" ", w-len([]rune(head))) + "  [" + exact + "]"
	}
	return out
}

// coldLine is what rpcecho measured of a target: one line of a fresh run, before any
// other of its lines. Here it is each fork's first line (Forks[f].Slices[0], the
// line of round 1, made on servers started for that fork, with no warm-up before it),
// in ms: the mean over the forks that have one, the lowest and the highest. n is how
// many forks had a first line; 0 when the lines are not count-bounded (b's lines are
// then not rpcecho's) or a warm-up ran before them (the first line is not cold).
func coldLine(b *results.Benchmark) (mean, lo, hi float64, n int) {
	if b.SliceOps <= 0 || b.WarmupSeconds > 0 {
		return 0, 0, 0, 0
	}
	sum := 0.0
	for _, f := range b.Forks {
		if len(f.Slices) == 0 {
			continue
		}
		ms := f.Slices[0].Seconds * 1e3
		if n == 0 || ms < lo {
			lo = ms
		}
		if n == 0 || ms > hi {
			hi = ms
		}
		sum += ms
		n++
	}
	if n == 0 {
		return 0, 0, 0, 0
	}
	return sum / float64(n), lo, hi, n
}

// coldCell is a table cell of coldLine's figures: "mean (lowest–highest)" in ms, the
// mean alone for one fork; the direct call's in µs, as rpcecho printed its line.
func coldCell(b *results.Benchmark) (string, bool) {
	mean, lo, hi, n := coldLine(b)
	f, unit := millis, ""
	if b.Protocol == "direct" {
		f, unit = func(ms float64) string { return latencyUs(ms * 1e3) }, " µs"
	}
	switch {
	case n == 0:
		return "", false
	case n == 1:
		return f(mean) + unit, true
	}
	return f(mean) + " (" + f(lo) + "–" + f(hi) + ")" + unit, true
}

// rpcechoLines is rpcecho's output for the benchmarks that echo a payload. A group
// whose slices are count-bounded prints a block per fork and round, one line
// per target and slice as rpcecho printed it, with our exact time beside it;
// otherwise one line per benchmark, the time of 1000 ops from its score. Then two
// tables per workload, a row per protocol/transport and a column per payload: the
// time of a line from the score (the steady lines), and, for count-bounded lines
// without a warm-up, the time of each fork's first line (coldLine), which is what
// rpcecho's one line per cell measured.
func rpcechoLines(bs []results.Benchmark) view {
	v := view{Title: "rpcecho's lines",
		Note: "Each line is one slice (rpcecho's N calls are N iterations of its loop: N ops, " +
			"an echo then a stats call each for echo+stats), printed as rpcecho printed it: whole ms cut down " +
			"to 10 ms, the direct call in whole µs; our exact time is in brackets. A group measured by time, " +
			"not by ops, gets one line per target, the time of 1000 ops from its score. The tables give " +
			"the time of a line from the score (avgt: the mean of the lines from each run's steady state on), " +
			"then each run's first line (cold): what rpcecho's one unwarmed line per cell measured, a line on " +
			"servers started for that run with no line before it; the mean over the runs, then the lowest and " +
			"the highest (the direct call in µs)."}
	steady, cold := newLineGrid(), newLineGrid()
	for _, g := range results.Groups(bs) {
		b0 := g.Benchmarks[0]
		if _, echoes := b0.Params["payload"]; !echoes || b0.CallsPerOp == 0 {
			continue // rpcecho timed calls that echo a payload
		}
		pl := payloadName(b0.Params)
		header := fmt.Sprintf("--- test with %s payload --- (%s, %s)", pl, b0.Workload, results.LoadName(b0.Load))
		steady.addColumn(b0.Workload, pl)
		cold.addColumn(b0.Workload, pl)
		v.Lines = append(v.Lines, groupLines(g.Benchmarks, header)...)
		for _, b := range g.Benchmarks {
			ops, _ := lineOps(&b)
			c := millis(msPerLine(&b, ops))
			if a := b.Summary.AvgTimeMs; b.Mode == results.ModeAverageTime && a != nil && a.Error > 0 {
				c += " ± " + millis(a.Error*float64(ops))
			}
			steady.set(results.SeriesLabel(&b), b.Workload, pl, c)
			if c, ok := coldCell(&b); ok {
				cold.set(results.SeriesLabel(&b), b.Workload, pl, c)
			}
		}
		v.Lines = append(v.Lines, "")
	}
	if n := len(v.Lines); n > 0 {
		v.Lines = v.Lines[:n-1]
	}
	for _, w := range steady.workloads {
		v.Tables = append(v.Tables, steady.build(w, w+": ms per line", ""))
		if t := cold.build(w, w+": ms of each run's first line (cold)", ""); len(t.Rows) > 0 {
			v.Tables = append(v.Tables, t)
		}
	}
	return v
}

// lineGrid holds the cells of rpcechoLines' tables: per workload, its payloads in
// order; a cell per series (protocol/transport), workload and payload.
type lineGrid struct {
	workloads []string
	payloads  map[string][]string
	series    []string
	cells     map[string]map[[2]string]string
}

func newLineGrid() *lineGrid {
	return &lineGrid{payloads: map[string][]string{}, cells: map[string]map[[2]string]string{}}
}

func (g *lineGrid) addColumn(workload, payload string) {
	if !slices.Contains(g.workloads, workload) {
		g.workloads = append(g.workloads, workload)
	}
	g.payloads[workload] = append(g.payloads[workload], payload)
}

func (g *lineGrid) set(series, workload, payload, cell string) {
	if g.cells[series] == nil {
		g.cells[series] = map[[2]string]string{}
		g.series = append(g.series, series)
	}
	g.cells[series][[2]string{workload, payload}] = cell
}

// build is workload's table: a row per series with a cell in it, a column per payload.
func (g *lineGrid) build(workload, title, note string) table {
	t := table{Title: title, Note: note, Head: []string{"Protocol/transport"}, Align: "l"}
	for _, pl := range g.payloads[workload] {
		t.Head = append(t.Head, pl)
		t.Align += "r"
	}
	for _, s := range g.series {
		row := []string{s}
		seen := false
		for _, pl := range g.payloads[workload] {
			c, ok := g.cells[s][[2]string{workload, pl}]
			if !ok {
				c = notAvailable
			}
			seen = seen || ok
			row = append(row, c)
		}
		if seen {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// groupLines are one comparison group's lines under header: a block per fork and
// round when every benchmark's slices are count-bounded, else one line each
// from the score.
func groupLines(bs []results.Benchmark, header string) []string {
	perLine := true
	forks := 0
	for _, b := range bs {
		_, measured := lineOps(&b)
		perLine = perLine && measured
		forks = max(forks, len(b.Forks))
	}
	if !perLine || forks == 0 {
		lines := []string{header + " from the score"}
		for _, b := range bs {
			ops, _ := lineOps(&b)
			ms := msPerLine(&b, ops)
			line := fmt.Sprintf("%d calls using %s on %s: %s millisec", ops, rpcechoName(b.Protocol), rpcechoAddr(b.Transport), millis(ms))
			if b.Protocol == "direct" {
				line = fmt.Sprintf("%d calls using direct call: %s microsec", ops, latencyUs(ms*1e3))
			}
			lines = append(lines, line)
		}
		return lines
	}
	var lines []string
	for f := range forks {
		rounds := 0
		for _, b := range bs {
			if f < len(b.Forks) {
				rounds = max(rounds, len(b.Forks[f].Slices))
			}
		}
		for r := range rounds {
			lines = append(lines, fmt.Sprintf("%s fork %d, round %d", header, f+1, r+1))
			for _, b := range bs {
				if f >= len(b.Forks) || r >= len(b.Forks[f].Slices) {
					continue
				}
				it := b.Forks[f].Slices[r]
				lines = append(lines, rpcechoLine(b.Protocol, b.Transport, b.SliceOps, it.Seconds)+"\t"+exactTime(b.Protocol, it.Seconds))
			}
		}
	}
	return withExact(lines)
}
