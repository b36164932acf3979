package testtool_test

// scripts/fuzz.sh, which `make fuzz` runs each fuzz target through, is tested here: the
// scripts directory holds no Go package.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A module of two fuzz targets: FuzzBad fails on inputs of four bytes or more starting
// with 'z' (the fuzzer finds one within seconds), FuzzOK never fails.
const fuzzModule = `package fz

import "testing"

func FuzzBad(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 3 && b[0] == 'z' {
			t.Fatal("found")
		}
	})
}

func FuzzOK(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`

// fakeGo prints what Go 1.26's end-of-fuzztime race printed in CI for a -fuzz run of
// the target named in $FAKE_TARGET and exits 1; any other go command is the real go.
const fakeGo = `#!/bin/sh
for a in "$@"; do
	if [ "$a" = "-fuzz" ]; then
		printf 'fuzz: elapsed: 20s, execs: 484307 (23572/sec)\n--- FAIL: %s (20.12s)\n    context deadline exceeded\nFAIL\nexit status 1\nFAIL\tfz\t20.128s\n' "$FAKE_TARGET"
		exit 1
	fi
done
exec go "$@"
`

func fuzzScript(t *testing.T, dir, goCmd, target string, secs string) (string, int) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "fuzz.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script, target, ".", secs)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GO="+goCmd, "FAKE_TARGET="+target, "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func fuzzDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module fz\n\ngo 1.26\n", "fz_test.go": fuzzModule, "fakego.sh": fakeGo} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The known race (a bare deadline, no input written) passes when the target's corpus
// passes as tests, and fails when it does not.
func TestFuzzScriptTellsTheDeadlineRaceFromAFinding(t *testing.T) {
	dir := fuzzDir(t)
	fake := filepath.Join(dir, "fakego.sh")

	out, code := fuzzScript(t, dir, fake, "FuzzOK", "20")
	if code != 0 || !strings.Contains(out, "golang/go#75804") {
		t.Errorf("the race on a passing target: exit %d, want 0 naming the Go issue\n%s", code, out)
	}

	// A real run finds FuzzBad's failing input and writes it: exit non-zero.
	out, code = fuzzScript(t, dir, "go", "FuzzBad", "30")
	if code == 0 || !strings.Contains(out, "Failing input written to") {
		t.Fatalf("a real finding: exit %d, want non-zero with the input written\n%s", code, out)
	}
	// Now FuzzBad's kept input fails as a test: the same bare deadline is not excused.
	out, code = fuzzScript(t, dir, fake, "FuzzBad", "20")
	if code == 0 || !strings.Contains(out, "real failure") {
		t.Errorf("the race on a target whose corpus fails: exit %d, want non-zero\n%s", code, out)
	}
}

// Any other failure text is go test's failure, passed on.
func TestFuzzScriptPassesOnOtherFailures(t *testing.T) {
	dir := fuzzDir(t)
	fake := filepath.Join(dir, "fakego.sh")
	body, _ := os.ReadFile(fake)
	if err := os.WriteFile(fake, []byte(strings.Replace(string(body), "context deadline exceeded", "fuzzing process hung or terminated unexpectedly", 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := fuzzScript(t, dir, fake, "FuzzOK", "20")
	if code == 0 || strings.Contains(out, "not a finding") {
		t.Errorf("another failure: exit %d, want non-zero\n%s", code, out)
	}
}
