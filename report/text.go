package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/wirebench/wirebench/internal/textgrid"
	"github.com/wirebench/wirebench/results"
)

// WriteText writes benchmarks as a terminal report: with two benchmarks or more,
// the summary run prints (WriteSummaryText: verdicts, scores, the comparison per
// operation), else the JMH-shaped score table; then per benchmark its latency
// percentiles, CPU and bytes per op, and warnings. It returns the first write error.
func WriteText(out io.Writer, bs []results.Benchmark) error {
	// bufio keeps the first write error and writes nothing after it; Flush returns it.
	w := bufio.NewWriter(out)
	if len(bs) >= 2 {
		if err := writeSummary(w, bs, false); err != nil {
			return err
		}
	} else if err := writeTable(w, scoreTable(bs)); err != nil {
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
		for _, t := range b.Forks {
			if t.Error != "" && !failureSaid(&b, t) {
				fmt.Fprintf(w, "  %s\n", cutShort(t))
			}
		}
	}
	return w.Flush()
}

// cutShort says that fork t was cut short, where and why (the first line of its
// error): "fork 2 cut short at round 3: worker exited".
func cutShort(t results.ForkResult) string {
	if t.Phase != "" {
		return fmt.Sprintf("fork %d cut short at %s: %s", t.Index+1, t.Phase, firstLine(t.Error))
	}
	return fmt.Sprintf("fork %d cut short: %s", t.Index+1, firstLine(t.Error))
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// WriteReportText is `report -f table`: the title (the suite, the command, a smoke
// mark), WriteText, and the views in the original experiment's shape.
func WriteReportText(w io.Writer, r *results.Results) error {
	if err := writeTitleText(w, r); err != nil {
		return err
	}
	if err := WriteText(w, r.Benchmarks); err != nil {
		return err
	}
	return WriteViewsText(w, r)
}

func writeTitleText(w io.Writer, r *results.Results) error {
	if _, err := fmt.Fprintf(w, "%s\n", title(r)); err != nil {
		return err
	}
	if r.Smoke {
		if _, err := fmt.Fprintf(w, "%s\n", smokeNote); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// WriteSummaryText writes a run's terminal summary: its title, one verdict per
// operation, the JMH-shaped score table, one comparison table per operation, and
// the notes a reader must see before trusting a figure. The full detail is in the
// Markdown and HTML reports.
func WriteSummaryText(w io.Writer, r *results.Results) error {
	if err := writeTitleText(w, r); err != nil {
		return err
	}
	return writeSummary(w, r.Benchmarks, true)
}

// writeSummary is WriteSummaryText after the title; withNotes adds the warnings and
// errors, which WriteText gives per benchmark instead.
func writeSummary(w io.Writer, bs []results.Benchmark, withNotes bool) error {
	if vs := verdicts(bs); len(vs) > 0 {
		if _, err := fmt.Fprintf(w, "Verdict. %s:\n", verdictNote); err != nil {
			return err
		}
		for _, v := range vs {
			if _, err := fmt.Fprintf(w, "  %s: %s\n", v.Operation, v.Text); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
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
	if ns := notes(bs); withNotes && len(ns) > 0 {
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
