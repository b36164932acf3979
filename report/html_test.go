package report

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

func TestHTMLSelfContained(t *testing.T) {
	r := fixture(t)
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	// Nothing to fetch: no remote or protocol-relative src/href, no script
	// at all, no stylesheet link, no CSS import or url().
	fetch := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?\s*(https?:|//)|<script|<link|@import|url\(`)
	if m := fetch.FindString(page); m != "" {
		t.Errorf("HTML fetches or runs something: %q", m)
	}
	all := charts(t, r)
	if got := strings.Count(page, "<svg "); got != len(all) {
		t.Errorf("%d inline <svg> elements, want one per chart (%d)", got, len(all))
	}
	for _, c := range all {
		if !strings.Contains(page, `id="chart-`+slug(c.Name)+`"`) {
			t.Errorf("chart %s missing", c.Name)
		}
	}
	if strings.Contains(page, "<?xml") {
		t.Error("an XML declaration inside the page")
	}
	for _, want := range []string{"Benchmark", "Total number of requests", "AMD EPYC 7B13", "fork 2 cut short", "Relative"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestHTMLEscapes(t *testing.T) {
	r := fixture(t)
	evil := "<script>alert(1)</script>"
	// The first benchmark names its operation, so the name reaches the
	// headings, the tables, the notes and the charts' labels.
	r.Benchmarks[0].Name = "direct/inproc/person.get" + evil + "/closed-c50"
	r.Benchmarks[0].Warnings = results.Warnings{{Kind: results.WarnOther, Text: "a warning with " + evil}}
	r.Benchmarks[1].Options = map[string]string{"x": evil} // a series label
	r.Environment.CPUModel = evil
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, "<script") {
		t.Error("a name's <script> reached the page unescaped")
	}
	if n := strings.Count(page, "&lt;script&gt;alert(1)"); n < 5 {
		t.Errorf("escaped name found %d times, want it in headings, tables, notes and charts", n)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "<script") {
		t.Error("Markdown carries raw HTML from a name")
	}
}

// No renderer prints NaN or Inf, whatever a hand-made Results holds.
func TestNoNaNPrinted(t *testing.T) {
	r := fixture(t)
	nan, inf := math.NaN(), math.Inf(1)
	s := &r.Benchmarks[1].Summary
	s.ThroughputOpsS.Mean, s.ThroughputOpsS.Error = nan, inf
	s.LatencyUs.P50, s.LatencyUs.P99, s.ClientCPUUsPerOp, s.BytesSentPerOp = nan, inf, nan, inf
	r.Benchmarks[2].Summary.ThroughputOpsS.Mean = 0 // nothing measured: relative n/a
	// A finite mean with an infinite error: the error bar is left out, and so is its
	// label, which would read +Inf, a value the plotting library refuses.
	r.Benchmarks[3].Summary.ThroughputOpsS.Error = inf
	for name, write := range map[string]func(*bytes.Buffer) error{
		"markdown": func(b *bytes.Buffer) error { return WriteMarkdown(b, r) },
		"csv":      func(b *bytes.Buffer) error { return WriteCSV(b, r) },
		"html":     func(b *bytes.Buffer) error { return WriteHTML(b, r) },
		"text":     func(b *bytes.Buffer) error { return WriteText(b, r.Benchmarks) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if m := regexp.MustCompile(`NaN|[+-]?Inf\b`).FindString(buf.String()); m != "" {
			t.Errorf("%s prints %q", name, m)
		}
	}
}

func TestEmptyResults(t *testing.T) {
	r := &results.Results{SchemaVersion: results.SchemaVersion}
	if cs := charts(t, r); len(cs) != 0 {
		t.Errorf("%d charts of no benchmarks", len(cs))
	}
	for _, write := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return WriteMarkdown(b, r) },
		func(b *bytes.Buffer) error { return WriteCSV(b, r) },
		func(b *bytes.Buffer) error { return WriteHTML(b, r) },
	} {
		if err := write(&bytes.Buffer{}); err != nil {
			t.Error(err)
		}
	}
}
