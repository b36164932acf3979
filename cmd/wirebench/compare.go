package main

import (
	"fmt"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/compare"
)

type compareCmd struct {
	Old       string  `arg:"" name:"OLD" help:"Results file of the baseline, or a run directory (its results.json)."`
	New       string  `arg:"" name:"NEW" help:"Results file to compare with it, or a run directory."`
	Threshold string  `default:"5%" help:"A regression is worse than this for certain: the ratio's whole interval beyond it (percent of the old score); an interval straddling it is inconclusive."`
	Alpha     float64 `default:"0.05" help:"Significance level of the Mann-Whitney U test."`
	Format    string  `default:"table" enum:"table,benchstat,md" help:"Output: table (terminal), benchstat (benchstat's text format) or md (Markdown)."`
}

// Run prints the comparison and fails (exit 1) when a benchmark regressed
// significantly beyond the threshold; unreadable files and bad flags are
// usage errors (exit 2).
func (c *compareCmd) Run(e *env) error {
	opts, err := compareOptions(c.Threshold, c.Alpha)
	if err != nil {
		return err
	}
	var files [2]string
	var docs [2]*results.Results
	for i, arg := range []string{c.Old, c.New} {
		if files[i], err = resultsFile(arg); err != nil {
			return err
		}
		if docs[i], err = results.ReadFile(files[i]); err != nil {
			return usageError{err}
		}
	}
	res, err := compareResults(docs[0], docs[1], opts, files[0], files[1])
	if err != nil {
		return err
	}
	switch c.Format {
	case "benchstat":
		err = res.WriteBenchstat(e.stdout, c.Old, c.New)
	case "md":
		err = res.WriteMarkdown(e.stdout, c.Old, c.New)
	default:
		err = res.WriteTable(e.stdout, c.Old, c.New)
	}
	if err != nil {
		return err
	}
	if regs := res.Regressions(); len(regs) > 0 {
		return fmt.Errorf("%d benchmark(s) regressed beyond %v%%: %s", len(regs), opts.Threshold, compare.RegressionList(regs))
	}
	return nil
}

// compareResults compares old with new; two files with no benchmark in common are
// a usage error (exit 2): nothing was compared, so no verdict can be given.
func compareResults(old, new *results.Results, opts compare.Options, oldLabel, newLabel string) (*compare.Result, error) {
	res, err := compare.Compare(old, new, opts)
	if err != nil {
		return nil, usageError{err}
	}
	for _, row := range res.Rows {
		if row.Presence == compare.Both {
			return res, nil
		}
	}
	return nil, usagef("%s (%d benchmarks) and %s (%d) have no benchmark in common: nothing to compare", oldLabel, len(old.Benchmarks), newLabel, len(new.Benchmarks))
}

// compareOptions are the options of compare and gate from their flags.
func compareOptions(threshold string, alpha float64) (compare.Options, error) {
	opts := compare.DefaultOptions()
	t, err := compare.ParseThreshold(threshold)
	if err != nil {
		return opts, usagef("--threshold: %v", err)
	}
	if !(alpha > 0 && alpha < 1) {
		return opts, usagef("--alpha %v: want a level between 0 and 1, e.g. 0.05", alpha)
	}
	opts.Threshold, opts.Alpha = t, alpha
	return opts, nil
}
