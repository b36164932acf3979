package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// table is one table of a report, built once and rendered as Markdown or HTML,
// so both formats always show the same figures.
type table struct {
	// Title is the heading above the table, empty for none.
	Title string
	Head  []string
	// Align has one letter per column: l or r.
	Align string
	Rows  [][]string
}

// notAvailable stands for a figure that is unknown or has no value (a NaN,
// an infinity, a server figure of an outside target); no renderer prints NaN.
const notAvailable = "n/a"

// scoreTable is JMH's table: Benchmark, Mode, Cnt, Score, Error, Units.
func scoreTable(bs []Benchmark) table {
	t := table{
		Head:  []string{"Benchmark", "Mode", "Cnt", "Score", "Error", "Units"},
		Align: "llrrrl",
	}
	for _, b := range bs {
		score, errS, units := b.Score()
		n := b.Summary.ThroughputOpsS.N
		if a := b.Summary.AvgTimeMs; b.Mode == ModeAverageTime && a != nil {
			n = a.N
		}
		e := ""
		if n >= 2 {
			e = "± " + scoreNum(errS)
		}
		t.Rows = append(t.Rows, []string{b.Name, b.Mode, strconv.Itoa(n), scoreNum(score), e, units})
	}
	return t
}

// comparisonTables has one table per operation (Group): each protocol and
// transport's score ± error, relative to the group's best, latency, CPU and
// bytes per op.
func comparisonTables(bs []Benchmark) []table {
	var ts []table
	for _, g := range Groups(bs) {
		units := ""
		for i, b := range g.Benchmarks {
			_, _, u := b.Score()
			if i == 0 {
				units = u
			} else if u != units {
				units = ""
			}
		}
		scoreHead := "Score"
		if units != "" {
			scoreHead = "Score, " + units
		}
		t := table{
			Title: g.Name,
			Head: []string{"Protocol/transport", scoreHead, "Relative", "p50 µs", "p99 µs",
				"Client CPU µs/op", "Server CPU µs/op", "Sent B/op", "Received B/op"},
			Align: "lrrrrrrrr",
		}
		rel := Relative(g)
		for i, b := range g.Benchmarks {
			s := b.Summary
			score, errS, u := b.Score()
			cell := scoreNum(score)
			if n := scoreN(&b); n >= 2 {
				cell += " ± " + scoreNum(errS)
			}
			if units == "" {
				cell += " " + u
			}
			server := notAvailable
			if s.ServerCPUUsPerOp != nil {
				server = fixed(*s.ServerCPUUsPerOp, 2)
			}
			t.Rows = append(t.Rows, []string{Series(&b), cell, times(rel[i]),
				latencyUs(s.LatencyUs.P50), latencyUs(s.LatencyUs.P99),
				fixed(s.ClientCPUUsPerOp, 2), server,
				fixed(s.BytesSentPerOp, 0), fixed(s.BytesRecvPerOp, 0)})
		}
		ts = append(ts, t)
	}
	return ts
}

func scoreN(b *Benchmark) int {
	if a := b.Summary.AvgTimeMs; b.Mode == ModeAverageTime && a != nil {
		return a.N
	}
	return b.Summary.ThroughputOpsS.N
}

// latencyTable is the table of the Akka HTTP vs gRPC experiment (wrk2's
// figures), one row per benchmark, times in ms.
func latencyTable(bs []Benchmark) table {
	t := table{
		Head: []string{"Benchmark", "Total number of requests", "Req/s", "Max, ms", "Avg, ms",
			"50th pct", "75th pct", "90th pct", "99th pct", "99.9th pct"},
		Align: "lrrrrrrrrr",
	}
	ms := func(us float64) string { return fixed(us/1e3, 3) }
	for _, b := range bs {
		l := b.Summary.LatencyUs
		t.Rows = append(t.Rows, []string{b.Name, strconv.FormatInt(b.Summary.Ops, 10),
			fixed(b.Summary.ThroughputOpsS.Mean, 2), ms(l.Max), ms(l.Mean),
			ms(l.P50), ms(l.P75), ms(l.P90), ms(l.P99), ms(l.P999)})
	}
	return t
}

// note is one warning or error about a benchmark.
type note struct {
	Benchmark string
	// Kind is "warning" or "error".
	Kind string
	Text string
}

// notes gathers what a reader must know before trusting a figure: warnings,
// a generator-bound result, failed calls, trials cut short, late arrivals.
func notes(bs []Benchmark) []note {
	var ns []note
	for _, b := range bs {
		add := func(kind, format string, args ...any) {
			ns = append(ns, note{Benchmark: b.Name, Kind: kind, Text: fmt.Sprintf(format, args...)})
		}
		// bench writes its own warnings for a generator-bound result and for
		// failed calls; say each thing once.
		saidBound, saidErrors := false, false
		for _, w := range b.Warnings {
			saidBound = saidBound || strings.Contains(w, "generator")
			if strings.HasPrefix(w, "errors: ") {
				saidErrors = true
				add("error", "%s", w)
				continue
			}
			add("warning", "%s", w)
		}
		if b.GeneratorBound && !saidBound {
			add("warning", "the load generator, not the target, limited this result")
		}
		s := b.Summary
		if s.Overflow > 0 {
			add("warning", "%d open-model arrivals found every in-flight slot busy and started late", s.Overflow)
		}
		if s.Errors > 0 && !saidErrors {
			kinds := make([]string, 0, len(s.ErrorsByKind))
			for k, n := range s.ErrorsByKind {
				kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
			}
			slices.Sort(kinds)
			by := ""
			if len(kinds) > 0 {
				by = " (" + strings.Join(kinds, ", ") + ")"
			}
			add("error", "%d failed calls of %d%s", s.Errors, s.Ops+s.Errors, by)
		}
		for _, t := range b.Trials {
			if t.Error != "" {
				add("error", "trial %d cut short: %s", t.Index+1, firstLine(t.Error))
			}
		}
	}
	return ns
}

// keyValue is one line of the environment.
type keyValue struct{ Key, Value string }

func environment(e Environment) []keyValue {
	or := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	kv := []keyValue{
		{"CPU", or(e.CPUModel)},
		{"Cores", strconv.Itoa(e.Cores)},
		{"Memory", fmt.Sprintf("%s GiB", fixed(float64(e.MemoryBytes)/(1<<30), 1))},
		{"Kernel", or(e.Kernel)},
		{"OS", or(e.OS)},
		{"Go", or(e.GoVersion)},
		{"wirebench", or(e.WirebenchVersion)},
	}
	pin := "not pinned"
	if e.ServerCPUs != "" || e.ClientCPUs != "" {
		pin = fmt.Sprintf("server on CPUs %s, load generator on CPUs %s", or(e.ServerCPUs), or(e.ClientCPUs))
	}
	kv = append(kv, keyValue{"Pinning", pin})
	if !e.Started.IsZero() {
		kv = append(kv, keyValue{"Started", e.Started.UTC().Format(time.RFC3339)})
	}
	return kv
}

// Number formats, one per kind of figure, shared by every renderer.

// scoreNum is a score or its error as JMH prints it: three decimals, four
// under 1 (ms/op scores).
func scoreNum(f float64) string {
	switch {
	case !isFinite(f):
		return notAvailable
	case math.Abs(f) < 1:
		return fmt.Sprintf("%.4f", f)
	}
	return fmt.Sprintf("%.3f", f)
}

// fixed is f with prec decimals.
func fixed(f float64, prec int) string {
	if !isFinite(f) {
		return notAvailable
	}
	s := strconv.FormatFloat(f, 'f', prec, 64)
	if s == "-0" || strings.Trim(s, "-0.") == "" && strings.HasPrefix(s, "-") {
		s = s[1:] // no "-0.00"
	}
	return s
}

// latencyUs is a latency in µs: whole µs from 100 up, one decimal below, two
// below 1 µs.
func latencyUs(us float64) string {
	switch {
	case !isFinite(us):
		return notAvailable
	case math.Abs(us) < 1:
		return fixed(us, 2)
	case us >= 100:
		return fmt.Sprintf("%.0f", us)
	}
	return fmt.Sprintf("%.1f", us)
}

// times is a ratio such as "0.43×".
func times(f float64) string {
	if !isFinite(f) {
		return notAvailable
	}
	return fixed(f, 2) + "×"
}
