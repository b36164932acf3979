package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/wirebench/wirebench/internal/textgrid"
	"github.com/wirebench/wirebench/results"
)

// WriteText writes benchmarks as a terminal report: the JMH-shaped score table, then
// per benchmark its latency percentiles, CPU and bytes per op, and warnings. It
// returns the first write error.
func WriteText(out io.Writer, bs []results.Benchmark) error {
	// bufio keeps the first write error and writes nothing after it; Flush returns it.
	w := bufio.NewWriter(out)
	if err := writeTable(w, scoreTable(bs)); err != nil {
		return err
	}
	for _, b := range bs {
		s := b.Summary
		fmt.Fprintf(w, "\n%s\n", b.Name)
		fmt.Fprintf(w, "  response time µs  mean %s  p50 %s  p75 %s  p90 %s  p99 %s  p99.9 %s  max %s\n",
			latencyUs(s.LatencyUs.Mean), latencyUs(s.LatencyUs.P50), latencyUs(s.LatencyUs.P75), latencyUs(s.LatencyUs.P90),
			latencyUs(s.LatencyUs.P99), latencyUs(s.LatencyUs.P999), latencyUs(s.LatencyUs.Max))
		if s.ServiceUs != nil {
			fmt.Fprintf(w, "  service time µs   p50 %s  p99 %s  max %s;  lag µs p50 %s  p99 %s  max %s\n",
				latencyUs(s.ServiceUs.P50), latencyUs(s.ServiceUs.P99), latencyUs(s.ServiceUs.Max),
				latencyUs(s.LagUs.P50), latencyUs(s.LagUs.P99), latencyUs(s.LagUs.Max))
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
			fixed(s.ClientCPUUsPerOp, 2), server, bytesCell(&s, s.BytesSentPerOp), bytesCell(&s, s.BytesRecvPerOp), rss)
		if s.LinkCPUUsPerOp != nil {
			fmt.Fprintf(w, "  link proxy cpu µs/op %s (beside the clients, not in their figure)\n", fixed(*s.LinkCPUUsPerOp, 2))
		}
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
	return w.Flush()
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// WriteSummaryText writes a run's terminal summary: the JMH-shaped score table, one
// comparison table per operation, and the notes a reader must see before trusting a
// figure. The full detail is in the Markdown and HTML reports.
func WriteSummaryText(w io.Writer, bs []results.Benchmark) error {
	if err := writeTable(w, scoreTable(bs)); err != nil {
		return err
	}
	for _, t := range comparisonTables(bs) {
		if _, err := fmt.Fprintf(w, "\n%s%s\n", t.Title, t.Note); err != nil {
			return err
		}
		if err := writeTable(w, t); err != nil {
			return err
		}
	}
	if t, ok := capacityTable(bs); ok {
		if _, err := fmt.Fprintf(w, "\n%s%s\n", t.Title, t.Note); err != nil {
			return err
		}
		if err := writeTable(w, t); err != nil {
			return err
		}
	}
	for _, l := range legend(bs) {
		if _, err := fmt.Fprintf(w, "\n%s\n", l); err != nil {
			return err
		}
	}
	if ns := notes(bs); len(ns) > 0 {
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
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
