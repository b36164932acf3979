package report

import (
	"math"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/stats"
	"github.com/wirebench/wirebench/suite/originals"
)

// pairedOriginal has four findings over a run's benchmarks: two targets of one closed
// group, neither its baseline (a score, then a p50 the group does not pair), a target
// over one of another group, and two targets of an open-loop group on p99.
const pairedOriginal = `name: t
title: T
sources: [{id: s, repo: r, file: README.md}]
setups: [{name: a, source: s, tool: JMH, how: h, machine: m, stacks: s}]
figures:
  - {id: a, setup: a, row: a, value: 30, unit: ms/op}
  - {id: b, setup: a, row: b, value: 60, unit: ms/op}
  - {id: x, setup: a, row: x, value: 2, unit: ms}
  - {id: y, setup: a, row: y, value: 1, unit: ms}
findings:
  - {id: same-group, setup: a, says: a over b, of: a, over: b, ours: {metric: score, of: {name: a}, over: {name: b}}}
  - {id: closed-p50, setup: a, says: a over b at p50, of: x, over: y, ours: {metric: p50, of: {name: a}, over: {name: b}}}
  - {id: other-group, setup: a, says: a over c, of: a, over: b, ours: {metric: score, of: {name: a}, over: {name: c}}}
  - {id: open-p99, setup: a, says: x over y at p99, of: x, over: y, ours: {metric: p99, of: {name: x}, over: {name: y}}}
`

// pairedRun is a run of three closed groups' targets and an open group's, each
// slice's value given [fork][round]: ms/op in the closed groups, p99 µs in the open
// one (its p50 a tenth of it).
func pairedRun(ms map[string][][]float64) []results.Benchmark {
	bench := func(name, group, baseline string, open bool) results.Benchmark {
		b := results.Benchmark{Name: name, Group: group, Mode: results.ModeAverageTime, Workload: "echo",
			Load: results.Load{Model: results.ModelClosed, Concurrency: 1, Connections: 1}}
		if open {
			b.Mode, b.Load = results.ModeThroughput, results.Load{Model: results.ModelOpen, Rate: 100, Arrival: "poisson", Concurrency: 4}
		}
		var sum float64
		var n int
		for f, row := range ms[name] {
			tr := results.ForkResult{Index: f, Steady: &results.Steady{Class: results.SteadyFlat}}
			for i, v := range row {
				it := results.Slice{Index: i, Seconds: v, Ops: 1000, ThroughputOpsS: 1000 / v}
				if open {
					it = results.Slice{Index: i, Seconds: 1, Ops: 100, ThroughputOpsS: 100, LatencyUs: results.Latency{P50: v / 10, P99: v}}
				}
				tr.Slices = append(tr.Slices, it)
				sum += v
				n++
			}
			b.Forks = append(b.Forks, tr)
		}
		mean := sum / float64(n)
		b.Summary.AvgTimeMs = &results.Throughput{Mean: mean, Error: mean / 10, CI: 0.999, N: n}
		b.Summary.LatencyUs = results.Latency{P50: mean / 10, P99: mean}
		if baseline != "" {
			b.Summary.Relative = &results.Relative{Baseline: baseline, Ratio: results.Ratio{Mean: 1, CILow: 0.9, CIHigh: 1.1, CI: 0.999}}
			if open {
				b.Summary.Relative.Of = results.RelativeLatencyP50
			}
		}
		return b
	}
	return []results.Benchmark{
		bench("base", "g", "", false), bench("a", "g", "base", false), bench("b", "g", "base", false),
		bench("c", "h", "", false),
		bench("obase", "o", "", true), bench("x", "o", "obase", true), bench("y", "o", "obase", true),
	}
}

// A finding over two targets of one group, neither its baseline, gets their ratio
// paired by fork and round, as stats.PairedRatioForks gives it on their slices; so
// does an open-loop group's p99. A target over one of another group, and a latency a
// closed group does not pair, stay ratios of two figures measured apart (‡).
func TestOriginalPairsGroupMembers(t *testing.T) {
	o, err := originals.Parse("t.yaml", []byte(pairedOriginal))
	if err != nil {
		t.Fatal(err)
	}
	ms := map[string][][]float64{
		"base":  {{10, 11, 10.5, 12}, {11, 10, 10.2, 10.8}, {9.5, 10, 10.1, 9.9}},
		"a":     {{5, 5.4, 5.1, 6.2}, {5.6, 4.9, 5.2, 5.3}, {4.8, 5.2, 4.9, 5.1}},
		"b":     {{10.2, 11.3, 10.1, 12.5}, {11.4, 10.1, 10.6, 10.7}, {9.4, 10.4, 9.8, 10.3}},
		"c":     {{20, 21, 19, 22}},
		"obase": {{800, 820, 790, 900, 850}, {810, 805, 830, 870, 860}},
		"x":     {{1600, 1700, 1500, 1900, 1750}, {1650, 1580, 1720, 1800, 1690}},
		"y":     {{790, 840, 800, 910, 830}, {800, 815, 850, 860, 880}},
	}
	rows := originals.Compare(o, "", Benches(pairedRun(ms)))
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	check := func(row originals.Row, want stats.ForkedRatio) {
		t.Helper()
		e := row.Ours
		if !row.Paired || !near(e.Mean, want.Mean) || !near(e.Low, want.Low) || !near(e.High, want.High) {
			t.Errorf("%s: paired %v, ours %+v, want %.6g [%.6g, %.6g]", row.Finding.ID, row.Paired, e, want.Mean, want.Low, want.High)
		}
		if cell := oursCell(row); strings.Contains(cell, "‡") || !strings.Contains(cell, "[") {
			t.Errorf("%s: cell %q, want an interval and no ‡", row.Finding.ID, cell)
		}
	}
	check(rows[0], stats.PairedRatioForks(ms["a"], ms["b"], 0.999))
	check(rows[3], stats.PairedRatioForks(ms["x"], ms["y"], 0.999))

	apart := func(row originals.Row, want float64) {
		t.Helper()
		if row.Paired || !near(row.Ours.Mean, want) || !strings.HasSuffix(oursCell(row), " ‡") {
			t.Errorf("%s: paired %v, ours %+v, cell %q; want %.6g measured apart (‡)", row.Finding.ID, row.Paired, row.Ours, oursCell(row), want)
		}
	}
	mean := func(name string) float64 {
		var s float64
		var n int
		for _, row := range ms[name] {
			for _, v := range row {
				s += v
				n++
			}
		}
		return s / float64(n)
	}
	apart(rows[1], mean("a")/mean("b")) // p50s: a tenth of each mean, the ratio the same
	apart(rows[2], mean("a")/mean("c"))
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
