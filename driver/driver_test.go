package driver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/internal/testbin"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
	_ "github.com/wirebench/wirebench/stack/all"
	"github.com/wirebench/wirebench/workers/go/engine"
)

var binary string

func TestMain(m *testing.M) { testbin.Main(m, "github.com/wirebench/wirebench/cmd/wirebench", &binary) }

func testSpec(protocol, transport string) spec.Spec {
	s := spec.Default()
	s.Protocol, s.Transport = protocol, transport
	s.Load, _ = load.Model{Kind: load.Closed, Concurrency: 4}.Normalize()
	s.Warmup, s.Rounds, s.SliceTime, s.Forks = 100*time.Millisecond, 2, 200*time.Millisecond, 2
	s.CallTimeout, s.ServerCPUs, s.ClientCPUs = 5*time.Second, nil, nil
	s.Method = spec.MethodSequential
	return s
}

// A benchmark over real worker processes: forks with fresh workers, intervals with
// histograms, CPU, bytes and the server's readings.
func TestRunForks(t *testing.T) {
	var events []Event
	forks, err := Measure(context.Background(), testSpec("grpc-proto", "unix"), Options{Binary: binary,
		Observe: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(forks) != 2 || len(events) != 6 {
		t.Fatalf("%d forks, %d events; want 2 and 6 (warmup + 2 rounds each)", len(forks), len(events))
	}
	for _, tr := range forks {
		if tr.Warmup == nil || len(tr.Intervals) != 2 {
			t.Fatalf("fork %d: warmup %v, %d intervals", tr.Index, tr.Warmup != nil, len(tr.Intervals))
		}
		for k, iv := range tr.Intervals {
			if iv.Ops == 0 || iv.Resp.TotalCount() != iv.Ops || iv.ErrorCount() != 0 || iv.Index != k {
				t.Errorf("interval %d: index %d, %d ops, %d latencies, errors %v", k, iv.Index, iv.Ops, iv.Resp.TotalCount(), iv.Errors)
			}
			if iv.BytesSent == 0 || iv.BytesReceived == 0 || iv.ClientCPU <= 0 {
				t.Errorf("interval: bytes %d/%d, client CPU %v; want all counted", iv.BytesSent, iv.BytesReceived, iv.ClientCPU)
			}
			if iv.Server == nil || iv.ServerCPU <= 0 || iv.Server.PeakRSS <= 0 {
				t.Errorf("interval: server reading %+v, CPU %v; want the server's CPU over the phase", iv.Server, iv.ServerCPU)
			}
		}
	}
}

// In-process protocols need no server worker.
func TestRunDirect(t *testing.T) {
	forks, err := Measure(context.Background(), testSpec("direct", "inproc"), Options{Binary: binary})
	if err != nil {
		t.Fatal(err)
	}
	if tr := forks[0]; len(tr.Intervals) != 2 || tr.Intervals[0].Server != nil {
		t.Errorf("direct: %d intervals, server reading %v", len(tr.Intervals), tr.Intervals[0].Server)
	}
}

// An interleaved group: every target up at once, one slice each per round in the
// order Rounds gives, each target's intervals numbered by round.
func TestMeasureGroupInterleaved(t *testing.T) {
	var specs []spec.Spec
	for _, p := range []string{"http-json", "grpc-proto", "capnp"} {
		s := testSpec(p, "tcp")
		s.Method, s.Rounds, s.Forks, s.SliceTime = spec.MethodInterleaved, 4, 1, 50*time.Millisecond
		specs = append(specs, s)
	}
	var order []int
	rs := MeasureGroup(context.Background(), specs, Options{Binary: binary, Seed: 7, Observe: func(e Event) {
		if e.Interval.Phase == string(engine.Measure) {
			order = append(order, e.Target)
		}
	}})
	var want []int
	for _, round := range Rounds(3, 4, 7, 0) {
		want = append(want, round...)
	}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("slices in order %v, want the rounds' order %v", order, want)
	}
	for i, r := range rs {
		if r.Err != nil || r.Method != spec.MethodInterleaved || len(r.Forks) != 1 {
			t.Fatalf("target %d: err %v, method %q, %d forks", i, r.Err, r.Method, len(r.Forks))
		}
		tr := r.Forks[0]
		if tr.Warmup == nil || len(tr.Intervals) != 4 {
			t.Fatalf("target %d: warmup %v, %d slices; want a warmup and 4", i, tr.Warmup != nil, len(tr.Intervals))
		}
		for k, iv := range tr.Intervals {
			if iv.Index != k || iv.Ops == 0 || iv.Server == nil || iv.ServerCPU <= 0 {
				t.Errorf("target %d slice %d: index %d, %d ops, server CPU %v", i, k, iv.Index, iv.Ops, iv.ServerCPU)
			}
		}
	}
}

// An adaptive warm-up runs in slices of spec.WarmupSlice and stops at its WarmupMax
// when too few slices were run to settle (stats.WarmupSettled needs two windows); a
// fixed one beside it in the group is one phase.
func TestAdaptiveWarmupStopsAtItsMax(t *testing.T) {
	adaptive, fixed := testSpec("http-json", "tcp"), testSpec("grpc-proto", "tcp")
	for _, s := range []*spec.Spec{&adaptive, &fixed} {
		s.Method, s.Rounds, s.Forks, s.SliceTime = spec.MethodInterleaved, 2, 1, 50*time.Millisecond
	}
	adaptive.Warmup, adaptive.WarmupMax = 0, 2*spec.WarmupSlice
	warmups := map[int][]int{}
	rs := MeasureGroup(context.Background(), []spec.Spec{adaptive, fixed}, Options{Binary: binary, Observe: func(e Event) {
		if e.Interval.Phase == string(engine.Warmup) {
			warmups[e.Target] = append(warmups[e.Target], e.Interval.Index)
		}
	}})
	for i, r := range rs {
		if r.Err != nil || len(r.Forks) != 1 || len(r.Forks[0].Intervals) != 2 {
			t.Fatalf("target %d: err %v, %d forks", i, r.Err, len(r.Forks))
		}
	}
	a, f := rs[0].Forks[0], rs[1].Forks[0]
	if len(a.WarmupSlices) != 2 || a.WarmupSettled || fmt.Sprint(warmups[0]) != "[0 1]" {
		t.Fatalf("adaptive: %d slices (observed %v), settled %v; want 2 slices numbered 0 and 1, not settled",
			len(a.WarmupSlices), warmups[0], a.WarmupSettled)
	}
	var ops int64
	for _, iv := range a.WarmupSlices {
		if iv.Ops == 0 || iv.Server == nil {
			t.Errorf("adaptive warm-up slice: %d ops, server reading %v", iv.Ops, iv.Server)
		}
		ops += iv.Ops
	}
	if w := a.Warmup; w == nil || w.Ops != ops || w.Resp.TotalCount() != ops || w.Seconds() < 1.9 || w.ServerCPU <= 0 {
		t.Errorf("adaptive warm-up merged: %+v; want its slices' %d ops over about 2 s, with server CPU", w, ops)
	}
	if f.WarmupSlices != nil || f.Warmup == nil || len(warmups[1]) != 1 {
		t.Errorf("fixed warm-up: %d slices, warmup %v, %d observed; want one phase", len(f.WarmupSlices), f.Warmup != nil, len(warmups[1]))
	}
}

// A target of a group that fails its setup does not stop the others.
func TestMeasureGroupOneFails(t *testing.T) {
	good, bad := testSpec("grpc-proto", "tcp"), testSpec("grpc-proto", "tcp")
	bad.Label, bad.ClientOptions = "bad", map[string]string{"no_such_option": "1"}
	for _, s := range []*spec.Spec{&good, &bad} {
		s.Method, s.Forks, s.Rounds, s.SliceTime = spec.MethodInterleaved, 1, 3, 50*time.Millisecond
	}
	rs := MeasureGroup(context.Background(), []spec.Spec{good, bad}, Options{Binary: binary})
	if rs[0].Err != nil || len(rs[0].Forks[0].Intervals) != 3 {
		t.Errorf("the good target: err %v; want its 3 slices", rs[0].Err)
	}
	if rs[1].Err == nil || !strings.Contains(rs[1].Err.Error(), "no_such_option") {
		t.Errorf("the bad target: err %v; want the client worker's complaint", rs[1].Err)
	}
}

// A worker killed mid-run: the driver says which, shows its stderr and exit, keeps
// the intervals measured so far, and does not hang.
func TestWorkerKilled(t *testing.T) {
	s := testSpec("http-json", "tcp")
	s.Rounds, s.Forks = 50, 1
	var forks []*results.Fork
	var err error
	done := make(chan struct{})
	// The driver's sockets go under a directory of this test's own, so that the
	// worker killed is this test's (other packages' tests run workers meanwhile).
	tmp := t.TempDir()
	go func() {
		defer close(done)
		killed := false
		forks, err = Measure(context.Background(), s, Options{Binary: binary, TempDir: tmp, Observe: func(e Event) {
			if e.Interval.Phase == string(engine.Measure) && e.Interval.Index == 1 && !killed {
				killed = true
				killWorker(t, tmp, "server-0-0.sock") // the server worker of fork 0
			}
		}})
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the driver hung after a worker was killed")
	}
	if err == nil {
		t.Fatal("Measure succeeded with its server killed")
	}
	t.Logf("error: %v", err)
	if !strings.Contains(err.Error(), "server worker") && !strings.Contains(err.Error(), "client worker") {
		t.Errorf("error %q does not say which worker failed", err)
	}
	if len(forks) != 1 || len(forks[0].Intervals) < 2 || forks[0].Err == nil {
		t.Errorf("kept %d forks; want the one, with its 2+ finished intervals and its error", len(forks))
	}
}

// killWorker kills the worker process whose command line names the socket in dir.
func killWorker(t *testing.T, dir, sock string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), "worker") || !strings.Contains(string(b), dir) || !strings.Contains(string(b), sock) {
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
	_, err := Measure(context.Background(), testSpec("grpc-proto", "tcp"), Options{Binary: "/bin/false", StartTimeout: 2 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "server worker") {
		t.Errorf("error %v, want one naming the server worker", err)
	}
}

// A setup the worker refuses comes back as the worker's reason.
func TestBadSetup(t *testing.T) {
	s := testSpec("grpc-proto", "tcp")
	s.ClientOptions = map[string]string{"no_such_option": "1"}
	_, err := Measure(context.Background(), s, Options{Binary: binary})
	if err == nil || !strings.Contains(err.Error(), "no_such_option") {
		t.Errorf("error %v, want the client worker's complaint about the option", err)
	}
}

// A phase's server CPU is the server's CPU during that phase only: what the server
// burns between phases (here: a second of calls from outside, as another target's
// slices or a JVM's own threads would) is not charged to the next phase.
func TestServerCPUIsThePhases(t *testing.T) {
	s := testSpec("http-json", "tcp")
	res, err := control.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Binary: binary}
	if err := opt.fill(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tg, err := startTarget(ctx, res, opt, t.TempDir(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tg.close()
	const slice = 50 * time.Millisecond
	if _, err := tg.phase(ctx, &controlpb.Phase{Kind: string(engine.Measure), DurationNanos: int64(slice)}); err != nil {
		t.Fatal(err)
	}
	// Between the phases: four callers from this process for a second.
	u, err := url.Parse(tg.addr)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var calls atomic.Int64
	stop := time.Now().Add(time.Second)
	for range 4 {
		wg.Go(func() {
			c := &http.Client{Timeout: 5 * time.Second}
			for time.Now().Before(stop) {
				if r, err := c.Get("http://" + u.Host + "/no-such-path"); err == nil {
					io.Copy(io.Discard, r.Body)
					r.Body.Close()
					calls.Add(1)
				}
			}
		})
	}
	wg.Wait()
	iv, err := tg.phase(ctx, &controlpb.Phase{Kind: string(engine.Measure), DurationNanos: int64(slice)})
	if err != nil {
		t.Fatal(err)
	}
	// The phase lasted about 50 ms; on at most every CPU of this machine the server
	// cannot have used more than that many times its length (plus the drain and the
	// marks). The second of outside calls cost it far more.
	limit := time.Duration(runtime.NumCPU()) * (slice + 50*time.Millisecond)
	if iv.ServerCPU > limit {
		t.Errorf("phase of %v charged %v of server CPU (limit %v); %d outside calls ran before it", slice, iv.ServerCPU, limit, calls.Load())
	}
}

// TLS on and off of one target, interleaved in one group: both measured, and the TLS
// one's bytes per op carry the TLS records' overhead (a 5-byte header and a 16-byte
// tag, at least, on each request), so it was not plain text.
func TestRunTLSGroup(t *testing.T) {
	var specs []spec.Spec
	for _, tr := range []string{spec.TCP, spec.TLS} {
		s := testSpec("http-json", tr)
		s.Method, s.Rounds, s.Forks, s.SliceTime = spec.MethodInterleaved, 2, 1, 100*time.Millisecond
		specs = append(specs, s)
	}
	rs := MeasureGroup(context.Background(), specs, Options{Binary: binary, Seed: 1})
	var perOp [2]float64
	for i, r := range rs {
		if r.Err != nil || len(r.Forks) != 1 {
			t.Fatalf("%s: err %v, %d forks", specs[i].Name(), r.Err, len(r.Forks))
		}
		var sent, ops int64
		for _, iv := range r.Forks[0].Intervals {
			sent, ops = sent+iv.BytesSent, ops+iv.Ops
			if iv.ErrorCount() != 0 {
				t.Errorf("%s: errors %v", specs[i].Name(), iv.Errors)
			}
		}
		if ops == 0 {
			t.Fatalf("%s: no ops", specs[i].Name())
		}
		perOp[i] = float64(sent) / float64(ops)
	}
	if perOp[1] < perOp[0]+21 {
		t.Errorf("bytes sent per op: %.1f over tcp, %.1f over tls; want at least 21 more over TLS", perOp[0], perOp[1])
	}
}

// A benchmark over HTTP/3 through worker processes: the server worker listens on UDP
// with a certificate made for the run, the client checks the contract and measures,
// with the UDP payloads counted (more than the JSON body each way).
func TestRunQUIC(t *testing.T) {
	for _, w := range []string{"person.get", "stream"} {
		s := testSpec("http-json", spec.QUIC)
		s.ServerStack, s.ClientStack, s.Forks, s.Workload = "go-quicgo-json-h3", "go-quicgo-json-h3", 1, w
		wl, err := contract.LookupWorkload(w)
		if err != nil {
			t.Fatal(err)
		}
		s.Params = wl.DefaultParams()
		forks, err := Measure(context.Background(), s, Options{Binary: binary})
		if err != nil {
			t.Fatalf("%s: %v", w, err)
		}
		var ops, sent, recv int64
		for _, iv := range forks[0].Intervals {
			ops, sent, recv = ops+iv.Ops, sent+iv.BytesSent, recv+iv.BytesReceived
			if iv.ErrorCount() != 0 {
				t.Errorf("%s: errors %v", w, iv.Errors)
			}
		}
		// A person's JSON is over 200 bytes; QUIC adds headers and a 16-byte tag to
		// every packet, and the request at least its header frame.
		if ops == 0 || recv/ops < 200 || sent/ops < 20 {
			t.Errorf("%s: %d ops, %d bytes sent and %d received; want ops, and over 20 and 200 bytes per op", w, ops, sent, recv)
		}
	}
}
