package report

import (
	"fmt"
	"html/template"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Trend is one benchmark's scores over a series of runs, for `wirebench history`.
type Trend struct {
	// Name titles the chart (the benchmark, and the machine).
	Name string
	// Unit labels the score axis, e.g. "ops/s".
	Unit   string
	Points []TrendPoint
	// Changes are the indices into Points where a new level starts, each with its
	// label (e.g. "−18.3 %").
	Changes []TrendChange
}

// TrendPoint is one run's score with its interval (Low = High = Value without
// one), and the tick label of its run (a short commit or a date).
type TrendPoint struct {
	Value, Low, High float64
	Label            string
}

// TrendChange marks a change point.
type TrendChange struct {
	Index int
	Label string
}

// TrendChart draws a trend: the scores in run order joined by a line, each with
// its interval as an error bar, and a dashed red rule before every change point,
// labelled with the change.
func TrendChart(t Trend) (*Chart, error) {
	name := "history-" + slug(t.Name)
	if len(t.Points) == 0 {
		return nil, fmt.Errorf("chart %s: no points", name)
	}
	p := newPlot("")
	p.X.Label.Text = "run"
	p.Y.Label.Text = t.Unit
	p.Y.Tick.Marker = siTicks{}
	pts := make(plotter.XYs, len(t.Points))
	bars := make(yErrors, len(t.Points))
	lo, hi := math.Inf(1), math.Inf(-1)
	var ticks []plot.Tick
	every := max(1, len(t.Points)/8) // at most about eight labels
	for i, pt := range t.Points {
		pts[i] = plotter.XY{X: float64(i), Y: pt.Value}
		bars[i] = yError{x: float64(i), y: pt.Value, low: pt.Value - pt.Low, high: pt.High - pt.Value}
		lo, hi = math.Min(lo, pt.Low), math.Max(hi, pt.High)
		tk := plot.Tick{Value: float64(i)}
		if i%every == 0 {
			tk.Label = pt.Label
		}
		ticks = append(ticks, tk)
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", name, err)
	}
	line.Color, line.Width = palette[0], 1.4
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", name, err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: palette[0], Radius: 2.6, Shape: draw.CircleGlyph{}}
	eb, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", name, err)
	}
	eb.Color, eb.Width, eb.CapWidth = palette[0], 1, 5
	pad := (hi - lo) * 0.12
	if !(pad > 0) {
		pad = math.Max(math.Abs(hi)*0.05, 1)
	}
	p.Y.Min, p.Y.Max = math.Max(0, lo-pad), hi+pad
	p.X.Min, p.X.Max = -0.5, float64(len(t.Points))-0.5
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	for _, c := range t.Changes {
		x := float64(c.Index) - 0.5
		rule, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", name, err)
		}
		rule.Color, rule.Width, rule.Dashes = palette[2], 1.2, []vg.Length{4, 3}
		p.Add(rule)
		lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: p.Y.Max}}, Labels: []string{" " + c.Label}})
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", name, err)
		}
		for i := range lbl.TextStyle {
			lbl.TextStyle[i] = textStyle(9, palette[2])
			lbl.TextStyle[i].YAlign = draw.YTop
		}
		p.Add(lbl)
	}
	p.Add(eb, line, sc)
	note := "score of each run in time order, bars: its interval as the run reported it"
	if len(t.Changes) > 0 {
		note += "; dashed red: a change point"
	}
	return plotChart(name, t.Name, nil, note, p), nil
}

type yError struct{ x, y, low, high float64 }

type yErrors []yError

func (e yErrors) Len() int                        { return len(e) }
func (e yErrors) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e yErrors) YError(i int) (float64, float64) { return e[i].low, e[i].high }

// InlineSVG is the chart as an element of an HTML page (see WriteHTML).
func (c *Chart) InlineSVG() (template.HTML, error) {
	s, err := c.svg()
	if err != nil {
		return "", err
	}
	return inlineSVG(s, c.Title), nil
}
