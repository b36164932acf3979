package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/compare"
	"github.com/wirebench/wirebench/results/history"
	"github.com/wirebench/wirebench/results/store"
)

type gateCmd struct {
	Current        string  `arg:"" optional:"" name:"RESULTS" help:"The current run: a results.json or a run directory (default: the run recorded last in the store)."`
	BaselineBranch string  `name:"baseline-branch" placeholder:"BRANCH" help:"Compare with the latest stored run of this branch (default: the current run's own branch, i.e. its previous run)."`
	Machine        string  `help:"Take the baseline from this machine's runs (default: the current run's machine; for a RESULTS file, $WIREBENCH_MACHINE or the host name)."`
	AnyMachine     bool    `name:"any-machine" help:"Take the baseline from any machine (scores of different machines rarely compare)."`
	Threshold      string  `default:"5%" help:"A regression is worse than this for certain: the ratio's whole interval beyond it (percent of the baseline's score)."`
	Alpha          float64 `default:"0.05" help:"Significance level of the Mann-Whitney U test; the ratio's interval is at 1 − alpha."`
	Format         string  `default:"md" enum:"md,table" help:"Output: md (a Markdown delta table for a pull-request comment) or table (terminal, with p-values and p99)."`
	NoBaselineOK   bool    `name:"no-baseline-ok" help:"Exit 0 when the store has no baseline run (a first run), instead of 2."`
	storeFlag
}

// Run compares the current run with its branch's stored baseline, prints the delta
// table and fails (exit 1) on a significant regression beyond the threshold. The
// baseline is older than the current run: for a file the store holds, older than its
// stored run; for one it does not, older than the run's start. A store that does not
// exist is empty, and is not made.
func (c *gateCmd) Run(e *env) error {
	opts, err := compareOptions(c.Threshold, c.Alpha)
	if err != nil {
		return err
	}
	var cur store.Run
	var curDoc []byte
	if c.Current != "" {
		file, err := resultsFile(c.Current)
		if err != nil {
			return err
		}
		if curDoc, err = os.ReadFile(file); err != nil {
			return usageError{err}
		}
		// A file is tagged as a run here would be: the CI's or git's commit and branch.
		cur.Tags = store.DetectTags(e.ctx, ".", store.Tags{Machine: c.Machine})
		cur.Key = store.Key(curDoc)
	}
	path, err := c.path()
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if c.Current == "" {
			return usagef("the store %s has no run (it does not exist): record one (wirebench run) or name a results file", path)
		}
		return c.noBaseline(e, fmt.Sprintf("no baseline: the store %s does not exist", path))
	}
	s, err := c.open(e.ctx)
	if err != nil {
		return err
	}
	defer s.Close()

	if c.Current != "" {
		stored, ok, err := s.RunOf(e.ctx, cur.Key)
		if err != nil {
			return err
		}
		if ok {
			cur = stored // its tags, time and id: as recorded
		} else if r, err := results.Read(bytes.NewReader(curDoc)); err == nil {
			cur.Time = r.Environment.Started
		}
	} else {
		last, ok, err := s.LastRecorded(e.ctx)
		if err != nil {
			return err
		}
		if !ok {
			return usagef("the store %s has no run: record one (wirebench run) or name a results file", s.Path())
		}
		cur = last
		if curDoc, err = s.Document(e.ctx, cur.ID); err != nil {
			return err
		}
	}
	// A smoke run's figures are not measurements: it is neither judged nor a baseline.
	if store.Smoke(curDoc) {
		what := c.Current
		if what == "" {
			what = fmt.Sprintf("the run recorded last in %s (run %d)", s.Path(), cur.ID)
		}
		return usagef("%s is a smoke run (--smoke): its figures are not measurements, and gate compares measured runs only", what)
	}
	f := store.Filter{Branch: c.BaselineBranch, Machine: c.Machine, Until: cur.Time, NoSmoke: true} // a baseline is older than the run it judges
	if f.Branch == "" {
		f.Branch = cur.Branch
	}
	if f.Machine == "" && !c.AnyMachine {
		f.Machine = cur.Machine
	}
	base, ok, err := s.Latest(e.ctx, f, cur.Key)
	if err != nil {
		return err
	}
	if !ok {
		return c.noBaseline(e, fmt.Sprintf("no baseline: the store %s has no earlier run of branch %q on machine %q", s.Path(), f.Branch, f.Machine))
	}
	baseDoc, err := s.Document(e.ctx, base.ID)
	if err != nil {
		return err
	}
	oldRes, err := results.Read(bytes.NewReader(baseDoc))
	if err != nil {
		return fmt.Errorf("baseline run %d: %w", base.ID, err)
	}
	newRes, err := results.Read(bytes.NewReader(curDoc))
	if err != nil {
		return usageError{fmt.Errorf("current run: %w", err)}
	}
	oldLabel, newLabel := runLabel(base), runLabel(cur)
	res, err := compareResults(oldRes, newRes, opts, oldLabel, newLabel)
	if err != nil {
		return err
	}
	if c.Format == "table" {
		err = res.WriteTable(e.stdout, oldLabel, newLabel)
	} else {
		err = res.WriteDelta(e.stdout, oldLabel, newLabel)
	}
	if err != nil {
		return err
	}
	if regs := res.Regressions(); len(regs) > 0 {
		return fmt.Errorf("%d benchmark(s) regressed beyond %v%% against %s: %s", len(regs), opts.Threshold, oldLabel, compare.RegressionList(regs))
	}
	return nil
}

// noBaseline ends a gate that found no baseline: exit 0 with --no-baseline-ok,
// else a usage error.
func (c *gateCmd) noBaseline(e *env, msg string) error {
	if c.NoBaselineOK {
		fmt.Fprintf(e.stdout, "%s; nothing to compare.\n", msg)
		return nil
	}
	return usagef("%s (record one, or see --baseline-branch, --machine, --any-machine, --no-baseline-ok)", msg)
}

// resultsFile returns the results file an argument names: a file, or a run
// directory's results.json (store.FindResults, which history import reads too).
func resultsFile(arg string) (string, error) {
	files, err := store.FindResults(arg)
	if err != nil {
		return "", usageError{err}
	}
	if len(files) != 1 {
		return "", usagef("%s holds %d runs: name one run directory or results.json", arg, len(files))
	}
	return files[0], nil
}

// runLabel names a run in the table: branch@commit and its start, or what is known.
func runLabel(r store.Run) string {
	l := orNone(r.Branch) + "@" + history.ShortCommit(r.Commit)
	if !r.Time.IsZero() {
		l += " " + r.Time.UTC().Format("2006-01-02 15:04")
	}
	if r.ID != 0 {
		l += fmt.Sprintf(" (run %d)", r.ID)
	}
	return l
}
