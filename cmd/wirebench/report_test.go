package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

// reportFixture is the report package's fixture: several protocols, four
// operations, a rate sweep, an avgt benchmark, null server figures, errors.
var reportFixture = filepath.Join("..", "..", "report", "testdata", "report-fixture.json")

func TestReportFormats(t *testing.T) {
	for _, c := range []struct {
		format string
		want   []string
	}{
		// The table holds what run printed: the verdicts and the comparison per operation.
		{"table", []string{"Benchmark", "Mode", "Cnt", "grpc-proto/tcp/person.get/closed-c50", "ms/op",
			"Verdict. From each operation", "person.get/closed-c50: capnp/unix won: 2.85×", "Relative", "1× (base)"}},
		{"md", []string{"# wirebench results", "| Benchmark ", "### echo[payload=1024]/closed-c50", "| Total number of requests |", "## Environment"}},
		{"csv", []string{"name,series,operation,", "latency_us_p99", "direct/inproc/person.get/closed-c50,"}},
		{"json", []string{`"schema_version": 3`}},
		{"html", []string{"<!DOCTYPE html>", "<svg ", "Warnings and errors"}},
	} {
		t.Run(c.format, func(t *testing.T) {
			code, out, stderr := runCLI(t, "report", reportFixture, "--format", c.format)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			if c.format == "json" {
				if _, err := results.Read(strings.NewReader(out)); err != nil {
					t.Errorf("json output does not read back: %v", err)
				}
			}
		})
	}
}

func TestReportOutAndPNG(t *testing.T) {
	dir := t.TempDir()
	out, pngs := filepath.Join(dir, "report.html"), filepath.Join(dir, "charts")
	code, stdout, stderr := runCLI(t, "report", reportFixture, "-f", "html", "--out", out, "--png", pngs)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("--out given, yet stdout has %d bytes", len(stdout))
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "<svg ") {
		t.Errorf("--out file: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(pngs, "*.png"))
	if len(files) < 6 || !strings.Contains(stderr, "charts to") {
		t.Errorf("%d PNGs in --png dir (stderr %q)", len(files), stderr)
	}
}

func TestReportUsageErrors(t *testing.T) {
	notResults := filepath.Join(t.TempDir(), "other.json")
	if err := os.WriteFile(notResults, []byte(`{"benchmarks": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report", "no-such-results.json"}, "no-such-results.json: no such file"},
		{[]string{"report", reportFixture, "--format", "pdf"}, "--format"},
		{[]string{"report", notResults}, "not a wirebench results file"},
		{[]string{"report"}, "<RESULTS>"},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("wirebench %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
}

// A file written before calls_per_op was recorded has its calls per op from the
// workload, for its params (pingpong: one call per increment; person.compose: six);
// a recorded count stands, and a workload this wirebench does not know keeps 0.
func TestReportFillsCallsOfOldFiles(t *testing.T) {
	bs := []results.Benchmark{
		{Workload: "echo+stats", CallsPerOp: 5},
		{Workload: "pingpong", Params: map[string]any{"increments": float64(7)}},
		{Workload: "person.compose"},
		{Workload: "no.such.workload"},
	}
	fillCalls(bs)
	for i, want := range []int{5, 7, 6, 0} {
		if got := bs[i].CallsPerOp; got != want {
			t.Errorf("%s %v: %d calls, want %d", bs[i].Workload, bs[i].Params, got, want)
		}
	}
}
