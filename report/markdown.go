package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteMarkdown writes r as a Markdown report to paste into a README or a
// design review: JMH's score table, one comparison table per operation, the
// latency table in wrk2's shape, warnings and errors, and the environment.
func WriteMarkdown(w io.Writer, r *Results) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# wirebench results\n\n## Scores\n\n")
	writeMarkdownTable(bw, scoreTable(r.Benchmarks))
	writeMarkdownViews(bw, r)

	fmt.Fprintf(bw, "\n## By operation\n\n")
	fmt.Fprintf(bw, "Relative is each target's score over its group's baseline, from samples paired in time (interleaved rounds), with the half-width of its 99.9 %% interval; in results without a baseline, over the best target across a wire (the in-process floor, direct, is above it). Latency is response time from the intended start.\n")
	for _, t := range comparisonTables(r.Benchmarks) {
		fmt.Fprintf(bw, "\n### %s\n\n", mdEscape(t.Title))
		if t.Note != "" {
			fmt.Fprintf(bw, "%s\n\n", mdEscape(strings.TrimSpace(t.Note)))
		}
		writeMarkdownTable(bw, t)
	}
	for _, l := range legend(r.Benchmarks) {
		fmt.Fprintf(bw, "\n%s\n", mdEscape(l))
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
		fmt.Fprintf(bw, "- **%s** %s: %s\n", mdEscape(n.Benchmark), n.Kind, mdEscape(n.Text))
	}

	fmt.Fprintf(bw, "\n## Environment\n\n")
	for _, kv := range environment(r.Environment) {
		fmt.Fprintf(bw, "- %s: %s\n", kv.Key, mdEscape(kv.Value))
	}
	return bw.Flush()
}

// writeMarkdownTable writes t as a GitHub table, its columns padded so the
// source reads as a table too.
func writeMarkdownTable(w io.Writer, t table) {
	rows := make([][]string, 0, len(t.Rows)+1)
	rows = append(rows, escapeRow(t.Head))
	for _, r := range t.Rows {
		rows = append(rows, escapeRow(r))
	}
	widths := make([]int, len(t.Head))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c), 3)
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range cells {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if t.Align[i] == 'r' {
				b.WriteString(" " + pad + c + " |")
			} else {
				b.WriteString(" " + c + pad + " |")
			}
		}
		b.WriteString("\n")
		io.WriteString(w, b.String())
	}
	line(rows[0])
	sep := make([]string, len(widths))
	for i, n := range widths {
		if t.Align[i] == 'r' {
			sep[i] = strings.Repeat("-", n-1) + ":"
		} else {
			sep[i] = strings.Repeat("-", n)
		}
	}
	line(sep)
	for _, r := range rows[1:] {
		line(r)
	}
}

func escapeRow(r []string) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = mdEscape(c)
	}
	return out
}

// mdReplacer keeps names and messages literal in Markdown: no cell split by
// "|", no emphasis, code span or raw HTML made from a benchmark's name.
var mdReplacer = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`",
	"<", "&lt;", ">", "&gt;", "\n", " ", "\r", "",
)

func mdEscape(s string) string { return mdReplacer.Replace(s) }
