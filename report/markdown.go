package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/wirebench/wirebench/internal/markdown"
	"github.com/wirebench/wirebench/internal/textgrid"
	"github.com/wirebench/wirebench/results"
)

// WriteMarkdown writes r as a Markdown report to paste into a README or a
// design review: its title (suite, command, smoke mark), one verdict per
// operation, JMH's score table, one comparison table per operation, the
// latency table in wrk2's shape, warnings and errors, and the environment.
func WriteMarkdown(w io.Writer, r *results.Results) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n", markdown.Escape(title(r)))
	if r.Smoke {
		fmt.Fprintf(bw, "> **SMOKE** %s\n\n", markdown.Escape(smokeNote))
	}
	if line := referenceLine(r.Reference); line != "" {
		fmt.Fprintf(bw, "%s\n\n", markdown.Escape(line))
	}
	if vs := verdicts(r.Benchmarks); len(vs) > 0 {
		fmt.Fprintf(bw, "## Verdict\n\n%s.\n\n", markdown.Escape(verdictNote))
		for _, v := range vs {
			fmt.Fprintf(bw, "- **%s**: %s\n", markdown.Escape(v.Operation), markdown.Escape(v.Text))
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintf(bw, "## Scores\n\n")
	writeMarkdownTable(bw, scoreTable(r.Benchmarks))
	writeMarkdownViews(bw, r)

	fmt.Fprintf(bw, "\n## By operation\n\n")
	fmt.Fprintf(bw, "Relative is each target's score over its group's baseline, from samples paired in time (interleaved rounds, within forks: fresh processes), with its 99.9 %% interval [low, high] (~: a target without a steady state; too few: too few forks or rounds for an interval); in results without a baseline, over the best target across a wire (the in-process floor, direct, is above it). Latency is response time from the intended start.\n")
	for _, t := range comparisonTables(r.Benchmarks) {
		fmt.Fprintf(bw, "\n### %s\n\n", markdown.Escape(t.Title))
		if t.Note != "" {
			fmt.Fprintf(bw, "%s\n\n", markdown.Escape(strings.TrimSpace(t.Note)))
		}
		writeMarkdownTable(bw, t)
	}
	if t, ok := capacityTable(r.Benchmarks); ok {
		fmt.Fprintf(bw, "\n## Capacity\n\n%s\n\n", markdown.Escape(strings.TrimSpace(t.Note)))
		writeMarkdownTable(bw, t)
		for i := range r.Benchmarks {
			if r.Benchmarks[i].Capacity != nil {
				st := capacityStepsTable(&r.Benchmarks[i])
				fmt.Fprintf(bw, "\n### %s\n\n", markdown.Escape(st.Title))
				writeMarkdownTable(bw, st)
			}
		}
	}
	for _, l := range legend(r.Benchmarks) {
		fmt.Fprintf(bw, "\n%s\n", markdown.Escape(l))
	}

	fmt.Fprintf(bw, "\n## Latency\n\n")
	fmt.Fprintf(bw, "Response time from the intended start (corrected for coordinated omission), in ms; requests are successful ops.\n\n")
	writeMarkdownTable(bw, latencyTable(r.Benchmarks))

	fmt.Fprintf(bw, "\n## Warnings and errors\n\n")
	ns := notes(r.Benchmarks)
	if len(ns) == 0 {
		fmt.Fprintf(bw, "None.\n")
	}
	for _, n := range ns {
		fmt.Fprintf(bw, "- **%s** %s: %s\n", markdown.Escape(n.Benchmark), n.Kind, markdown.Escape(n.Text))
	}

	fmt.Fprintf(bw, "\n## Environment\n\n")
	for _, kv := range environment(r.Environment) {
		fmt.Fprintf(bw, "- %s: %s\n", kv.Key, markdown.Escape(kv.Value))
	}
	return bw.Flush()
}

// writeMarkdownTable writes t as a GitHub table, its columns padded so the
// source reads as a table too. A write error stays in w, for its Flush.
func writeMarkdownTable(w *bufio.Writer, t table) {
	var g textgrid.Grid
	margin := func(i int) string {
		if i == 0 {
			return "| "
		}
		return " | "
	}
	row := func(cells []string) {
		g.NewRow()
		for i, c := range cells {
			g.Add(1, markdown.Escape(c), textgrid.Align(t.Align[i]), margin(i))
		}
		g.Add(1, "|", textgrid.Left, " ") // the closing pipe, after the last column's padding
	}
	row(t.Head)
	// The rule under the head: at least three dashes, a colon ending a
	// right-aligned column's.
	g.NewRow()
	for i := range t.Head {
		rule := "---"
		if t.Align[i] == 'r' {
			rule = "--:"
		}
		g.AddFill(1, rule, '-', margin(i))
	}
	g.Add(1, "|", textgrid.Left, " ")
	for _, r := range t.Rows {
		row(r)
	}
	_ = g.Write(w) // the error is w's, and sticks to it
}
