package report

import (
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/wirebench/wirebench/results"
)

// Bar charts are small multiples: one panel per operation, since operations'
// throughputs differ by orders of magnitude (an in-process call against a
// network one) and one shared axis would flatten all but the largest. Bars
// are horizontal so that protocol/transport labels read without rotation.

const (
	singleRow = 20 // points per bar row
	pairRow   = 26 // points per row of two bars
	panelPad  = 56 // panel title, x axis and its label
)

// bar is one bar of a panel: a value, its error (0 for none) and whether it
// is known at all.
type bar struct {
	value, err float64
	known      bool
}

// barRow is one row of a panel: a series and one or two bars.
type barRow struct {
	series string
	bars   []bar
}

// barPanel is a horizontal bar chart: rows top to bottom in the order given,
// each bar labelled with its value. With two bars per row, the first is drawn
// in the series' colour and the second in its tint.
func barPanel(title, xLabel string, rows []barRow, cs colors) (*plot.Plot, error) {
	p := newPlot(title)
	p.X.Label.Text = xLabel
	p.X.Tick.Marker = siTicks{}
	n := len(rows)
	names := make([]string, n)
	perRow := 1
	for _, r := range rows {
		perRow = max(perRow, len(r.bars))
	}
	width := vg.Length(12)
	if perRow > 1 {
		width = 9
	}
	hi := 0.0
	for i, r := range rows {
		y := float64(n - 1 - i) // the first row on top
		names[n-1-i] = r.series
		for j, b := range r.bars {
			offset := (vg.Length(j) - vg.Length(len(r.bars)-1)/2) * -width
			c := cs.of(r.series)
			if j > 0 {
				c = tint(c)
			}
			lbl := notAvailable
			x := 0.0
			if b.known && isFinite(b.value) {
				hasErr := b.err > 0 && isFinite(b.err)
				bc, err := plotter.NewBarChart(plotter.Values{b.value}, width)
				if err != nil {
					return nil, fmt.Errorf("panel %s: %s: %w", title, r.series, err)
				}
				bc.Horizontal, bc.XMin, bc.Offset = true, y, offset
				bc.Color, bc.LineStyle.Width = c, 0
				p.Add(bc)
				if hasErr {
					eb, err := plotter.NewXErrorBars(errPoint{b.value, y, b.err})
					if err != nil {
						return nil, fmt.Errorf("panel %s: %s: %w", title, r.series, err)
					}
					eb.LineStyle.Color, eb.LineStyle.Width, eb.CapWidth = inkColor, 1, width*0.8
					p.Add(&shifted{eb, offset})
				}
				lbl = si(b.value)
				// The label goes past the error bar, where there is one; an
				// infinite error has none and would put the label at +Inf.
				x = b.value
				if hasErr {
					x += b.err
				}
				hi = max(hi, x)
			}
			ls, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: y}}, Labels: []string{lbl}})
			if err != nil {
				return nil, fmt.Errorf("panel %s: %s: %w", title, r.series, err)
			}
			ls.TextStyle[0] = textStyle(8, mutedColor)
			ls.TextStyle[0].YAlign = draw.YCenter
			ls.Offset = vg.Point{X: 3, Y: offset}
			p.Add(ls)
		}
	}
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	if hi <= 0 {
		hi = 1
	}
	// Room on the right for the value labels.
	p.X.Min, p.X.Max = 0, hi*1.22
	return p, nil
}

// errPoint is one point with a symmetric x error, for plotter.XErrorBars.
type errPoint struct{ x, y, err float64 }

func (e errPoint) Len() int                       { return 1 }
func (e errPoint) XY(int) (float64, float64)      { return e.x, e.y }
func (e errPoint) XError(int) (low, high float64) { return e.err, e.err }

// shifted draws a plotter moved vertically by dy, to sit on an offset bar.
type shifted struct {
	plot.Plotter
	dy vg.Length
}

func (s *shifted) Plot(c draw.Canvas, p *plot.Plot) {
	c.Min.Y += s.dy
	c.Max.Y += s.dy
	s.Plotter.Plot(c, p)
}

// panelChart lays out panels in one or two columns under a header.
func panelChart(name, title string, legend []legendEntry, note string, panels []*plot.Plot, rowHeight vg.Length, rows int) *Chart {
	cols := 1
	if len(panels) > 1 {
		cols = 2
	}
	gridRows := (len(panels) + cols - 1) / cols
	panelH := panelPad + rowHeight*vg.Length(rows)
	head := headerHeight(title, legend, note, chartWidth)
	return &Chart{
		Name: name, Title: title, Width: chartWidth,
		Height: head + panelH*vg.Length(gridRows) + 10*vg.Length(gridRows-1) + 8,
		draw: func(c draw.Canvas) {
			c = drawHeader(c, title, legend, note)
			// PadLeft leaves room for a browser's fallback font, wider
			// than the Liberation Sans the labels were measured in.
			tiles := draw.Tiles{Rows: gridRows, Cols: cols, PadX: 26, PadY: 10, PadLeft: 16, PadRight: 12, PadBottom: 8}
			for i, p := range panels {
				p.Draw(tiles.At(c, i%cols, i/cols))
			}
		},
	}
}

// throughputChart is the mean throughput ± error of each protocol/transport,
// one panel per closed-model operation. Open-model throughput is the offered
// rate, not a result, so those operations are in the sweep chart instead.
func throughputChart(groups []results.Group, cs colors) (*Chart, error) {
	var panels []*plot.Plot
	var series []string
	seen := map[string]bool{}
	rows := 0
	for _, g := range groups {
		if g.Benchmarks[0].Load.Model != results.ModelClosed {
			continue
		}
		var rs []barRow
		wired := acrossWire(g)
		for _, b := range g.Benchmarks {
			if wired && b.Transport == results.InProcess {
				continue // two orders of magnitude above the rest: their bars would be slivers
			}
			s := results.SeriesLabel(&b)
			t := b.Summary.ThroughputOpsS
			rs = append(rs, barRow{series: s, bars: []bar{{value: t.Mean, err: t.Error, known: true}}})
			if !seen[s] {
				seen[s] = true
				series = append(series, s)
			}
		}
		rows = max(rows, len(rs))
		panel, err := barPanel(g.Name, "ops/s", rs, cs)
		if err != nil {
			return nil, fmt.Errorf("chart throughput: %w", err)
		}
		panels = append(panels, panel)
	}
	if len(panels) == 0 {
		return nil, nil
	}
	sortSeries(series, cs)
	note := ""
	if inProcessLeftOut(groups) {
		note = "in-process targets (direct) are left out where targets across a wire are charted: see the tables"
	}
	return panelChart("throughput", "Throughput per operation (mean ± 99.9% CI)",
		seriesLegend(series, cs, false), note, panels, singleRow, rows), nil
}

// acrossWire reports whether some target of g is across a wire (not in-process).
func acrossWire(g results.Group) bool {
	for _, b := range g.Benchmarks {
		if b.Transport != results.InProcess {
			return true
		}
	}
	return false
}

// inProcessLeftOut reports whether throughputChart leaves an in-process target out.
func inProcessLeftOut(groups []results.Group) bool {
	for _, g := range groups {
		if g.Benchmarks[0].Load.Model != results.ModelClosed || !acrossWire(g) {
			continue
		}
		for _, b := range g.Benchmarks {
			if b.Transport == results.InProcess {
				return true
			}
		}
	}
	return false
}

// pairChart is two figures per protocol/transport side by side (client and
// server CPU, bytes sent and received), one panel per operation. A second
// figure that is unknown (no server process) is labelled n/a.
func pairChart(name, title, unit, first, second string, groups []results.Group, cs colors,
	get func(*results.Benchmark) (float64, *float64)) (*Chart, error) {
	var panels []*plot.Plot
	var series []string
	seen := map[string]bool{}
	rows := 0
	for _, g := range groups {
		var rs []barRow
		for _, b := range g.Benchmarks {
			s := results.SeriesLabel(&b)
			a, bp := get(&b)
			second := bar{}
			if bp != nil {
				second = bar{value: *bp, known: true}
			}
			rs = append(rs, barRow{series: s, bars: []bar{{value: a, known: true}, second}})
			if !seen[s] {
				seen[s] = true
				series = append(series, s)
			}
		}
		rows = max(rows, len(rs))
		panel, err := barPanel(g.Name, unit, rs, cs)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", name, err)
		}
		panels = append(panels, panel)
	}
	if len(panels) == 0 {
		return nil, nil
	}
	sortSeries(series, cs)
	note := "upper bar (full colour): " + first + "; lower bar (light): " + second + "; n/a: not measured"
	return panelChart(name, title, seriesLegend(series, cs, false), note, panels, pairRow, rows), nil
}

// sortSeries orders series by colour, i.e. by first appearance in the report.
func sortSeries(series []string, cs colors) {
	slices.SortFunc(series, func(a, b string) int { return cs[a] - cs[b] })
}
