package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/driver/launch"
)

// noWorkers makes the JVM and Rust workers unfindable: their variables name files
// that are not there, and the directory the run starts in has no build.
func noWorkers(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(launch.JavaWorkerEnv, filepath.Join(dir, "none.jar"))
	t.Setenv(launch.RustWorkerEnv, filepath.Join(dir, "none"))
	t.Chdir(dir)
}

// A run whose workers are not built stops before measuring anything (issue 46: run
// grpc-bench measured grpc-go for minutes, then failed its JVM and Rust targets): exit
// 2 within seconds, each missing worker named once with how to build it, and no
// results directory written.
func TestRunFailsBeforeMeasuring(t *testing.T) {
	noWorkers(t)
	out := filepath.Join(t.TempDir(), "out")
	start := time.Now()
	code, stdout, stderr := runCLI(t, "run", "grpc-bench", "--smoke", "--no-store", "--out", out)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v, want under 5 s", took)
	}
	if code != exitUsage || !strings.Contains(stderr, "nothing was measured") ||
		!strings.Contains(stderr, "make java") || !strings.Contains(stderr, "make rust") ||
		strings.Count(stderr, "make java") != 1 {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "[1") {
		t.Errorf("a benchmark started:\n%s", stderr)
	}
	code, _, stderr = runCLI(t, "bench", "-p", "grpc-proto", "--server-stack", "tonic")
	if code != exitUsage || !strings.Contains(stderr, "make rust") {
		t.Errorf("bench of tonic: exit %d\n%s", code, stderr)
	}
}

// list marks each stack whose worker is not built, saying how to build it, and lists
// every transport.
func TestListMarksWhatIsNotBuilt(t *testing.T) {
	noWorkers(t)
	code, stdout, _ := runCLI(t, "list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	_, after, _ := strings.Cut(stdout, "grpc-java-netty")
	block, _, _ := strings.Cut(after, "\ngrpc-")
	if !strings.Contains(block, "NOT BUILT here: the JVM worker is not built") {
		t.Errorf("grpc-java-netty not marked:\n%s", block)
	}
	_, goBlock, _ := strings.Cut(stdout, "grpc-go (default)")
	goBlock, _, _ = strings.Cut(goBlock, "\ngrpc-")
	if strings.Contains(goBlock, "NOT BUILT") {
		t.Errorf("grpc-go marked:\n%s", goBlock)
	}
	for _, tr := range []string{"\ntcp ", "\ntls ", "\nunix ", "\nquic "} {
		if !strings.Contains(stdout, tr) {
			t.Errorf("list lacks the transport %q", strings.TrimSpace(tr))
		}
	}
}
