package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A smoke run looks like one: its summary and reports are titled with the suite,
// the command and SMOKE, its results say smoke; it stays out of the store unless
// --record-smoke, history import leaves it out, and gate refuses it.
func TestSmokeRunIsMarkedAndKeptOut(t *testing.T) {
	suite := writeSuite(t, smallSuite)
	dir := t.TempDir()
	st := filepath.Join(dir, "history.db")
	d1 := filepath.Join(dir, "smoke1")
	code, stdout, stderr := runProc(t, "--smoke", suite, "--filter", "person", "--out", d1, "--store", st)
	if code != 0 {
		t.Fatalf("run --smoke: exit %d\n%s%s", code, stdout, stderr)
	}
	title := "[SMOKE] wirebench results: suite small (wirebench run --plain --smoke " + suite + " --filter person --out " + d1 + " --store " + st + ")"
	if !strings.HasPrefix(strings.TrimLeft(stdout, "\n"), title+"\n") {
		t.Errorf("the summary does not open with %q:\n%s", title, stdout)
	}
	if !strings.Contains(stderr, "a smoke run: not recorded in the store (--record-smoke records it)") || strings.Contains(stderr, "recorded in "+st) {
		t.Errorf("a smoke run went to the store:\n%s", stderr)
	}
	res := readResults(t, d1)
	if !res.Smoke || !strings.Contains(res.Command, " --smoke ") {
		t.Errorf("results.json: smoke %v, command %q", res.Smoke, res.Command)
	}
	if md, err := os.ReadFile(filepath.Join(d1, "report.md")); err != nil || !strings.HasPrefix(string(md), "# [SMOKE] wirebench results: suite small") {
		t.Errorf("report.md's title: %v\n%.200s", err, md)
	}
	if page, err := os.ReadFile(filepath.Join(d1, "report.html")); err != nil || !strings.Contains(string(page), "<title>[SMOKE] wirebench results: suite small") {
		t.Errorf("report.html's title: %v", err)
	}

	code, stdout, _ = runBinary(t, "history", "import", "--store", st, d1)
	if code != 0 || !strings.Contains(stdout, "a smoke run, not imported") {
		t.Errorf("history import of a smoke run: exit %d\n%s", code, stdout)
	}
	code, _, stderr = runBinary(t, "gate", d1, "--store", st)
	if code != exitUsage || !strings.Contains(stderr, "is a smoke run") {
		t.Errorf("gate of a smoke run: exit %d, want 2\n%s", code, stderr)
	}

	// Recorded on purpose, it is still not judged.
	d2 := filepath.Join(dir, "smoke2")
	code, stdout, stderr = runProc(t, "--smoke", "--record-smoke", suite, "--filter", "person", "--out", d2, "--store", st)
	if code != 0 || !strings.Contains(stderr, "recorded in "+st) {
		t.Fatalf("run --smoke --record-smoke: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = runBinary(t, "gate", "--store", st)
	if code != exitUsage || !strings.Contains(stderr, "(run 1) is a smoke run") {
		t.Errorf("gate of the last run, a smoke run: exit %d, want 2\n%s", code, stderr)
	}
}
