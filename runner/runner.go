// Package runner runs a whole suite: every benchmark in turn over the cluster driver,
// each finished one journaled to disk before the next starts, and the results written
// as JSON, Markdown and HTML at the end or when the run is interrupted. It reports
// progress as events and never prints.
package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"time"

	"github.com/wirebench/wirebench/bench"
	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/host"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/suite"
)

// Options of a run.
type Options struct {
	// Dir is the output directory: journal, results.json, report.md, report.html.
	Dir string
	// Resume continues the run journaled in Dir, skipping the benchmarks it holds.
	Resume bool
	// Filter, when set, keeps only the benchmarks whose name matches.
	Filter *regexp.Regexp
	// Binary is the wirebench executable for workers ("" for this one).
	Binary string
	// Version is wirebench's version, for the environment.
	Version string
	// Observe, when set, receives progress events, from one goroutine at a time.
	Observe func(Event)
}

// Event is progress of a run.
type Event struct {
	Kind EventKind
	// Index and Total place the benchmark in the run (0-based index), counting the
	// ones skipped on resume.
	Index, Total int
	Name         string
	// Estimate is the benchmark's expected length (suite.Benchmark.Estimate).
	Estimate time.Duration
	// Interval is set for KindInterval.
	Interval *cluster.Event
	// Result is set for KindDone; Err when the benchmark failed.
	Result *report.Benchmark
	Err    error
}

// EventKind says what happened.
type EventKind int

const (
	KindSkipped  EventKind = iota // journaled by an earlier run, not run again
	KindStart                     // a benchmark starts
	KindInterval                  // a phase of it finished
	KindDone                      // it finished (Err says if it failed)
)

// Outcome is what a run produced.
type Outcome struct {
	Results *report.Results
	// Files are the report files written, by kind ("json", "md", "html").
	Files map[string]string
	// Failed counts benchmarks that failed (their partial results are kept).
	Failed int
}

// Select returns the suite's benchmarks that the filter keeps.
func Select(s *suite.Suite, filter *regexp.Regexp) []suite.Benchmark {
	var out []suite.Benchmark
	for _, b := range s.Benchmarks {
		if filter == nil || filter.MatchString(b.Name) {
			out = append(out, b)
		}
	}
	return out
}

// Run runs the suite. When ctx ends it stops the benchmark in progress (which is not
// kept: --resume runs it again), writes the reports from what finished and returns
// ctx's error with the outcome. A benchmark that fails is kept with its error and the
// run goes on; Outcome.Failed counts them.
func Run(ctx context.Context, s *suite.Suite, opt Options) (*Outcome, error) {
	benchmarks := Select(s, opt.Filter)
	if len(benchmarks) == 0 {
		return nil, fmt.Errorf("no benchmark of suite %s matches the filter %v", s.Name, opt.Filter)
	}
	j, st, err := openJournal(opt.Dir, opt.Resume)
	if err != nil {
		return nil, err
	}
	defer j.close()
	if opt.Resume && st.suite != "" && st.suite != s.Name {
		return nil, fmt.Errorf("%s holds a run of suite %q, not %q", opt.Dir, st.suite, s.Name)
	}
	env := st.env
	if env == nil {
		e := environment(opt.Version, benchmarks)
		env = &e
		if err := j.append(journalLine{Kind: "header", Suite: s.Name, Environment: env}); err != nil {
			return nil, err
		}
	}
	done := map[string]report.Benchmark{}
	for _, b := range st.benchmarks {
		done[b.Name] = b
	}
	if err := sameSettings(opt.Dir, benchmarks, done); err != nil {
		return nil, err
	}
	observe := func(e Event) {
		if opt.Observe != nil {
			opt.Observe(e)
		}
	}
	out := &Outcome{}
	var runErr error
	for i, b := range benchmarks {
		if _, ok := done[b.Name]; ok {
			observe(Event{Kind: KindSkipped, Index: i, Total: len(benchmarks), Name: b.Name})
			continue
		}
		observe(Event{Kind: KindStart, Index: i, Total: len(benchmarks), Name: b.Name, Estimate: b.Estimate()})
		server, client := b.ServerCPUs, b.ClientCPUs
		if runtime.NumCPU() < 2 {
			server, client = nil, nil
		}
		trials, err := cluster.Run(ctx, b.Spec, cluster.Options{Binary: opt.Binary, ServerCPUs: server, ClientCPUs: client,
			Observe: func(ev cluster.Event) {
				observe(Event{Kind: KindInterval, Index: i, Total: len(benchmarks), Name: b.Name, Interval: &ev})
			}})
		if ctx.Err() != nil {
			runErr = ctx.Err()
			break
		}
		res := bench.Summarize(b.Spec, b.Mode, trials)
		if err != nil {
			out.Failed++
			res.Warnings = append(res.Warnings, "failed: "+err.Error())
		}
		if jerr := j.append(journalLine{Kind: "benchmark", Benchmark: &res}); jerr != nil {
			return nil, jerr // nothing more can be kept safely
		}
		done[b.Name] = res
		observe(Event{Kind: KindDone, Index: i, Total: len(benchmarks), Name: b.Name, Result: &res, Err: err})
	}
	// Results in suite order, with what earlier runs journaled for this suite.
	out.Results = &report.Results{SchemaVersion: report.SchemaVersion, Environment: *env,
		Suite: &report.SuiteInfo{Name: s.Name, Description: s.Description, Views: s.Views}}
	for _, b := range benchmarks {
		if r, ok := done[b.Name]; ok {
			out.Results.Benchmarks = append(out.Results.Benchmarks, r)
		}
	}
	for _, r := range st.benchmarks {
		if !contains(out.Results.Benchmarks, r.Name) {
			out.Results.Benchmarks = append(out.Results.Benchmarks, r) // filtered out this time
		}
	}
	if len(out.Results.Benchmarks) == 0 {
		return out, runErr
	}
	files, err := WriteReports(opt.Dir, out.Results)
	out.Files = files
	return out, errors.Join(runErr, err)
}

// sameSettings refuses a resume whose benchmarks would be measured differently from
// the ones of the same name already journaled (a --smoke run resumed without --smoke,
// a suite file edited in between): their results would sit in one report as if they
// were comparable.
func sameSettings(dir string, bs []suite.Benchmark, done map[string]report.Benchmark) error {
	for _, b := range bs {
		r, ok := done[b.Name]
		if !ok {
			continue
		}
		was, now := settingsOf(r.WarmupSeconds, r.Iterations, r.IterationSeconds, r.IterationOps),
			settingsOf(b.Spec.Warmup.Seconds(), b.Spec.Iterations, b.Spec.IterationTime.Seconds(), b.Spec.IterationOps)
		if was != now {
			return fmt.Errorf("%s holds %s measured with %s, but this run asks for %s "+
				"(--smoke, or the suite file, differs from the journaled run's): resume with the same "+
				"flags and suite, or start a new run with another --out", dir, b.Name, was, now)
		}
	}
	return nil
}

// settingsOf describes how a benchmark is measured, for sameSettings.
func settingsOf(warmup float64, iterations int, iterSeconds float64, iterOps int64) string {
	each := fmt.Sprintf("%g s", iterSeconds)
	if iterOps > 0 {
		each = fmt.Sprintf("%d ops", iterOps)
	}
	return fmt.Sprintf("%g s warmup and %d iterations of %s", warmup, iterations, each)
}

func contains(bs []report.Benchmark, name string) bool {
	for _, b := range bs {
		if b.Name == name {
			return true
		}
	}
	return false
}

// WriteReports writes results.json, report.md and report.html into dir.
func WriteReports(dir string, r *report.Results) (map[string]string, error) {
	files := map[string]string{}
	write := func(kind, name string, fn func(*os.File) error) error {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := fn(f); err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return err
		}
		files[kind] = path
		return nil
	}
	err := errors.Join(
		write("json", "results.json", func(f *os.File) error { return r.Write(f) }),
		write("md", "report.md", func(f *os.File) error { return report.WriteMarkdown(f, r) }),
		write("html", "report.html", func(f *os.File) error { return report.WriteHTML(f, r) }),
	)
	return files, err
}

func environment(version string, bs []suite.Benchmark) report.Environment {
	h := host.ReadHost()
	env := report.Environment{CPUModel: h.CPUModel, Cores: h.Cores, MemoryBytes: h.MemoryBytes, Kernel: h.Kernel,
		OS: h.OS, GoVersion: runtime.Version(), WirebenchVersion: version, Started: time.Now().UTC()}
	if runtime.NumCPU() >= 2 && len(bs) > 0 {
		env.ServerCPUs = cpuset.FormatCPUList(bs[0].ServerCPUs)
		env.ClientCPUs = cpuset.FormatCPUList(bs[0].ClientCPUs)
	}
	return env
}
