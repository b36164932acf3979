package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

// writeCompareFile writes a valid results file with one throughput benchmark
// per name, whose slices score the given ops/s.
func writeCompareFile(t *testing.T, name string, scores map[string][]float64) string {
	t.Helper()
	res := &results.Results{SchemaVersion: results.SchemaVersion,
		Environment: results.Environment{CPUModel: "test", Cores: 2, OS: "linux", GoVersion: "go1.26.8", WirebenchVersion: "test"}}
	for bench, xs := range scores {
		b := results.Benchmark{Name: bench, Protocol: "direct", Transport: "inproc", Workload: "person.get",
			Load: results.Load{Model: results.ModelClosed, Concurrency: 1, Connections: 1},
			Mode: results.ModeThroughput, SliceSeconds: 1, Rounds: len(xs)}
		tr := results.ForkResult{}
		for i, x := range xs {
			tr.Slices = append(tr.Slices, results.Slice{Index: i, Seconds: 1, Ops: int64(x), ThroughputOpsS: x,
				LatencyUs: results.Latency{Mean: 10, P50: 10, P75: 11, P90: 12, P99: 20, P999: 30, Max: 40}})
		}
		b.Forks = []results.ForkResult{tr}
		b.Summary.ThroughputOpsS = results.Throughput{Mean: xs[0], N: len(xs), CI: 0.999}
		b.Summary.LatencyUs = results.Latency{Mean: 10, P50: 10, P75: 11, P90: 12, P99: 20, P999: 30, Max: 40}
		res.Benchmarks = append(res.Benchmarks, b)
	}
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCompareExitCodes(t *testing.T) {
	base := []float64{1000, 1010, 1020, 1030, 1040, 1050}
	scaled := func(f float64) []float64 {
		out := make([]float64, len(base))
		for i, x := range base {
			out[i] = x * f
		}
		return out
	}
	old := writeCompareFile(t, "old.json", map[string][]float64{"a": base, "b": base})
	same := writeCompareFile(t, "same.json", map[string][]float64{"a": base, "b": base})
	faster := writeCompareFile(t, "faster.json", map[string][]float64{"a": scaled(1.2), "b": base})
	slower := writeCompareFile(t, "slower.json", map[string][]float64{"a": scaled(0.8), "b": base})
	bad := filepath.Join(t.TempDir(), "v4.json")
	if err := os.WriteFile(bad, []byte(`{"schema_version": 4}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stdout string // must appear on stdout
		stderr string // must appear on stderr
	}{
		{"unchanged", []string{"compare", old, same}, exitOK, "No significant regression beyond 5%", ""},
		{"improved", []string{"compare", old, faster}, exitOK, "better", ""},
		{"regressed", []string{"compare", old, slower}, exitFailure, "REGRESSION", "1 benchmark(s) regressed beyond 5%: a (-20.00%"},
		{"regressed md", []string{"compare", "--format", "md", old, slower}, exitFailure, "**REGRESSION**", "regressed"},
		{"regressed md, -f", []string{"compare", "-f", "md", old, slower}, exitFailure, "**REGRESSION**", "regressed"},
		{"regressed benchstat", []string{"compare", "--format=benchstat", old, slower}, exitFailure, "vs base", "regressed"},
		{"within a 25% threshold", []string{"compare", "--threshold", "25%", old, slower}, exitOK, "worse", ""},
		{"missing file", []string{"compare", old, filepath.Join(t.TempDir(), "nope.json")}, exitUsage, "", "no such file"},
		{"wrong schema_version", []string{"compare", bad, old}, exitUsage, "", "schema_version 4 is not supported"},
		{"bad threshold", []string{"compare", "--threshold", "lots", old, same}, exitUsage, "", "--threshold"},
		{"negative threshold", []string{"compare", "--threshold=-5%", old, same}, exitUsage, "", "negative"},
		{"bad alpha", []string{"compare", "--alpha", "2", old, same}, exitUsage, "", "--alpha"},
		{"bad format", []string{"compare", "--format", "html", old, same}, exitUsage, "", "--format"},
		{"one file", []string{"compare", old}, exitUsage, "", "expected"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, c.args...)
			if code != c.code || !strings.Contains(stdout, c.stdout) || !strings.Contains(stderr, c.stderr) {
				t.Errorf("wirebench %v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s\nwant stdout %q, stderr %q",
					c.args, code, c.code, stdout, stderr, c.stdout, c.stderr)
			}
		})
	}
}

// A results file of schema_version 1 (its forks called trials; written by hand in
// results/testdata) is read by every command that reads results: report renders its
// forks, compare compares it, history import records it.
func TestOldResultsFile(t *testing.T) {
	old := filepath.Join("..", "..", "results", "testdata", "results-v1-trials.json")
	code, stdout, stderr := runCLI(t, "report", "--format", "csv", old)
	if code != exitOK || !strings.Contains(stdout, "grpc-proto/tcp/person.get/closed-c4") || !strings.Contains(stdout, "fork 2, start: exit status 1") {
		t.Errorf("report of a version 1 file: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI(t, "compare", old, old); code != exitOK {
		t.Errorf("compare of a version 1 file: exit %d\n%s%s", code, stdout, stderr)
	}
	st := filepath.Join(t.TempDir(), "history.db")
	if code, stdout, stderr := runCLI(t, "history", "import", "--store", st, "--machine", "test-machine", old); code != exitOK || !strings.Contains(stderr, "1 run(s) imported") {
		t.Errorf("history import of a version 1 file: exit %d\n%s%s", code, stdout, stderr)
	}
}
