package driver

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/control/controlpb"
	"github.com/wirebench/wirebench/driver/launch"
	"github.com/wirebench/wirebench/internal/nspair"
	"github.com/wirebench/wirebench/protocol"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/link"
	"github.com/wirebench/wirebench/spec/load"
)

// A JVM client behind a link calls a Go server through the `wirebench link` proxy it
// starts: with delay=5ms in each direction every round trip of a one-increment
// ping-pong takes at least 10 ms, so the p50 is at least 10 ms (the same calls
// without a link take well under 1 ms), and each interval reports the proxy's CPU.
func TestJVMClientBehindLink(t *testing.T) {
	jar := needJVMWorker(t)
	s := testSpec("grpc-proto", "tcp")
	s.ClientStack = "grpc-java-netty"
	s.Workload, s.Params = "pingpong", contract.Params{Increments: 1}
	s.Load, _ = load.Model{Kind: load.Closed, Concurrency: 1}.Normalize()
	s.Warmup, s.Rounds, s.SliceTime, s.Forks = 200*time.Millisecond, 2, 500*time.Millisecond, 1
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := spec.Hosts{Link: link.Profile{Delay: 5 * time.Millisecond}}
	forks, err := Measure(ctx, s, Options{Binary: binary, Launch: launch.Options{JavaWorker: jar}, StartTimeout: 30 * time.Second, Hosts: h})
	if err != nil {
		t.Fatal(err)
	}
	all := record.NewInterval(false)
	for _, iv := range forks[0].Intervals {
		all.Add(iv.Interval)
		if iv.Ops == 0 || iv.LinkCPU <= 0 {
			t.Errorf("interval %d: %d ops, link CPU %v; want calls and the proxy's CPU", iv.Index, iv.Ops, iv.LinkCPU)
		}
	}
	p50 := float64(all.Resp.ValueAtQuantile(50)) / 1e6
	t.Logf("p50 %.2f ms behind delay=5ms each way", p50)
	if p50 < 10 {
		t.Errorf("p50 %.2f ms behind delay=5ms each way; want at least 10 ms", p50)
	}
}

// A JVM worker started with the wirebench executable lists "link" among its features;
// one started without it (by hand, say) does not, and refuses a setup with a link
// rather than ignore it.
func TestJVMWorkerLinkFeature(t *testing.T) {
	jar := needJVMWorker(t)
	st := &protocol.Stack{Name: "grpc-java-netty", Protocol: "grpc-proto", Worker: protocol.WorkerJava}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, bin := range []string{binary, ""} {
		w, err := launch.Start(ctx, "client worker", st, launch.Options{JavaWorker: jar, Binary: bin, StartTimeout: 30 * time.Second},
			t.TempDir(), "client", nil, nspair.End{})
		if err != nil {
			t.Fatal(err)
		}
		info, err := w.Client.Info(ctx, &controlpb.InfoRequest{})
		if err != nil {
			w.Close()
			t.Fatal(err)
		}
		if got := slices.Contains(info.Features, "link"); got != (bin != "") {
			t.Errorf("started with --wirebench %q: features %q", bin, info.Features)
		}
		if bin == "" {
			s := testSpec("grpc-proto", "tcp")
			s.ClientStack = "grpc-java-netty"
			res, err := control.Resolve(s)
			if err != nil {
				t.Fatal(err)
			}
			stream, err := w.Client.RunClient(ctx)
			if err == nil {
				err = stream.Send(&controlpb.ClientArgs{Arg: &controlpb.ClientArgs_Setup{Setup: &controlpb.ClientSetup{
					Benchmark: control.BenchmarkMessage(res), Address: "tcp://127.0.0.1:1",
					Link: &controlpb.LinkProfile{DelayNanos: 1e6}}}})
			}
			if err == nil {
				_, err = stream.Recv()
			}
			if err == nil || !strings.Contains(err.Error(), "link") {
				t.Errorf("a setup with a link, worker without --wirebench: %v; want a refusal naming the link", err)
			}
		}
		w.Close()
	}
}
