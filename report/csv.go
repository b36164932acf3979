package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/results"
)

// csvColumns are the CSV header and how each cell is taken from a benchmark.
// Nested summary fields are flattened with "_" (latency_us_p99); a figure
// that is unknown (a nil server figure, an absent service time) is an empty
// cell, never 0.
var csvColumns = slices.Concat(benchmarkColumns,
	latencyColumns("latency_us", func(b *results.Benchmark) *results.Latency { return &b.Summary.LatencyUs }),
	latencyColumns("service_us", func(b *results.Benchmark) *results.Latency { return b.Summary.ServiceUs }),
	latencyColumns("lag_us", func(b *results.Benchmark) *results.Latency { return b.Summary.LagUs }),
	summaryColumns, comparisonColumns)

// csvColumn is one CSV column: its header and its cell of a benchmark.
type csvColumn struct {
	name string
	cell func(b *results.Benchmark) string
}

// benchmarkColumns describe the benchmark and its score.
var benchmarkColumns = []csvColumn{
	{"name", func(b *results.Benchmark) string { return b.Name }},
	{"series", func(b *results.Benchmark) string { return results.SeriesLabel(b) }},
	{"operation", func(b *results.Benchmark) string { return results.GroupOf(b) }},
	{"protocol", func(b *results.Benchmark) string { return b.Protocol }},
	{"transport", func(b *results.Benchmark) string { return b.Transport }},
	{"workload", func(b *results.Benchmark) string { return b.Workload }},
	{"params", func(b *results.Benchmark) string { return results.ParamString(b.Params) }},
	{"options", func(b *results.Benchmark) string { return mapString(b.Options) }},
	{"address", func(b *results.Benchmark) string { return b.Address }},
	{"call", func(b *results.Benchmark) string { return b.Call }},
	{"load_model", func(b *results.Benchmark) string { return b.Load.Model }},
	{"load_concurrency", func(b *results.Benchmark) string { return strconv.Itoa(b.Load.Concurrency) }},
	{"load_connections", func(b *results.Benchmark) string { return strconv.Itoa(b.Load.Connections) }},
	{"load_rate", func(b *results.Benchmark) string { return optFloat(b.Load.Rate, b.Load.Model == results.ModelOpen) }},
	{"load_arrival", func(b *results.Benchmark) string { return b.Load.Arrival }},
	{"load_max_in_flight", func(b *results.Benchmark) string {
		return optInt(int64(b.Load.MaxInFlight), b.Load.Model == results.ModelOpen)
	}},
	{"mode", func(b *results.Benchmark) string { return b.Mode }},
	{"warmup_s", func(b *results.Benchmark) string { return csvFloat(b.WarmupSeconds) }},
	{"slice_s", func(b *results.Benchmark) string { return optFloat(b.SliceSeconds, b.SliceSeconds != 0) }},
	{"slice_ops", func(b *results.Benchmark) string { return optInt(b.SliceOps, b.SliceOps != 0) }},
	{"rounds", func(b *results.Benchmark) string { return strconv.Itoa(b.Rounds) }},
	{"forks", func(b *results.Benchmark) string { return strconv.Itoa(len(b.Forks)) }},
	{"score", func(b *results.Benchmark) string { s, _, _ := b.Score(); return csvFloat(s) }},
	{"score_error", func(b *results.Benchmark) string { _, e, _ := b.Score(); return csvFloat(e) }},
	{"score_units", func(b *results.Benchmark) string { _, _, u := b.Score(); return u }},
	{"throughput_ops_s_mean", func(b *results.Benchmark) string { return csvFloat(b.Summary.ThroughputOpsS.Mean) }},
	{"throughput_ops_s_error", func(b *results.Benchmark) string { return csvFloat(b.Summary.ThroughputOpsS.Error) }},
	{"throughput_ops_s_ci", func(b *results.Benchmark) string { return csvFloat(b.Summary.ThroughputOpsS.CI) }},
	{"throughput_ops_s_n", func(b *results.Benchmark) string { return strconv.Itoa(b.Summary.ThroughputOpsS.N) }},
}

// latencyColumns flattens a Latency into prefix_mean ... prefix_max; all
// empty when get returns nil.
func latencyColumns(prefix string, get func(*results.Benchmark) *results.Latency) []csvColumn {
	var cols []csvColumn
	for _, f := range []struct {
		name string
		v    func(*results.Latency) float64
	}{
		{"mean", func(l *results.Latency) float64 { return l.Mean }},
		{"p50", func(l *results.Latency) float64 { return l.P50 }},
		{"p75", func(l *results.Latency) float64 { return l.P75 }},
		{"p90", func(l *results.Latency) float64 { return l.P90 }},
		{"p99", func(l *results.Latency) float64 { return l.P99 }},
		{"p999", func(l *results.Latency) float64 { return l.P999 }},
		{"max", func(l *results.Latency) float64 { return l.Max }},
	} {
		cols = append(cols, csvColumn{prefix + "_" + f.name, func(b *results.Benchmark) string {
			if l := get(b); l != nil {
				return csvFloat(f.v(l))
			}
			return ""
		}})
	}
	return cols
}

// summaryColumns are the rest of the summary, then warnings and errors.
var summaryColumns = []csvColumn{
	{"ops", func(b *results.Benchmark) string { return strconv.FormatInt(b.Summary.Ops, 10) }},
	{"errors", func(b *results.Benchmark) string { return strconv.FormatInt(b.Summary.Errors, 10) }},
	{"errors_by_kind", func(b *results.Benchmark) string { return mapString(b.Summary.ErrorsByKind) }},
	{"errors_by_status", func(b *results.Benchmark) string { return mapString(b.Summary.ErrorsByStatus) }},
	{"overflow", func(b *results.Benchmark) string { return strconv.FormatInt(b.Summary.Overflow, 10) }},
	{"client_cpu_us_per_op", func(b *results.Benchmark) string { return csvFloat(b.Summary.ClientCPUUsPerOp) }},
	{"server_cpu_us_per_op", func(b *results.Benchmark) string {
		if p := b.Summary.ServerCPUUsPerOp; p != nil {
			return csvFloat(*p)
		}
		return ""
	}},
	{"bytes_sent_per_op", func(b *results.Benchmark) string { return csvBytes(b, b.Summary.BytesSentPerOp) }},
	{"bytes_recv_per_op", func(b *results.Benchmark) string { return csvBytes(b, b.Summary.BytesRecvPerOp) }},
	{"server_rss_max_bytes", func(b *results.Benchmark) string {
		if p := b.Summary.ServerRSSMaxBytes; p != nil {
			return strconv.FormatInt(*p, 10)
		}
		return ""
	}},
	{"achieved_rate_ops_s", func(b *results.Benchmark) string {
		return optFloat(b.Summary.AchievedRate, b.Load.Model == results.ModelOpen)
	}},
	{"avg_ms_per_op", func(b *results.Benchmark) string { return csvFloat(b.Summary.AvgMsPerOp) }},
	{"avg_time_ms_mean", func(b *results.Benchmark) string {
		return avgTime(b, func(t *results.Throughput) string { return csvFloat(t.Mean) })
	}},
	{"avg_time_ms_error", func(b *results.Benchmark) string {
		return avgTime(b, func(t *results.Throughput) string { return csvFloat(t.Error) })
	}},
	{"avg_time_ms_ci", func(b *results.Benchmark) string {
		return avgTime(b, func(t *results.Throughput) string { return csvFloat(t.CI) })
	}},
	{"avg_time_ms_n", func(b *results.Benchmark) string {
		return avgTime(b, func(t *results.Throughput) string { return strconv.Itoa(t.N) })
	}},
	{"generator_bound", func(b *results.Benchmark) string { return strconv.FormatBool(b.GeneratorBound) }},
	{"warnings", func(b *results.Benchmark) string { return strings.Join(b.Warnings.Strings(), "; ") }},
	{"fork_errors", func(b *results.Benchmark) string {
		var es []string
		for _, t := range b.Forks {
			if t.Error != "" {
				where := fmt.Sprint("fork ", t.Index+1)
				if t.Phase != "" {
					where += ", " + t.Phase
				}
				es = append(es, where+": "+firstLine(t.Error))
			}
		}
		return strings.Join(es, "; ")
	}},
}

// comparisonColumns are, at the end so that older columns keep their places, the
// benchmark's paired ratio to its group's baseline (empty for the baseline itself
// and without one; the interval empty when it rests on too few forks or rounds, as
// the reports print "too few"), its steady-state class and the stacks of both sides.
var comparisonColumns = []csvColumn{
	{"ratio_baseline", relative(func(r *results.Relative) string { return r.Baseline })},
	{"ratio_of", relative(func(r *results.Relative) string {
		if r.Of == "" {
			return "score"
		}
		return r.Of
	})},
	{"ratio", relative(func(r *results.Relative) string { return csvFloat(r.Ratio.Mean) })},
	{"ratio_ci_low", relative(func(r *results.Relative) string { return optFloat(r.Ratio.CILow, r.HasInterval()) })},
	{"ratio_ci_high", relative(func(r *results.Relative) string { return optFloat(r.Ratio.CIHigh, r.HasInterval()) })},
	{"ratio_forks", relative(func(r *results.Relative) string { return strconv.Itoa(r.Forks) })},
	{"ratio_rounds", relative(func(r *results.Relative) string { return strconv.Itoa(r.Rounds) })},
	{"steady", func(b *results.Benchmark) string { return b.Steady }},
	{"server_stack", stack(func(b *results.Benchmark) *results.Stack { return b.ServerStack }, false)},
	{"server_stack_tier", stack(func(b *results.Benchmark) *results.Stack { return b.ServerStack }, true)},
	{"client_stack", stack(func(b *results.Benchmark) *results.Stack { return b.ClientStack }, false)},
	{"client_stack_tier", stack(func(b *results.Benchmark) *results.Stack { return b.ClientStack }, true)},
}

// relative is a cell of the benchmark's ratio, empty without one.
func relative(f func(*results.Relative) string) func(*results.Benchmark) string {
	return func(b *results.Benchmark) string {
		if r := b.Summary.Relative; r != nil {
			return f(r)
		}
		return ""
	}
}

// stack is a cell of a side's stack: its name, or with tier its tier; empty when
// unknown (an outside server).
func stack(side func(*results.Benchmark) *results.Stack, tier bool) func(*results.Benchmark) string {
	return func(b *results.Benchmark) string {
		s := side(b)
		switch {
		case s == nil:
			return ""
		case tier:
			return s.Tier
		}
		return s.Name
	}
}

// WriteCSV writes r as CSV: a header, then one row per benchmark with every
// summary figure and, last, whether the run was a smoke run, for spreadsheets and
// scripts. Numbers are written in full
// (the shortest decimal that reads back exactly).
func WriteCSV(w io.Writer, r *results.Results) error {
	cw := csv.NewWriter(w)
	// smoke is the run's, on every row: a row pasted into a spreadsheet alone must
	// still say that it is no measurement.
	row := make([]string, len(csvColumns)+1)
	row[len(csvColumns)] = "smoke"
	for i, c := range csvColumns {
		row[i] = c.name
	}
	if err := cw.Write(row); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	for i := range r.Benchmarks {
		for j, c := range csvColumns {
			row[j] = c.cell(&r.Benchmarks[i])
		}
		row[len(csvColumns)] = strconv.FormatBool(r.Smoke)
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return nil
}

func csvFloat(f float64) string {
	if !isFinite(f) {
		return ""
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func optFloat(f float64, set bool) string {
	if !set {
		return ""
	}
	return csvFloat(f)
}

func optInt(n int64, set bool) string {
	if !set {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

func avgTime(b *results.Benchmark, f func(*results.Throughput) string) string {
	if b.Summary.AvgTimeMs == nil {
		return ""
	}
	return f(b.Summary.AvgTimeMs)
}

// mapString is m as sorted "k=v" pairs joined by ";".
func mapString[V any](m map[string]V) string {
	kv := make([]string, 0, len(m))
	for k, v := range m {
		kv = append(kv, fmt.Sprintf("%s=%v", k, v))
	}
	slices.Sort(kv)
	return strings.Join(kv, ";")
}

// csvBytes is a per-op byte count, empty when the client could not count them.
func csvBytes(b *results.Benchmark, v float64) string {
	if b.Summary.BytesNotCounted {
		return ""
	}
	return csvFloat(v)
}
