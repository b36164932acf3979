package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/summary"
)

type reportCmd struct {
	Results string `arg:"" name:"RESULTS" help:"Results file, as 'wirebench run' or 'bench --json' wrote it, or a run directory (its results.json)."`
	Format  string `short:"f" default:"table" enum:"table,md,csv,json,html" help:"Output: table (terminal), md (Markdown), csv, json (the results file, checked), or html (one self-contained file with charts)."`
	PNG     string `name:"png" placeholder:"DIR" help:"Also write each chart as a PNG into DIR (created if missing)."`
	Out     string `short:"o" placeholder:"FILE" help:"Write the report to FILE instead of standard output (- is standard output)."`
}

// Run renders a results file. A file that is missing or not a results file is
// a usage error (exit 2); a failure to write is exit 1. The report is rendered
// in full before anything is written, so a failed render leaves no half file.
func (c *reportCmd) Run(e *env) error {
	file, err := resultsFile(c.Results)
	if err != nil {
		return err
	}
	r, err := results.ReadFile(file)
	if err != nil {
		return usageError{err}
	}
	if c.Format != "json" { // json is the file itself
		fillCalls(r.Benchmarks)
		summary.FillDrift(r.Benchmarks) // a file from before drift figures: from its slices
	}
	var buf bytes.Buffer
	switch c.Format {
	case "md":
		err = report.WriteMarkdown(&buf, r)
	case "csv":
		err = report.WriteCSV(&buf, r)
	case "json":
		err = r.Write(&buf)
	case "html":
		err = report.WriteHTML(&buf, r)
	case "table":
		// The terminal report holds what run printed (the verdicts, the comparison per
		// operation, the views in the original's shape), then each benchmark's detail.
		// Fitted to the terminal when it goes to one, as run's summary is.
		width := 0
		if c.Out == "" || c.Out == stdoutPath {
			width = terminalWidth(e.stdout)
		}
		err = report.WriteReportTextWidth(&buf, r, width)
	default: // kong's enum has refused it already
		return usagef("--format %q: want table, md, csv, json or html", c.Format)
	}
	if err != nil {
		return err
	}
	out := c.Out
	if out == "" {
		out = stdoutPath
	}
	if err := writeOutput(e, out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return err
	}
	if c.PNG != "" {
		paths, err := report.WritePNGs(c.PNG, r)
		if err != nil {
			return fmt.Errorf("--png: %w", err)
		}
		fmt.Fprintf(e.stderr, "wrote %d charts to %s\n", len(paths), c.PNG)
	}
	return nil
}

// fillCalls sets the calls per op of each benchmark of a file written before they
// were recorded (calls_per_op absent) from what its workload makes of its params, so
// that the reports' figures per call (the matrix, rpcecho's lines) hold for old files
// too. A workload this wirebench does not know keeps 0.
func fillCalls(bs []results.Benchmark) {
	for i := range bs {
		b := &bs[i]
		if b.CallsPerOp > 0 {
			continue
		}
		w, err := contract.LookupWorkload(b.Workload)
		if err != nil {
			continue
		}
		// The params are written by their contract.Params JSON names.
		p := w.DefaultParams()
		if data, err := json.Marshal(b.Params); err == nil {
			_ = json.Unmarshal(data, &p) // a param of another type keeps its default
		}
		b.CallsPerOp = w.Calls(p)
	}
}
