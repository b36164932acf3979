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
	return writeText(out, bs, 0)
}

// writeText is WriteText for a terminal of width columns (0: no limit): the summary
// fitted as WriteSummaryTextWidth fits it, each benchmark's lines wrapped.
func writeText(out io.Writer, bs []results.Benchmark, width int) error {
	// bufio keeps the first write error and writes nothing after it; Flush returns it.
	w := bufio.NewWriter(out)
	line := func(format string, args ...any) { // wrapped only when too wide: Wrap closes up the double spaces
		l := fmt.Sprintf(format, args...)
		if width > 0 && textgrid.Width(l) > width {
			l = textgrid.Wrap(l, width, "    ")
		}
		fmt.Fprintf(w, "%s\n", l)
	}
	if len(bs) >= 2 {
		if err := writeSummary(w, bs, false, width); err != nil {
			return err
		}
	} else if err := writeTable(w, scoreTable(bs)); err != nil {
		return err
	}
	for _, b := range bs {
		s := b.Summary
		fmt.Fprintf(w, "\n%s\n", b.Name)
		line("  response time µs  mean %s  p50 %s  p75 %s  p90 %s  p99 %s  p99.9 %s  max %s",
			latencyUs(s.LatencyUs.Mean), latencyUs(s.LatencyUs.P50), latencyUs(s.LatencyUs.P75), latencyUs(s.LatencyUs.P90),
			latencyUs(s.LatencyUs.P99), latencyUs(s.LatencyUs.P999), latencyUs(s.LatencyUs.Max))
		if s.ServiceUs != nil {
			line("  service time µs   p50 %s  p99 %s  max %s;  lag µs p50 %s  p99 %s  max %s",
				latencyUs(s.ServiceUs.P50), latencyUs(s.ServiceUs.P99), latencyUs(s.ServiceUs.Max),
				latencyUs(s.LagUs.P50), latencyUs(s.LagUs.P99), latencyUs(s.LagUs.Max))
			line("  achieved %s ops/s of %s targeted; %d arrivals found every slot busy",
				fixed(s.AchievedRate, 0), fixed(b.Load.Rate, 0), s.Overflow)
		}
		server, rss := "n/a", "n/a"
		if s.ServerCPUUsPerOp != nil {
			server = fixed(*s.ServerCPUUsPerOp, 2)
		}
		if s.ServerRSSMaxBytes != nil {
			rss = fixed(float64(*s.ServerRSSMaxBytes)/(1<<20), 1) + " MiB"
		}
		line("  cpu µs/op  client %s  server %s;  bytes/op  sent %s  received %s;  server peak RSS %s",
			fixed(s.ClientCPUUsPerOp, 2), server, bytesCell(&s, s.BytesSentPerOp), bytesCell(&s, s.BytesRecvPerOp), rss)
		if s.LinkCPUUsPerOp != nil {
			line("  link proxy cpu µs/op %s (beside the clients, not in their figure)", fixed(*s.LinkCPUUsPerOp, 2))
		}
		line("  %d ops, %d errors", s.Ops, s.Errors)
		for _, warn := range b.Warnings {
			line("  warning: %s", warn)
		}
		for _, t := range b.Forks {
			if t.Error != "" && !failureSaid(&b, t) {
				line("  %s", cutShort(t))
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
	return WriteReportTextWidth(w, r, 0)
}

// WriteReportTextWidth is WriteReportText for a terminal of width columns (0: no
// limit): prose and each benchmark's lines wrapped, tables wider than the terminal
// stacked, and the originals' wide tables left to the Markdown report, as run's
// summary does.
func WriteReportTextWidth(w io.Writer, r *results.Results, width int) error {
	if err := writeTitleText(w, r, width); err != nil {
		return err
	}
	if err := writeText(w, r.Benchmarks, width); err != nil {
		return err
	}
	return WriteViewsTextWidth(w, r, width)
}

// writeTitleText writes the title (INTERRUPTED first when the run was cut short: a
// reader must know before any figure) and the smoke note, wrapped to width (0: no
// limit).
func writeTitleText(w io.Writer, r *results.Results, width int) error {
	if _, err := fmt.Fprintf(w, "%s\n", textgrid.Wrap(title(r), width, "  ")); err != nil {
		return err
	}
	if r.Smoke {
		if _, err := fmt.Fprintf(w, "%s\n", textgrid.Wrap(smokeNote, width, "")); err != nil {
			return err
		}
	}
	if line := referenceLine(r.Reference); line != "" {
		if _, err := fmt.Fprintf(w, "%s\n", textgrid.Wrap(line, width, "  ")); err != nil {
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
	return WriteSummaryTextWidth(w, r, 0)
}

// WriteSummaryTextWidth is WriteSummaryText for a terminal of width columns (0: no
// limit): prose wrapped, and a table wider than the terminal stacked, one block per
// row (fitTable).
func WriteSummaryTextWidth(w io.Writer, r *results.Results, width int) error {
	if err := writeTitleText(w, r, width); err != nil {
		return err
	}
	return writeSummary(w, r.Benchmarks, true, width)
}

// writeSummary is WriteSummaryText after the title; withNotes adds the warnings and
// errors, which WriteText gives per benchmark instead; width is the terminal's (0: no
// limit).
func writeSummary(w io.Writer, bs []results.Benchmark, withNotes bool, width int) error {
	if vs := verdicts(bs); len(vs) > 0 {
		if _, err := fmt.Fprintf(w, "%s\n", textgrid.Wrap("Verdict. "+verdictNote+":", width, "")); err != nil {
			return err
		}
		for _, v := range vs {
			if _, err := fmt.Fprintf(w, "%s\n", textgrid.Wrap("  "+v.Operation+": "+v.Text, width, "  ")); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	if err := writeTableWidth(w, scoreTable(bs), width); err != nil {
		return err
	}
	tables := comparisonTables(bs)
	if t, ok := capacityTable(bs); ok {
		tables = append(tables, t)
	}
	for _, t := range tables {
		if _, err := fmt.Fprintf(w, "\n%s\n", textgrid.Wrap(t.Title+t.Note, width, "  ")); err != nil {
			return err
		}
		if err := writeTableWidth(w, t, width); err != nil {
			return err
		}
	}
	for _, l := range legend(bs) {
		if _, err := fmt.Fprintf(w, "\n%s\n", textgrid.Wrap(l, width, "  ")); err != nil {
			return err
		}
	}
	if ns := notes(bs); withNotes && len(ns) > 0 {
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
		for _, n := range oncePerFact(ns) {
			if _, err := fmt.Fprintf(w, "%s\n", textgrid.Wrap(n.Kind+": "+n.Benchmark+": "+n.Text, width, "  ")); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeTableWidth writes t as writeTable does when it fits in width columns (0: no
// limit), else stacked: per row, its first cell on a line, then each other column's
// head and value, wrapped under it. No column is cut and no value abbreviated.
func writeTableWidth(w io.Writer, t table, width int) error {
	var buf strings.Builder
	if err := writeTable(&buf, t); err != nil {
		return err
	}
	if width <= 0 || textgrid.Width(buf.String()) <= width {
		_, err := io.WriteString(w, buf.String())
		return err
	}
	for _, row := range t.Rows {
		lines := []string{textgrid.Cut(row[0], width)}
		cur := ""
		for i, c := range row[1:] {
			if strings.TrimSpace(c) == "" {
				continue
			}
			// A line breaks between two columns, never inside one.
			pair := t.Head[i+1] + " " + strings.TrimSpace(c)
			switch {
			case cur == "":
				cur = "    " + pair
			case textgrid.Width(cur+" · "+pair) <= width:
				cur += " · " + pair
			default:
				lines = append(lines, textgrid.Cut(cur, width))
				cur = "    " + pair
			}
		}
		if cur != "" {
			lines = append(lines, textgrid.Cut(cur, width))
		}
		if _, err := fmt.Fprintf(w, "%s\n", strings.Join(lines, "\n")); err != nil {
			return err
		}
	}
	return nil
}

// oncePerFact merges notes that say the same thing (kind and text) of several
// benchmarks into one naming them all, in the order they first appear: a smoke run's
// "too few forks" is one fact, not one line per target.
func oncePerFact(ns []note) []note {
	var out []note
	at := map[[2]string]int{}
	for _, n := range ns {
		k := [2]string{n.Kind, n.Text}
		if i, ok := at[k]; ok {
			out[i].Benchmark += ", " + n.Benchmark
			continue
		}
		at[k] = len(out)
		out = append(out, n)
	}
	return out
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

// plural is one when n is 1, else many: "1 round", "2 rounds".
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
