package report

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/wirebench/wirebench/results"
)

// Chart is one chart of a report, defined once and drawn by the same code as
// SVG (for the HTML report) or PNG (for a README).
type Chart struct {
	// Name is the chart's file-name stem, unique within a report, e.g.
	// "throughput" or "latency-echo-payload-1024-closed-c50".
	Name  string
	Title string
	// Width and Height are the chart's size; at 96 dpi a PNG is 4/3 as many
	// pixels as points.
	Width, Height vg.Length
	// Operation is the Group a per-operation chart (the latency spectrum)
	// belongs to; empty for charts across operations.
	Operation string
	draw      func(c draw.Canvas)
}

// Sizes and styles shared by every chart, so that charts sit together in a
// README at one width and one type size.
const (
	chartWidth = 660 // points: 880 px at 96 dpi, about a README's column
	pngDPI     = 96
)

var (
	sansFont    = font.Font{Typeface: "Liberation", Variant: "Sans"}
	textHandler = text.Plain{Fonts: font.DefaultCache}
	gridColor   = color.Gray{Y: 225}
	inkColor    = color.Gray{Y: 40}
	mutedColor  = color.Gray{Y: 110}
)

// palette is Tableau 10: distinct hues that stay apart for the common colour
// vision deficiencies, in an order whose first few contrast most.
var palette = []color.RGBA{
	{0x4E, 0x79, 0xA7, 0xFF}, // blue
	{0xF2, 0x8E, 0x2B, 0xFF}, // orange
	{0xE1, 0x57, 0x59, 0xFF}, // red
	{0x76, 0xB7, 0xB2, 0xFF}, // teal
	{0x59, 0xA1, 0x4F, 0xFF}, // green
	{0xED, 0xC9, 0x48, 0xFF}, // yellow
	{0xB0, 0x7A, 0xA1, 0xFF}, // purple
	{0xFF, 0x9D, 0xA7, 0xFF}, // pink
	{0x9C, 0x75, 0x5F, 0xFF}, // brown
	{0xBA, 0xB0, 0xAC, 0xFF}, // grey
}

// colors gives each series of a report its colour, by first appearance, so
// a protocol/transport has the same colour in every chart.
type colors map[string]int

func (cs colors) of(series string) color.RGBA { return palette[cs[series]%len(palette)] }

// tint is c mixed with white: the second bar of a pair (server, received).
func tint(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return uint8((int(v) + 2*255) / 3) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xFF}
}

// translucent is c at low opacity: the fill of a radar polygon.
func translucent(c color.RGBA, alpha uint8) color.NRGBA {
	return color.NRGBA{c.R, c.G, c.B, alpha}
}

func textStyle(size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(sansFont, size), Handler: textHandler,
		XAlign: draw.XLeft, YAlign: draw.YBottom}
}

// Charts returns the charts of r, in the order a report shows them: the paired
// ratios to each operation's baseline, mean throughput per operation, the radar of relative throughput, the latency
// spectrum of each operation, throughput against p99 for each rate sweep, CPU
// per op and bytes per op. A chart with nothing to show is left out. The error
// is the plotting library's refusal of some chart's data.
func Charts(r *results.Results) ([]Chart, error) {
	cs := colors(seriesOrder(r.Benchmarks))
	groups := results.Groups(r.Benchmarks)
	var out []Chart
	var errs []error
	add := func(c *Chart, err error) {
		switch {
		case err != nil:
			errs = append(errs, err)
		case c != nil:
			out = append(out, *c)
		}
	}
	add(ratioChart(groups, cs))
	add(throughputChart(groups, cs))
	add(radarChart(groups, cs), nil)
	for _, g := range groups {
		add(spectrumChart(g, cs))
	}
	for _, f := range sweeps(r.Benchmarks) {
		add(sweepChart(f, cs))
	}
	for i := range r.Benchmarks {
		add(capacityChart(&r.Benchmarks[i], cs))
	}
	add(pairChart("cpu", "CPU time per op, µs", "µs/op", "client", "server", groups, cs,
		func(b *results.Benchmark) (float64, *float64) {
			return b.Summary.ClientCPUUsPerOp, b.Summary.ServerCPUUsPerOp
		}))
	add(pairChart("bytes", "Bytes on the wire per op", "bytes/op", "sent", "received", groups, cs,
		func(b *results.Benchmark) (float64, *float64) {
			return b.Summary.BytesSentPerOp, &b.Summary.BytesRecvPerOp
		}))
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// File names must not collide, whatever the operations are called.
	seen := map[string]int{}
	for i := range out {
		n := out[i].Name
		if seen[n]++; seen[n] > 1 {
			out[i].Name = fmt.Sprintf("%s-%d", n, seen[n])
		}
		if r.Smoke {
			markSmoke(&out[i])
		}
	}
	return out, nil
}

// smokeMark is what a smoke run's charts say in their top left corner: a PNG copied
// into a page alone must not pass for a measurement.
const smokeMark = "SMOKE RUN: not measurements"

// markSmoke marks c as a smoke run's: its title (as the HTML report lists it) and,
// drawn over its top left corner, smokeMark.
func markSmoke(c *Chart) {
	c.Title = "[SMOKE] " + c.Title
	d := c.draw
	c.draw = func(cv draw.Canvas) {
		d(cv)
		st := textStyle(10, color.RGBA{R: 200, A: 255})
		st.YAlign = draw.YTop
		cv.FillText(st, vg.Point{X: cv.Min.X + 6, Y: cv.Max.Y - 4}, smokeMark)
	}
}

// WriteSVG writes the chart as a standalone SVG document.
func (c *Chart) WriteSVG(w io.Writer) error {
	s, err := c.svg()
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, s)
	return err
}

func (c *Chart) svg() (s string, err error) {
	defer recoverChart(c, &err)
	canvas := vgsvg.New(c.Width, c.Height)
	c.render(canvas)
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("chart %s: %w", c.Name, err)
	}
	// A browser without Liberation Sans falls back to its metric twins, Arimo
	// or Arial, so that labels keep the widths they were laid out with.
	return strings.ReplaceAll(buf.String(), "font-family:Liberation Sans;",
		"font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;"), nil
}

// WritePNG writes the chart as a PNG at 96 dpi.
func (c *Chart) WritePNG(w io.Writer) (err error) {
	defer recoverChart(c, &err)
	canvas := vgimg.NewWith(vgimg.UseWH(c.Width, c.Height), vgimg.UseDPI(pngDPI),
		vgimg.UseBackgroundColor(color.White))
	c.render(canvas)
	if _, err := (vgimg.PngCanvas{Canvas: canvas}).WriteTo(w); err != nil {
		return fmt.Errorf("chart %s: %w", c.Name, err)
	}
	return nil
}

// recoverChart turns a panic of the plotting library (it panics on data it
// cannot scale) into an error naming the chart.
func recoverChart(c *Chart, err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("chart %s: %v", c.Name, p)
	}
}

func (c *Chart) render(vc vg.CanvasSizer) {
	dc := draw.New(vc)
	dc.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
	c.draw(dc)
}

// WritePNGs writes every chart of r as NAME.png into dir, creating dir, and
// returns the files' paths.
func WritePNGs(dir string, r *results.Results) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	charts, err := Charts(r)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, c := range charts {
		path := filepath.Join(dir, c.Name+".png")
		var buf bytes.Buffer
		if err := c.WritePNG(&buf); err != nil {
			return paths, err
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// Layout helpers.

// drawHeader draws the title and, below it, a legend of coloured swatches,
// wrapping as the width requires, and returns the canvas left below them.
func drawHeader(c draw.Canvas, title string, legend []legendEntry, note string) draw.Canvas {
	const pad = 8
	y := c.Max.Y - pad
	ts := textStyle(13, inkColor)
	ts.YAlign = draw.YTop
	ts.XAlign = draw.XCenter
	c.FillText(ts, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y}, title)
	y -= ts.Height(title) + 6
	y = drawLegend(c, y, legend)
	if note != "" {
		ns := textStyle(9, mutedColor)
		ns.YAlign = draw.YTop
		ns.XAlign = draw.XCenter
		c.FillText(ns, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y}, note)
		y -= ns.Height(note) + 4
	}
	c.Max.Y = y - 4
	return c
}

// legendEntry is one swatch of a legend; Line draws it as a line, not a box.
type legendEntry struct {
	Label string
	Color color.Color
	Line  bool
}

// headerHeight is what drawHeader will use, so a chart can size itself.
func headerHeight(title string, legend []legendEntry, note string, width vg.Length) vg.Length {
	ts := textStyle(13, inkColor)
	h := vg.Length(8) + ts.Height(title) + 6 + legendHeight(legend, width) + 4
	if note != "" {
		h += textStyle(9, mutedColor).Height(note) + 4
	}
	return h
}

const (
	legendSwatch = 10
	legendGap    = 14
	legendRow    = 15
	legendSide   = 16
)

// legendRows splits the entries into centred rows that fit width.
func legendRows(legend []legendEntry, width vg.Length) [][]legendEntry {
	ls := textStyle(10, inkColor)
	var rows [][]legendEntry
	var row []legendEntry
	var used vg.Length
	for _, e := range legend {
		w := legendSwatch + 4 + ls.Width(e.Label) + legendGap
		if len(row) > 0 && used+w > width-2*legendSide {
			rows = append(rows, row)
			row, used = nil, 0
		}
		row = append(row, e)
		used += w
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

func legendHeight(legend []legendEntry, width vg.Length) vg.Length {
	return vg.Length(len(legendRows(legend, width))) * legendRow
}

func drawLegend(c draw.Canvas, top vg.Length, legend []legendEntry) vg.Length {
	ls := textStyle(10, inkColor)
	ls.YAlign = draw.YCenter
	for _, row := range legendRows(legend, c.Max.X-c.Min.X) {
		var total vg.Length
		for _, e := range row {
			total += legendSwatch + 4 + ls.Width(e.Label) + legendGap
		}
		total -= legendGap
		x := (c.Min.X+c.Max.X)/2 - total/2
		y := top - legendRow/2
		for _, e := range row {
			if e.Line {
				c.StrokeLine2(draw.LineStyle{Color: e.Color, Width: 2}, x, y, x+legendSwatch, y)
			} else {
				c.FillPolygon(e.Color, []vg.Point{{X: x, Y: y - legendSwatch/2}, {X: x + legendSwatch, Y: y - legendSwatch/2},
					{X: x + legendSwatch, Y: y + legendSwatch/2}, {X: x, Y: y + legendSwatch/2}})
			}
			c.FillText(ls, vg.Point{X: x + legendSwatch + 4, Y: y}, e.Label)
			x += legendSwatch + 4 + ls.Width(e.Label) + legendGap
		}
		top -= legendRow
	}
	return top
}

// seriesLegend is a legend of series in colour order.
func seriesLegend(series []string, cs colors, line bool) []legendEntry {
	var l []legendEntry
	for _, s := range series {
		l = append(l, legendEntry{Label: s, Color: cs.of(s), Line: line})
	}
	return l
}

// newPlot returns a plot in the report's type and grid style.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.TextHandler = textHandler
	p.Title.Text = title
	p.Title.TextStyle = textStyle(10.5, inkColor)
	p.Title.TextStyle.XAlign = draw.XCenter
	p.Title.TextStyle.YAlign = draw.YTop
	p.Title.Padding = 4
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = textStyle(9.5, inkColor)
		a.Label.TextStyle.XAlign = draw.XCenter
		a.Label.Padding = 3
		a.Tick.Label = textStyle(9, inkColor)
		a.Color = mutedColor
		a.Tick.Color = mutedColor
		a.Padding = 0
	}
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XCenter, draw.YTop
	p.Y.Tick.Label.XAlign, p.Y.Tick.Label.YAlign = draw.XRight, draw.YCenter
	p.Legend.TextStyle = textStyle(9, inkColor)
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = gridColor, gridColor
	p.Add(g)
	return p
}

// siTicks are linear ticks labelled 0, 500, 1k, 2.5M.
type siTicks struct{}

func (siTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = si(ts[i].Value)
		}
	}
	return ts
}

// si prints v with a k, M or G suffix and at most four significant digits.
func si(v float64) string {
	if !isFinite(v) {
		return notAvailable
	}
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return strconv.FormatFloat(v/1e9, 'g', 4, 64) + "G"
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 4, 64) + "M"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 4, 64) + "k"
	case a < 1e-9:
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// durationTicks label a log axis of microseconds in time units: 100 ns, 1 µs,
// 10 ms, 1 s. Decades get labels; when the axis spans less than 2.5 decades,
// 2× and 5× do too, so that it always shows a few labels.
type durationTicks struct{}

func (durationTicks) Ticks(min, max float64) []plot.Tick {
	if min <= 0 || max <= min {
		return nil
	}
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	dense := math.Log10(max/min) < 2.5
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		d := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := d * float64(m)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || dense && (m == 2 || m == 5) {
				t.Label = durationUs(v)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// durationUs prints a time given in µs in the unit that suits it.
func durationUs(us float64) string {
	f := func(v float64, unit string) string { return strconv.FormatFloat(v, 'g', 3, 64) + " " + unit }
	switch {
	case us >= 1e6:
		return f(us/1e6, "s")
	case us >= 1e3:
		return f(us/1e3, "ms")
	case us >= 1:
		return f(us, "µs")
	}
	return f(us*1e3, "ns")
}

// slug makes a name safe as a file name: lower case letters, digits and
// single dashes.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}
