package report

import (
	"bufio"
	"fmt"
	"github.com/wirebench/wirebench/internal/textgrid"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/wirebench/wirebench/internal/markdown"
	"github.com/wirebench/wirebench/results"
)

// view is one view, ready to render.
type view struct {
	Name, Title string
	// Note is one sentence on how the view's figures are obtained.
	Note string
	// Lines are preformatted output lines (a code block), before the tables.
	Lines  []string
	Tables []table
}

// views builds the views r's suite asks for, in ViewNames order (unknown names are
// skipped: a newer wirebench may know more), then those its declarations bring: its
// deviations and the Original vs wirebench table (suiteViews).
func views(r *results.Results) []view {
	if r.Suite == nil {
		return nil
	}
	var out []view
	for _, name := range results.ViewNames {
		if !slices.Contains(r.Suite.Views, name) {
			continue
		}
		var v view
		switch name {
		case results.ViewJMHPerProtocol:
			v = jmhPerProtocol(r.Benchmarks)
		case results.ViewRPCEchoLines:
			v = rpcechoLines(r.Benchmarks)
		case results.ViewAkkaLatency:
			v = akkaLatency(r.Benchmarks)
		case results.ViewGRPCParamsTable:
			v = grpcParamsTable(r.Benchmarks)
		case results.ViewMatrix:
			v = matrixView(r)
		}
		v.Name = name
		out = append(out, v)
	}
	return append(out, suiteViews(r)...)
}

// jmhPerProtocol is metrifier's shape: one JMH table per protocol/transport, a row
// per operation.
func jmhPerProtocol(bs []results.Benchmark) view {
	v := view{Title: "JMH table per protocol",
		Note: "The shape of metrifier's per-stack JMH output: Score is the mean over Cnt slices (rounds × forks; JMH's iterations), Error the 99.9 % confidence half-width."}
	var order []string
	rows := map[string][]results.Benchmark{}
	for _, b := range bs {
		s := results.SeriesLabel(&b)
		if _, ok := rows[s]; !ok {
			order = append(order, s)
		}
		rows[s] = append(rows[s], b)
	}
	for _, s := range order {
		t := scoreTable(rows[s])
		t.Title = s
		for i, b := range rows[s] {
			t.Rows[i][0] = results.GroupOf(&b)
		}
		v.Tables = append(v.Tables, t)
	}
	return v
}

// millis prints a duration in ms: whole ms from 100 up, one decimal below, two below 1.
func millis(ms float64) string { return latencyUs(ms) }

// akkaLatency is the Akka HTTP vs gRPC experiment's table: a row per benchmark,
// named by its protocol/transport and load, times in ms.
func akkaLatency(bs []results.Benchmark) view {
	v := view{Title: "Akka HTTP vs gRPC table",
		Note: "The original's table (wrk2's figures), for both protocols from one tool and one load model: requests are successful ops over the measured slices, Req/s the mean throughput, times are response time from the intended start (corrected for coordinated omission), in ms."}
	t := table{
		Head: []string{"Benchmark", "Total number of requests", "Req/s", "Max,ms", "Avg, ms",
			"50th pct", "75th pct", "90th pct", "99th pct"},
		Align: "lrrrrrrrr",
	}
	ms := func(us float64) string { return fixed(us/1e3, 3) }
	for _, b := range bs {
		l := b.Summary.LatencyUs
		t.Rows = append(t.Rows, []string{results.SeriesLabel(&b) + " " + results.LoadName(b.Load), strconv.FormatInt(b.Summary.Ops, 10),
			fixed(b.Summary.ThroughputOpsS.Mean, 2), ms(l.Max), ms(l.Mean),
			ms(l.P50), ms(l.P75), ms(l.P90), ms(l.P99)})
	}
	v.Tables = []table{t}
	return v
}

// grpcParamsTable is JMH's table with @Param columns, as the REST vs gRPC
// experiment's gRPC parameter sweep printed it: the label, then one column per
// option set anywhere in the run (client and server; "c=X s=Y" when they differ,
// "default" when unset).
func grpcParamsTable(bs []results.Benchmark) view {
	v := view{Title: "gRPC parameters (JMH table with parameter columns)",
		Note: "One row per configuration and operation; an option column shows the value given to both sides (or c= client, s= server), default where unset."}
	var keys []string
	for _, b := range bs {
		for k := range b.Options {
			keys = append(keys, k)
		}
		for k := range b.ServerOptions {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	t := table{Head: []string{"Benchmark", "(label)", "(transport)"}, Align: "lll"}
	for _, k := range keys {
		t.Head = append(t.Head, "("+k+")")
		t.Align += "l"
	}
	t.Head = append(t.Head, "Mode", "Cnt", "Score", "Error", "Units")
	t.Align += "lrrrl"
	for _, g := range results.Groups(bs) {
		for _, b := range g.Benchmarks {
			label := b.Label
			if label == "" {
				label = "-"
			}
			row := []string{b.Protocol + "/" + g.Name, label, b.Transport}
			for _, k := range keys {
				row = append(row, optionCell(b.Options[k], b.ServerOptions[k]))
			}
			score := scoreTable([]results.Benchmark{b}).Rows[0]
			row = append(row, score[1:]...)
			t.Rows = append(t.Rows, row)
		}
	}
	v.Tables = []table{t}
	return v
}

func optionCell(client, server string) string {
	switch {
	case client == "" && server == "":
		return "default"
	case client == server:
		return client
	case server == "":
		return "c=" + client
	case client == "":
		return "s=" + server
	}
	return "c=" + client + " s=" + server
}

// viewsHeading is the heading of the report's views section: the original's shape,
// unless the matrix is the only view (it is no original's).
func viewsHeading(vs []view) string {
	for _, v := range vs {
		if v.Name != results.ViewMatrix {
			return "In the original's shape"
		}
	}
	return "Views"
}

// WriteViewsText writes the views r's suite asks for as terminal text, each under
// its title; nothing when it asks for none.
func WriteViewsText(w io.Writer, r *results.Results) error {
	return WriteViewsTextWidth(w, r, 0)
}

// WriteViewsTextWidth is WriteViewsText for a terminal of width columns (0: no limit):
// notes wrapped, lines cut, and a table wider than the terminal (the originals'
// tables run to hundreds of columns) left to the Markdown and HTML reports, with a
// line saying so.
func WriteViewsTextWidth(w io.Writer, r *results.Results, width int) error {
	for _, v := range views(r) {
		if _, err := fmt.Fprintf(w, "\n%s\n", textgrid.Wrap("== "+v.Title+" ("+v.Name+") ==", width, "  ")); err != nil {
			return err
		}
		// The suite's own views say how to read them (the verdict's rule, or why there
		// is no table); the others' notes are for the longer formats.
		if v.Name == ViewOriginal || v.Name == ViewDeviations {
			if _, err := fmt.Fprintln(w, textgrid.Wrap(v.Note, width, "")); err != nil {
				return err
			}
		}
		if len(v.Lines) > 0 {
			lines := make([]string, len(v.Lines))
			for i, l := range v.Lines {
				lines[i] = textgrid.Cut(l, width)
			}
			if _, err := io.WriteString(w, strings.Join(lines, "\n")+"\n"); err != nil {
				return err
			}
		}
		for _, t := range v.Tables {
			if t.Title != "" {
				if _, err := fmt.Fprintf(w, "\n%s\n", textgrid.Wrap(t.Title, width, "  ")); err != nil {
					return err
				}
			} else if len(v.Lines) > 0 {
				if _, err := fmt.Fprintln(w); err != nil {
					return err
				}
			}
			var buf strings.Builder
			if err := writeTable(&buf, t); err != nil {
				return err
			}
			out := buf.String()
			if tw := textgrid.Width(out); width > 0 && tw > width {
				out = textgrid.Wrap(fmt.Sprintf("(%d %s, %d columns wide: too wide for this terminal's %d; in report.md and report.html, or wirebench report -f md)",
					len(t.Rows), plural(len(t.Rows), "row", "rows"), tw, width), width, "  ") + "\n"
			}
			if _, err := io.WriteString(w, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeMarkdownViews writes the views as a Markdown section. A write error
// stays in w, for its Flush.
func writeMarkdownViews(w *bufio.Writer, r *results.Results) {
	vs := views(r)
	if len(vs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## %s\n", viewsHeading(vs))
	for _, v := range vs {
		fmt.Fprintf(w, "\n### %s\n\n%s\n", markdown.Escape(v.Title), markdown.Escape(v.Note))
		if len(v.Lines) > 0 {
			// A code block shows the lines literally; no line holds a backtick fence.
			fmt.Fprintf(w, "\n```\n%s\n```\n", strings.ReplaceAll(strings.Join(v.Lines, "\n"), "```", "'''"))
		}
		for _, t := range v.Tables {
			if t.Title != "" {
				fmt.Fprintf(w, "\n**%s**\n", markdown.Escape(t.Title))
			}
			fmt.Fprintln(w)
			writeMarkdownTable(w, t)
		}
	}
}
