package report

import (
	"math"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/wirebench/wirebench/results"
)

// gonum/plot has no radar chart; this one is drawn on the vg canvas, so the
// same code gives the SVG and the PNG.

const radarRadius = 165 // points

// radarChart shows, for each protocol/transport, its throughput relative to
// the best of each closed-model operation (see Relative): one axis per
// operation, one polygon per protocol/transport, 1.00× on the outer ring. It
// needs three operations to be a polygon; with fewer it is left out.
func radarChart(groups []results.Group, cs colors) *Chart {
	var ops []results.Group
	for _, g := range groups {
		if g.Benchmarks[0].Load.Model == results.ModelClosed {
			ops = append(ops, g)
		}
	}
	if len(ops) < 3 {
		return nil
	}
	var series []string
	values := map[string][]float64{}
	for i, g := range ops {
		rel := ToBest(g)
		for j, b := range g.Benchmarks {
			if b.Transport == results.InProcess {
				continue // the in-process floor is off any useful scale
			}
			s := results.SeriesLabel(&b)
			if values[s] == nil {
				series = append(series, s)
				values[s] = make([]float64, len(ops))
			}
			// A series missing from an operation, or with no score, sits at
			// the centre of that axis.
			if v := rel[j]; isFinite(v) {
				values[s][i] = max(values[s][i], min(v, 1))
			}
		}
	}
	sortSeries(series, cs)
	title := "Throughput relative to the best of each operation"
	legend := seriesLegend(series, cs, true)
	note := "outer ring 1.00× = the best protocol/transport of that operation; closed-model operations, in-process left out"
	const labelRoom = 44
	return &Chart{
		Name: "radar", Title: title, Width: chartWidth,
		Height: headerHeight(title, legend, note, chartWidth) + 2*radarRadius + 2*labelRoom,
		draw: func(c draw.Canvas) {
			c = drawHeader(c, title, legend, note)
			center := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
			n := len(ops)
			at := func(i int, f float64) vg.Point {
				a := math.Pi/2 - 2*math.Pi*float64(i)/float64(n) // clockwise from the top
				r := vg.Length(f) * radarRadius
				return vg.Point{X: center.X + r*vg.Length(math.Cos(a)), Y: center.Y + r*vg.Length(math.Sin(a))}
			}
			ring := func(f float64) []vg.Point {
				pts := make([]vg.Point, n+1)
				for i := range n + 1 {
					pts[i] = at(i%n, f)
				}
				return pts
			}
			for _, f := range []float64{0.25, 0.5, 0.75, 1} {
				sty := draw.LineStyle{Color: gridColor, Width: 0.8}
				if f == 1 {
					sty.Color = mutedColor
				}
				c.StrokeLines(sty, ring(f))
			}
			for i := range n {
				c.StrokeLines(draw.LineStyle{Color: gridColor, Width: 0.8}, []vg.Point{center, at(i, 1)})
			}
			// Ring labels sit left of the top spoke, clear of the polygons'
			// points on it.
			ts := textStyle(8, mutedColor)
			ts.XAlign, ts.YAlign = draw.XRight, draw.YCenter
			for _, f := range []float64{0.25, 0.5, 0.75, 1} {
				p := at(0, f)
				c.FillText(ts, vg.Point{X: p.X - 4, Y: p.Y - 6}, times(f))
			}
			ls := textStyle(9.5, inkColor)
			for i, g := range ops {
				a := math.Pi/2 - 2*math.Pi*float64(i)/float64(n)
				cos, sin := math.Cos(a), math.Sin(a)
				sty := ls
				switch {
				case cos > 0.2:
					sty.XAlign = draw.XLeft
				case cos < -0.2:
					sty.XAlign = draw.XRight
				default:
					sty.XAlign = draw.XCenter
				}
				switch {
				case sin > 0.2:
					sty.YAlign = draw.YBottom
				case sin < -0.2:
					sty.YAlign = draw.YTop
				default:
					sty.YAlign = draw.YCenter
				}
				p := at(i, 1)
				p.X += 8 * vg.Length(cos)
				p.Y += 8 * vg.Length(sin)
				c.FillText(sty, p, wrapName(g.Name))
			}
			for _, s := range series {
				col := cs.of(s)
				pts := make([]vg.Point, n+1)
				for i := range n + 1 {
					pts[i] = at(i%n, values[s][i%n])
				}
				c.FillPolygon(translucent(col, 0x24), pts[:n])
				c.StrokeLines(draw.LineStyle{Color: col, Width: 1.6}, pts)
				for _, p := range pts[:n] {
					c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: 2.4, Shape: draw.CircleGlyph{}}, p)
				}
			}
		},
	}
}

// wrapName breaks a long operation name after its last "/" so that a label
// beside a chart stays narrow.
func wrapName(s string) string {
	if len(s) <= 22 {
		return s
	}
	if i := strings.LastIndex(s, "/"); i > 0 {
		return s[:i+1] + "\n" + s[i+1:]
	}
	return s
}
