package runner

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/suite"
)

// opsSuite is a suite of two targets whose slices are a number of calls.
const opsSuite = `name: lines
description: slices of a number of calls
defaults: {warmup: 0s, rounds: 2, ops: 1000, forks: 2, reference: 0s}
load: {concurrency: 1}
targets: [http-json, grpc-proto]
workloads: [person.get]
`

// writeRun leaves in dir/name what a run of s leaves: its journal's header and, when
// finished, its results.json, each slice of which lasted 1 s (testFork's intervals);
// smoke marks the results a smoke run's.
func writeRun(t *testing.T, dir, name string, s *suite.Suite, finished, smoke bool) {
	t.Helper()
	run := filepath.Join(dir, name)
	j, _, err := openJournal(run, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.append(journalLine{Kind: "header", Suite: s.Name}); err != nil {
		t.Fatal(err)
	}
	j.close()
	if !finished {
		return
	}
	_, res := runPlannedResults(t, s, plan.Build(s.Benchmarks, nil))
	res.Smoke = smoke
	f, err := os.Create(filepath.Join(run, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := res.Write(f); err != nil {
		t.Fatal(err)
	}
}

// TestEarlierSlicesTimeThePlan: an earlier finished run of the suite times its slices
// of a number of calls, and the plan counts them. Of the run directories, the newest
// but one is a smoke run, the newest is the run being made (except), one is of another
// suite and one was killed before its results: the oldest, a finished run of the
// suite, is the one read. Each of its slices lasted 1 s, so each target's fork counts
// 2 slices of 1 s more than with none timed: 2 forks × 2 targets × 2 s = 8 s.
func TestEarlierSlicesTimeThePlan(t *testing.T) {
	s, err := suite.Parse("lines.yaml", []byte(opsSuite))
	if err != nil {
		t.Fatal(err)
	}
	other, err := suite.Parse("other.yaml", []byte(twoTargets))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeRun(t, dir, "20261129-010000", s, true, false)
	writeRun(t, dir, "20261129-020000", other, true, false)
	writeRun(t, dir, "20261129-030000", s, false, false)
	writeRun(t, dir, "20261129-040000", s, true, true)
	writeRun(t, dir, "20261129-050000", s, true, false)
	except := filepath.Join(dir, "20261129-050000")

	got, from := EarlierSlices(dir, "lines", except)
	if from != filepath.Join(dir, "20261129-010000") {
		t.Errorf("read %q, want the oldest run (the others are the run itself, a smoke run, a killed run and another suite's)", from)
	}
	if len(got) != 2 {
		t.Fatalf("timed %v, want both benchmarks", got)
	}
	for _, b := range s.Benchmarks {
		if got[b.Name] != time.Second {
			t.Errorf("%s: slice %v, want 1s", b.Name, got[b.Name])
		}
	}

	untimed := TimedPlan("lines", s.Benchmarks, nil, t.TempDir(), "")
	timed := TimedPlan("lines", s.Benchmarks, nil, dir, except)
	if len(untimed.Untimed) != 2 || len(timed.Untimed) != 0 {
		t.Errorf("untimed benchmarks: %v with no earlier run, %v with one; want both, then none", untimed.Untimed, timed.Untimed)
	}
	if d := timed.Estimate() - untimed.Estimate(); d != 8*time.Second {
		t.Errorf("the timed slices add %v to the estimate, want 2 forks × 2 targets × 2 × 1s = 8s", d)
	}
}
