package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/wirebench/wirebench/internal/textgrid"
)

// WriteText writes benchmarks as a terminal report: the JMH-shaped score table, then
// per benchmark its latency percentiles, CPU and bytes per op, and warnings.
func WriteText(w io.Writer, bs []Benchmark) error {
	if err := writeTable(w, scoreTable(bs)); err != nil {
		return err
	}
	for _, b := range bs {
		s := b.Summary
		fmt.Fprintf(w, "\n%s\n", b.Name)
		fmt.Fprintf(w, "  response time µs  mean %s  p50 %s  p75 %s  p90 %s  p99 %s  p99.9 %s  max %s\n",
			lat(s.LatencyUs.Mean), lat(s.LatencyUs.P50), lat(s.LatencyUs.P75), lat(s.LatencyUs.P90),
			lat(s.LatencyUs.P99), lat(s.LatencyUs.P999), lat(s.LatencyUs.Max))
		if s.ServiceUs != nil {
			fmt.Fprintf(w, "  service time µs   p50 %s  p99 %s  max %s;  lag µs p50 %s  p99 %s  max %s\n",
				lat(s.ServiceUs.P50), lat(s.ServiceUs.P99), lat(s.ServiceUs.Max),
				lat(s.LagUs.P50), lat(s.LagUs.P99), lat(s.LagUs.Max))
			fmt.Fprintf(w, "  achieved %s ops/s of %s targeted; %d arrivals found every slot busy\n",
				fixed(s.AchievedRate, 0), fixed(b.Load.Rate, 0), s.Overflow)
		}
		server, rss := "n/a", "n/a"
		if s.ServerCPUUsPerOp != nil {
			server = fixed(*s.ServerCPUUsPerOp, 2)
		}
		if s.ServerRSSMaxBytes != nil {
			rss = fixed(float64(*s.ServerRSSMaxBytes)/(1<<20), 1) + " MiB"
		}
		fmt.Fprintf(w, "  cpu µs/op  client %s  server %s;  bytes/op  sent %s  received %s;  server peak RSS %s\n",
			fixed(s.ClientCPUUsPerOp, 2), server, fixed(s.BytesSentPerOp, 0), fixed(s.BytesRecvPerOp, 0), rss)
		fmt.Fprintf(w, "  %d ops, %d errors\n", s.Ops, s.Errors)
		for _, warn := range b.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", warn)
		}
		for _, t := range b.Trials {
			if t.Error != "" {
				fmt.Fprintf(w, "  trial %d cut short: %s\n", t.Index+1, firstLine(t.Error))
			}
		}
	}
	return nil
}

// Score returns the benchmark's score, its error and units by its mode: ops/s, or
// ms/op in average-time mode.
func (b *Benchmark) Score() (score, errS float64, units string) {
	if a := b.Summary.AvgTimeMs; b.Mode == ModeAverageTime && a != nil {
		return a.Mean, a.Error, "ms/op"
	}
	t := b.Summary.ThroughputOpsS
	return t.Mean, t.Error, "ops/s"
}

// fmtNum prints three decimals as JMH does, four under 1 (ms/op scores).
func fmtNum(f float64) string {
	if !isFinite(f) {
		return notAvailable
	}
	if math.Abs(f) < 1 {
		return fmt.Sprintf("%.4f", f)
	}
	return fmt.Sprintf("%.3f", f)
}

func lat(us float64) string {
	if !isFinite(us) {
		return notAvailable
	}
	if us >= 100 {
		return fmt.Sprintf("%.0f", us)
	}
	return fmt.Sprintf("%.1f", us)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// WriteSummaryText writes a run's terminal summary: the JMH-shaped score table, one
// comparison table per operation, and the notes a reader must see before trusting a
// figure. The full detail is in the Markdown and HTML reports.
func WriteSummaryText(w io.Writer, bs []Benchmark) error {
	if err := writeTable(w, scoreTable(bs)); err != nil {
		return err
	}
	for _, t := range comparisonTables(bs) {
		if _, err := fmt.Fprintf(w, "\n%s\n", t.Title); err != nil {
			return err
		}
		if err := writeTable(w, t); err != nil {
			return err
		}
	}
	if ns := notes(bs); len(ns) > 0 {
		fmt.Fprintln(w)
		for _, n := range ns {
			if _, err := fmt.Fprintf(w, "%s: %s: %s\n", n.Kind, n.Benchmark, n.Text); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeTable writes t as aligned columns with its head, two spaces apart.
func writeTable(w io.Writer, t table) error {
	var g textgrid.Grid
	for _, r := range append([][]string{t.Head}, t.Rows...) {
		g.NewRow()
		for i, c := range r {
			margin := "  "
			if i == 0 {
				margin = ""
			}
			g.Add(1, c, textgrid.Align(t.Align[i]), margin)
		}
	}
	return g.Write(w)
}
