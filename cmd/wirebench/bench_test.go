package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alecthomas/kong"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/suite"
)

// runBinary runs the built wirebench as a process (bench and run start worker
// processes from their own executable, so they cannot run in-process) and returns
// its exit code and output.
func runBinary(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

func runBench(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runBinary(t, append([]string{"bench"}, args...)...)
}

// Every protocol benchmarks end to end over real worker processes, and the results
// file passes the JSON Schema with the stable names filled in.
func TestBenchEveryProtocol(t *testing.T) {
	dir := t.TempDir()
	for i, p := range protocol.All() {
		tr := []string{"tcp", "unix"}[i%2]
		args := []string{"--protocol", p.Name, "--transport", tr, "--workload", "echo", "--payload", "1KiB",
			"-c", "4", "--warmup", "100ms", "-d", "200ms", "-i", "2", "-q"}
		if i%3 == 1 { // some run the open model
			args = append(args, "--rate", "500", "--arrival", "poisson")
		}
		out := filepath.Join(dir, p.Name+".json")
		code, stdout, stderr := runBench(t, append(args, "--json", out)...)
		if code != 0 {
			t.Errorf("bench %s: exit %d\n%s%s", p.Name, code, stdout, stderr)
			continue
		}
		if !strings.Contains(stdout, "Benchmark") || !strings.Contains(stdout, p.Name+"/") {
			t.Errorf("bench %s printed no result table:\n%s", p.Name, stdout)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := results.ValidateJSON(data); err != nil {
			t.Errorf("bench %s: results fail the schema: %v", p.Name, err)
		}
		res, err := results.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		s := res.Benchmarks[0].Summary
		if s.Ops == 0 || s.Errors != 0 || s.ThroughputOpsS.N != 2 || s.ClientCPUUsPerOp <= 0 {
			t.Errorf("bench %s: summary %+v", p.Name, s)
		}
		if !p.InProcess && (s.BytesSentPerOp < 1024 || s.BytesRecvPerOp < 1024 || s.ServerCPUUsPerOp == nil) {
			t.Errorf("bench %s: a 1 KiB echo counted %.0f bytes sent, %.0f received per op, server CPU %v",
				p.Name, s.BytesSentPerOp, s.BytesRecvPerOp, s.ServerCPUUsPerOp)
		}
	}
}

// --address loads a server wirebench did not start.
func TestBenchAddress(t *testing.T) {
	srv, addr := startServe(t, nil, "--protocol", "http-json", "--listen", "tcp://127.0.0.1:0")
	defer srv.Process.Kill()
	code, stdout, stderr := runBench(t, "--protocol", "http-json", "--address", addr, "-c", "2", "--warmup", "0", "-d", "200ms", "-i", "1", "-q")
	if code != 0 || !strings.Contains(stdout, "server n/a") {
		t.Errorf("bench --address: exit %d, want 0 and no server figures\n%s%s", code, stdout, stderr)
	}
}

func TestBenchUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "nope"}, `unknown protocol "nope"`},
		{[]string{"-p", "direct", "-w", "nope"}, `unknown workload "nope"`},
		// A typo gets the name meant, and the valid names as a list, not a Go slice.
		{[]string{"-p", "grpc-protoo"}, `unknown protocol "grpc-protoo" (did you mean "grpc-proto"?) (known: capnp, connect-json,`},
		{[]string{"-p", "direct", "-w", "person.gett"}, `(did you mean "person.get"?)`},
		{[]string{"-p", "grpc-proto", "--server-stack", "grpc-ga"}, `(did you mean "grpc-go"?)`},
		{[]string{"-p", "direct", "-c", "0"}, "concurrency 0"},
		{[]string{"-p", "direct", "-c", "2", "--connections", "3"}, "connections 3"},
		{[]string{"-p", "direct", "--rate=-5"}, "rate -5"},
		{[]string{"-p", "direct", "-w", "echo", "--payload", "1TiB"}, "payload"},
		{[]string{"-p", "direct", "--address", "tcp://127.0.0.1:1"}, "in-process"},
		{[]string{"-p", "http-json", "--option", "novalue"}, "KEY=VALUE"},
		{[]string{"-p", "http-json", "--server-cpus", "9-3"}, "--server-cpus"},
		{[]string{"-p", "http-json", "-i", "0"}, "--rounds"},
	} {
		code, _, stderr := runCLI(t, append([]string{"bench"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("bench %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// SIGINT in the middle of a run prints what was measured, exits 1, and leaves no
// worker process behind.
func TestBenchInterrupt(t *testing.T) {
	tmp := t.TempDir()
	cmd := exec.Command(binary, "bench", "-p", "grpc-proto", "-c", "4", "--warmup", "0", "-d", "200ms", "-i", "1000")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp) // worker sockets go here, so we can find them
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	var seen []string
	for lines.Scan() {
		seen = append(seen, lines.Text())
		if strings.Contains(lines.Text(), "measure 2 ") {
			break
		}
	}
	if len(workersUnder(tmp)) == 0 {
		t.Fatalf("no worker processes found while running; stderr so far: %q", seen)
	}
	cmd.Process.Signal(syscall.SIGINT)
	go func() {
		for lines.Scan() {
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFailure {
			t.Errorf("interrupted bench exited with %v, want status 1", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("bench did not exit within 10s of SIGINT")
	}
	if !strings.Contains(stdout.String(), "grpc-proto/tcp/person.get") {
		t.Errorf("interrupted bench printed no result:\n%s", stdout.String())
	}
	if left := workersGone(tmp, 10*time.Second); len(left) > 0 {
		t.Errorf("worker processes left behind: %v", left)
	}
}

// workersGone waits until no wirebench worker has its control socket under dir, as
// when the workers die with their parent (their parent-death signal), and returns the
// pids of those still there after timeout.
func workersGone(dir string, timeout time.Duration) []string {
	deadline := time.Now().Add(timeout)
	for {
		left := workersUnder(dir)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(10 * time.Millisecond) // a poll: a process's exit sends the test no event
	}
}

// workersUnder returns the pids of wirebench workers whose control socket is under dir.
func workersUnder(dir string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), "worker") && strings.Contains(string(b), dir) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// The bench command with its default flags builds the benchmark a suite with no
// settings builds (both take their defaults from spec.Default; this proves the flags
// do), apart from the method: a lone benchmark is measured sequentially.
func TestSameSpecAsBench(t *testing.T) {
	c := newCLI()
	parser, err := kong.New(c, kong.Vars(cliVars()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse([]string{"bench", "-p", "http-json", "-w", "echo"}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Bench.spec()
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Parse("t.yaml", []byte("targets: [http-json]\nworkloads: [echo]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := control.Resolve(s.Benchmarks[0].Spec)
	if err != nil {
		t.Fatal(err)
	}
	want.Spec.Method = spec.MethodSequential
	if runtime.NumCPU() < 2 {
		want.Spec.ServerCPUs, want.Spec.ClientCPUs = nil, nil
	}
	if !reflect.DeepEqual(got.Spec, want.Spec) {
		t.Errorf("bench builds\n %+v\na suite builds\n %+v", got.Spec, want.Spec)
	}
}
