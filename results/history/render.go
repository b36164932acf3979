package history

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"math"

	"github.com/wirebench/wirebench/internal/textgrid"
	"github.com/wirebench/wirebench/report"
)

// WriteTable writes every series as a block of rows: the run's start time, commit,
// branch, score ± error, ratio to its baseline with its interval, and a mark on
// the first run of each new level with the change and its p-value.
func WriteTable(w io.Writer, series []Series) error {
	if len(series) == 0 {
		_, err := io.WriteString(w, "No runs match.\n")
		return err
	}
	for i, s := range series {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "%s on %s (%s, %d runs, %d change points)\n", s.Name, orDash(s.Machine), s.Unit(), len(s.Points), len(s.Changes)); err != nil {
			return err
		}
		var g textgrid.Grid
		g.NewRow()
		for j, h := range []string{"started", "commit", "branch", "score", "± error", "ratio [interval]", "change"} {
			align, margin := textgrid.Left, "  "
			if j == 3 || j == 4 || j == 5 {
				align = textgrid.Right
			}
			if j == 0 {
				margin = "  "
			}
			g.Add(1, h, align, margin)
		}
		for j, p := range s.Points {
			g.NewRow()
			g.Add(1, p.Run.Time.UTC().Format("2006-01-02 15:04"), 'l', "  ")
			g.Add(1, ShortCommit(p.Run.Commit), 'l', "  ")
			g.Add(1, orDash(p.Run.Branch), 'l', "  ")
			g.Add(1, formatScore(p.Score), 'r', "  ")
			g.Add(1, formatError(p.Error), 'r', "  ")
			g.Add(1, formatRatio(p), 'r', "  ")
			g.Add(1, changeText(s, j), 'l', "  ")
		}
		if err := g.Write(w); err != nil {
			return err
		}
	}
	return nil
}

func changeText(s Series, i int) string {
	c, ok := s.ChangeAt(i)
	if !ok {
		return ""
	}
	dir := "better"
	if better := c.After > c.Before; better != (s.Mode != "avgt") {
		dir = "worse"
	}
	return fmt.Sprintf("◆ %s: %s (p=%.2g)", pct(c.Change()), dir, c.P)
}

func pct(f float64) string {
	if math.IsNaN(f) {
		return "?"
	}
	return fmt.Sprintf("%+.1f%%", f*100)
}

// ShortCommit is a commit as tables show it: its first ten characters, "-" for none.
func ShortCommit(c string) string {
	if c == "" {
		return "-"
	}
	if len(c) > 10 {
		return c[:10]
	}
	return c
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func formatScore(v float64) string { return report.Significant(v, 4) }

func formatError(e float64) string {
	if !(e > 0) {
		return "-"
	}
	return report.Significant(e, 2)
}

// formatRatio is a point's ratio with its interval. A ratio without one, or whose
// interval is a point (stored before the store left out intervals of too few
// forks), rests on too few forks or rounds, as the run's report says.
func formatRatio(p Point) string {
	if math.IsNaN(p.Ratio) {
		return "-"
	}
	if math.IsNaN(p.RatioLow) || math.IsNaN(p.RatioHigh) || p.RatioLow == p.RatioHigh {
		return fmt.Sprintf("%.3f (too few forks)", p.Ratio)
	}
	return fmt.Sprintf("%.3f [%.3f, %.3f]", p.Ratio, p.RatioLow, p.RatioHigh)
}

// WriteHTML writes the series as one self-contained page: per series its chart
// (report.TrendChart: intervals drawn, change points marked) and its table.
func WriteHTML(w io.Writer, title string, series []Series) error {
	type row struct {
		Cells  []string
		Change bool
	}
	type section struct {
		Name, Machine, Unit string
		Chart               template.HTML
		Rows                []row
		Changes             int
	}
	var sections []section
	for _, s := range series {
		t := report.Trend{Name: s.Name + " on " + orDash(s.Machine), Unit: s.Unit()}
		sec := section{Name: s.Name, Machine: orDash(s.Machine), Unit: s.Unit(), Changes: len(s.Changes)}
		labels := pointLabels(s.Points)
		for i, p := range s.Points {
			lo, hi := interval(p.Entry)
			t.Points = append(t.Points, report.TrendPoint{Value: p.Score, Low: lo, High: hi, Label: labels[i]})
			sec.Rows = append(sec.Rows, row{Cells: []string{p.Run.Time.UTC().Format("2006-01-02 15:04"), ShortCommit(p.Run.Commit),
				orDash(p.Run.Branch), formatScore(p.Score), formatError(p.Error), formatRatio(p), changeText(s, i)},
				Change: changeText(s, i) != ""})
		}
		for _, c := range s.Changes {
			t.Changes = append(t.Changes, report.TrendChange{Index: c.Index, Label: pct(c.Change())})
		}
		c, err := report.TrendChart(t)
		if err != nil {
			return err
		}
		if sec.Chart, err = c.InlineSVG(); err != nil {
			return err
		}
		sections = append(sections, sec)
	}
	bw := bufio.NewWriter(w)
	if err := pageTemplate.Execute(bw, struct {
		Title    string
		Sections []section
	}{title, sections}); err != nil {
		return fmt.Errorf("html: %w", err)
	}
	return bw.Flush()
}

// pointLabels are the x axis labels of a series' runs, one per run and all
// different: each run's commit (seven characters), or its day without one; when
// two runs would share a label (one commit measured twice, two runs on one day),
// every run is labelled with its start's day and time, and failing that with its
// run number in the store.
func pointLabels(ps []Point) []string {
	try := func(label func(Point) string) ([]string, bool) {
		out := make([]string, len(ps))
		seen := map[string]bool{}
		for i, p := range ps {
			out[i] = label(p)
			if seen[out[i]] {
				return out, false
			}
			seen[out[i]] = true
		}
		return out, true
	}
	if out, ok := try(func(p Point) string {
		if p.Run.Commit == "" {
			return p.Run.Time.UTC().Format("01-02")
		}
		return ShortCommit(p.Run.Commit)[:min(7, len(p.Run.Commit))]
	}); ok {
		return out
	}
	if out, ok := try(func(p Point) string { return p.Run.Time.UTC().Format("01-02 15:04") }); ok {
		return out
	}
	out, _ := try(func(p Point) string { return fmt.Sprintf("run %d", p.Run.ID) })
	return out
}

var pageTemplate = template.Must(template.New("history").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; color: #222; margin: 0; background: #fafafa; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 48px; background: #fff; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 15px; margin: 36px 0 6px; padding-bottom: 4px; border-bottom: 1px solid #e3e3e3; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.meta { color: #666; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 13px; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
th { background: #f4f5f7; }
td.r { text-align: right; font-variant-numeric: tabular-nums; }
tr.change td { background: #fff1f0; }
svg.chart { max-width: 100%; height: auto; display: block; }
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
<p class="meta">{{len .Sections}} series. Change points: E-Divisive means' split with Student's t-test, Bonferroni-corrected (docs/history.md).</p>
{{range .Sections}}<h2>{{.Name}} <span class="meta">on {{.Machine}}, {{.Unit}}, {{.Changes}} change points</span></h2>
<figure>{{.Chart}}</figure>
<table><thead><tr><th>started</th><th>commit</th><th>branch</th><th class="r">score</th><th class="r">± error</th><th class="r">ratio [interval]</th><th>change</th></tr></thead>
<tbody>
{{range .Rows}}<tr{{if .Change}} class="change"{{end}}>{{range $i, $c := .Cells}}<td{{if and (ge $i 3) (le $i 5)}} class="r"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody></table>
{{end}}</main>
</body>
</html>
`))
