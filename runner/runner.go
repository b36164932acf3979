// Package runner runs a whole suite: every benchmark in turn over package driver,
// each finished one journaled to disk before the next starts, and the results written
// as JSON, Markdown and HTML at the end or when the run is interrupted. It reports
// progress as events and never prints.
package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/internal/cpuset"
	"github.com/wirebench/wirebench/internal/host"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/summary"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
	"github.com/wirebench/wirebench/suite"
)

// Options of a run.
type Options struct {
	// Dir is the output directory: journal, results.json, report.md, report.html.
	Dir string
	// Resume continues the run journaled in Dir: it runs only the forks the journal
	// does not hold, and again those that failed (a worker gone, a pod deleted).
	Resume bool
	// Filter, when set, keeps only the benchmarks whose name matches.
	Filter *regexp.Regexp
	// Binary is the wirebench executable for workers ("" for this one).
	Binary string
	// Version is wirebench's version, for the environment.
	Version string
	// Seed orders the targets of interleaved rounds.
	Seed uint64
	// ProfileDir, when set, receives CPU profiles of the Go workers (driver.Options).
	ProfileDir string
	// Observe, when set, receives progress events, from one goroutine at a time.
	Observe func(Event)
	// Hosts places the workers and the link between them (the suite's, with the
	// command line's overrides).
	Hosts spec.Hosts
	// Precision, when > 0, makes each interleaved group add forks until every
	// ratio's interval is within ±Precision of it (0.05: ±5 %), or until Budget,
	// the group's time, is spent (0: PrecisionBudget). Each batch of forks has the
	// suite's forks count.
	Precision float64
	Budget    time.Duration
	// Command is the command line that started the run, for the results' title.
	Command string
	// KeepCut, when the run is interrupted, keeps in its results what the group in
	// progress measured, the fork in progress included, rather than its finished
	// forks only (bench: the slices that finished are shown).
	KeepCut bool
	// TLS holds the certificates of benchmarks over the "tls" transport given by the
	// user (driver.Options.TLS); without a server certificate each server gets one
	// made for it.
	TLS transport.TLS
	// Args are the arguments the run was started with that decide what it measures
	// (the command line's, by name, as JSON), journaled in its header for a resume to
	// read back (ReadHeader). The runner keeps them and does not read them.
	Args map[string]json.RawMessage
}

// OneProcessRole is the role of the one host of a run with process: one (a results
// file's environment.workers): the process that ran the suite served and called.
const OneProcessRole = "server and client, one process"

// RunsDir is the folder `wirebench run` writes each run's directory into,
// RunsDir/<time>, unless -o names one: "runs", not the name of a package of the
// repository (results/ is one). Any run directory works wherever a directory is
// given (--resume, report, compare, history import), results/<time> of older runs too.
const RunsDir = "runs"

// PrecisionBudget is a group's time when --precision is given without --budget.
const PrecisionBudget = 10 * time.Minute

// Event is progress of a run.
type Event struct {
	Kind EventKind
	// Index and Total place the benchmark in the run (0-based index), counting the
	// ones skipped on resume.
	Index, Total int
	Name         string
	// Group is set for KindStart and KindFork: the names of the benchmarks measured
	// together (one, or a comparison group measured interleaved), Index being the
	// first's, and GroupKey the group's key (spec.Spec.RoundsGroup); Estimate is their
	// expected length (plan.Group.Estimate) and Resumed the forks of theirs an earlier run
	// journaled (KindStart).
	Group    []string
	GroupKey string
	Estimate time.Duration
	Resumed  int
	// Fork counts the run's finished forks, an earlier run's included, and Forks is
	// the run's number of forks: each fork of a group of interleaved targets counts
	// once, any other benchmark's each, a capacity search one;
	// --precision adds forks as it goes. Left is the time the forks not finished
	// should take: their plan (package plan), scaled by the time the forks finished
	// in this run took against their plan. Set for KindStart and KindFork.
	Fork, Forks int
	Left        time.Duration
	// NotRun, set for KindFork, counts the forks of this event settled without
	// measuring anything: they failed at once, or their benchmark had failed.
	NotRun int
	// Rounds is the number of rounds of an interleaved group (KindStart).
	Rounds int
	// Interval is set for KindInterval (its Target indexes Group).
	Interval *driver.Event
	// Result is set for KindDone; Err when the benchmark failed.
	Result *results.Benchmark
	Err    error
}

// EventKind says what happened.
type EventKind int

const (
	KindSkipped  EventKind = iota // journaled by an earlier run, not run again
	KindStart                     // a benchmark, or a group measured together, starts
	KindInterval                  // a phase of one of them finished
	KindDone                      // a benchmark finished (Err says if it failed)
	KindFork                      // a fork finished and is journaled
)

// Outcome is what a run produced.
type Outcome struct {
	Results *results.Results
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

// baselineOf returns the position in group (indices into bs) of the suite's
// baseline, else of the group's first target across a wire (an in-process floor such
// as direct is two orders of magnitude off every other target: ratios to it read
// 0.00×), else 0.
func baselineOf(s *suite.Suite, bs []suite.Benchmark, group []int) int {
	for k, i := range group {
		if s.IsBaseline(bs[i]) {
			return k
		}
	}
	for k, i := range group {
		if bs[i].Spec.Transport != spec.InProc {
			return k
		}
	}
	return 0
}

// Run runs the suite as its plan says (package plan: batches of groups, in suite
// order), journaling each fork as it finishes and each group when it is summarized.
// When ctx ends it stops the fork in progress (which is not kept: --resume runs it
// again), writes the reports from what finished, the finished forks of the group cut
// short included, and returns ctx's error with the outcome. A benchmark that fails is
// kept with its error and the run goes on; Outcome.Failed counts them.
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
	st.retryFailed()
	env, err := runEnvironment(ctx, s, opt, benchmarks, j, st)
	if err != nil {
		return nil, err
	}
	done := map[string]results.Benchmark{}
	for _, b := range st.benchmarks {
		done[b.Name] = b
	}
	if err := sameSettings(opt.Dir, benchmarks, done, st.settings); err != nil {
		return nil, err
	}
	p := TimedPlan(s, benchmarks, func(name string) bool {
		_, ok := done[name]
		return ok || len(st.forks[name]) > 0
	}, filepath.Dir(opt.Dir), opt.Dir)
	r := newGroupRuns(s, p, done, st, opt, j)
	out := &Outcome{}
	runErr, err := r.runPlan(ctx, out)
	if err != nil {
		return out, err
	}
	out.Results = r.results(env)
	if len(out.Results.Benchmarks) == 0 {
		return out, runErr
	}
	files, err := WriteReports(opt.Dir, out.Results)
	out.Files = files
	return out, errors.Join(runErr, err)
}

// runEnvironment is the run's environment: the journal's, on a resume, else read now
// and journaled in the run's header.
func runEnvironment(ctx context.Context, s *suite.Suite, opt Options, bs []suite.Benchmark, j *journal, st *journalState) (*results.Environment, error) {
	if h := st.header; h != nil {
		if h.Suite != "" && h.Suite != s.Name {
			return nil, fmt.Errorf("%s holds a run of suite %q, not %q", opt.Dir, h.Suite, s.Name)
		}
		if h.Environment != nil {
			return h.Environment, nil
		}
	}
	e, err := environment(ctx, opt, bs)
	if err != nil {
		return nil, err
	}
	if s.Process == suite.ProcessOne && len(e.Workers) > 0 {
		// No worker: this process is the server and the client.
		here := e.Workers[0]
		here.Role = OneProcessRole
		e.Workers = []results.WorkerHost{here}
	}
	if err := j.append(journalLine{Kind: "header", Suite: s.Name, Environment: &e, Args: opt.Args}); err != nil {
		return nil, err
	}
	return &e, nil
}

// measured is what measure returns beside the summaries: the driver's results of a
// group (nil for a capacity search) and each benchmark's failure.
type measured struct {
	results []*results.Measured
	err     []error
}

// any reports whether a benchmark of the group failed.
func (m measured) any() bool {
	for _, err := range m.err {
		if err != nil {
			return true
		}
	}
	return false
}

// measureGroup measures a group (measure), after the forks prior holds (an earlier
// run's, journaled), and pairs its ratios against base (summary.Group); with
// o.Precision, it adds batches of forks while a ratio's interval is wider than asked
// and the budget allows another batch (grow is told of each), and says on each
// benchmark whether its ratio reached the precision. The budget counts from this
// call: a resumed group's earlier forks are not in it.
//
// run measures the group: driver.MeasureGroup, with worker processes, or
// driver.MeasureOneProcess, in this one.
func measureGroup(ctx context.Context, run groupRunner, specs []spec.Spec, copts driver.Options, base int, o Options, prior []*results.Measured, grow func(forks int)) ([]results.Benchmark, measured) {
	start := time.Now()
	before := forksOf(prior)
	summaries, m := measure(ctx, run, specs, copts, prior, specs[0].Forks)
	if len(specs) < 2 {
		return summaries, m
	}
	summary.Group(summaries, base)
	if o.Precision <= 0 || m.results == nil || specs[0].Method != spec.MethodInterleaved {
		return summaries, m
	}
	budget := o.Budget
	if budget <= 0 {
		budget = PrecisionBudget
	}
	batch := specs[0].Forks
	for ctx.Err() == nil && widest(summaries) > o.Precision {
		forks := forksOf(m.results)
		spent := time.Since(start)
		// Another batch costs about what the forks of this call cost, each.
		if ran := forks - before; ran > 0 && spent+spent*time.Duration(batch)/time.Duration(ran) > budget {
			break
		}
		grow(batch)
		_, next := measure(ctx, run, specs, copts, m.results, forks+batch)
		if ctx.Err() != nil {
			return summaries, m
		}
		m = next
		summaries = summarize(specs, m)
		summary.Group(summaries, base)
	}
	for k := range summaries {
		if w := precisionWarning(&summaries[k], o.Precision, time.Since(start)); w != "" {
			summaries[k].Warnings = append(summaries[k].Warnings, results.Warning{Kind: results.WarnPrecision, Text: w})
		}
	}
	return summaries, m
}

// widest is the widest relative half-width of a group's ratios.
func widest(bs []results.Benchmark) float64 {
	w := 0.0
	for _, b := range bs {
		if r := b.Summary.Relative; r != nil {
			w = max(w, r.HalfWidth())
		}
	}
	return w
}

// precisionWarning says whether b's ratio reached the precision asked for.
func precisionWarning(b *results.Benchmark, p float64, took time.Duration) string {
	r := b.Summary.Relative
	if r == nil {
		return ""
	}
	if h := r.HalfWidth(); h > p {
		return fmt.Sprintf("±%.1f %% not reached in %v and %d forks (the budget); its interval is ±%.1f %%", p*100, took.Round(time.Second), r.Forks, h*100)
	}
	return ""
}

// groupRunner measures a comparison group: driver.MeasureGroup or driver.MeasureOneProcess.
type groupRunner func(context.Context, []spec.Spec, driver.Options) []*results.Measured

// measure runs one group with run (or one capacity search) until each benchmark has
// want forks, after those prev holds (runForks), and summarizes each benchmark.
func measure(ctx context.Context, run groupRunner, specs []spec.Spec, opt driver.Options, prev []*results.Measured, want int) ([]results.Benchmark, measured) {
	out := make([]results.Benchmark, len(specs))
	m := measured{err: make([]error, len(specs))}
	if len(specs) == 1 && specs[0].Capacity != nil {
		res, err := control.Resolve(specs[0])
		if err != nil {
			m.err[0] = err
			out[0] = failedBenchmark(specs[0], err)
			return out, m
		}
		found, err := driver.Capacity(ctx, res, opt, func(st results.SearchStep) {
			if opt.Observe != nil {
				opt.Observe(driver.Event{Interval: st.Interval})
			}
		})
		m.err[0] = err
		out[0] = summary.Capacity(driver.DescribeResolved(res), found, err)
		return out, m
	}
	m.results = runForks(ctx, run, specs, opt, prev, want)
	for k := range specs {
		m.err[k] = m.results[k].Err
	}
	return summarize(specs, m), m
}

// summarize summarizes each benchmark of a group from what the driver measured,
// each fork from its steady state on (summary.Steadiness).
func summarize(specs []spec.Spec, m measured) []results.Benchmark {
	out := make([]results.Benchmark, len(specs))
	steady := summary.Steadiness(m.results, specs[0].Load.Kind == load.Open)
	for k := range specs {
		res, err := control.Resolve(specs[k])
		if err != nil {
			// Resolve failed before anything ran: the driver says so in its result.
			out[k] = failedBenchmark(specs[k], m.results[k].Err)
			continue
		}
		out[k] = summary.Benchmark(driver.DescribeResolved(res), m.results[k], steady[k])
	}
	return out
}

// failedBenchmark is the result of a benchmark that could not even be set up.
func failedBenchmark(s spec.Spec, err error) results.Benchmark {
	b := driver.DescribeSpec(s)
	if err != nil {
		b.Warnings = results.Warnings{results.Failure(err)}
	}
	return b
}

// sameSettings refuses a resume whose benchmarks would be measured differently from
// the ones of the same name already journaled (a --smoke run resumed without --smoke,
// a suite file edited in between): their results would sit in one report as if they
// were comparable.
// forks are the settings of the benchmarks with journaled forks and no summary yet.
func sameSettings(dir string, bs []suite.Benchmark, done map[string]results.Benchmark, forks map[string]string) error {
	for _, b := range bs {
		was, ok := forks[b.Name]
		if r, summarized := done[b.Name]; summarized {
			was, ok = settingsOf(r.WarmupSeconds, r.WarmupMaxSeconds, r.Rounds, r.SliceSeconds, r.SliceOps), true
		}
		if !ok {
			continue
		}
		if now := specSettings(b.Spec); canonicalSettings(was) != now {
			return fmt.Errorf("%s holds %s measured with %s, but this run asks for %s "+
				"(--smoke, or the suite file, differs from the journaled run's): resume with the same "+
				"flags and suite, or start a new run with another --out", dir, b.Name, was, now)
		}
	}
	return nil
}

// specSettings is settingsOf a benchmark to measure.
func specSettings(s spec.Spec) string {
	return settingsOf(s.Warmup.Seconds(), s.WarmupMax.Seconds(), s.Rounds, s.SliceTime.Seconds(), s.SliceOps)
}

// canonicalSettings is a journaled settingsOf as today's settingsOf writes it: before
// 2026-11-29 rounds were called iterations ("2 iterations of 1 s"), and one round was
// written "1 rounds"; a journal written then holds that, and the run it journaled still
// resumes.
func canonicalSettings(was string) string {
	if before, after, ok := strings.Cut(was, " iterations of "); ok {
		was = before + " rounds of " + after + " slices"
	}
	return strings.Replace(was, " 1 rounds of ", " 1 round of ", 1)
}

// settingsOf describes how a benchmark is measured, for sameSettings.
func settingsOf(warmup, warmupMax float64, rounds int, sliceSeconds float64, sliceOps int64) string {
	each := fmt.Sprintf("%g s", sliceSeconds)
	if sliceOps > 0 {
		each = fmt.Sprintf("%d ops", sliceOps)
	}
	nRounds := fmt.Sprintf("%d rounds", rounds)
	if rounds == 1 {
		nRounds = "1 round"
	}
	if warmupMax > 0 {
		return fmt.Sprintf("%g to %g s adaptive warmup and %s of %s slices", warmup, warmupMax, nRounds, each)
	}
	return fmt.Sprintf("%g s warmup and %s of %s slices", warmup, nRounds, each)
}

func contains(bs []results.Benchmark, name string) bool {
	for _, b := range bs {
		if b.Name == name {
			return true
		}
	}
	return false
}

// WriteReports writes results.json, report.md and report.html into dir.
func WriteReports(dir string, r *results.Results) (map[string]string, error) {
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
		write("json", ResultsFile, func(f *os.File) error { return r.Write(f) }),
		write("md", "report.md", func(f *os.File) error { return report.WriteMarkdown(f, r) }),
		write("html", "report.html", func(f *os.File) error { return report.WriteHTML(f, r) }),
	)
	return files, err
}

func environment(ctx context.Context, opt Options, bs []suite.Benchmark) (results.Environment, error) {
	var server, client []int
	if runtime.NumCPU() >= 2 && len(bs) > 0 {
		server, client = bs[0].Spec.Pinning()
	}
	return Environment(ctx, opt.Version, server, client, opt.Hosts)
}

// Environment describes this host, the run's pinning, every worker's host and the
// link between them, starting now. It reaches every remote worker (driver.Describe),
// so a wrong address or token fails here, before anything runs.
func Environment(ctx context.Context, version string, serverCPUs, clientCPUs []int, hosts spec.Hosts) (results.Environment, error) {
	workers, err := driver.Describe(ctx, hosts, serverCPUs, clientCPUs)
	if err != nil {
		return results.Environment{}, err
	}
	if hosts.Server != "" {
		serverCPUs = nil // a remote worker pins itself; its host says how
	}
	if len(hosts.Clients) > 0 {
		clientCPUs = nil
	}
	h := host.ReadHost()
	return results.Environment{CPUModel: h.CPUModel, Cores: h.Cores, MemoryBytes: h.MemoryBytes, Kernel: h.Kernel,
		OS: h.OS, GoVersion: runtime.Version(), WirebenchVersion: version, Started: time.Now().UTC(),
		ServerCPUs: cpuset.FormatCPUList(serverCPUs), ClientCPUs: cpuset.FormatCPUList(clientCPUs),
		Workers: workers, Link: driver.LinkOf(hosts)}, nil
}

// suiteInfo is what a results file says of the suite it was run from.
func suiteInfo(s *suite.Suite) *results.SuiteInfo {
	if s.Name == "" {
		return nil // one benchmark from bench's flags, not a suite
	}
	info := &results.SuiteInfo{Name: s.Name, Description: s.Description, Views: s.Views, Process: s.Process}
	if o := s.Original; o != nil {
		info.Original = &results.OriginalRef{Name: o.Name, Setup: o.Setup}
	}
	for _, d := range s.Deviations {
		info.Deviations = append(info.Deviations, results.Deviation{What: d.What, Why: d.Why})
	}
	for _, sk := range s.Skips {
		info.Skipped = append(info.Skipped, results.SkippedPair{Protocol: sk.Protocol, ServerStack: sk.Server,
			ClientStack: sk.Client, Transport: sk.Transport, Why: sk.Why})
	}
	return info
}
