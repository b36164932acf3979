package compare

import (
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/wirebench/wirebench/internal/textgrid"
	"github.com/wirebench/wirebench/results"
)

// metricTable is one table of benchstat's output: one unit, a row per
// benchmark with the old and new samples in that unit (nil where absent).
type metricTable struct {
	Unit string
	Rows []metricRow
}

type metricRow struct {
	Name     string
	Old, New []float64
}

// WriteBenchstat writes the comparison in the text format of benchstat
// (golang.org/x/perf/cmd/benchstat), as it prints two files given as
// oldLabel and newLabel: a table per unit with the median ± the range of its
// 95% confidence interval in each column, the delta or "~" with (p=… n=…),
// a geomean row, and numbered footnotes for the warnings. Units are named as
// benchstat would name them had the benchmarks reported them: ops/s for
// thrpt, sec/op for avgt, and p99-sec for the slices' response-time p99.
func (r *Result) WriteBenchstat(w io.Writer, oldLabel, newLabel string) error {
	return writeBenchstat(w, oldLabel, newLabel, r.metricTables(), r.Options)
}

// metricTables groups the rows by unit, units in order of first appearance
// and the p99 table last.
func (r *Result) metricTables() []metricTable {
	var tables []metricTable
	index := map[string]int{}
	add := func(unit, name string, old, new []float64) {
		i, ok := index[unit]
		if !ok {
			i = len(tables)
			index[unit] = i
			tables = append(tables, metricTable{Unit: unit})
		}
		t := &tables[i]
		for j := range t.Rows {
			if t.Rows[j].Name == name {
				t.Rows[j].Old = orNil(t.Rows[j].Old, old)
				t.Rows[j].New = orNil(t.Rows[j].New, new)
				return
			}
		}
		t.Rows = append(t.Rows, metricRow{Name: name, Old: old, New: new})
	}
	for _, row := range r.Rows {
		oldMode, newMode := row.Mode, row.Mode
		if row.Change == Incomparable {
			// The old mode is the one the new file does not have.
			oldMode = results.ModeThroughput
			if row.Mode == results.ModeThroughput {
				oldMode = results.ModeAverageTime
			}
		}
		if row.Old != nil {
			u, f := benchstatUnit(oldMode)
			add(u, row.Name, scaled(row.Old, f), nil)
		}
		if row.New != nil {
			u, f := benchstatUnit(newMode)
			add(u, row.Name, nil, scaled(row.New, f))
		}
	}
	p99 := metricTable{Unit: "p99-sec"}
	for _, row := range r.Rows {
		if row.OldP99s != nil || row.NewP99s != nil {
			p99.Rows = append(p99.Rows, metricRow{Name: row.Name, Old: scaled(row.OldP99s, 1e-6), New: scaled(row.NewP99s, 1e-6)})
		}
	}
	if len(p99.Rows) > 0 {
		tables = append(tables, p99)
	}
	return tables
}

func orNil(a, b []float64) []float64 {
	if a != nil {
		return a
	}
	return b
}

// benchstatUnit is the unit benchstat shows a mode's score in, and the factor
// from wirebench's unit to it (benchstat tidies times to seconds).
func benchstatUnit(mode string) (string, float64) {
	if mode == results.ModeAverageTime {
		return "sec/op", 1e-3
	}
	return "ops/s", 1
}

func scaled(xs []float64, f float64) []float64 {
	if xs == nil {
		return nil
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f
	}
	return out
}

func writeBenchstat(w io.Writer, oldLabel, newLabel string, tables []metricTable, opts Options) error {
	for i, t := range tables {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := writeBenchstatTable(w, oldLabel, newLabel, t, opts); err != nil {
			return err
		}
	}
	return nil
}

// Columns of a benchstat table: the name, then for the old file its center,
// range and warnings, then for the new file the same and its delta, (p n)
// and warnings; the right edge is where a third file would start.
const (
	colOld   = 1
	colNew   = colOld + 3
	colDelta = colNew + 3
	colEdge  = colNew + 6 + 6
)

func writeBenchstatTable(w io.Writer, oldLabel, newLabel string, t metricTable, opts Options) error {
	var g textgrid.Grid
	var notes []string
	noteIndex := map[string]int{}
	footnotes := func(msgs ...[]string) {
		var marks []string
		for _, ms := range msgs {
			for _, m := range ms {
				i, ok := noteIndex[m]
				if !ok {
					i = len(notes)
					noteIndex[m] = i
					notes = append(notes, m)
				}
				marks = append(marks, superscript(i+1))
			}
		}
		g.Add(1, strings.Join(marks, " "), 'l')
	}

	g.NewRow()
	g.At(colOld).Add(colNew-colOld, oldLabel, 'c', " │ ")
	g.Add(colDelta+3-colNew, newLabel, 'c', " │ ")
	g.At(colEdge).Add(1, "", 'l', " │")
	g.NewRow()
	g.At(colOld).Add(3, t.Unit, 'c', " │ ")
	g.Shrink(colOld + 1)
	g.Shrink(colOld + 2)
	g.Add(3, t.Unit, 'c', " │ ")
	g.Add(3, "vs base", 'l', "  ")
	for c := colNew + 1; c < colDelta+3; c++ {
		g.Shrink(c)
	}
	g.At(colEdge).Add(1, "", 'l', " │")

	class := benchunit.ClassOf(t.Unit)
	var oldCenters, newCenters, ratios []float64
	nBase, badRatio := 0, false
	for _, row := range t.Rows {
		g.NewRow()
		g.Add(1, row.Name, 'l')
		var os, ns summary
		var centers []float64
		if row.Old != nil {
			os = summarize(row.Old, opts.Confidence)
			centers = append(centers, os.Center)
		}
		if row.New != nil {
			ns = summarize(row.New, opts.Confidence)
			centers = append(centers, ns.Center)
		}
		scaler := benchunit.CommonScale(centers, class)
		if row.Old != nil {
			nBase++
			oldCenters = append(oldCenters, os.Center)
			g.At(colOld).Add(1, scaler.Format(os.Center), 'r')
			g.Add(1, os.pctRange(), 'r', " ± ")
			footnotes(os.Warnings)
		}
		if row.New != nil {
			newCenters = append(newCenters, ns.Center)
			g.At(colNew).Add(1, scaler.Format(ns.Center), 'r')
			g.Add(1, ns.pctRange(), 'r', " ± ")
			footnotes(ns.Warnings)
			if row.Old != nil {
				c := compareSamples(row.Old, row.New, opts.Alpha)
				g.Add(1, c.formatDelta(os.Center, ns.Center), 'r')
				g.Add(1, "("+c.String()+")", 'l')
				footnotes(c.Warnings)
				switch {
				case ns.Center == os.Center:
					ratios = append(ratios, 1)
				case os.Center == 0:
					badRatio = true
					ratios = append(ratios, 0)
				default:
					ratios = append(ratios, ns.Center/os.Center)
				}
			}
		}
	}

	if len(t.Rows) > 1 {
		g.NewRow()
		g.Add(1, "geomean", 'l')
		// The old column.
		var warn []string
		if gm := geomean(oldCenters); math.IsNaN(gm) {
			warn = append(warn, "summaries must be >0 to compute geomean")
		} else {
			g.At(colOld).Add(1, benchunit.Scale(gm, class), 'r')
		}
		g.At(colNew - 1)
		footnotes(warn)
		// The new column.
		warn = nil
		if nBase != len(ratios) {
			warn = append(warn, "benchmark set differs from baseline; geomeans may not be comparable")
		}
		gm := geomean(newCenters)
		if math.IsNaN(gm) {
			warn = append(warn, "summaries must be >0 to compute geomean")
		} else {
			g.At(colNew).Add(1, benchunit.Scale(gm, class), 'r')
		}
		g.At(colDelta)
		ratio := math.NaN()
		if !badRatio {
			if ratio = geomean(ratios); math.IsNaN(ratio) {
				warn = append(warn, "ratios must be >0 to compute geomean")
			}
		}
		if math.IsNaN(ratio) {
			g.Add(1, "?", 'l')
		} else {
			g.Add(1, fmt.Sprintf("%+.2f%%", (ratio-1)*100), 'r')
		}
		g.At(colDelta + 2)
		footnotes(warn)
	}

	if err := g.Write(w); err != nil {
		return err
	}
	for i, n := range notes {
		if _, err := fmt.Fprintf(w, "%s %s\n", superscript(i+1), n); err != nil {
			return err
		}
	}
	return nil
}

// geomean is the geometric mean, NaN when empty or a value is not positive.
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m := 0.0
	for i, x := range xs {
		if x <= 0 {
			return math.NaN()
		}
		m += (math.Log(x) - m) / float64(i+1)
	}
	return math.Exp(m)
}

func superscript(i int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	d := []rune(digits)
	if i == 0 {
		return string(d[0])
	}
	var out []rune
	for ; i > 0; i /= 10 {
		out = append([]rune{d[i%10]}, out...)
	}
	return string(out)
}
