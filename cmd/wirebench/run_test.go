package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/runner"
)

// A small suite of four quick benchmarks for the run tests.
const smallSuite = `name: small
description: four short benchmarks
defaults:
  warmup: 0s
  iterations: 2
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
	path := writeSuite(t, smallSuite)
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
	code, stdout, stderr := runProc(t, path, "--resume", out, "--filter", "http-json/tcp")
	if code != 0 {
		t.Fatalf("resume after a torn line: exit %d\n%s%s", code, stdout, stderr)
	}
	if res := readResults(t, out); len(res.Benchmarks) != 2 {
		t.Errorf("%d benchmarks, want 2", len(res.Benchmarks))
	}
}

// A smoke run resumed without --smoke (or the other way round) is refused before
// anything runs: its results would be mixed with measurements of another length.
func TestRunResumeRefusesOtherSettings(t *testing.T) {
	path := writeSuite(t, smallSuite)
	out := filepath.Join(t.TempDir(), "out")
	if code, stdout, stderr := runProc(t, path, "--out", out, "--filter", "http-json/tcp/person", "--smoke"); code != 0 {
		t.Fatalf("smoke run: exit %d\n%s%s", code, stdout, stderr)
	}
	before, _ := os.ReadFile(filepath.Join(out, runner.JournalFile))
	code, _, stderr := runProc(t, path, "--resume", out, "--filter", "http-json/tcp")
	if code == 0 || !strings.Contains(stderr, "--smoke") || !strings.Contains(stderr, "http-json/tcp/person.get") {
		t.Errorf("resume without --smoke: exit %d, stderr %q; want a failure naming the benchmark and --smoke", code, stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(out, runner.JournalFile)); string(after) != string(before) {
		t.Error("the refused resume changed the journal")
	}
}

// --precision adds forks to a group while a ratio is wider than asked and the budget
// allows: a precision no run of a few forks can reach (0.1 %) ends with the budget,
// after more forks than the suite's one, each fork's trial numbered on from the last,
// and the results say the precision was not reached.
func TestRunPrecisionAddsForks(t *testing.T) {
	path := writeSuite(t, `name: precise
description: two targets, forks added until the budget
defaults:
  warmup: 0s
  iterations: 3
  duration: 100ms
  trials: 1
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
	if rel == nil || rel.Forks < 2 || len(b.Trials) != rel.Forks {
		t.Fatalf("relative %+v over %d trials: want forks added", rel, len(b.Trials))
	}
	for i, tr := range b.Trials {
		if tr.Index != i {
			t.Errorf("trial %d has index %d: forks added later must number on", i, tr.Index)
		}
	}
	if w := strings.Join(b.Warnings, "\n"); !strings.Contains(w, "precision: ±0.1 % not reached") {
		t.Errorf("warnings %q: want the precision not reached said", w)
	}
	// A precision without a number is a usage error, before anything runs.
	if code, _, stderr := runProc(t, path, "--out", filepath.Join(t.TempDir(), "x"), "--precision", "tight"); code != exitUsage || !strings.Contains(stderr, "--precision") {
		t.Errorf("--precision tight: exit %d, %q", code, stderr)
	}
}
