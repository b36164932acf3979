package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirebench/wirebench/results"
)

// plan reads a run directory as report does, and never proposes, for a budget the run's
// own shape fits, a plan expected wider than what that shape measured (issue 46); a
// budget only a plan of two or three forks fits says the interval would be useless
// rather than printing a percentage of seventeen digits.
func TestPlanRunDirectory(t *testing.T) {
	between := 0.25
	score := results.Throughput{Mean: 1000, Error: 10, CI: 0.999, N: 20}
	load := results.Load{Model: results.ModelClosed, Concurrency: 1, Connections: 1}
	r := &results.Results{SchemaVersion: results.SchemaVersion, Benchmarks: []results.Benchmark{
		{Name: "a/tcp/person.get", Protocol: "a", Workload: "person.get", Mode: results.ModeThroughput, Load: load,
			WarmupSeconds: 0.2, SliceSeconds: 0.05, Summary: results.Summary{ThroughputOpsS: score}},
		{Name: "b/tcp/person.get", Protocol: "b", Workload: "person.get", Mode: results.ModeThroughput, Load: load,
			WarmupSeconds: 0.2, SliceSeconds: 0.05,
			Summary: results.Summary{ThroughputOpsS: score, Relative: &results.Relative{Baseline: "a/tcp/person.get", Rounds: 20, Forks: 5,
				Ratio:    results.Ratio{Mean: 1.2, CILow: 1.2 / 1.1, CIHigh: 1.32, CI: 0.999},
				Variance: &results.Variance{WithinRound: 0.01, BetweenForks: &between}}}},
	}}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, stdout, stderr := runCLI(t, "plan", dir, "--budget", "60s")
	if code != exitOK || !strings.Contains(stdout, "as measured: ±10.0 %") {
		t.Errorf("plan DIR --budget 60s: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "plan", filepath.Join(dir, "results.json"), "--budget", "5s")
	if code != exitOK || strings.Contains(stdout, "000000") || !strings.Contains(stdout, "wider than ±100 %") {
		t.Errorf("plan --budget 5s: exit %d\n%s", code, stdout)
	}
}
