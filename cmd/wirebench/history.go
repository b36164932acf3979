package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/wirebench/wirebench/results/history"
	"github.com/wirebench/wirebench/results/store"
)

type historyCmd struct {
	Show   historyShowCmd   `cmd:"" default:"withargs" help:"Show each benchmark's series of scores and ratios over the recorded runs, with its change points (the default)."`
	Import historyImportCmd `cmd:"" help:"Record existing results: results.json files, run directories, or directories of run directories (${runs_dir}/, or results/ of older runs)."`
}

type historyShowCmd struct {
	storeFlag
	Benchmark string  `short:"b" help:"Only benchmarks whose name contains this."`
	Machine   string  `help:"Only runs of this machine."`
	Branch    string  `help:"Only runs of this branch."`
	Since     string  `help:"Only runs started at or after this date (2006-01-02, or RFC 3339)."`
	Until     string  `help:"Only runs started before this date (2006-01-02, or RFC 3339)."`
	HTML      string  `name:"html" placeholder:"FILE" help:"Also write the series as an HTML page, one chart per benchmark (intervals drawn, change points marked); - writes it to standard output (and the table to standard error)."`
	Alpha     float64 `default:"${change_alpha}" help:"Level of the change points' test (Bonferroni-corrected over the places a split could go)."`
	MinRuns   int     `name:"min-runs" default:"${min_runs}" help:"Fewest runs a level between two change points may have."`
}

func (c *historyShowCmd) Run(e *env) error {
	if !(c.Alpha > 0 && c.Alpha < 1) {
		return usagef("--alpha %v: want a level between 0 and 1, e.g. 0.001", c.Alpha)
	}
	if c.MinRuns < 2 {
		return usagef("--min-runs %d: want at least 2", c.MinRuns)
	}
	f := store.Filter{Benchmark: c.Benchmark, Machine: c.Machine, Branch: c.Branch}
	var err error
	if f.Since, err = parseDate("--since", c.Since); err != nil {
		return err
	}
	if f.Until, err = parseDate("--until", c.Until); err != nil {
		return err
	}
	s, err := c.open(e.ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	runs, err := s.Runs(e.ctx, f)
	if err != nil {
		return err
	}
	series := history.Build(runs, history.Options{Alpha: c.Alpha, MinSegment: c.MinRuns})
	fmt.Fprintf(e.stderr, "wirebench: %s: %d runs, %d series\n", s.Path(), len(runs), len(series))
	if err := history.WriteTable(textOut(e, c.HTML), series); err != nil {
		return err
	}
	if c.HTML != "" {
		if err := writeOutput(e, c.HTML, func(w io.Writer) error { return history.WriteHTML(w, "wirebench history", series) }); err != nil {
			return err
		}
		if c.HTML != stdoutPath {
			fmt.Fprintf(e.stderr, "wirebench: wrote %s\n", c.HTML)
		}
	}
	return nil
}

// parseDate reads a date flag: a day (UTC) or an RFC 3339 time.
func parseDate(flag, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, usagef("%s %q: want a date such as 2026-11-24, or an RFC 3339 time", flag, s)
	}
	return t, nil
}

type historyImportCmd struct {
	Paths   []string `arg:"" name:"PATH" help:"results.json files, run directories, or directories of run directories."`
	Commit  string   `help:"Commit the imported results were measured at (default: none)."`
	Branch  string   `help:"Branch the imported results were measured on (default: none)."`
	Machine string   `help:"Machine they were measured on (default: $WIREBENCH_MACHINE or the host name)."`
	// RecordSmoke imports smoke runs too, which are left out by default.
	RecordSmoke bool `name:"record-smoke" help:"Import smoke runs too (left out by default: their figures are not measurements)."`
	storeFlag
}

// Run records every results document found, each in its own transaction: one that
// is already in the store is skipped, so importing twice adds nothing.
func (c *historyImportCmd) Run(e *env) error {
	var files []string
	for _, p := range c.Paths {
		fs, err := store.FindResults(p)
		if err != nil {
			return usageError{err}
		}
		files = append(files, fs...)
	}
	s, err := c.open(e.ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	// Imported results are not from the checkout here: they get the commit and branch
	// given, none by default; the machine defaults as for a run.
	tags := store.Tags{Commit: c.Commit, Branch: c.Branch, Machine: store.DetectTags(e.ctx, "", store.Tags{Commit: "-", Branch: "-", Machine: c.Machine}).Machine}
	added, skipped, smoke := 0, 0, 0
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if store.Smoke(doc) && !c.RecordSmoke {
			smoke++
			fmt.Fprintf(e.stdout, "%s: a smoke run, not imported (--record-smoke imports it)\n", f)
			continue
		}
		run, isNew, err := s.Record(e.ctx, doc, tags, f)
		if err != nil {
			return fmt.Errorf("%s: %w (%d imported before it)", f, err, added)
		}
		if isNew {
			added++
			fmt.Fprintf(e.stdout, "%s: run %d, %d benchmarks, started %s\n", f, run.ID, len(run.Entries), run.Time.UTC().Format(time.RFC3339))
		} else {
			skipped++
			fmt.Fprintf(e.stdout, "%s: already recorded as run %d\n", f, run.ID)
		}
	}
	left := ""
	if smoke > 0 {
		left = fmt.Sprintf(", %d smoke run(s) left out", smoke)
	}
	fmt.Fprintf(e.stderr, "wirebench: %d run(s) imported into %s, %d already there%s\n", added, s.Path(), skipped, left)
	return nil
}
