package report

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"

	"github.com/wirebench/wirebench/results"
)

// WriteHTML writes r as one self-contained HTML file: the tables of the
// Markdown report and every chart as inline SVG. It fetches nothing (no
// script, stylesheet, font or image from anywhere), so it works offline and
// as a CI artifact. Every name and message is escaped.
func WriteHTML(w io.Writer, r *results.Results) error {
	// Charts across operations go together; an operation's latency spectrum
	// goes under its comparison table.
	var charts []htmlChart
	byOperation := map[string][]htmlChart{}
	all, err := Charts(r)
	if err != nil {
		return err
	}
	for _, c := range all {
		s, err := c.svg()
		if err != nil {
			return err
		}
		hc := htmlChart{Name: c.Name, Title: c.Title, SVG: inlineSVG(s, c.Title)}
		if c.Operation != "" {
			byOperation[c.Operation] = append(byOperation[c.Operation], hc)
		} else {
			charts = append(charts, hc)
		}
	}
	var ops []htmlOperation
	for _, t := range comparisonTables(r.Benchmarks) {
		ops = append(ops, htmlOperation{Table: t, Charts: byOperation[t.Title]})
	}
	ns := notes(r.Benchmarks)
	warnings, errors := 0, 0
	for _, n := range ns {
		if n.Kind == "error" {
			errors++
		} else {
			warnings++
		}
	}
	data := struct {
		Title, SmokeNote   string
		Reference          string
		VerdictNote        string
		Verdicts           []verdict
		Started            string
		Scores             table
		Operations         []htmlOperation
		Latency            table
		Charts             []htmlChart
		Notes              []note
		Warnings, Errors   int
		Environment        []keyValue
		Benchmarks, Groups int
		Views              []view
		ViewsHeading       string
		Legend             []string
		Capacity           []table
	}{
		Title: title(r), Verdicts: verdicts(r.Benchmarks), VerdictNote: verdictNote,
		Legend: legend(r.Benchmarks), Capacity: capacityTables(r.Benchmarks),
		Views: views(r), ViewsHeading: viewsHeading(views(r)),
		Scores: scoreTable(r.Benchmarks), Operations: ops,
		Latency: latencyTable(r.Benchmarks), Charts: charts, Notes: ns,
		Warnings: warnings, Errors: errors, Environment: environment(r.Environment),
		Benchmarks: len(r.Benchmarks), Groups: len(results.Groups(r.Benchmarks)),
	}
	if r.Smoke {
		data.SmokeNote = smokeNote
	}
	data.Reference = referenceLine(r.Reference)
	bw := bufio.NewWriter(w)
	if err := htmlTemplate.Execute(bw, data); err != nil {
		return fmt.Errorf("html: %w", err)
	}
	return bw.Flush()
}

// htmlOperation is an operation's comparison table and its charts.
type htmlOperation struct {
	Table  table
	Charts []htmlChart
}

type htmlChart struct {
	Name, Title string
	SVG         template.HTML
}

// inlineSVG makes a standalone SVG document an element of the page: no XML
// declaration, scaled to the page's width, labelled for screen readers. The
// SVG is ours (vgsvg escapes every text it draws), hence trusted HTML.
func inlineSVG(s, title string) template.HTML {
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	s = strings.Replace(s, "<svg ", `<svg class="chart" role="img" aria-label="`+template.HTMLEscapeString(title)+`" `, 1)
	return template.HTML(s)
}

// cssColour is the one form of colour table.Shade may hold.
var cssColour = regexp.MustCompile(`^#[0-9a-f]{6}$`)

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"right":  func(align string, i int) bool { return i < len(align) && align[i] == 'r' },
	"anchor": func(prefix, name string) string { return prefix + "-" + slug(name) },
	// shade is a cell's background colour from table.Shade, "" for none.
	"shade": func(shades [][]string, r, c int) template.CSS {
		if r < len(shades) && c < len(shades[r]) && cssColour.MatchString(shades[r][c]) {
			return template.CSS(shades[r][c])
		}
		return ""
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; color: #222; margin: 0; background: #fafafa; }
main { max-width: 1320px; margin: 0 auto; padding: 24px 28px 48px; background: #fff; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #e3e3e3; }
h3 { font-size: 15px; margin: 22px 0 6px; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
a { color: #3a6ea5; }
nav a { margin-right: 14px; text-decoration: none; }
.meta { color: #666; margin: 0 0 12px; }
.callout { border-left: 4px solid #e1a33b; background: #fff8ec; padding: 8px 12px; margin: 12px 0; }
.callout.ok { border-color: #59a14f; background: #f1f8ef; }
.callout.smoke { border-color: #b3261e; background: #fdecea; }
ul.verdict li { margin: 4px 0; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 13px; }
th, td { padding: 4px 8px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
th { background: #f4f5f7; font-weight: 600; border-bottom: 1px solid #d8d8d8; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:hover { background: #f7fafd; }
.scroll { overflow-x: auto; }
td.name { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
figure { margin: 18px 0 26px; }
svg.chart { max-width: 100%; height: auto; display: block; }
ul.notes li { margin: 3px 0; }
.kind-error { color: #b3261e; font-weight: 600; }
.kind-warning { color: #8a5a00; font-weight: 600; }
dl.env { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; }
dl.env dt { color: #666; }
dl.env dd { margin: 0; }
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
<p class="meta">{{.Benchmarks}} benchmarks in {{.Groups}} operations{{range .Environment}}{{if eq .Key "Started"}} · started {{.Value}}{{end}}{{if eq .Key "wirebench"}} · wirebench {{.Value}}{{end}}{{end}}</p>
<nav>{{if .Verdicts}}<a href="#verdict">Verdict</a>{{end}}<a href="#scores">Scores</a>{{if .Views}}<a href="#original">{{.ViewsHeading}}</a>{{end}}<a href="#operations">By operation</a><a href="#charts">Charts</a><a href="#latency">Latency</a><a href="#notes">Warnings and errors</a><a href="#environment">Environment</a></nav>
{{if .SmokeNote}}<p class="callout smoke"><strong>SMOKE</strong> {{.SmokeNote}}</p>
{{end}}{{if .Reference}}<p class="meta">{{.Reference}}</p>
{{end}}{{if .Verdicts}}<h2 id="verdict">Verdict</h2>
<p>{{.VerdictNote}}.</p>
<ul class="verdict">
{{range .Verdicts}}<li><a href="#{{anchor "op" .Operation}}"><code>{{.Operation}}</code></a>: {{.Text}}</li>
{{end}}</ul>
{{end}}{{if .Notes}}<p class="callout">{{.Warnings}} warnings and {{.Errors}} errors: see <a href="#notes">Warnings and errors</a> before trusting a figure.</p>{{else}}<p class="callout ok">No warnings or errors.</p>{{end}}

<h2 id="scores">Scores</h2>
{{template "table" .Scores}}

{{if .Views}}<h2 id="original">{{.ViewsHeading}}</h2>
{{range .Views}}<h3 id="{{anchor "view" .Name}}">{{.Title}}</h3>
<p>{{.Note}}</p>
{{if .Lines}}<pre>{{range .Lines}}{{.}}
{{end}}</pre>{{end}}
{{range .Tables}}{{if .Title}}<p><strong>{{.Title}}</strong></p>{{end}}
{{template "table" .}}
{{end}}{{end}}{{end}}
<h2 id="operations">By operation</h2>
<p>Relative is each target's score over its group's baseline, from samples paired in time (interleaved rounds, within forks: fresh processes), with its 99.9 % interval [low, high] (~: a target without a steady state; too few: too few forks or rounds for an interval); in results without a baseline, over the best target across a wire (the in-process floor, direct, is above it). Latency is response time from the intended start.</p>
{{range .Operations}}<h3 id="{{anchor "op" .Table.Title}}">{{.Table.Title}}</h3>
{{if .Table.Note}}<p>{{.Table.Note}}</p>{{end}}
{{template "table" .Table}}
{{range .Charts}}{{template "chart" .}}{{end}}
{{end}}
{{range .Legend}}<p class="legend">{{.}}</p>
{{end}}{{if .Capacity}}<h2 id="capacity">Capacity</h2>
{{range .Capacity}}{{if .Title}}<p><strong>{{.Title}}</strong>{{.Note}}</p>{{end}}
{{template "table" .}}
{{end}}{{end}}<h2 id="charts">Charts</h2>
{{range .Charts}}{{template "chart" .}}{{end}}
<h2 id="latency">Latency</h2>
<p>Response time from the intended start (corrected for coordinated omission), in ms; requests are successful ops.</p>
{{template "table" .Latency}}

<h2 id="notes">Warnings and errors</h2>
{{if .Notes}}<ul class="notes">
{{range .Notes}}<li><code>{{.Benchmark}}</code> <span class="kind-{{.Kind}}">{{.Kind}}</span>: {{.Text}}</li>
{{end}}</ul>{{else}}<p>None.</p>{{end}}

<h2 id="environment">Environment</h2>
<dl class="env">
{{range .Environment}}<dt>{{.Key}}</dt><dd>{{.Value}}</dd>
{{end}}</dl>
</main>
</body>
</html>
{{define "chart"}}<figure id="{{anchor "chart" .Name}}">
{{.SVG}}
</figure>
{{end}}{{define "table"}}<div class="scroll"><table>
<thead><tr>{{range $i, $h := .Head}}<th{{if right $.Align $i}} class="r"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>
{{range $r, $row := .Rows}}<tr>{{range $i, $c := $row}}<td{{if right $.Align $i}} class="r"{{else if eq $i 0}} class="name"{{end}}{{with shade $.Shade $r $i}} style="background: {{.}}"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>{{end}}`))
