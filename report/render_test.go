package report

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/internal/golden"
	"github.com/wirebench/wirebench/results"
)

func TestMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, fixture(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "report.md.golden", buf.Bytes())
}

func TestCSVGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, fixture(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "report.csv.golden", buf.Bytes())
}

// charts is Charts for a test, which fails on an error.
func charts(t *testing.T, r *results.Results) []Chart {
	t.Helper()
	cs, err := Charts(r)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestChartsGolden(t *testing.T) {
	charts := charts(t, fixture(t))
	kinds := map[string]bool{}
	for _, c := range charts {
		kind, _, _ := strings.Cut(c.Name, "-")
		if kinds[kind] {
			continue // one golden per kind of chart
		}
		kinds[kind] = true
		var buf bytes.Buffer
		if err := c.WriteSVG(&buf); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "chart-"+kind+".svg.golden", buf.Bytes())
	}
	for _, k := range []string{"ratio", "throughput", "radar", "latency", "sweep", "cpu", "bytes"} {
		if !kinds[k] {
			t.Errorf("no %s chart", k)
		}
	}
}

func TestWritePNGs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "charts") // created by WritePNGs
	r := fixture(t)
	paths, err := WritePNGs(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	charts := charts(t, r)
	if len(paths) != len(charts) {
		t.Fatalf("%d PNGs for %d charts", len(paths), len(charts))
	}
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		// 96 dpi: a point is 4/3 px.
		want := int(math.Round(charts[i].Width.Points() * 96 / 72))
		if w := img.Bounds().Dx(); w != want {
			t.Errorf("%s is %d px wide, want %d", p, w, want)
		}
		if filepath.Base(p) != charts[i].Name+".png" {
			t.Errorf("file %s for chart %s", p, charts[i].Name)
		}
	}
}

func TestSVGDeterministic(t *testing.T) {
	// Two renderings from fresh Results must be byte-identical, or goldens
	// (and diffs of committed reports) would flap.
	a, b := charts(t, fixture(t)), charts(t, fixture(t))
	for i := range a {
		var x, y bytes.Buffer
		if err := a[i].WriteSVG(&x); err != nil {
			t.Fatal(err)
		}
		if err := b[i].WriteSVG(&y); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x.Bytes(), y.Bytes()) {
			t.Errorf("chart %s renders differently twice", a[i].Name)
		}
	}
}

func TestChartsOmitted(t *testing.T) {
	// Two closed-model operations: no radar (a polygon needs three axes),
	// and no sweep chart without open-model rates.
	r := fixture(t)
	var bs []results.Benchmark
	for _, b := range r.Benchmarks {
		if b.Workload == "person.list" || b.Workload == "echo" {
			bs = append(bs, b)
		}
	}
	r.Benchmarks = bs
	for _, c := range charts(t, r) {
		if c.Name == "radar" || strings.HasPrefix(c.Name, "sweep-") {
			t.Errorf("chart %s with two closed-model operations and no sweep", c.Name)
		}
	}
}

// TestFixtureFile keeps testdata/report-fixture.json, which the CLI's tests
// render, equal to the fixture.
func TestFixtureFile(t *testing.T) {
	var buf bytes.Buffer
	if err := fixture(t).Write(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "report-fixture.json", buf.Bytes())
}
