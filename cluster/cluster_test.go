package cluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/engine"
	"github.com/wirebench/wirebench/load"
	_ "github.com/wirebench/wirebench/protocol/all"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wbcluster")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "wirebench")
	if out, err := exec.Command("go", "build", "-o", binary, "../cmd/wirebench").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func spec(protocol, transport string) Spec {
	m, _ := load.Model{Kind: load.Closed, Concurrency: 4}.Normalize()
	return Spec{Protocol: protocol, Transport: transport, Workload: "person.get", Model: m,
		Warmup: 100 * time.Millisecond, Iterations: 2, IterationTime: 200 * time.Millisecond, Trials: 2,
		CallTimeout: 5 * time.Second, DataSeed: contract.DefaultSeed, DataSize: contract.DefaultSize}
}

// A benchmark over real worker processes: trials with fresh workers, intervals with
// histograms, CPU, bytes and the server's marks.
func TestRunTrials(t *testing.T) {
	var events []Event
	trials, err := Run(context.Background(), spec("grpc-proto", "unix"), Options{Binary: binary,
		Observe: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 2 || len(events) != 6 {
		t.Fatalf("%d trials, %d events; want 2 and 6 (warmup + 2 iterations each)", len(trials), len(events))
	}
	for _, tr := range trials {
		if tr.Warmup == nil || len(tr.Intervals) != 2 {
			t.Fatalf("trial %d: warmup %v, %d intervals", tr.Index, tr.Warmup != nil, len(tr.Intervals))
		}
		for _, iv := range tr.Intervals {
			if iv.Ops == 0 || iv.Resp.TotalCount() != iv.Ops || iv.ErrorCount() != 0 {
				t.Errorf("interval: %d ops, %d latencies, errors %v", iv.Ops, iv.Resp.TotalCount(), iv.Errors)
			}
			if iv.BytesSent == 0 || iv.BytesReceived == 0 || iv.ClientCPU <= 0 {
				t.Errorf("interval: bytes %d/%d, client CPU %v; want all counted", iv.BytesSent, iv.BytesReceived, iv.ClientCPU)
			}
		}
		if tr.ServerStart == nil || tr.ServerEnd == nil || tr.ServerEnd.CPU <= tr.ServerStart.CPU ||
			tr.ServerEnd.Calls <= tr.ServerStart.Calls || tr.ServerEnd.PeakRSS <= 0 {
			t.Errorf("trial %d: server marks %+v → %+v", tr.Index, tr.ServerStart, tr.ServerEnd)
		}
	}
}

// In-process protocols need no server worker.
func TestRunDirect(t *testing.T) {
	trials, err := Run(context.Background(), spec("direct", "inproc"), Options{Binary: binary})
	if err != nil {
		t.Fatal(err)
	}
	if tr := trials[0]; len(tr.Intervals) != 2 || tr.ServerStart != nil {
		t.Errorf("direct: %d intervals, server mark %v", len(tr.Intervals), tr.ServerStart)
	}
}

// A worker killed mid-run: the driver says which, shows its stderr and exit, keeps
// the intervals measured so far, and does not hang.
func TestWorkerKilled(t *testing.T) {
	s := spec("http-json", "tcp")
	s.Iterations, s.Trials = 50, 1
	var trials []*Trial
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		killed := false
		trials, err = Run(context.Background(), s, Options{Binary: binary, Observe: func(e Event) {
			if e.Interval.Phase == engine.Measure && e.Interval.Index == 1 && !killed {
				killed = true
				killWorker(t, "s0.sock") // the server worker of trial 0
			}
		}})
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the driver hung after a worker was killed")
	}
	if err == nil {
		t.Fatal("Run succeeded with its server killed")
	}
	t.Logf("error: %v", err)
	if !strings.Contains(err.Error(), "server worker") && !strings.Contains(err.Error(), "client worker") {
		t.Errorf("error %q does not say which worker failed", err)
	}
	if len(trials) != 1 || len(trials[0].Intervals) < 2 || trials[0].Err == nil {
		t.Errorf("kept %d trials; want the one, with its 2+ finished intervals and its error", len(trials))
	}
}

// killWorker kills the worker process whose command line names the socket.
func killWorker(t *testing.T, sock string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), "worker") || !strings.Contains(string(b), sock) {
			continue
		}
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err == nil {
			syscall.Kill(pid, syscall.SIGKILL)
			return
		}
	}
	t.Errorf("no worker process with %s found", sock)
}

// A worker that cannot start is reported with what it said.
func TestBadBinary(t *testing.T) {
	_, err := Run(context.Background(), spec("grpc-proto", "tcp"), Options{Binary: "/bin/false", StartTimeout: 2 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "server worker") {
		t.Errorf("error %v, want one naming the server worker", err)
	}
}

// A setup the worker refuses comes back as the worker's reason.
func TestBadSetup(t *testing.T) {
	s := spec("grpc-proto", "tcp")
	s.ClientOptions = map[string]string{"no_such_option": "1"}
	_, err := Run(context.Background(), s, Options{Binary: binary})
	if err == nil || !strings.Contains(err.Error(), "no_such_option") {
		t.Errorf("error %v, want the client worker's complaint about the option", err)
	}
}
