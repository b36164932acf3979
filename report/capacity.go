package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/wirebench/wirebench/results"
)

// capacityTable has one row per capacity search: the target, its objectives, the
// rate found and the bracket around it, and how it ended.
func capacityTable(bs []results.Benchmark) (table, bool) {
	t := table{Title: "Capacity", Note: " (the highest open-loop rate within the objectives; bracket: last passing and first failing rate)",
		Head:  []string{"Benchmark", "Objectives", "Capacity, ops/s", "Bracket, ops/s", "Steps", "Confirmed", "Note"},
		Align: "llrrrll"}
	for _, b := range bs {
		c := b.Capacity
		if c == nil {
			continue
		}
		rate, bracket := notAvailable, fixed(c.LowOpsS, 0)+" – "
		if c.RateOpsS > 0 {
			rate = fixed(c.RateOpsS, 0)
		}
		if c.HighOpsS > 0 {
			bracket += fixed(c.HighOpsS, 0)
		} else {
			bracket += "none failed"
		}
		note := ""
		switch {
		case c.GeneratorBound:
			note = "generator-bound: a floor, not the target's capacity"
		case c.RateOpsS == 0:
			note = "no rate met the objectives"
		case c.OutOfBudget:
			note = "budget spent before the resolution"
		}
		name := b.Name
		if b.Tuned() {
			name += results.TunedMark
		}
		t.Rows = append(t.Rows, []string{name, strings.Join(c.SLO, ", "), rate, bracket, strconv.Itoa(len(c.Steps)),
			yesNo(c.Confirmed), note})
	}
	return t, len(t.Rows) > 0
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// capacityStepsTable lists the steps of one capacity search.
func capacityStepsTable(b *results.Benchmark) table {
	t := table{Title: b.Name, Head: []string{"Step", "Rate, ops/s", "Achieved, ops/s", "p50 µs", "p99 µs", "p99.9 µs", "Errors", "Verdict"},
		Align: "lrrrrrrl"}
	for i, st := range b.Capacity.Steps {
		what := strconv.Itoa(i + 1)
		if st.Confirm {
			what = "confirm"
		}
		v := st.Verdict
		if st.Why != "" {
			v += ": " + st.Why
		}
		t.Rows = append(t.Rows, []string{what, fixed(st.RateOpsS, 0), fixed(st.AchievedOpsS, 0), latencyUs(st.LatencyUs.P50),
			latencyUs(st.LatencyUs.P99), latencyUs(st.LatencyUs.P999), strconv.FormatInt(st.Errors, 10), v})
	}
	return t
}

// WriteCapacityText writes the capacity searches of bs for a terminal: each search's
// steps, then the table of answers.
func WriteCapacityText(w io.Writer, bs []results.Benchmark) error {
	for i := range bs {
		if bs[i].Capacity == nil {
			continue
		}
		t := capacityStepsTable(&bs[i])
		if _, err := fmt.Fprintf(w, "%s\n", t.Title); err != nil {
			return err
		}
		if err := writeTable(w, t); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	t, ok := capacityTable(bs)
	if !ok {
		return nil
	}
	if err := writeTable(w, t); err != nil {
		return err
	}
	for _, b := range bs {
		for _, warn := range b.Warnings {
			if _, err := fmt.Fprintf(w, "warning: %s: %s\n", b.Name, warn); err != nil {
				return err
			}
		}
	}
	return nil
}

// capacityChart draws one search: the latency at its first objective's quantile
// against the offered rate, step by step, with the objective as a line and the rate
// found marked.
func capacityChart(b *results.Benchmark, cs colors) (*Chart, error) {
	c := b.Capacity
	if c == nil || len(c.Steps) == 0 {
		return nil, nil
	}
	name := "capacity-" + slug(b.Name)
	quant, bound := 99.0, 0.0
	if len(c.SLO) > 0 {
		if q, d, ok := strings.Cut(strings.TrimPrefix(c.SLO[0], "p"), "="); ok {
			quant, _ = strconv.ParseFloat(q, 64)
			bound = parseDurationUs(d)
		}
	}
	at := func(l results.Latency) float64 {
		switch {
		case quant <= 50:
			return l.P50
		case quant <= 75:
			return l.P75
		case quant <= 90:
			return l.P90
		case quant <= 99:
			return l.P99
		}
		return l.P999
	}
	p := newPlot("")
	p.X.Label.Text = "offered rate, ops/s"
	p.Y.Label.Text = fmt.Sprintf("p%v response time", quant)
	p.X.Tick.Marker = siTicks{}
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, durationTicks{}
	var pass, fail plotter.XYs
	lo, hi, xhi := math.Inf(1), math.Inf(-1), 0.0
	for _, st := range c.Steps {
		y := at(st.LatencyUs)
		if !(y > 0) || !isFinite(y) {
			continue
		}
		pt := plotter.XY{X: st.RateOpsS, Y: y}
		if st.Verdict == "pass" {
			pass = append(pass, pt)
		} else {
			fail = append(fail, pt)
		}
		lo, hi, xhi = math.Min(lo, y), math.Max(hi, y), math.Max(xhi, st.RateOpsS)
	}
	if len(pass)+len(fail) == 0 {
		return nil, nil
	}
	col := cs.of(results.SeriesLabel(b))
	red := color.RGBA{0xE1, 0x57, 0x59, 0xFF}
	for _, set := range []struct {
		pts   plotter.XYs
		color color.Color
		shape draw.GlyphDrawer
	}{{pass, col, draw.CircleGlyph{}}, {fail, red, draw.CrossGlyph{}}} {
		if len(set.pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(set.pts)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", name, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: set.color, Radius: 3, Shape: set.shape}
		p.Add(sc)
	}
	if bound > 0 {
		lo, hi = math.Min(lo, bound), math.Max(hi, bound)
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: bound}, {X: xhi * 1.08, Y: bound}})
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", name, err)
		}
		l.Color, l.Width, l.Dashes = mutedColor, 1, []vg.Length{4, 3}
		p.Add(l)
	}
	if c.RateOpsS > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: c.RateOpsS, Y: lo / 1.2}, {X: c.RateOpsS, Y: hi * 1.2}})
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", name, err)
		}
		l.Color, l.Width = col, 1.5
		p.Add(l)
	}
	p.X.Min, p.X.Max = 0, xhi*1.08
	p.Y.Min, p.Y.Max = logPad(lo, hi)
	title := "Capacity: " + b.Name
	legend := []legendEntry{{Label: "step passed", Color: col}, {Label: "step failed", Color: red},
		{Label: "objective " + strings.Join(c.SLO, ", "), Color: mutedColor, Line: true}}
	note := "open model; one point per step; the vertical line is the rate found"
	if c.RateOpsS > 0 {
		note += fmt.Sprintf(" (%s ops/s)", si(c.RateOpsS))
	}
	return plotChart(name, title, legend, note, p), nil
}

// parseDurationUs reads a Go duration as microseconds (0 when it is not one).
func parseDurationUs(s string) float64 {
	units := []struct {
		suffix string
		us     float64
	}{{"ns", 1e-3}, {"us", 1}, {"µs", 1}, {"ms", 1e3}, {"s", 1e6}}
	for _, u := range units {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				return f * u.us
			}
		}
	}
	return 0
}

// capacityTables are the answers' table and each search's steps, for the HTML report.
func capacityTables(bs []results.Benchmark) []table {
	t, ok := capacityTable(bs)
	if !ok {
		return nil
	}
	out := []table{t}
	for i := range bs {
		if bs[i].Capacity != nil {
			out = append(out, capacityStepsTable(&bs[i]))
		}
	}
	return out
}
