package history

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/store"
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
