package testtool_test

// scripts/test.sh, which `make test` runs its tests through, is tested here against a
// throwaway module of four packages, with a go that logs its `test` command lines and a
// make that logs its targets and fails the one named in $FAIL_TARGET.

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// logGo logs each `go test` command line to $GO_LOG, then runs the real go.
const logGo = `#!/bin/sh
if [ "$1" = test ]; then echo "$*" >> "$GO_LOG"; fi
exec go "$@"
`

// logMake logs each make's target to $MAKE_LOG and fails the one named $FAIL_TARGET.
const logMake = `#!/bin/sh
for a in "$@"; do case "$a" in -*) ;; *) t=$a ;; esac; done
echo "$t" >> "$MAKE_LOG"
[ "$t" != "$FAIL_TARGET" ]
`

// A package NAME's test that passes, or fails when $FAIL_PKG names its package.
const pkgTest = `package NAME

import (
	"os"
	"testing"
)

func TestIt(t *testing.T) {
	if os.Getenv("FAIL_PKG") == "NAME" {
		t.Fatal("asked to fail")
	}
}
`

type testRun struct {
	out        string
	code       int
	goTests    []string // the go test command lines, in order
	makeTarget []string // the make targets, in the order they were started
}

func runTestScript(t *testing.T, env ...string) testRun {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	files := map[string]string{"go.mod": "module ts\n\ngo 1.26\n", "go.sh": logGo, "make.sh": logMake}
	for _, p := range []string{"fast", "other", "slow", "long"} {
		files[filepath.Join(p, p+"_test.go")] = strings.ReplaceAll(pkgTest, "NAME", p)
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	goLog, makeLog := filepath.Join(dir, "go.log"), filepath.Join(dir, "make.log")
	cmd := exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GO="+filepath.Join(dir, "go.sh"), "MAKE="+filepath.Join(dir, "make.sh"),
		"GO_LOG="+goLog, "MAKE_LOG="+makeLog, "WAITING_TESTS=./slow/", "LONG_TESTS=./long/", "GOFLAGS=")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	r := testRun{out: string(out)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	read := func(f string) []string {
		b, _ := os.ReadFile(f)
		return strings.Fields(strings.ReplaceAll(string(b), " ", "_"))
	}
	r.goTests, r.makeTarget = read(goLog), read(makeLog)
	return r
}

// The waiting packages run one at a time in the lane, the others with the long ones
// first; every step runs, and the lane's output comes after the rest.
func TestTestScriptSchedules(t *testing.T) {
	r := runTestScript(t)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", r.code, r.out)
	}
	want := []string{"test_-count=1_-timeout_30m_-p_1_./slow/", "test_-count=1_-timeout_30m_ts/long_ts/fast_ts/other"}
	slices.Sort(want)
	got := slices.Sorted(slices.Values(r.goTests))
	if !slices.Equal(got, want) {
		t.Errorf("go test command lines %q, want %q", r.goTests, want)
	}
	for _, target := range []string{"java-tested", "deploy-check", "test-rust-unit", "test-python-unit", "test-node-unit"} {
		if !slices.Contains(r.makeTarget, target) {
			t.Errorf("make %s did not run (ran %q)", target, r.makeTarget)
		}
	}
	lane := strings.Index(r.out, "--- the lane beside")
	if lane < 0 || strings.Index(r.out, "ts/slow") < lane || strings.Index(r.out, "ts/long") > lane {
		t.Errorf("the lane's output is not after the others':\n%s", r.out)
	}
}

// A failed JUnit pass (java-tested) stops the other Go tests and fails the script; the
// lane still runs to its end.
func TestTestScriptJUnitFailureStops(t *testing.T) {
	r := runTestScript(t, "FAIL_TARGET=java-tested")
	if r.code == 0 {
		t.Fatalf("exit 0 after a failed java-tested:\n%s", r.out)
	}
	if slices.ContainsFunc(r.goTests, func(s string) bool { return strings.Contains(s, "ts/long") }) {
		t.Errorf("the Go tests ran after a failed java-tested: %q", r.goTests)
	}
	if !slices.Contains(r.makeTarget, "test-node-unit") {
		t.Errorf("the lane stopped early: %q", r.makeTarget)
	}
}

// A failure in the lane, a waiting package's or a step's, fails the script, and the
// rest still runs.
func TestTestScriptLaneFailures(t *testing.T) {
	for _, env := range []string{"FAIL_PKG=slow", "FAIL_TARGET=deploy-check"} {
		t.Run(env, func(t *testing.T) {
			r := runTestScript(t, env)
			if r.code == 0 {
				t.Fatalf("exit 0 with %s:\n%s", env, r.out)
			}
			if len(r.goTests) != 2 || !slices.Contains(r.makeTarget, "test-node-unit") {
				t.Errorf("with %s not every step ran: go %q, make %q", env, r.goTests, r.makeTarget)
			}
		})
	}
	r := runTestScript(t, "FAIL_PKG=other")
	if r.code == 0 {
		t.Fatalf("exit 0 with a failed package among the others:\n%s", r.out)
	}
}
