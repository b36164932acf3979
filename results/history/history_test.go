package history

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/results/store"
)

// runs makes n runs on machine m of two benchmarks: "a" (thrpt) at 1000 ops/s, 20 %
// lower from run step on, and "b" (avgt) flat at 2 ms/op; 1 % seeded noise.
func runs(n, step int, m string) []store.Run {
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var out []store.Run
	for i := range n {
		level := 1000.0
		if i >= step {
			level = 800
		}
		a := level * (1 + 0.01*rng.NormFloat64())
		b := 2 * (1 + 0.01*rng.NormFloat64())
		out = append(out, store.Run{ID: int64(i + 1), Tags: store.Tags{Commit: strings.Repeat(string(rune('a'+i%26)), 12), Branch: "main", Machine: m, Time: t0.Add(time.Duration(i) * time.Hour)},
			Entries: []store.Entry{
				{Name: "a", Mode: "thrpt", Score: a, Error: 10, N: 5, Ratio: math.NaN(), RatioLow: math.NaN(), RatioHigh: math.NaN()},
				{Name: "b", Mode: "avgt", Score: b, Error: 0.02, N: 5, Baseline: "a", Ratio: 1.1, RatioLow: 1.0, RatioHigh: 1.2},
			}})
	}
	return out
}

func TestBuild(t *testing.T) {
	all := append(runs(12, 6, "ci"), runs(4, 10, "laptop")...)
	series := Build(all, Options{})
	if len(series) != 4 {
		t.Fatalf("%d series, want a and b on two machines", len(series))
	}
	a := series[0]
	if a.Name != "a" || a.Machine != "ci" || len(a.Points) != 12 || a.Unit() != "ops/s" {
		t.Fatalf("first series %s on %s, %d points", a.Name, a.Machine, len(a.Points))
	}
	if len(a.Changes) != 1 || a.Changes[0].Index != 6 || math.Abs(a.Changes[0].Change()+0.2) > 0.03 {
		t.Errorf("a's change points %+v, want one at 6 of about −20 %%", a.Changes)
	}
	if b := series[1]; b.Name != "b" || len(b.Changes) != 0 || b.Unit() != "ms/op" {
		t.Errorf("b: %s, %d change points, unit %s; want none", b.Name, len(b.Changes), b.Unit())
	}
	// Four runs are too few for a change point.
	if l := series[2]; l.Machine != "laptop" || len(l.Changes) != 0 {
		t.Errorf("laptop series %+v", l)
	}
}

func TestWriteTableAndHTML(t *testing.T) {
	series := Build(runs(12, 6, "ci"), Options{})
	var buf bytes.Buffer
	if err := WriteTable(&buf, series); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"a on ci (ops/s, 12 runs, 1 change points)", "ggggggggggg"[:10], "◆ -20", "worse", "1.100 [1.000, 1.200]"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	buf.Reset()
	if err := WriteHTML(&buf, "wirebench history", series); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if n := strings.Count(page, "<svg"); n != 2 {
		t.Errorf("%d charts, want one per series (2)", n)
	}
	if strings.Contains(page, "src=") || strings.Contains(page, "<script") {
		t.Error("the page loads something: it must be self-contained")
	}
	if !strings.Contains(page, `class="change"`) {
		t.Error("the change point's row is not marked")
	}
	buf.Reset()
	if err := WriteTable(&buf, nil); err != nil || !strings.Contains(buf.String(), "No runs") {
		t.Errorf("empty table: %q, %v", buf.String(), err)
	}
}

// A ratio stored without an interval (too few forks), or with a point for one
// (stored before the store left those out), prints as the run's report says it;
// scores and errors print as plain numbers.
func TestTableFormats(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	var rs []store.Run
	for i, e := range []store.Entry{
		{Name: "b", Mode: "thrpt", Score: 17623.4, Error: 123.4, N: 5, Baseline: "a", Ratio: 1.097, RatioLow: 1.097, RatioHigh: 1.097},
		{Name: "b", Mode: "thrpt", Score: 17601, Error: 0.0042, N: 5, Baseline: "a", Ratio: 1.097, RatioLow: math.NaN(), RatioHigh: math.NaN()},
		{Name: "b", Mode: "thrpt", Score: 0.012345, N: 5, Baseline: "a", Ratio: 1.1, RatioLow: 1.05, RatioHigh: 1.15},
	} {
		rs = append(rs, store.Run{ID: int64(i + 1), Tags: store.Tags{Machine: "m", Time: t0.Add(time.Duration(i) * time.Hour)}, Entries: []store.Entry{e}})
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, Build(rs, Options{})); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"17620", "120", "1.097 (too few forks)", "17600", "0.0042", "0.01235", "1.100 [1.050, 1.150]"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"e+", "[1.097, 1.097]"} {
		if strings.Contains(out, bad) {
			t.Errorf("table has %q:\n%s", bad, out)
		}
	}
}

// The chart's x axis tells every run apart: commits when they differ, else the
// start's day and time (several runs on one day), else the run's number.
func TestPointLabels(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 11, 27, h, m, 0, 0, time.UTC) }
	pt := func(id int64, commit string, tm time.Time) Point {
		return Point{Run: store.Run{ID: id, Tags: store.Tags{Commit: commit, Time: tm}}}
	}
	for _, c := range []struct {
		name string
		ps   []Point
		want []string
	}{
		{"commits", []Point{pt(1, "aaaaaaaaaa1", at(9, 0)), pt(2, "bbbbbbbbbb2", at(10, 0))}, []string{"aaaaaaa", "bbbbbbb"}},
		{"days", []Point{pt(1, "", at(9, 0)), pt(2, "", at(9, 0).AddDate(0, 0, 1))}, []string{"11-27", "11-28"}},
		{"one day", []Point{pt(1, "", at(9, 0)), pt(2, "", at(10, 30)), pt(3, "", at(11, 5))}, []string{"11-27 09:00", "11-27 10:30", "11-27 11:05"}},
		{"one commit, one day", []Point{pt(1, "c0ffee", at(9, 0)), pt(2, "c0ffee", at(12, 0))}, []string{"11-27 09:00", "11-27 12:00"}},
		{"one minute", []Point{pt(4, "", at(9, 0)), pt(5, "", at(9, 0))}, []string{"run 4", "run 5"}},
	} {
		got := pointLabels(c.ps)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: labels %q, want %q", c.name, got, c.want)
		}
	}
}
