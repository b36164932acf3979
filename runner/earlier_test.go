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

	got, from := EarlierTimings(dir, "lines", except)
	if from != filepath.Join(dir, "20261129-010000") {
		t.Errorf("read %q, want the oldest run (the others are the run itself, a smoke run, a killed run and another suite's)", from)
	}
	if len(got.Warmups) != 0 {
		t.Errorf("timed warm-ups %v, want none (none is adaptive)", got.Warmups)
	}
	eachOneSecond(t, "slice", s, got.Slices)

	untimed := TimedPlan(s, s.Benchmarks, nil, t.TempDir(), "")
	timed := TimedPlan(s, s.Benchmarks, nil, dir, except)
	if len(untimed.Untimed) != 2 || len(timed.Untimed) != 0 {
		t.Errorf("untimed benchmarks: %v with no earlier run, %v with one; want both, then none", untimed.Untimed, timed.Untimed)
	}
	if d := timed.Estimate() - untimed.Estimate(); d != 8*time.Second {
		t.Errorf("the timed slices add %v to the estimate, want 2 forks × 2 targets × 2 × 1s = 8s", d)
	}
}

// TestTimedPlanOfOneProcess: the plan of a suite of process: one counts no worker's
// start (plan.Known.InProcess), and the same suite without the key counts two a target
// (server and client, 60 ms each). Counted by hand: the two targets' lines of 1000
// calls, untimed here, count as nothing; per fork 0.4 s to start and 2 rounds of the
// 2 targets, each slice's handover 2 ms, so 2 forks 0.816 s in one process; in workers
// each handover also freezes the other target (4.5 ms) and each fork starts 4
// processes: 0.8 s + 8 × 6.5 ms + 2 forks × 4 × 60 ms = 1.332 s.
func TestTimedPlanOfOneProcess(t *testing.T) {
	for _, c := range []struct {
		text string
		want time.Duration
	}{{opsSuite + "process: one\n", 816 * time.Millisecond}, {opsSuite, 1332 * time.Millisecond}} {
		s, err := suite.Parse("lines.yaml", []byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if got := TimedPlan(s, s.Benchmarks, nil, t.TempDir(), "").Estimate(); got != c.want {
			t.Errorf("process %q: estimate %v, counted %v", s.Process, got, c.want)
		}
	}
}

// adaptiveSuite is a suite of two targets whose warm-ups are adaptive (1 s to 30 s).
const adaptiveSuite = `name: adaptive
description: adaptive warm-ups
defaults: {warmup: 1s, warmup_max: 30s, rounds: 2, duration: 100ms, forks: 2, keep_alive: 0s, reference: 0s}
targets: [http-json, grpc-proto]
workloads: [person.get]
`

// TestEarlierWarmupsTimeThePlan: an earlier finished run of the suite times its
// adaptive warm-ups, and the plan counts them instead of its guess. Each fork's
// warm-up in that run lasted 1 s (testFork's), where a warm-up on new workers is
// counted at 25 s (plan.ColdAdaptiveWarmup) without one: 2 forks × 2 targets × 24 s =
// 96 s less.
func TestEarlierWarmupsTimeThePlan(t *testing.T) {
	s, err := suite.Parse("adaptive.yaml", []byte(adaptiveSuite))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeRun(t, dir, "20261129-010000", s, true, false)
	got, _ := EarlierTimings(dir, "adaptive", "")
	if len(got.Slices) != 0 {
		t.Errorf("timed slices %v, want none (none is of a number of calls)", got.Slices)
	}
	eachOneSecond(t, "warm-up", s, got.Warmups)
	guessed := TimedPlan(s, s.Benchmarks, nil, t.TempDir(), "")
	timed := TimedPlan(s, s.Benchmarks, nil, dir, "")
	if d := guessed.Estimate() - timed.Estimate(); d != 96*time.Second {
		t.Errorf("the timed warm-ups take %v off the estimate, want 2 forks × 2 targets × (25 s - 1 s) = 96s", d)
	}
}

// eachOneSecond fails t unless timed gives each of s's benchmarks, and only them, 1 s
// (testFork's slices and warm-ups each last 1 s).
func eachOneSecond(t *testing.T, what string, s *suite.Suite, timed map[string]time.Duration) {
	t.Helper()
	if len(timed) != len(s.Benchmarks) {
		t.Errorf("%d benchmarks' %ss timed (%v), want %d", len(timed), what, timed, len(s.Benchmarks))
	}
	for _, b := range s.Benchmarks {
		if timed[b.Name] != time.Second {
			t.Errorf("%s: %s %v, want 1s", b.Name, what, timed[b.Name])
		}
	}
}
