package runner

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"github.com/wirebench/wirebench/plan"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/suite"
)

// lookBack is how many of the suite's newest run directories EarlierTimings reads the
// results of at most (of the others it reads their journal's first line only), so
// that a folder of years of runs does not slow `run --list`.
const lookBack = 50

// EarlierTimings are what the newest finished run of the suite name in dir timed that
// a plan cannot know beforehand (plan.Measured: slices of a number of calls, adaptive
// warm-ups), and that run's directory; none ("") when none of the suite's newest
// lookBack run directories in dir, but except, holds one. A run directory's name is
// its start time (RunsDir/<time>), so the newest sort last; a smoke run and a run
// with no results.json (killed, or still running) are passed over.
//
// It lists the run directories itself, though results/store.FindResults lists run
// directories' results too: package store carries SQLite (modernc.org/sqlite), which
// importing it would bring into runner and into every module that imports runner
// (deploy/deploytest's go.sum has no entry for it: its check failed so on 2026-11-29).
func EarlierTimings(dir, name, except string) (plan.Timings, string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return plan.Timings{}, ""
	}
	slices.Reverse(entries)
	read := 0
	for _, e := range entries {
		run := filepath.Join(dir, e.Name())
		if !e.IsDir() || run == filepath.Clean(except) || journalSuite(run) != name {
			continue
		}
		if read++; read > lookBack {
			break
		}
		res, err := results.ReadFile(filepath.Join(run, ResultsFile))
		if err != nil {
			continue
		}
		if got := plan.Measured(res); got.Any() {
			return got, run
		}
	}
	return plan.Timings{}, ""
}

// journalSuite is the suite named by the header of the journal in dir, its first
// line, read alone (a journal holds every slice's histogram, and only its header is
// wanted here); "" when there is none.
func journalSuite(dir string) string {
	f, err := os.Open(filepath.Join(dir, JournalFile))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	if !sc.Scan() {
		return ""
	}
	var h journalLine
	if json.Unmarshal(sc.Bytes(), &h) != nil || h.Kind != "header" {
		return ""
	}
	return h.Suite
}

// TimedPlan is the plan of bs, benchmarks of s (plan.BuildWith, with resumed and s's
// process), with their slices of a number of calls and their adaptive warm-ups timed
// by the newest earlier run of s in runs but except (EarlierTimings), which is looked
// for only when bs have either.
func TimedPlan(s *suite.Suite, bs []suite.Benchmark, resumed func(name string) bool, runs, except string) *plan.Plan {
	known := plan.Known{Resumed: resumed, InProcess: s.Process == suite.ProcessOne}
	if slices.ContainsFunc(bs, func(b suite.Benchmark) bool { return b.Spec.SliceOps > 0 || b.Spec.WarmupMax > 0 }) {
		known.Measured, _ = EarlierTimings(runs, s.Name, except)
	}
	return plan.BuildWith(bs, known)
}
