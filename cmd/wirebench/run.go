package main

import (
	"errors"
	"fmt"
	"github.com/wirebench/wirebench/internal/textgrid"
	"github.com/wirebench/wirebench/spec"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/alecthomas/kong"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/sys/unix"

	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/results/compare"
	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/suite"
	"github.com/wirebench/wirebench/workers/go/engine"
)

type runCmd struct {
	Suite       string        `arg:"" optional:"" help:"A bundled suite's name or a suite file (YAML); default quick. See --list."`
	Out         string        `short:"o" help:"Output directory (default ${runs_dir}/<timestamp>)."`
	Filter      string        `help:"Run only the benchmarks whose name matches this regular expression."`
	List        bool          `help:"List the bundled suites, or with a suite, its benchmarks, and exit."`
	Resume      string        `help:"Resume the run in this directory: run the forks its journal does not hold, with the suite and flags it was started with (a flag given that says otherwise is refused)."`
	Smoke       bool          `help:"Smoke mode: tiny durations, the same code path (checks that a suite runs)."`
	RateScale   float64       `name:"rate-scale" default:"1" help:"Multiply every open-loop rate of the suite by this factor (> 0), e.g. 0.5 for a slower machine."`
	Transport   string        `enum:",tcp,unix,tls,quic" default:"" help:"Run every benchmark of the suite that crosses a wire over this transport (tcp, unix, tls, quic), as bench's --transport; its stacks must take it, or nothing runs."`
	TLS         bool          `name:"tls" help:"Run the suite's tcp benchmarks over tls (TCP with TLS 1.3, a certificate made for each server), as bench's --tls."`
	Sequential  bool          `help:"Measure every benchmark on its own, one after the other, instead of comparison groups in interleaved rounds (to compare the two methods)."`
	OrderSeed   uint64        `name:"order-seed" default:"1" help:"Seed of the interleaved rounds' random order (--seed is the data set's elsewhere)."`
	Seed        *uint64       `hidden:"" help:"Deprecated: --order-seed."`
	Profile     string        `help:"Profile every worker process under this directory (a Go worker: CPU profile, pprof; a JVM worker: JFR recording and GC log), one subdirectory per comparison group (group-NNN, NNN the index of its first benchmark)."`
	Plain       bool          `help:"Plain progress lines even on a terminal."`
	Precision   string        `help:"Add forks to each interleaved group until every ratio's 99.9 % interval is within this of it (e.g. 5%), or until --budget is spent; the results say which ratios reached it."`
	Budget      time.Duration `help:"Time for each group with --precision (default ${precision_budget})."`
	MetricsAddr string        `name:"metrics-addr" placeholder:"HOST:PORT" help:"Serve the running benchmarks' throughput, latency histogram and errors for Prometheus at http://HOST:PORT/metrics (docs/history.md)."`
	RecordSmoke bool          `name:"record-smoke" help:"Record a --smoke run in the store too (smoke runs are kept out of it: their figures are not measurements)."`
	JSON        string        `placeholder:"FILE" help:"Also write the results as JSON to this file (results.json is in the run's directory in any case); - writes them to standard output (and the summary to standard error), as bench --json."`
	hostFlags
	recordFlags
	// startedAs is the command line that started a resumed run, from its journal ("":
	// not resumed, or a journal from before it was kept).
	startedAs string
}

func (c *runCmd) Run(e *env, kctx *kong.Context) error {
	if c.Seed != nil {
		fmt.Fprintf(e.stderr, "wirebench run: --seed is deprecated here: it is --order-seed (the round order's seed; --seed is the data set's in bench, serve and call)\n")
		c.OrderSeed = *c.Seed
	}
	if c.Resume != "" {
		if err := c.fromJournal(kctx); err != nil {
			return err
		}
	}
	if c.Suite == "" {
		if c.List {
			return listSuites(e.stdout)
		}
		c.Suite = "quick"
	}
	s, err := suite.Load(c.Suite)
	if err != nil {
		return usageError{err}
	}
	for _, note := range s.Notes {
		fmt.Fprintf(e.stderr, "wirebench: %s\n", note)
	}
	if c.RateScale != 1 {
		if err := s.ScaleRates(c.RateScale); err != nil {
			return usagef("--rate-scale: %v", err)
		}
	}
	if c.Transport != "" || c.TLS {
		if c.Transport != "" && c.TLS && c.Transport != "tls" {
			return usagef("--tls is --transport tls; give one")
		}
		if err := s.SetTransport(c.Transport, c.Transport == ""); err != nil {
			return usagef("--transport: %v", err)
		}
	}
	if c.Smoke {
		s.Smoke()
	}
	if c.Sequential {
		s.Sequential()
	}
	if c.Profile != "" {
		if err := os.MkdirAll(c.Profile, 0o755); err != nil {
			return err
		}
	}
	hosts, err := c.hostFlags.over(s.Hosts)
	if err != nil {
		return err
	}
	var precision float64
	if c.Precision != "" {
		p, err := compare.ParseThreshold(c.Precision)
		if err != nil || p <= 0 {
			return usagef("--precision %q: want a percentage over 0, such as 5%%", c.Precision)
		}
		precision = p / 100
	}
	if c.Budget < 0 || (c.Budget > 0 && precision == 0) {
		return usagef("--budget: give a positive duration, with --precision")
	}
	var filter *regexp.Regexp
	if c.Filter != "" {
		if filter, err = regexp.Compile(c.Filter); err != nil {
			return usagef("--filter: %v", err)
		}
	}
	selected := runner.Select(s, filter)
	if c.List {
		for _, b := range selected {
			fmt.Fprintln(e.stdout, b.Name)
		}
		return nil
	}
	if len(selected) == 0 {
		return usagef("no benchmark of suite %s matches --filter %q (see --list)", s.Name, c.Filter)
	}
	dir := c.Out
	if c.Resume != "" {
		if dir != "" && dir != c.Resume {
			return usagef("--out and --resume name different directories")
		}
		dir = c.Resume
	}
	if dir == "" {
		dir = filepath.Join(runner.RunsDir, time.Now().Format("20060102-150405"))
	}
	args, err := c.runArgs(kctx)
	if err != nil {
		return err
	}
	specs := make([]spec.Spec, len(selected))
	for i, b := range selected {
		specs[i] = b.Spec
	}
	if m := missingWorkers(specs, hosts, launchOptions()); m != "" {
		return usagef("suite %s cannot start all its workers, so nothing was measured:\n  %s", s.Name, m)
	}
	metrics, err := startMetrics(e, c.MetricsAddr)
	if err != nil {
		return err
	}
	defer metrics.stop()
	fmt.Fprintln(e.stderr, textgrid.Wrap(fmt.Sprintf("wirebench: suite %s: %d benchmarks, %s; writing to %s",
		s.Name, len(selected), estimateText(s, selected, filepath.Dir(dir), dir), dir), terminalWidth(e.stderr), "  "))
	prog := newProgress(e.stderr, !c.Plain && liveTerminal(e.stderr))
	observe := prog.observe
	if metrics != nil {
		observe = func(ev runner.Event) {
			metrics.observeRun(ev)
			prog.observe(ev)
		}
	}
	out, runErr := runner.Run(e.ctx, s, runner.Options{Dir: dir, Resume: c.Resume != "", Filter: filter,
		Version: buildVersion(), Seed: c.OrderSeed, Hosts: hosts, ProfileDir: c.Profile, Observe: observe,
		Precision: precision, Budget: c.Budget, Command: c.command(kctx), Args: args})
	prog.finish()
	if out != nil && out.Results != nil && len(out.Results.Benchmarks) > 0 {
		text := textOut(e, c.JSON)
		fmt.Fprintln(text)
		width := terminalWidth(text)
		if err := report.WriteSummaryTextWidth(text, out.Results, width); err != nil {
			return err
		}
		if err := report.WriteViewsTextWidth(text, out.Results, width); err != nil {
			return err
		}
		fmt.Fprintf(text, "\n%s\n", textgrid.Wrap("reports: "+strings.Join(reportFiles(out.Files), ", "), width, "  "))
		if c.JSON != "" {
			if err := writeOutput(e, c.JSON, out.Results.Write); err != nil {
				return errors.Join(runErr, err)
			}
		}
	}
	// Only a run that finished is recorded: a resumed run records when it completes.
	if runErr == nil && out != nil && out.Results != nil && len(out.Results.Benchmarks) > 0 {
		if err := c.recordRun(e, out.Files["json"], out.Results.Smoke); err != nil {
			return err
		}
	}
	switch {
	case errors.Is(runErr, e.ctx.Err()) && e.ctx.Err() != nil:
		return interrupted(out, dir)
	case runErr != nil:
		return runErr
	case out.Failed > 0:
		return fmt.Errorf("%d benchmark(s) failed; see the warnings above and in %s", out.Failed, dir)
	}
	return nil
}

// interrupted is the error of an interrupted run: what it wrote, and how to finish it.
func interrupted(out *runner.Outcome, dir string) error {
	if out == nil || len(out.Files) == 0 {
		return fmt.Errorf("interrupted before any fork finished: %s holds %s only; run wirebench run --resume %s to finish",
			dir, runner.JournalFile, dir)
	}
	return fmt.Errorf("interrupted: %s hold what finished (each benchmark cut short says how many of its forks); "+
		"run wirebench run --resume %s to finish", strings.Join(reportFiles(out.Files), ", "), dir)
}

// recordRun records results.json as written, so that importing the directory later
// finds the same run. A smoke run is recorded only with --record-smoke.
func (c *runCmd) recordRun(e *env, path string, smoke bool) error {
	if c.NoStore || path == "" {
		return nil
	}
	if smoke && !c.RecordSmoke {
		fmt.Fprintf(e.stderr, "wirebench: a smoke run: not recorded in the store (--record-smoke records it)\n")
		return nil
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return c.recordDocument(e.ctx, e.stderr, doc, path)
}

// command is the command line the results name: the one that started the run, and
// for a resumed run what resumed it after it ("wirebench run quick --out r, resumed
// by wirebench run --resume r"); a journal from before it kept the command gives the
// resuming command alone.
func (c *runCmd) command(kctx *kong.Context) string {
	now := commandLine(kctx.Args)
	if c.startedAs == "" || c.startedAs == now {
		return now
	}
	return c.startedAs + ", resumed by " + now
}

// commandLine is the command as a shell would take it back: "wirebench run quick
// --smoke", each argument quoted where it needs to be.
func commandLine(args []string) string {
	words := []string{"wirebench"}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]{}~#!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

func listSuites(w io.Writer) error {
	for _, name := range suite.Bundled() {
		s, err := suite.Load(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-20s %3d benchmarks, %-14s %s\n", name, len(s.Benchmarks), estimateText(s, s.Benchmarks, runner.RunsDir, ""), s.Description)
	}
	return nil
}

// estimateText says how long bs of suite s should take (their plan's estimate):
// "about 10m31s", or "at least 4s" when some slices are a number of calls that no
// earlier run of the suite in runs (but except) timed (runner.TimedPlan): their time
// is not known beforehand and counts as nothing.
func estimateText(s *suite.Suite, bs []suite.Benchmark, runs, except string) string {
	p := runner.TimedPlan(s, bs, nil, runs, except)
	d := p.Estimate().Round(time.Second)
	if len(p.Untimed) > 0 {
		return fmt.Sprintf("at least %v", d)
	}
	return fmt.Sprintf("about %v", d)
}

func reportFiles(files map[string]string) []string {
	var out []string
	for _, k := range []string{"json", "md", "html"} {
		if f, ok := files[k]; ok {
			out = append(out, f)
		}
	}
	return out
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// liveTerminal reports whether w is a terminal a live bar can be drawn on: one that
// knows its size. A terminal of no size (a pseudo-terminal nobody sized, as some
// runners and IDEs give) would swallow every line of the bar, so the progress is
// plain there.
func liveTerminal(w io.Writer) bool {
	if !isTerminal(w) {
		return false
	}
	ws, err := unix.IoctlGetWinsize(int(w.(*os.File).Fd()), unix.TIOCGWINSZ)
	return err == nil && ws.Row > 0 && ws.Col > 0
}

// progress shows a run: on a terminal a live bar (fork i of N, the group measured,
// the time left, the last phase's ops/s and p99), elsewhere plain lines, sampled,
// so that CI logs stay readable.
type progress struct {
	w    io.Writer
	live bool
	mu   sync.Mutex
	p    *mpb.Progress
	bar  *mpb.Bar
	// fork and forks count the run's forks (runner.Event), left is the time left
	// and group the key of the group measured; head is the group's line and status
	// the last phase's.
	fork, forks  int
	left         time.Duration
	group        string
	head, status string
	// rounds is the current group's number of interleaved rounds (0: one benchmark
	// at a time), and printed when its last plain line was.
	rounds  int
	printed time.Time
	// started counts the benchmarks started or skipped so far.
	started int
	// width is the terminal's columns, asked at each line (0: no terminal, lines as
	// they are). Every line is fitted to it, so none wraps: a live bar whose line
	// wraps redraws below its old self, leaving a stale line at each redraw.
	width func() int
}

func newProgress(w io.Writer, live bool) *progress {
	pr := &progress{w: w, live: live, width: func() int { return terminalWidth(w) }}
	if live {
		pr.p = mpb.New(mpb.WithOutput(w), mpb.WithWidth(barWidth), mpb.WithRefreshRate(200*time.Millisecond))
	}
	return pr
}

// forkLine is "fork 3 of 15", the fork in progress, or when every fork has finished
// "15 of 15 forks".
func (pr *progress) forkLine() string {
	if pr.fork >= pr.forks {
		return fmt.Sprintf("%d of %d forks", pr.fork, pr.forks)
	}
	return fmt.Sprintf("fork %d of %d", pr.fork+1, pr.forks)
}

// leftLine is the time left, rounded.
func (pr *progress) leftLine() string {
	round := time.Second
	if pr.left > 10*time.Minute {
		round = time.Minute
	}
	return fmt.Sprintf("about %v left", pr.left.Round(round))
}

// counts takes the run's fork counts from an event that has them; called with pr.mu
// held.
func (pr *progress) counts(ev runner.Event) {
	pr.fork, pr.forks, pr.left = ev.Fork, ev.Forks, ev.Left
	if ev.GroupKey != "" {
		pr.group = ev.GroupKey
	}
}

// moveBar sets the live bar to the event's counts. Not with pr.mu held: the bar's
// decorators, which take it, may be drawing.
func (pr *progress) moveBar(ev runner.Event) {
	if pr.bar != nil {
		pr.bar.SetTotal(int64(ev.Forks), false)
		pr.bar.SetCurrent(int64(ev.Fork))
	}
}

func (pr *progress) observe(ev runner.Event) {
	switch ev.Kind {
	case runner.KindSkipped:
		pr.mu.Lock()
		pr.started++
		n := pr.started
		pr.mu.Unlock()
		pr.printf("[%d/%d] %s: done in an earlier run, skipped\n", n, ev.Total, ev.Name)
	case runner.KindStart:
		if pr.live && pr.bar == nil {
			pr.newBar()
		}
		pr.moveBar(ev)
		pr.mu.Lock()
		pr.counts(ev)
		// Benchmarks are counted in the order they run (a group's members need not be
		// neighbours in the suite).
		first := pr.started + 1
		pr.started += len(ev.Group)
		head := fmt.Sprintf("[%d/%d] %s", first, ev.Total, ev.Name)
		if ev.Rounds > 0 {
			head = fmt.Sprintf("[%d-%d/%d] %d targets interleaved, %d round%s: %s", first, pr.started, ev.Total,
				len(ev.Group), ev.Rounds, plural(ev.Rounds), strings.Join(ev.Group, ", "))
		}
		line := fmt.Sprintf("%s · %s, %s", head, pr.forkLine(), pr.leftLine())
		if ev.Resumed > 0 {
			line += fmt.Sprintf(" (%d of its forks done in an earlier run)", ev.Resumed)
		}
		pr.head, pr.status, pr.rounds = head, head, ev.Rounds
		pr.mu.Unlock()
		pr.printf("%s\n", line)
	case runner.KindInterval:
		msg := ev.Interval.Line()
		pr.mu.Lock()
		switch {
		case pr.rounds > 0 && ev.Interval.Interval.Phase == string(engine.Measure):
			msg = fmt.Sprintf("round %d/%d  %s  %s", ev.Interval.Interval.Index+1, pr.rounds, ev.Name, msg)
		case pr.rounds > 0:
			msg = fmt.Sprintf("warm-up  %s  %s", ev.Name, msg)
		}
		pr.status = msg
		// Interleaved groups have a phase per target and round: plain output keeps
		// one line a second of them, so that a CI log stays readable.
		quiet := pr.rounds > 0 && time.Since(pr.printed) < time.Second
		if !quiet {
			pr.printed = time.Now()
		}
		fork := pr.forkLine()
		pr.mu.Unlock()
		if !pr.live && !quiet {
			fmt.Fprintln(pr.w, textgrid.Cut(fmt.Sprintf("    %s  %s", fork, msg), pr.width()))
		}
	case runner.KindFork:
		pr.moveBar(ev)
		pr.mu.Lock()
		pr.counts(ev)
		line := fmt.Sprintf("    fork %d of %d done (%s)", ev.Fork, ev.Forks, pr.group)
		if ev.NotRun > 0 {
			line = fmt.Sprintf("    %d fork%s not run (%s): %d of %d settled", ev.NotRun, plural(ev.NotRun), pr.group, ev.Fork, ev.Forks)
		}
		if ev.Fork < ev.Forks {
			line += ", " + pr.leftLine()
		}
		pr.mu.Unlock()
		if !pr.live {
			fmt.Fprintln(pr.w, textgrid.Wrap(line, pr.width(), "    "))
		}
	case runner.KindDone:
		if ev.Err != nil {
			pr.printf("[%d/%d] %s failed: %v\n", ev.Index+1, ev.Total, ev.Name, ev.Err)
		}
	}
}

// newBar adds the live bar: fork i of N and the group, the bar, the time left; then
// the last phase's line. Its decorators take pr.mu.
func (pr *progress) newBar() {
	locked := func(f func() string) decor.Decorator {
		return decor.Any(func(decor.Statistics) string {
			pr.mu.Lock()
			defer pr.mu.Unlock()
			return f()
		})
	}
	pr.bar = pr.p.New(0, mpb.BarStyle(),
		mpb.PrependDecorators(locked(func() string { return pr.barHead(pr.width()) })),
		mpb.AppendDecorators(locked(func() string { return " " + pr.leftLine() })),
		mpb.BarExtender(mpb.BarFillerFunc(func(w io.Writer, _ decor.Statistics) error {
			pr.mu.Lock()
			line := pr.status
			pr.mu.Unlock()
			_, err := fmt.Fprintln(w, textgrid.Cut("  "+line, pr.width()-1))
			return err
		}), false),
	)
}

// printf writes a line above the live bar, or plainly, wrapped to the terminal's width.
func (pr *progress) printf(format string, args ...any) {
	s := textgrid.Wrap(fmt.Sprintf(format, args...), pr.width(), "    ")
	if pr.live && pr.p != nil {
		fmt.Fprint(pr.p, s)
		return
	}
	fmt.Fprint(pr.w, s)
}

// barWidth is the bar's own columns (mpb.WithWidth).
const barWidth = 30

// barHead is the live bar's first decorator, "fork 3 of 15  person.get/closed-c50 ",
// the group cut so that it, the bar and the time left fit in width columns; called
// with pr.mu held.
func (pr *progress) barHead(width int) string {
	fork, left := pr.forkLine()+"  ", " "+pr.leftLine()
	if width <= 0 {
		return fork + pr.group + " "
	}
	// The group gets what is left beside a bar of at least minBar columns (mpb gives
	// the bar what its decorators leave, up to barWidth).
	const minBar = 10
	room := width - 1 - len(fork) - min(barWidth, max(width-1-len(fork)-len(left)-1-24, minBar)) - len(left) - 1
	if room < 4 {
		return fork
	}
	return fork + textgrid.Cut(pr.group, room) + " "
}

func (pr *progress) finish() {
	if pr.p == nil {
		return
	}
	if pr.bar != nil && !pr.bar.Completed() {
		pr.bar.Abort(false)
	}
	pr.p.Wait()
}
