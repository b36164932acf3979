package report

import (
	"fmt"
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/wirebench/wirebench/results"
)

const plotHeight = 300 // points: the plot area and axes of a one-plot chart

// nines maps a percentile to the spectrum's x axis, -log10(1-p): 50% → 0.30,
// 90% → 1, 99% → 2, 99.9% → 3, so that each "nine" takes the same width.
func nines(p float64) float64 { return -math.Log10(1 - p) }

var spectrumTicks = plot.ConstantTicks{
	{Value: nines(0.5), Label: "50%"}, {Value: nines(0.75), Label: "75%"},
	{Value: nines(0.9), Label: "90%"}, {Value: nines(0.99), Label: "99%"},
	{Value: nines(0.999), Label: "99.9%"}, {Value: nines(0.9999), Label: "99.99%"},
}

// spectrumStep is the spacing of the spectrum's points on the nines axis.
const spectrumStep = 0.025

// spectrum returns the latency in µs at percentiles from 50 % up, spaced
// evenly on the nines axis, up to 99.99 % or as far as the sample resolves:
// n calls say nothing beyond the (1-1/n) percentile.
func spectrum(h *hdr.Histogram) plotter.XYs {
	last := min(nines(0.9999), math.Log10(float64(h.TotalCount())))
	var pts plotter.XYs
	for x := nines(0.5); x <= last+1e-9; x += spectrumStep {
		q := 1 - math.Pow(10, -x)
		pts = append(pts, plotter.XY{X: x, Y: math.Max(float64(h.ValueAtQuantile(q*100))/1e3, 1e-3)})
	}
	return pts
}

// summarySpectrum is the spectrum from a summary's percentiles, for results
// saved without histograms.
func summarySpectrum(l results.Latency) plotter.XYs {
	var pts plotter.XYs
	for _, p := range []struct{ q, v float64 }{{0.5, l.P50}, {0.75, l.P75}, {0.9, l.P90}, {0.99, l.P99}, {0.999, l.P999}} {
		if p.v > 0 && isFinite(p.v) {
			pts = append(pts, plotter.XY{X: nines(p.q), Y: p.v})
		}
	}
	return pts
}

// spectrumChart is the response-time percentile spectrum of one operation:
// one line per benchmark (an in-process one left out where others cross a wire), from its merged slice histograms (dashed, with
// points, from the summary percentiles when the file has no histograms).
func spectrumChart(g results.Group, cs colors) (*Chart, error) {
	name := "latency-" + slug(g.Name)
	p := newPlot("")
	p.X.Label.Text = "percentile"
	p.Y.Label.Text = "response time"
	p.X.Tick.Marker = spectrumTicks
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, durationTicks{}
	lo, hi := math.Inf(1), math.Inf(-1)
	var series []string
	seen := map[string]bool{}
	fromSummary, leftOut := false, false
	wired := acrossWire(g)
	for _, b := range g.Benchmarks {
		if wired && b.Transport == results.InProcess {
			// Hundreds of ns against the network's tens of µs: on one log axis the
			// wired lines would squash together, as in the throughput chart.
			leftOut = true
			continue
		}
		s := results.SeriesLabel(&b)
		var pts plotter.XYs
		dashed := false
		if h := b.Histogram(); h != nil {
			pts = spectrum(h)
		} else {
			pts, dashed = summarySpectrum(b.Summary.LatencyUs), true
		}
		if len(pts) == 0 {
			continue
		}
		for _, pt := range pts {
			lo, hi = math.Min(lo, pt.Y), math.Max(hi, pt.Y)
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %s: %w", name, s, err)
		}
		l.Color, l.Width = cs.of(s), 1.8
		p.Add(l)
		if dashed {
			fromSummary = true
			l.Dashes = []vg.Length{5, 3}
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("chart %s: %s: %w", name, s, err)
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: cs.of(s), Radius: 2.4, Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
		if !seen[s] {
			seen[s] = true
			series = append(series, s)
		}
	}
	if len(series) == 0 {
		return nil, nil
	}
	p.X.Min, p.X.Max = nines(0.5), nines(0.9999)
	p.Y.Min, p.Y.Max = logPad(lo, hi)
	sortSeries(series, cs)
	title := "Response time by percentile: " + g.Name
	note := "merged HdrHistograms of every slice, from the intended start; log scales"
	if fromSummary {
		note += "; dashed: summary percentiles only"
	}
	if leftOut {
		note += "; direct (in process) left out: see the tables"
	}
	c := plotChart(name, title, seriesLegend(series, cs, true), note, p)
	c.Operation = g.Name
	return c, nil
}

// sweepChart is p99 response time against achieved throughput for the rate
// sweeps of one workload and load shape: one line per protocol/transport,
// one point per offered rate. Where a line turns up is where the target
// stops keeping up.
func sweepChart(f sweepFamily, cs colors) (*Chart, error) {
	name := "sweep-" + slug(f.name)
	p := newPlot("")
	p.X.Label.Text = "achieved throughput, ops/s"
	p.Y.Label.Text = "p99 response time"
	p.X.Tick.Marker = siTicks{}
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, durationTicks{}
	lo, hi := math.Inf(1), math.Inf(-1)
	xhi := 0.0
	var series []string
	for _, s := range f.sweeps {
		var pts plotter.XYs
		var offered []string
		for _, b := range s.benchmarks {
			x, y := b.Summary.ThroughputOpsS.Mean, b.Summary.LatencyUs.P99
			if isFinite(x) && isFinite(y) && y > 0 && x >= 0 {
				pts = append(pts, plotter.XY{X: x, Y: y})
				offered = append(offered, si(b.Load.Rate)+"/s")
				lo, hi, xhi = math.Min(lo, y), math.Max(hi, y), math.Max(xhi, x)
			}
		}
		if len(pts) == 0 {
			continue
		}
		// Each point names its offered rate: where achieved falls short of
		// offered, the target did not keep up.
		ls, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: offered})
		if err != nil {
			return nil, fmt.Errorf("chart %s: %s: %w", name, s.series, err)
		}
		for i := range ls.TextStyle {
			ls.TextStyle[i] = textStyle(7.5, mutedColor)
		}
		ls.Offset = vg.Point{X: 4, Y: 3}
		p.Add(ls)
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %s: %w", name, s.series, err)
		}
		l.Color, l.Width = cs.of(s.series), 1.8
		sc.GlyphStyle = draw.GlyphStyle{Color: cs.of(s.series), Radius: 2.6, Shape: draw.CircleGlyph{}}
		p.Add(l, sc)
		series = append(series, s.series)
	}
	if len(series) == 0 {
		return nil, nil
	}
	p.X.Min, p.X.Max = 0, xhi*1.08
	p.Y.Min, p.Y.Max = logPad(lo, hi)
	sortSeries(series, cs)
	title := "p99 response time against throughput: " + f.name
	return plotChart(name, title, seriesLegend(series, cs, true),
		"open model; one point per offered rate, labelled with it; p99 on a log scale", p), nil
}

// logPad widens [lo, hi] a little on a log scale, and to a decade's tenth
// when lo == hi, so that no line sits on the frame.
func logPad(lo, hi float64) (float64, float64) {
	if !(lo > 0) || !isFinite(hi) {
		return 1, 10
	}
	if hi <= lo {
		return lo * 0.8, lo * 1.25
	}
	return lo / 1.25, hi * 1.25
}

// plotChart is a chart of one plot under a header.
func plotChart(name, title string, legend []legendEntry, note string, p *plot.Plot) *Chart {
	return &Chart{
		Name: name, Title: title, Width: chartWidth,
		Height: headerHeight(title, legend, note, chartWidth) + plotHeight,
		draw: func(c draw.Canvas) {
			c = drawHeader(c, title, legend, note)
			c.Min.X += 16 // room for a wider fallback font, as in panelChart
			c.Max.X -= 16
			c.Min.Y += 8
			p.Draw(c)
		},
	}
}
