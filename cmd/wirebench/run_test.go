package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/runner"
	"github.com/wirebench/wirebench/suite"
)

// A small suite of four quick benchmarks for the run tests.
const smallSuite = `name: small
description: four short benchmarks
defaults:
  warmup: 0s
  rounds: 2
  duration: 300ms
load:
  concurrency: [2]
targets:
  - protocol: http-json
    transports: [tcp, unix]
  - protocol: grpc-proto
workloads:
  - name: person.get
  - name: echo
    payloads: [64B]
`

func writeSuite(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runProc(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runBinary(t, append([]string{"run", "--plain"}, args...)...)
}

func readResults(t *testing.T, dir string) *results.Results {
	t.Helper()
	return readResultsFile(t, filepath.Join(dir, "results.json"))
}

// readResultsFile reads a results file that must pass the schema.
func readResultsFile(t *testing.T, path string) *results.Results {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := results.ValidateJSON(data); err != nil {
		t.Fatalf("%s fails the schema: %v", path, err)
	}
	res, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A run writes the journal, results.json, report.md and report.html, and prints the
// table; --filter keeps only the matching benchmarks.
func TestRunSuiteFile(t *testing.T) {
	path := writeSuite(t, smallSuite)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runProc(t, path, "--out", out, "--filter", "person")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, f := range []string{runner.JournalFile, "results.json", "report.md", "report.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	res := readResults(t, out)
	if len(res.Benchmarks) != 3 {
		t.Errorf("%d benchmarks, want the 3 person.get ones", len(res.Benchmarks))
	}
	if !strings.Contains(stdout, "Benchmark") || !strings.Contains(stdout, "grpc-proto/tcp/person.get") {
		t.Errorf("no result table:\n%s", stdout)
	}
	// The same directory again without --resume is refused: results are never mixed.
	code, _, stderr = runProc(t, path, "--out", out)
	if code != exitFailure || !strings.Contains(stderr, "--resume") {
		t.Errorf("second run into %s: exit %d, stderr %q", out, code, stderr)
	}
}

// A run given no -o writes its directory under runs/ in the directory it runs in,
// runs/YYYYMMDD-HHMMSS, and nothing under results/ (a package's name in the
// repository); report reads the directory it wrote.
func TestRunDefaultDir(t *testing.T) {
	path := writeSuite(t, "targets: [direct]\nworkloads: [person.get]\ndefaults: {warmup: 0s, rounds: 1, duration: 50ms}\n")
	wd := t.TempDir()
	cmd := exec.Command(binary, "run", "--plain", "--no-store", path)
	cmd.Dir = wd
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	dirs, err := filepath.Glob(filepath.Join(wd, "runs", "*"))
	if err != nil || len(dirs) != 1 || !regexp.MustCompile(`^\d{8}-\d{6}$`).MatchString(filepath.Base(dirs[0])) {
		t.Fatalf("run wrote %v (%v), want one directory runs/YYYYMMDD-HHMMSS", dirs, err)
	}
	if len(readResults(t, dirs[0]).Benchmarks) != 1 {
		t.Errorf("%s: want the suite's one benchmark", dirs[0])
	}
	if _, err := os.Stat(filepath.Join(wd, "results")); !os.IsNotExist(err) {
		t.Errorf("run made results/ too (%v)", err)
	}
	if code, stdout, stderr := runBinary(t, "report", dirs[0]); code != 0 || !strings.Contains(stdout, "direct/inproc/person.get") {
		t.Errorf("report %s: exit %d\n%s%s", dirs[0], code, stdout, stderr)
	}
}

// A suite that uses a setting's former key (jvm_args, runtime_args since
// 2026-11-29) still runs, and says so once, with the file and line of its first use.
func TestRunFormerKey(t *testing.T) {
	path := writeSuite(t, "defaults:\n  jvm_args: -Xmx1g\n  warmup: 0s\n  rounds: 1\n  duration: 50ms\ntargets:\n  - direct\n  - {protocol: http-json, jvm_args: -Xss1m}\nworkloads: [person.get]\n")
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runProc(t, path, "--out", out, "--no-store")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	note := "wirebench: " + path + `:2: "jvm_args" is deprecated: it is "runtime_args" now (read as runtime_args); also on line 8`
	if n := strings.Count(stderr, "deprecated"); n != 1 || !strings.Contains(stderr, note+"\n") {
		t.Errorf("stderr says deprecated %d times, want once:\n%s\nwant the line %s", n, stderr, note)
	}
	if len(readResults(t, out).Benchmarks) != 2 {
		t.Errorf("want the suite's two benchmarks")
	}
}

// A suite file with a mistake fails before anything runs, with FILE:LINE:COL.
func TestRunBadSuite(t *testing.T) {
	path := writeSuite(t, strings.Replace(smallSuite, "protocol: grpc-proto", "protocol: grpc-protoo", 1))
	code, _, stderr := runProc(t, path, "--out", filepath.Join(t.TempDir(), "out"))
	if code != exitUsage || !strings.Contains(stderr, path+":12:15") || !strings.Contains(stderr, "grpc-proto") {
		t.Errorf("bad suite: exit %d, stderr %q; want exit 2 and %s:12:15 naming the known protocols", code, stderr, path)
	}
	code, _, stderr = runProc(t, "no-such-suite")
	if code != exitUsage || !strings.Contains(stderr, "quick") {
		t.Errorf("unknown suite: exit %d, stderr %q; want exit 2 listing the bundled suites", code, stderr)
	}
}

// kill -9 in the middle of a run, then --resume: every benchmark ends up in the
// results exactly once, and none that finished runs again.
func TestRunKillResume(t *testing.T) {
	// Each group on workers of its own, so that the first is journaled whole before
	// the second starts (groups sharing workers are journaled after their last fork:
	// runner's TestMeasureBatchForkByFork interrupts and resumes those).
	path := writeSuite(t, strings.Replace(smallSuite, "defaults:\n", "defaults:\n  worker_lifetime: per-group\n", 1))
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(binary, "run", "--plain", path, "--out", out)
	tmp := t.TempDir()
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp) // worker sockets go here, so we can find them
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The suite is two comparison groups of three targets (person.get, echo), each
	// measured interleaved and journaled whole. Kill it as the second group starts:
	// the first group's three benchmarks are journaled.
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "[4-6/6]") {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	journal, _ := os.ReadFile(filepath.Join(out, runner.JournalFile))
	if n, m := strings.Count(string(journal), `"kind":"group"`), strings.Count(string(journal), `"protocol":`); n != 1 || m != 3 {
		t.Fatalf("journal holds %d groups of %d benchmarks after the kill, want 1 of 3", n, m)
	}
	if left := workersGone(tmp, 10*time.Second); len(left) > 0 { // they die with their parent
		t.Fatalf("worker processes left behind by the killed run: %v", left)
	}
	code, stdout, errText := runProc(t, path, "--resume", out)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", code, stdout, errText)
	}
	if n := strings.Count(errText, "skipped"); n != 3 {
		t.Errorf("resume skipped %d benchmarks, want the 3 journaled:\n%s", n, errText)
	}
	res := readResults(t, out)
	seen := map[string]int{}
	for _, b := range res.Benchmarks {
		seen[b.Name]++
	}
	if len(res.Benchmarks) != 6 || len(seen) != 6 {
		t.Errorf("results hold %d benchmarks (%d distinct), want 6 once each: %v", len(res.Benchmarks), len(seen), seen)
	}
}

// A torn last journal line (a kill in the middle of a write) is dropped on resume.
func TestRunResumeTornJournal(t *testing.T) {
	path := writeSuite(t, smallSuite)
	out := filepath.Join(t.TempDir(), "out")
	if code, stdout, stderr := runProc(t, path, "--out", out, "--filter", "http-json/tcp/person"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	f, err := os.OpenFile(filepath.Join(out, runner.JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"kind":"group","benchmarks":[{"name":"torn`)
	f.Close()
	code, stdout, stderr := runProc(t, "--resume", out)
	if code != 0 {
		t.Fatalf("resume after a torn line: exit %d\n%s%s", code, stdout, stderr)
	}
	if res := readResults(t, out); len(res.Benchmarks) != 1 {
		t.Errorf("%d benchmarks, want 1", len(res.Benchmarks))
	}
}

// A resume reads the suite and the flags from the journal: given nothing but the
// directory, it resumes a smoke run of a suite file as a smoke run of that file, from
// another working directory. A flag given that contradicts the journal is refused
// before anything runs, naming both values; so is another suite.
func TestRunResumeReadsJournal(t *testing.T) {
	path := writeSuite(t, smallSuite)
	out := filepath.Join(t.TempDir(), "out")
	if code, stdout, stderr := runProc(t, path, "--out", out, "--filter", "http-json/tcp/person", "--smoke", "--no-store"); code != 0 {
		t.Fatalf("smoke run: exit %d\n%s%s", code, stdout, stderr)
	}
	h, err := runner.ReadHeader(out)
	if err != nil {
		t.Fatal(err)
	}
	// Every flag of run that changes what is measured, the suite and the command line
	// (for a resumed run's results); the others (output, progress, profiles, how
	// workers are reached, store tags) are not.
	want := []string{"budget", "client-worker", "client-workers", "command", "filter", "link", "netns", "no-store", "order-seed",
		"precision", "rate-scale", "record-smoke", "sequential", "server-listen-host", "server-worker", "smoke", "suite", "tls", "transport"}
	var got []string
	for k := range h.Args {
		got = append(got, k)
	}
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("journaled arguments %v, want %v", got, want)
	}
	before, _ := os.ReadFile(filepath.Join(out, runner.JournalFile))
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--smoke=false"}, []string{"--smoke=true", "--smoke=false"}},
		{[]string{"--filter", "http-json"}, []string{`--filter="http-json/tcp/person"`, `--filter="http-json"`}},
		{[]string{"quick"}, []string{path, "quick"}},
	} {
		code, _, stderr := runProc(t, append([]string{"--resume", out}, c.args...)...)
		if code != exitUsage {
			t.Errorf("resume %v: exit %d, want %d", c.args, code, exitUsage)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("resume %v: stderr %q does not name %s", c.args, stderr, w)
			}
		}
		if strings.Contains(stderr, "writing to") {
			t.Errorf("resume %v refused after saying it writes: %q", c.args, stderr)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(out, runner.JournalFile)); string(after) != string(before) {
		t.Error("a refused resume changed the journal")
	}
	// Nothing but the directory, from elsewhere: the suite file and --smoke are the
	// journal's (a resume of a finished run runs nothing and writes the reports again).
	os.Remove(filepath.Join(out, "results.json"))
	cmd := exec.Command(binary, "run", "--plain", "--resume", out)
	cmd.Dir = t.TempDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("resume with the directory alone: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "suite small") {
		t.Errorf("resume did not take the suite file from the journal: %q", stderr.String())
	}
	res := readResults(t, out)
	if len(res.Benchmarks) != 1 || res.Benchmarks[0].SliceSeconds != suite.SmokeSliceTime.Seconds() {
		t.Errorf("resumed results %d benchmarks, slices of %v s: want the smoke run's one benchmark", len(res.Benchmarks), res.Benchmarks[0].SliceSeconds)
	}
	// The results name the command that started the run, then what resumed it.
	if !strings.HasPrefix(res.Command, "wirebench run --plain "+path) || !strings.Contains(res.Command, "--smoke") ||
		!strings.HasSuffix(res.Command, ", resumed by wirebench run --plain --resume "+out) {
		t.Errorf("resumed results' command %q", res.Command)
	}
}

// --resume of a directory that holds no run says so and exits 2, before it says it
// writes anything.
func TestRunResumeNotARun(t *testing.T) {
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "missing")} {
		code, _, stderr := runProc(t, "--resume", dir)
		if code != exitUsage || !strings.Contains(stderr, "not a wirebench run") || strings.Contains(stderr, "writing to") {
			t.Errorf("resume %s: exit %d, stderr %q; want exit 2 saying it is not a run", dir, code, stderr)
		}
	}
}

// forkSuite is one group of two targets measured in three forks.
const forkSuite = `name: forks
description: one group, three forks
defaults:
  warmup: 0s
  rounds: 2
  duration: 200ms
  forks: 3
load:
  concurrency: [2]
targets:
  - protocol: http-json
  - protocol: grpc-proto
workloads:
  - name: person.get
`

// startRun starts a run and returns it with its progress lines (stderr) as they come.
func startRun(t *testing.T, args ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"run", "--plain", "--no-store"}, args...)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(stderr)
}

// waitLine reads progress lines until one contains s, and returns what was read.
func waitLine(t *testing.T, sc *bufio.Scanner, s string) string {
	t.Helper()
	var read strings.Builder
	for sc.Scan() {
		read.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), s) {
			return read.String()
		}
	}
	t.Fatalf("no line with %q in:\n%s", s, read.String())
	return ""
}

// kill -9 as the first of a group's three forks is journaled: the fork is kept, and
// --resume runs the other two only, numbered on. Progress counts forks and time left.
func TestRunKillMidGroupResume(t *testing.T) {
	path := writeSuite(t, forkSuite)
	out := filepath.Join(t.TempDir(), "out")
	cmd, sc := startRun(t, path, "--out", out)
	seen := waitLine(t, sc, "fork 1 of 3 done")
	if !strings.Contains(seen, "fork 1 of 3, about") || !strings.Contains(seen, "fork 1 of 3  round 1/2") {
		t.Errorf("progress without fork counts and time left:\n%s", seen)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	journal, _ := os.ReadFile(filepath.Join(out, runner.JournalFile))
	if n, g := strings.Count(string(journal), `"kind":"fork"`), strings.Count(string(journal), `"kind":"group"`); n != 1 || g != 0 {
		t.Fatalf("journal holds %d forks and %d groups after the kill, want 1 and 0", n, g)
	}
	code, stdout, errText := runProc(t, "--resume", out)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s%s", code, stdout, errText)
	}
	if strings.Contains(errText, "fork 1 of 3  round") || !strings.Contains(errText, "1 of its forks done in an earlier run") ||
		!strings.Contains(errText, "fork 3 of 3 done") {
		t.Errorf("the resume did not run forks 2 and 3 alone:\n%s", errText)
	}
	for _, b := range readResults(t, out).Benchmarks {
		var idx []int
		for _, tr := range b.Forks {
			idx = append(idx, tr.Index)
		}
		if fmt.Sprint(idx) != "[0 1 2]" {
			t.Errorf("%s: forks %v, want [0 1 2]", b.Name, idx)
		}
	}
}

// Ctrl-C says what it wrote: after a fork, the reports of what finished, each
// benchmark with the forks it has; before any fork, the journal alone.
func TestRunInterruptSaysWhatItWrote(t *testing.T) {
	interrupt := func(t *testing.T, suiteText, after string) (string, string) {
		out := filepath.Join(t.TempDir(), "out")
		cmd, sc := startRun(t, writeSuite(t, suiteText), "--out", out)
		waitLine(t, sc, after)
		cmd.Process.Signal(os.Interrupt)
		var rest strings.Builder
		for sc.Scan() {
			rest.WriteString(sc.Text() + "\n")
		}
		if err := cmd.Wait(); cmd.ProcessState.ExitCode() != exitFailure {
			t.Errorf("interrupted run: %v, want exit %d", err, exitFailure)
		}
		return out, rest.String()
	}
	t.Run("after a fork", func(t *testing.T) {
		out, stderr := interrupt(t, forkSuite, "fork 1 of 3 done")
		for _, want := range []string{"interrupted: " + filepath.Join(out, "results.json"), "report.html hold what finished", "wirebench run --resume " + out} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr %q does not say %q", stderr, want)
			}
		}
		res := readResults(t, out)
		for _, b := range res.Benchmarks {
			if len(b.Forks) != 1 || !strings.Contains(strings.Join(b.Warnings.Strings(), " "), "interrupted: 1 of its group's 3 forks finished") {
				t.Errorf("%s: %d forks, warnings %q; want the finished fork, said so", b.Name, len(b.Forks), b.Warnings)
			}
		}
		if len(res.Benchmarks) != 2 {
			t.Errorf("%d benchmarks, want both targets of the cut group", len(res.Benchmarks))
		}
	})
	t.Run("before any fork", func(t *testing.T) {
		// Forks of a minute: the interrupt comes in the first.
		out, stderr := interrupt(t, strings.Replace(forkSuite, "duration: 200ms", "duration: 30s", 1), "[1-2/2]")
		if want := "interrupted before any fork finished: " + out + " holds journal.jsonl only; run wirebench run --resume " + out; !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not say %q", stderr, want)
		}
		for _, f := range []string{"results.json", "report.md", "report.html"} {
			if _, err := os.Stat(filepath.Join(out, f)); err == nil {
				t.Errorf("%s written, with nothing finished", f)
			}
		}
	})
}

// --precision adds forks to a group while a ratio is wider than asked and the budget
// allows: a precision no run of a few forks can reach (0.1 %) ends with the budget,
// after more forks than the suite's one, each fork numbered on from the last,
// and the results say the precision was not reached.
func TestRunPrecisionAddsForks(t *testing.T) {
	path := writeSuite(t, `name: precise
description: two targets, forks added until the budget
defaults:
  warmup: 0s
  rounds: 3
  duration: 100ms
  forks: 1
load:
  concurrency: [2]
targets:
  - protocol: http-json
  - protocol: grpc-proto
workloads:
  - name: person.get
`)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runProc(t, path, "--out", out, "--precision", "0.1%", "--budget", "6s")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	b := res.Benchmarks[1]
	rel := b.Summary.Relative
	if rel == nil || rel.Forks < 2 || len(b.Forks) != rel.Forks {
		t.Fatalf("relative %+v over %d forks: want forks added", rel, len(b.Forks))
	}
	for i, tr := range b.Forks {
		if tr.Index != i {
			t.Errorf("fork %d has index %d: forks added later must number on", i, tr.Index)
		}
	}
	if w := strings.Join(b.Warnings.Of(results.WarnPrecision).Strings(), "\n"); !strings.Contains(w, "precision: ±0.1 % not reached") {
		t.Errorf("warnings %q: want the precision not reached said", w)
	}
	// A precision without a number is a usage error, before anything runs.
	if code, _, stderr := runProc(t, path, "--out", filepath.Join(t.TempDir(), "x"), "--precision", "tight"); code != exitUsage || !strings.Contains(stderr, "--precision") {
		t.Errorf("--precision tight: exit %d, %q", code, stderr)
	}
}

// run --json - writes the results to standard output, and the summary to standard
// error, as bench --json - does; --json is not journaled (where output goes).
func TestRunJSONToStdout(t *testing.T) {
	path := writeSuite(t, smallSuite)
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(binary, "run", "--plain", "--no-store", "--smoke", path, "--out", out, "--filter", "http-json/tcp/person", "--json", "-")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run --json -: %v\n%s", err, stderr.String())
	}
	r, err := results.Read(strings.NewReader(stdout.String()))
	if err != nil || len(r.Benchmarks) != 1 {
		t.Fatalf("standard output is not the results (%v):\n%s", err, stdout.String())
	}
	if !strings.Contains(stderr.String(), "Benchmark") {
		t.Errorf("no summary on standard error:\n%s", stderr.String())
	}
	if h, err := runner.ReadHeader(out); err != nil || h.Args["json"] != nil {
		t.Errorf("--json journaled: %v %v", h, err)
	}
}
