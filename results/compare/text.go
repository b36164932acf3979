package compare

import (
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/wirebench/wirebench/internal/markdown"
	"github.com/wirebench/wirebench/internal/textgrid"
	"github.com/wirebench/wirebench/results"
)

// WriteTable writes the comparison as an aligned terminal table: per
// benchmark the old and new medians, the change or "~" with (p=… n=…) as
// benchstat prints them, the verdict, and the p99 latency for information;
// then footnotes for the warnings and a line naming the regressions.
func (r *Result) WriteTable(w io.Writer, oldLabel, newLabel string) error {
	var g textgrid.Grid
	var notes []string
	footnote := func(ms []string) string {
		var marks []string
		for _, m := range ms {
			i := indexOf(notes, m)
			if i < 0 {
				i = len(notes)
				notes = append(notes, m)
			}
			marks = append(marks, superscript(i+1))
		}
		return strings.Join(marks, " ")
	}
	g.NewRow()
	for i, h := range []string{"benchmark", "old", "new", "delta", "", "ratio [interval]", "", "p99 old", "p99 new", "p99 delta"} {
		align, margin := textgrid.Right, "  "
		if i == 0 || i == 4 || i == 6 {
			align = textgrid.Left
		}
		if i == 0 {
			margin = ""
		}
		g.Add(1, h, align, margin)
	}
	for _, row := range r.Rows {
		g.NewRow()
		c := r.cells(row)
		g.Add(1, row.Name, 'l', "")
		g.Add(1, c.old, 'r', "  ")
		g.Add(1, c.new, 'r', "  ")
		g.Add(1, c.delta, 'r', "  ")
		g.Add(1, c.test, 'l', "  ")
		g.Add(1, c.ratio, 'r', "  ")
		g.Add(1, strings.TrimSpace(c.verdict+" "+footnote(row.Notes)), 'l', "  ")
		g.Add(1, c.p99old, 'r', "  ")
		g.Add(1, c.p99new, 'r', "  ")
		g.Add(1, c.p99delta, 'r', "  ")
	}
	if _, err := fmt.Fprintf(w, "old: %s\nnew: %s\n%s\n\n", oldLabel, newLabel, statisticNote); err != nil {
		return err
	}
	if err := g.Write(w); err != nil {
		return err
	}
	for i, n := range notes {
		if _, err := fmt.Fprintf(w, "%s %s\n", superscript(i+1), n); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", r.verdictLine())
	return err
}

// statisticNote says which statistic old and new are: benchstat's median of the
// slices' scores, where run and report print JMH's mean.
const statisticNote = "old, new: the median of each benchmark's slice scores (benchstat's statistic; run and report print the mean)"

// WriteMarkdown writes the comparison as a Markdown table with the same
// columns as WriteTable, notes in their own column.
func (r *Result) WriteMarkdown(w io.Writer, oldLabel, newLabel string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Comparing `%s` (old) with `%s` (new): Mann-Whitney U test, alpha %v, regression threshold %v%%. %s.\n\n",
		markdown.Code(oldLabel), markdown.Code(newLabel), r.Options.Alpha, r.Options.Threshold, strings.ToUpper(statisticNote[:1])+statisticNote[1:])
	b.WriteString("| benchmark | old | new | delta | test | ratio [interval] | verdict | p99 old | p99 new | p99 delta | notes |\n")
	b.WriteString("|---|--:|--:|--:|---|--:|---|--:|--:|--:|---|\n")
	for _, row := range r.Rows {
		c := r.cells(row)
		verdict := c.verdict
		if row.Change == Regressed {
			verdict = "**" + verdict + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			markdown.Escape(row.Name), c.old, c.new, c.delta, c.test, c.ratio, verdict, c.p99old, c.p99new, c.p99delta, markdown.Escape(strings.Join(row.Notes, "; ")))
	}
	fmt.Fprintf(&b, "\n%s\n", r.verdictLine())
	_, err := io.WriteString(w, b.String())
	return err
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}

// cells are a row's formatted values.
type cells struct {
	old, new, delta, ratio, test, verdict, p99old, p99new, p99delta string
}

func (r *Result) cells(row Row) cells {
	c := cells{old: "-", new: "-", delta: "", p99old: "-", p99new: "-"}
	oldMode := row.Mode
	if row.Change == Incomparable {
		oldMode = otherMode(row.Mode)
	}
	if row.Old != nil || row.Presence != Added {
		c.old = formatScore(row.OldScore, oldMode)
		c.p99old = formatMicros(row.P99Old)
	}
	if row.New != nil || row.Presence != Removed {
		c.new = formatScore(row.NewScore, row.Mode)
		c.p99new = formatMicros(row.P99New)
	}
	switch row.Presence {
	case Added:
		c.verdict = "added"
		return c
	case Removed:
		c.verdict = "removed"
		return c
	}
	c.p99delta = formatPct(row.P99Delta)
	if row.Change == Incomparable {
		c.verdict = "not compared"
		return c
	}
	cmp := comparison{P: row.P, N1: len(row.Old), N2: len(row.New), Alpha: r.Options.Alpha}
	c.delta = "~"
	if row.Significant() {
		c.delta = formatPct(row.Delta)
	}
	c.test = "(" + cmp.String() + ")"
	if row.P == 0 {
		// An exact p of 0 prints no p in benchstat's form; say it.
		c.test = fmt.Sprintf("(p=0 %s)", cmp.String())
	}
	c.verdict = row.Change.String()
	c.ratio = FormatRatio(row.Ratio, row.RatioLow, row.RatioHigh)
	return c
}

func otherMode(mode string) string {
	if mode == results.ModeThroughput {
		return results.ModeAverageTime
	}
	return results.ModeThroughput
}

// formatScore writes a score with benchstat's scaling: 12.35k ops/s, or an
// average time as 512.0µs/op.
func formatScore(v float64, mode string) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	if mode == results.ModeAverageTime {
		return benchunit.Scale(v*1e-3, benchunit.Decimal) + "s/op"
	}
	return benchunit.Scale(v, benchunit.Decimal) + " ops/s"
}

// FormatRatio writes a ratio with its interval, "0.812 [0.795, 0.830]"; "?" with
// no ratio, and "[?, ?]" with no interval.
func FormatRatio(r, low, high float64) string {
	if math.IsNaN(r) {
		return "?"
	}
	if math.IsInf(low, 0) || math.IsInf(high, 0) || math.IsNaN(low) || math.IsNaN(high) {
		return fmt.Sprintf("%.3f [?, ?]", r)
	}
	return fmt.Sprintf("%.3f [%.3f, %.3f]", r, low, high)
}

func formatMicros(us float64) string {
	if us == 0 {
		return "-"
	}
	return benchunit.Scale(us*1e-6, benchunit.Decimal) + "s"
}

func formatPct(p float64) string {
	if math.IsNaN(p) {
		return "?"
	}
	if p == 0 {
		return "0.00%"
	}
	return fmt.Sprintf("%+.2f%%", p)
}

// verdictLine names the regressions, or says there are none.
func (r *Result) verdictLine() string {
	regs := r.Regressions()
	if len(regs) == 0 {
		return fmt.Sprintf("No significant regression beyond %v%%.", r.Options.Threshold)
	}
	return fmt.Sprintf("%d significant regression(s) beyond %v%%: %s.", len(regs), r.Options.Threshold, RegressionList(regs))
}

// RegressionList names regressed rows with their change and p-value.
func RegressionList(rows []Row) string {
	parts := make([]string, len(rows))
	for i, row := range rows {
		parts[i] = fmt.Sprintf("%s (%s, p=%.3f)", row.Name, formatPct(row.Delta), row.P)
	}
	return strings.Join(parts, ", ")
}

// WriteDelta writes the comparison as a Markdown delta table fit for a pull-request
// comment: per benchmark the score before and after, the ratio after/before with
// its interval, and the verdict (regressions in bold), then a line naming the
// regressions. Benchmarks in one file only are left out of the table and counted
// under it.
func (r *Result) WriteDelta(w io.Writer, oldLabel, newLabel string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "#### wirebench: `%s` against `%s`\n\n", markdown.Code(newLabel), markdown.Code(oldLabel))
	fmt.Fprintf(&b, "| benchmark | before | after | ratio [%v%% interval] | verdict |\n", 100*(1-r.Options.Alpha))
	b.WriteString("|---|--:|--:|--:|---|\n")
	added, removed := 0, 0
	for _, row := range r.Rows {
		switch row.Presence {
		case Added:
			added++
			continue
		case Removed:
			removed++
			continue
		}
		c := r.cells(row)
		verdict := c.verdict
		if row.Change == Regressed {
			verdict = "**" + verdict + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", markdown.Escape(row.Name), c.old, c.new, c.ratio, verdict)
	}
	if added+removed > 0 {
		fmt.Fprintf(&b, "\n%d benchmark(s) only after, %d only before: not compared.\n", added, removed)
	}
	fmt.Fprintf(&b, "\nBefore, after: the median of each benchmark's slice scores (benchstat's statistic; run and report print the mean). "+
		"Ratio: median of the ratios of every slice after to every slice before, with Moses's interval; "+
		"a regression is worse than %v%% over the whole interval, an interval straddling %v%% is inconclusive. %s\n",
		r.Options.Threshold, r.Options.Threshold, r.verdictLine())
	_, err := io.WriteString(w, b.String())
	return err
}
