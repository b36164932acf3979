package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/wirebench/wirebench/results"
)

// ratioChart is the main claim of a run: each target's paired ratio to its
// operation's baseline (Summary.Relative, as the summary made it) with its 99.9 %
// interval, one panel per operation with paired ratios, the baseline at 1 (a
// dashed line). A ratio whose interval rests on too few forks is a point labelled
// "too few". In-process targets (direct) are left out where targets across a wire
// are, as in the throughput chart: a ratio of 100× would squash the rest.
func ratioChart(groups []results.Group, cs colors) (*Chart, error) {
	var panels []*plot.Plot
	var series []string
	seen := map[string]bool{}
	rows, leftOut := 0, false
	for _, g := range groups {
		base, ok := paired(g)
		if !ok {
			continue
		}
		wired := acrossWire(g)
		var rs []ratioRow
		for i := range g.Benchmarks {
			b := &g.Benchmarks[i]
			r := b.Summary.Relative
			if wired && b.Transport == results.InProcess {
				leftOut = true
				continue
			}
			s := results.SeriesLabel(b)
			switch {
			case b.Name == base:
				rs = append(rs, ratioRow{series: s, ratio: 1, base: true})
			case r == nil || !isFinite(r.Ratio.Mean) || r.Ratio.Mean <= 0:
				continue
			default:
				rs = append(rs, ratioRow{series: s, ratio: r.Ratio.Mean, low: r.Ratio.CILow, high: r.Ratio.CIHigh,
					interval: r.HasInterval(), lower: lowerIsBetter(b, r)})
			}
			if !seen[s] {
				seen[s] = true
				series = append(series, s)
			}
		}
		if len(rs) < 2 {
			continue
		}
		rows = max(rows, len(rs))
		panel, err := ratioPanel(g.Name, rs, cs)
		if err != nil {
			return nil, fmt.Errorf("chart ratio: %w", err)
		}
		panels = append(panels, panel)
	}
	if len(panels) == 0 {
		return nil, nil
	}
	sortSeries(series, cs)
	note := "dashed line: the baseline (1×); bars: 99.9% intervals, paired by fork and round"
	if leftOut {
		note += "; in-process targets (direct) left out"
	}
	return panelChart("ratio", "Ratio to each operation's baseline (paired, 99.9% interval)",
		seriesLegend(series, cs, false), note, panels, singleRow, rows), nil
}

// ratioRow is one target of a ratio panel.
type ratioRow struct {
	series           string
	ratio, low, high float64
	// interval says the interval rests on enough forks to be drawn; base marks the
	// baseline; lower says a smaller ratio is the better one (time per op, latency).
	interval, base, lower bool
}

// ratioPanel draws one operation's ratios: rows top to bottom in the order given,
// each a point with its interval and labelled with both.
func ratioPanel(title string, rows []ratioRow, cs colors) (*plot.Plot, error) {
	p := newPlot(title)
	p.X.Label.Text = "× the baseline's throughput"
	n := len(rows)
	names := make([]string, n)
	hi := 1.0
	for i, r := range rows {
		y := float64(n - 1 - i)
		names[n-1-i] = r.series
		if r.lower {
			p.X.Label.Text = "× the baseline's time (lower is better)"
		}
		label := times(r.ratio)
		switch {
		case r.base:
			label = "1× (base)"
		case !r.interval:
			label += " (too few)"
		default:
			label += " [" + bound(r.low) + ", " + bound(r.high) + "]"
		}
		x := r.ratio
		if r.interval && isFinite(r.high) && r.high < 1e6 {
			eb, err := plotter.NewXErrorBars(rangePoint{r.ratio, y, r.ratio - r.low, r.high - r.ratio})
			if err != nil {
				return nil, fmt.Errorf("panel %s: %s: %w", title, r.series, err)
			}
			eb.LineStyle.Color, eb.LineStyle.Width, eb.CapWidth = cs.of(r.series), 1.6, 8
			p.Add(eb)
			x = r.high
		}
		hi = max(hi, x)
		sc, err := plotter.NewScatter(plotter.XYs{{X: r.ratio, Y: y}})
		if err != nil {
			return nil, fmt.Errorf("panel %s: %s: %w", title, r.series, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: cs.of(r.series), Radius: 3.2, Shape: draw.CircleGlyph{}}
		p.Add(sc)
		ls, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: y}}, Labels: []string{label}})
		if err != nil {
			return nil, fmt.Errorf("panel %s: %s: %w", title, r.series, err)
		}
		ls.TextStyle[0] = textStyle(8, mutedColor)
		ls.TextStyle[0].YAlign = draw.YCenter
		ls.Offset = vg.Point{X: 5}
		p.Add(ls)
	}
	one, err := plotter.NewLine(plotter.XYs{{X: 1, Y: -0.6}, {X: 1, Y: float64(n) - 0.4}})
	if err != nil {
		return nil, fmt.Errorf("panel %s: %w", title, err)
	}
	one.Color, one.Width, one.Dashes = inkColor, 0.8, []vg.Length{4, 3}
	p.Add(one)
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	// From 0, so that bar lengths read as ratios; room on the right for the labels.
	p.X.Min, p.X.Max = 0, hi*1.45
	return p, nil
}

// rangePoint is one point with an asymmetric x error, for plotter.XErrorBars.
type rangePoint struct{ x, y, low, high float64 }

func (e rangePoint) Len() int                       { return 1 }
func (e rangePoint) XY(int) (float64, float64)      { return e.x, e.y }
func (e rangePoint) XError(int) (low, high float64) { return e.low, e.high }
