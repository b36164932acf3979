package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wirebench/wirebench/results"
)

// The terminal summary for a terminal of 60, 80 and 100 columns: no line wider, the
// comparison table stacked (one block per target, each column's head beside its
// value) where it does not fit, and nothing lost: every target and its relative cell
// are still there. Width 0 is the summary as it was.
func TestSummaryTextFitsTheWidth(t *testing.T) {
	r := verdictFixture()
	var full bytes.Buffer
	if err := WriteSummaryTextWidth(&full, r, 0); err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	if err := WriteSummaryText(&plain, r); err != nil {
		t.Fatal(err)
	}
	if full.String() != plain.String() {
		t.Error("width 0 is not the summary as it was")
	}
	for _, width := range []int{60, 80, 100} {
		var buf bytes.Buffer
		if err := WriteSummaryTextWidth(&buf, r, width); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("%d columns: a line of %d: %q", width, n, l)
			}
		}
		for _, want := range []string{"capnp/tcp", "1.47× [1.37, 1.58]", "grpc-proto/tcp"} {
			if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
				t.Errorf("%d columns: %q lost:\n%s", width, want, out)
			}
		}
	}
}

// `report -f table` on a terminal of 80 or 100 columns: no line wider (the per-benchmark
// lines of latency, CPU and bytes are 110 columns and more unwrapped), and each figure still
// there; width 0 is the report as it was.
func TestReportTextFitsTheWidth(t *testing.T) {
	r := verdictFixture()
	var plain, zero bytes.Buffer
	if err := WriteReportText(&plain, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteReportTextWidth(&zero, r, 0); err != nil {
		t.Fatal(err)
	}
	if plain.String() != zero.String() {
		t.Error("width 0 is not the report as it was")
	}
	if w := maxLine(plain.String()); w <= 100 {
		t.Fatalf("the unfitted report's widest line is %d columns: this test would prove nothing", w)
	}
	for _, width := range []int{80, 100} {
		var buf bytes.Buffer
		if err := WriteReportTextWidth(&buf, r, width); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("%d columns: a line of %d: %q", width, n, l)
			}
		}
		flat := strings.Join(strings.Fields(out), " ")
		for _, want := range []string{"response time µs mean", "server peak RSS", "grpc-proto/tcp", "capnp/tcp"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%d columns: %q lost", width, want)
			}
		}
	}
}

func maxLine(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// A note said of several benchmarks is printed once, naming them all.
func TestOncePerFact(t *testing.T) {
	ns := []note{
		{Benchmark: "a", Kind: "warning", Text: "too few forks"},
		{Benchmark: "b", Kind: "warning", Text: "still warming up"},
		{Benchmark: "c", Kind: "warning", Text: "too few forks"},
		{Benchmark: "c", Kind: "error", Text: "too few forks"},
	}
	got := oncePerFact(ns)
	want := []note{
		{Benchmark: "a, c", Kind: "warning", Text: "too few forks"},
		{Benchmark: "b", Kind: "warning", Text: "still warming up"},
		{Benchmark: "c", Kind: "error", Text: "too few forks"},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A run cut short says so first in its title, before any figure, in every format
// that has one.
func TestInterruptedTitle(t *testing.T) {
	r := verdictFixture()
	r.Benchmarks[0].Warnings = append(r.Benchmarks[0].Warnings,
		results.Warning{Kind: results.WarnInterrupted, Text: "1 of its group's 15 forks finished"})
	want := fmt.Sprintf("[INTERRUPTED: 1 of %d benchmarks", len(r.Benchmarks)) + " cut short; run --resume to finish] [SMOKE] wirebench results"
	var txt, md bytes.Buffer
	if err := WriteSummaryText(&txt, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(txt.String(), want) {
		t.Errorf("text title: %q", strings.SplitN(txt.String(), "\n", 2)[0])
	}
	if !strings.HasPrefix(md.String(), "# \\[INTERRUPTED") && !strings.HasPrefix(md.String(), "# [INTERRUPTED") {
		t.Errorf("markdown title: %q", strings.SplitN(md.String(), "\n", 2)[0])
	}
}

// A smoke run is marked in the CSV (a column on every row) and on every chart (its
// title, and a mark drawn in its corner, so a PNG alone says it too).
func TestSmokeMarkedEverywhere(t *testing.T) {
	r := verdictFixture() // a smoke run
	var csv bytes.Buffer
	if err := WriteCSV(&csv, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if !strings.HasSuffix(lines[0], ",smoke") {
		t.Errorf("CSV header %q has no smoke column last", lines[0])
	}
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l, ",true") {
			t.Errorf("CSV row not marked: %q", l)
		}
	}
	cs, err := Charts(r)
	if err != nil || len(cs) == 0 {
		t.Fatalf("%d charts, %v", len(cs), err)
	}
	for _, c := range cs {
		if !strings.HasPrefix(c.Title, "[SMOKE] ") {
			t.Errorf("chart %s: title %q", c.Name, c.Title)
		}
		var svg bytes.Buffer
		if err := c.WriteSVG(&svg); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(svg.String(), smokeMark) {
			t.Errorf("chart %s draws no smoke mark", c.Name)
		}
	}
	r.Smoke = false
	if cs, _ := Charts(r); strings.HasPrefix(cs[0].Title, "[SMOKE]") {
		t.Error("a measured run's chart marked smoke")
	}
}
