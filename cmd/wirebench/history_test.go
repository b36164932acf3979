package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// delaySuite is one http-json benchmark whose server waits delay before each call:
// with 8 calls in flight, the throughput is about 8/(delay + the call's own time).
// The delay is long (20 ms) so that what a loaded machine adds to a call (timer
// wake-ups late by milliseconds: with 5 ms, calls took 10 ms and runs moved by 20 %
// while other tests ran) stays small beside it; the calls finish in waves of 8
// every delay, so a slice of 400 ms holds 20 ± 1 waves, and 24 slices a
// side give the ratio's interval room to lie wholly beyond 5 % (with 12 of 500 ms,
// a run at 0.797 had [0.742, 0.952]).
func delaySuite(delay string) string {
	return `name: gate-e2e
description: one http-json benchmark with a server-side delay
defaults:
  warmup: 300ms
  rounds: 24
  duration: 400ms
  forks: 1
load:
  concurrency: [8]
targets:
  - protocol: http-json
    server_options:
      delay: ` + delay + `
workloads:
  - name: echo
    payloads: [64B]
`
}

// The goal, end to end: two recorded runs of a suite, the second with the
// server 25 % slower per call (delay 20ms → 25ms, a throughput about 20 % lower),
// then history and gate: gate exits 1 with the regression in its table. A third run
// like the first, against the first, passes (same, or inconclusive: never a
// regression). Every figure comes from real runs.
func TestHistoryAndGateEndToEnd(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "history.db")
	base, slow := writeSuite(t, delaySuite("20ms")), writeSuite(t, delaySuite("25ms"))
	record := func(suite, out, commit, branch string) {
		t.Helper()
		code, stdout, stderr := runBinary(t, "run", "--plain", suite, "--out", filepath.Join(dir, out), "--store", st,
			"--commit", commit, "--branch", branch, "--machine", "test-machine")
		if code != 0 || !strings.Contains(stderr, "recorded in "+st) {
			t.Fatalf("run %s: exit %d\n%s%s", out, code, stdout, stderr)
		}
	}
	record(base, "r1", "aaaaaaa1", "main")
	record(slow, "r2", "bbbbbbb2", "feature")

	html := filepath.Join(dir, "history.html")
	code, stdout, stderr := runBinary(t, "history", "--store", st, "--html", html)
	name := "http-json/tcp/echo[payload=64]/closed-c8"
	if code != 0 || !strings.Contains(stdout, name+" on test-machine (ops/s, 2 runs") ||
		!strings.Contains(stdout, "aaaaaaa1") || !strings.Contains(stdout, "bbbbbbb2") {
		t.Fatalf("history: exit %d\n%s%s", code, stdout, stderr)
	}
	if page, err := os.ReadFile(html); err != nil || strings.Count(string(page), "<svg") != 1 {
		t.Errorf("history page: %v, want one chart", err)
	}

	code, stdout, stderr = runBinary(t, "gate", "--store", st, "--baseline-branch", "main")
	if code != exitFailure || !strings.Contains(stdout, "**REGRESSION**") || !strings.Contains(stderr, "regressed beyond 5%") {
		t.Fatalf("gate on the slower run: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "feature@bbbbbbb2") || !strings.Contains(stdout, "main@aaaaaaa1") {
		t.Errorf("gate's table does not name both runs:\n%s", stdout)
	}
	// The ratio: 25 ms against 20 ms per call, plus the call's own time, makes
	// after/before between 0.8 (no time of its own) and 0.9 (a generous 25 ms).
	m := regexp.MustCompile(`\| ` + regexp.QuoteMeta(name) + ` \| [^|]+ \| [^|]+ \| ([0-9.]+) \[([0-9.]+), ([0-9.]+)\] \|`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no ratio row for %s in:\n%s", name, stdout)
	}
	ratio, _ := strconv.ParseFloat(m[1], 64)
	high, _ := strconv.ParseFloat(m[3], 64)
	if ratio < 0.7 || ratio > 0.9 || high >= 0.95 {
		t.Errorf("ratio %v [.., %v], want about 0.8 and wholly below 0.95", ratio, high)
	}

	record(base, "r3", "ccccccc3", "feature2")
	code, stdout, stderr = runBinary(t, "gate", "--store", st, "--baseline-branch", "main")
	if code != 0 || strings.Contains(stdout, "REGRESSION") || !regexp.MustCompile(`\| (same|inconclusive|better|worse) \|`).MatchString(stdout) {
		t.Fatalf("gate on a run like the baseline: exit %d, want 0 with same or inconclusive\n%s%s", code, stdout, stderr)
	}

	// A results directory given to gate is judged against the store the same way.
	code, stdout, _ = runBinary(t, "gate", filepath.Join(dir, "r2"), "--store", st, "--baseline-branch", "main", "--machine", "test-machine")
	if code != exitFailure || !strings.Contains(stdout, "**REGRESSION**") {
		t.Errorf("gate r2: exit %d, want 1\n%s", code, stdout)
	}

	// Importing the runs' directories into a new store finds the three runs; a
	// second import adds nothing.
	other := filepath.Join(dir, "other.db")
	code, stdout, stderr = runBinary(t, "history", "import", "--store", other, "--machine", "test-machine", dir)
	if code != 0 || strings.Count(stdout, ": run ") != 3 {
		t.Fatalf("import: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runBinary(t, "history", "import", "--store", other, filepath.Join(dir, "r1"))
	if code != 0 || !strings.Contains(stdout, "already recorded") {
		t.Errorf("second import: exit %d\n%s", code, stdout)
	}
	// The original store took the same documents: importing into it adds none.
	code, stdout, _ = runBinary(t, "history", "import", "--store", st, dir)
	if code != 0 || strings.Count(stdout, "already recorded") != 3 {
		t.Errorf("import into the recording store: exit %d\n%s", code, stdout)
	}
}

func TestHistoryAndGateUsageErrors(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gate", "--store", empty}, "has no run"},
		{[]string{"gate", "--store", empty, "--threshold", "x"}, "--threshold"},
		{[]string{"gate", "--store", empty, filepath.Join(t.TempDir(), "none.json")}, "no such file"},
		{[]string{"history", "--store", empty, "--since", "yesterday"}, "--since"},
		{[]string{"history", "--store", empty, "--alpha", "3"}, "--alpha"},
		{[]string{"history", "import", "--store", empty, t.TempDir()}, "no results.json"},
		{[]string{"bench", "-p", "direct", "--metrics-addr", "nonsense:port:x"}, "--metrics-addr"},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("wirebench %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	code, stdout, _ := runCLI(t, "history", "--store", empty)
	if code != 0 || !strings.Contains(stdout, "No runs") {
		t.Errorf("history of an empty store: exit %d, %q", code, stdout)
	}
}

// --metrics-addr serves the running benchmark: a scrape during a real bench shows
// its measured ops and its latency histogram, in the OpenMetrics format when asked.
func TestMetricsAddrDuringBench(t *testing.T) {
	cmd := exec.Command(binary, "bench", "-p", "http-json", "--warmup", "0s", "--duration", "300ms", "--rounds", "20",
		"-c", "2", "--no-store", "--metrics-addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	sc := bufio.NewScanner(stderr)
	url := ""
	for sc.Scan() {
		if _, u, ok := strings.Cut(sc.Text(), "metrics at "); ok {
			url = u
			break
		}
	}
	if url == "" {
		t.Fatal("bench did not say where its metrics are")
	}
	go io.Copy(io.Discard, stderr)
	ops := regexp.MustCompile(`(?m)^wirebench_ops_total\{benchmark="http-json/tcp/person.get/closed-c2",phase="measure"\} ([0-9.e+]+)$`)
	deadline := time.Now().Add(60 * time.Second)
	for {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("scrape: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text := string(body)
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/openmetrics-text") {
			t.Fatalf("content type %q, want OpenMetrics", resp.Header.Get("Content-Type"))
		}
		if m := ops.FindStringSubmatch(text); m != nil {
			if n, _ := strconv.ParseFloat(m[1], 64); n > 0 {
				if !strings.Contains(text, `wirebench_response_time_seconds_bucket{benchmark="http-json/tcp/person.get/closed-c2",phase="measure",le="+Inf"}`) ||
					!strings.Contains(text, "wirebench_throughput_ops_per_second") || !strings.HasSuffix(strings.TrimSpace(text), "# EOF") {
					t.Fatalf("scrape lacks the histogram or throughput:\n%s", text)
				}
				return // seen while the bench runs (it has 20 rounds to go)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no measured ops in the metrics after 60 s:\n%s", text)
		}
		time.Sleep(100 * time.Millisecond) // polling the endpoint, not waiting for an event
	}
}
