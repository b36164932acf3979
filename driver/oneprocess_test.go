package driver

import (
	"context"
	"net"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/protocol/transport"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
	"github.com/wirebench/wirebench/workers/go/engine"
	"github.com/wirebench/wirebench/workers/go/sysstat"
)

// lineSpec is rpcecho's benchmark: echo+stats of "Hello World" (11 B), one caller,
// lines of ops ops.
func lineSpec(protocol, transport string, ops int64) spec.Spec {
	s := spec.Default()
	s.Protocol, s.Transport = protocol, transport
	s.Workload, s.Params = "echo+stats", contract.Params{Payload: 11}
	s.Load, _ = load.Model{Kind: load.Closed, Concurrency: 1}.Normalize()
	s.Warmup, s.Rounds, s.SliceTime, s.SliceOps, s.Forks = 0, 2, 0, ops, 2
	s.CallTimeout, s.ServerCPUs, s.ClientCPUs = 10*time.Second, nil, nil
	s.Method = spec.MethodInterleaved
	return s
}

// A group measured in this process: every target's lines are the slice's ops
// (rpcecho's 1000 echo+stats iterations), in rounds of one line per target, in each
// of the forks, with the process's CPU and the client's bytes; no server reading.
func TestMeasureOneProcessLines(t *testing.T) {
	specs := []spec.Spec{lineSpec("direct", spec.InProc, 1000), lineSpec("http-json", "unix", 1000),
		lineSpec("grpc-proto", "tcp", 1000), lineSpec("capnp", "unix", 1000)}
	var events int
	ms := MeasureOneProcess(context.Background(), specs, Options{TempDir: t.TempDir(), Observe: func(Event) { events++ }})
	if events != 4*2*2 {
		t.Errorf("%d events, want 16 (4 targets × 2 forks × 2 lines)", events)
	}
	for i, m := range ms {
		name := specs[i].Protocol
		if m.Err != nil {
			t.Fatalf("%s: %v", name, m.Err)
		}
		if m.Method != spec.MethodInterleaved || m.Isolation != OneProcessIsolation || len(m.Forks) != 2 {
			t.Fatalf("%s: method %s, isolation %q, %d forks; want interleaved, %q, 2", name, m.Method, m.Isolation, len(m.Forks), OneProcessIsolation)
		}
		for k, f := range m.Forks {
			if f.Index != k || f.Warmup != nil || len(f.Intervals) != 2 {
				t.Fatalf("%s fork %d: index %d, warmup %v, %d lines; want %d, none, 2", name, k, f.Index, f.Warmup != nil, len(f.Intervals), k)
			}
			for r, iv := range f.Intervals {
				if iv.Ops != 1000 || iv.Resp.TotalCount() != 1000 || iv.ErrorCount() != 0 || iv.Index != r || iv.Phase != string(engine.Measure) {
					t.Errorf("%s fork %d line %d: %d ops (%d recorded), %d errors, index %d, phase %s; want 1000 ops, no error, index %d, measure",
						name, k, r, iv.Ops, iv.Resp.TotalCount(), iv.ErrorCount(), iv.Index, iv.Phase, r)
				}
				if iv.Server != nil || iv.ClientCPUs < 1 {
					t.Errorf("%s: server reading %v, %d CPUs; want none, at least 1", name, iv.Server, iv.ClientCPUs)
				}
				// Each of 1000 ops echoes 11 bytes over a wire, so at least that much
				// went each way; the in-process target carries none.
				if wire := name != "direct"; wire && (iv.BytesSent < 11000 || iv.BytesReceived < 11000) || !wire && iv.BytesSent+iv.BytesReceived != 0 {
					t.Errorf("%s: %d bytes sent, %d received", name, iv.BytesSent, iv.BytesReceived)
				}
			}
		}
	}
}

// countingListener counts the connections its server accepted, and when it accepted
// the last one.
type countingListener struct {
	net.Listener
	accepted *atomic.Int64
	last     *atomic.Pointer[time.Time] // with its monotonic reading, as the engine's times
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		now := time.Now()
		l.last.Store(&now)
		l.accepted.Add(1)
	}
	return c, err
}

// Every line opens a client of its own: the server accepts one connection for the
// contract check, then one per line (the warm-up is a line too), for every protocol
// across a wire, also HTTP/1.1 whose pooled connection a reused client would keep.
// HTTP/1.1's connection is dialled by the line's first call, inside the line, as
// rpcecho's was; grpc-go's and capnp-go's before the line starts, as rpcecho's gRPC
// client (grpc.WithBlock) and Cap'n Proto client (net.Dial) did. Those are the order
// of events, not durations: HTTP's first call cannot be answered before the server
// accepts its connection, and a gRPC or Cap'n Proto client is not made until its
// connection is up.
func TestOneProcessFreshClientPerLine(t *testing.T) {
	proc, err := sysstat.Self()
	if err != nil {
		t.Skip(err)
	}
	for _, p := range []string{"http-json", "grpc-proto", "capnp"} {
		t.Run(p, func(t *testing.T) {
			s := lineSpec(p, "unix", 20)
			s.Warmup = 50 * time.Millisecond
			r, err := control.Resolve(s)
			if err != nil {
				t.Fatal(err)
			}
			var accepted atomic.Int64
			var last atomic.Pointer[time.Time]
			listen := func(a transport.Addr) (net.Listener, error) {
				ln, err := transport.Listen(a)
				return countingListener{ln, &accepted, &last}, err
			}
			ctx := context.Background()
			tg, err := startOneTarget(ctx, r, filepath.Join(t.TempDir(), "s.sock"), listen)
			if err != nil {
				t.Fatal(err)
			}
			defer tg.close()
			if _, err := tg.line(ctx, proc, engine.Warmup, 0); err != nil {
				t.Fatal(err)
			}
			for k := range 3 {
				iv, err := tg.line(ctx, proc, engine.Measure, k)
				if err != nil {
					t.Fatal(err)
				}
				if iv.Ops != 20 {
					t.Fatalf("line %d: %d ops, want 20", k, iv.Ops)
				}
				at := *last.Load()
				inside := at.After(iv.Start) && at.Before(iv.End)
				if want := p == "http-json"; inside != want || !want && !at.Before(iv.Start) {
					t.Errorf("line %d: its connection accepted %v after the line's start (line %v); want inside the line: %v",
						k, at.Sub(iv.Start), iv.End.Sub(iv.Start), want)
				}
			}
			// 1 (check) + 1 (warm-up) + 3 (lines). Close waits for the server, so
			// every accept has been counted by then.
			tg.close()
			if got := accepted.Load(); got != 5 {
				t.Errorf("%d connections accepted, want 5", got)
			}
		})
	}
}

// What one process cannot hold is refused before anything runs, per benchmark.
func TestMeasureOneProcessRefuses(t *testing.T) {
	tls := lineSpec("grpc-proto", spec.TLS, 20)
	ms := MeasureOneProcess(context.Background(), []spec.Spec{tls}, Options{TempDir: t.TempDir()})
	if ms[0].Err == nil || len(ms[0].Forks) != 0 {
		t.Errorf("tls: err %v, %d forks; want a refusal and nothing run", ms[0].Err, len(ms[0].Forks))
	}
	ok := lineSpec("direct", spec.InProc, 20)
	ms = MeasureOneProcess(context.Background(), []spec.Spec{ok}, Options{TempDir: t.TempDir(), Hosts: spec.Hosts{Server: "tcp://127.0.0.1:1"}})
	if ms[0].Err == nil || len(ms[0].Forks) != 0 {
		t.Errorf("remote server: err %v, %d forks; want a refusal", ms[0].Err, len(ms[0].Forks))
	}
}
