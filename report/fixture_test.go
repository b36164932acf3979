package report

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
)

// fixture is the results file the renderers' golden files are made from. It
// has every shape a renderer must handle: five protocol/transports over four
// closed-model operations (so the radar appears), an average-time operation,
// a rate sweep of two protocols with one saturating, an in-process benchmark
// whose server figures are unknown (null), a benchmark with failed calls, a
// fork cut short and warnings, one saved without histograms, stacks on every
// benchmark (one server stack tuned), and one comparison group measured
// interleaved, with paired ratios against its baseline and a drift warning.
func fixture(t testing.TB) *results.Results {
	t.Helper()
	type spec struct {
		proto, transport, workload string
		params                     map[string]any
		load                       results.Load
		mode                       string
		thr, thrErr                float64 // ops/s
		latUs, tail                float64 // latency: typical µs, tail weight
		clientCPU                  float64
		serverCPU                  *float64 // nil: no server process
		sent, recv                 float64
	}
	closed := func(c int) results.Load {
		return results.Load{Model: results.ModelClosed, Concurrency: c, Connections: 1}
	}
	open := func(rate float64) results.Load {
		return results.Load{Model: results.ModelOpen, Concurrency: 100, Connections: 1, Rate: rate, Arrival: "constant", MaxInFlight: 100}
	}
	f := func(v float64) *float64 { return &v }
	none := map[string]any{}
	echo := map[string]any{"payload": float64(1024)}
	trades := map[string]any{"trades": float64(1000)}
	specs := []spec{
		{"direct", "inproc", "person.get", none, closed(50), results.ModeThroughput, 2.41e6, 3.1e4, 0.9, 0.6, 0.83, nil, 0, 0},
		{"http-json", "tcp", "person.get", none, closed(50), results.ModeThroughput, 18342.7, 412.9, 2650, 1.2, 71.4, f(38.2), 164, 512},
		{"grpc-proto", "tcp", "person.get", none, closed(50), results.ModeThroughput, 41877.31, 655.25, 1170, 0.8, 31.7, f(17.9), 61, 240},
		{"capnp", "unix", "person.get", none, closed(50), results.ModeThroughput, 52310.05, 1210.8, 930, 0.7, 22.4, f(14.1), 74, 296},
		{"http-json", "tcp", "person.list", none, closed(50), results.ModeThroughput, 1523.42, 37.75, 32400, 0.9, 612.5, f(701.3), 98, 48211},
		{"grpc-proto", "tcp", "person.list", none, closed(50), results.ModeThroughput, 4412.08, 51.3, 11200, 0.6, 201.9, f(228.4), 42, 21733},
		{"capnp", "unix", "person.list", none, closed(50), results.ModeThroughput, 3987.5, 88.02, 12400, 0.7, 184.2, f(260.7), 40, 26120},
		{"http-json", "tcp", "echo", echo, closed(50), results.ModeThroughput, 15220.9, 2980.1, 3200, 2.5, 80.2, f(41.7), 1188, 1142},
		{"grpc-proto", "tcp", "echo", echo, closed(50), results.ModeThroughput, 35120.66, 702.3, 1400, 0.9, 36.6, f(20.5), 1071, 1068},
		{"grpc-proto", "unix", "echo", echo, closed(50), results.ModeThroughput, 39764.12, 640.77, 1240, 0.8, 33.1, f(18.8), 1071, 1068},
		{"capnp", "unix", "echo", echo, closed(50), results.ModeThroughput, 44102.3, 990.4, 1110, 0.8, 27.9, f(16.2), 1112, 1104},
		{"http-json", "tcp", "stream", trades, closed(1), results.ModeAverageTime, 26.3, 0.41, 38000, 0.3, 30120, f(29800), 95, 97412},
		{"grpc-proto", "tcp", "stream", trades, closed(1), results.ModeAverageTime, 6.71, 0.12, 149000, 0.2, 122000, f(98000), 31, 62190},
		{"grpc-proto", "unix", "stream", trades, closed(1), results.ModeAverageTime, 49.9, 0.95, 20000, 0.2, 17400, f(16100), 31, 62190},
		{"http-json", "tcp", "person.get", none, open(1000), results.ModeThroughput, 999.8, 0.4, 310, 0.8, 88.3, f(45.2), 164, 512},
		{"grpc-proto", "tcp", "person.get", none, open(1000), results.ModeThroughput, 1000.1, 0.3, 140, 0.6, 40.1, f(21.2), 61, 240},
		{"http-json", "tcp", "person.get", none, open(2000), results.ModeThroughput, 1999.2, 0.9, 420, 1.6, 80.5, f(41.9), 164, 512},
		{"grpc-proto", "tcp", "person.get", none, open(2000), results.ModeThroughput, 2000.3, 0.5, 150, 0.7, 35.8, f(19.4), 61, 240},
		{"http-json", "tcp", "person.get", none, open(4000), results.ModeThroughput, 3104.6, 210.4, 61000, 3.5, 76.9, f(40.3), 164, 512},
		{"grpc-proto", "tcp", "person.get", none, open(4000), results.ModeThroughput, 3999.1, 1.2, 190, 0.9, 33.0, f(18.7), 61, 240},
	}
	r := &results.Results{
		SchemaVersion: results.SchemaVersion,
		Environment: results.Environment{
			CPUModel: "AMD EPYC 7B13", Cores: 2, MemoryBytes: 8 << 30, Kernel: "6.18.44",
			OS: "linux/amd64 (Debian GNU/Linux 12 (bookworm))", GoVersion: "go1.26.8",
			WirebenchVersion: "v0.1.0", ServerCPUs: "0", ClientCPUs: "1",
			Started: time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC),
		},
	}
	for i, s := range specs {
		b := results.Benchmark{
			Protocol: s.proto, Transport: s.transport, Workload: s.workload, CallsPerOp: 1, Params: s.params,
			Load: s.load, Mode: s.mode, WarmupSeconds: 1, SliceSeconds: 1, Rounds: 2,
			GeneratorBound: s.proto == "direct",
		}
		b.Name = fmt.Sprintf("%s/%s/%s", s.proto, s.transport, results.GroupOf(&b))
		merged := record.NewHistogram()
		for fork := range 2 {
			tr := results.ForkResult{Index: fork}
			for it := range 2 {
				iv := results.Slice{Index: it, Seconds: 1, ThroughputOpsS: s.thr * (1 + 0.01*float64(it-fork))}
				iv.Ops = int64(iv.ThroughputOpsS)
				// The grpc-proto/unix stream (from an older file, say) has no histograms.
				if !(s.proto == "grpc-proto" && s.transport == "unix" && s.workload == "stream") {
					h := syntheticHistogram(t, s.latUs*(1+0.03*float64(2*fork+it)), s.tail, 1500+500*i)
					merged.Merge(h)
					enc, err := record.EncodeHistogram(h)
					if err != nil {
						t.Fatal(err)
					}
					iv.Histogram = enc
				}
				iv.LatencyUs = results.LatencyFrom(merged)
				tr.Slices = append(tr.Slices, iv)
			}
			b.Forks = append(b.Forks, tr)
		}
		sum := &b.Summary
		sum.ThroughputOpsS = results.Throughput{Mean: s.thr, Error: s.thrErr, CI: 0.999, N: 4}
		sum.LatencyUs = results.LatencyFrom(merged)
		if merged.TotalCount() == 0 {
			u := s.latUs
			sum.LatencyUs = results.Latency{Mean: u, P50: u * 0.95, P75: u * 1.1, P90: u * 1.3, P99: u * 1.9, P999: u * 2.6, Max: u * 4}
		}
		sum.Ops = int64(s.thr * 4)
		sum.ClientCPUUsPerOp, sum.ServerCPUUsPerOp = s.clientCPU, s.serverCPU
		sum.BytesSentPerOp, sum.BytesRecvPerOp = s.sent, s.recv
		if s.serverCPU != nil {
			rss := int64(20<<20 + i<<18)
			sum.ServerRSSMaxBytes = &rss
		}
		sum.AvgMsPerOp = float64(s.load.Concurrency) * 1e3 / s.thr
		if s.mode == results.ModeAverageTime {
			sum.AvgTimeMs = &results.Throughput{Mean: 1e3 / s.thr, Error: 1e3 / s.thr * s.thrErr / s.thr, CI: 0.999, N: 4}
		}
		if s.load.Model == results.ModelOpen {
			sum.AchievedRate = math.Min(s.thr*1.0004, s.load.Rate)
			svc, lag := sum.LatencyUs, results.Latency{Mean: 2.1, P50: 1.5, P75: 2, P90: 3, P99: 9, P999: 40, Max: 120}
			sum.ServiceUs, sum.LagUs = &svc, &lag
		}
		r.Benchmarks = append(r.Benchmarks, b)
	}
	// The saturated point of the sweep: late arrivals and a warning.
	sat := &r.Benchmarks[18]
	sat.Summary.Overflow = 5120
	sat.Warnings = results.Warnings{{Kind: results.WarnOther, Text: "achieved 3105 ops/s of 4000 targeted: the target did not keep up"}}
	// Failed calls, one fork cut short, and a message with Markdown in it.
	e := &r.Benchmarks[7]
	e.Summary.Errors, e.Summary.ErrorsByKind = 37, map[string]int64{"unavailable": 30, "timeout": 7}
	e.Forks[1].Error, e.Forks[1].Phase = "worker exited: signal: killed\nstack trace follows", "round 2"
	e.Warnings = results.Warnings{{Kind: results.WarnOther, Text: "client CPU at 97% of its share: results may be *generator*-bound | check"}}
	// Stacks: the production Go stacks, but a tuned server for http-json/tcp/person.get.
	stack := func(name, tier string) *results.Stack {
		return &results.Stack{Name: name, Language: "go", Tier: tier, Libraries: map[string]string{"go": "go1.26.8"}}
	}
	names := map[string]string{"direct": "go-call", "http-json": "go-nethttp-json", "grpc-proto": "grpc-go", "capnp": "capnp-go"}
	for i := range r.Benchmarks {
		b := &r.Benchmarks[i]
		b.ClientStack = stack(names[b.Protocol], results.TierProduction)
		b.ServerStack = b.ClientStack
	}
	tuned := &r.Benchmarks[1]
	tuned.ServerStack = stack("go-tuned-json", results.TierTuned)
	tuned.Name = "http-json[server=go-tuned-json]/tcp/person.get/closed-c50"
	tuned.Warnings = results.Warnings{{Kind: results.WarnMachineChanged, Text: "its speed moved between two levels 71 % apart"}}
	// The person.get group, interleaved, against the tuned http-json.
	for i, ratio := range map[int][3]float64{0: {131.4, 120.2, 143.6}, 2: {2.283, 2.204, 2.365}, 3: {2.852, 2.71, 3.001}} {
		r.Benchmarks[i].Summary.Relative = &results.Relative{Baseline: tuned.Name, Rounds: 150,
			Ratio: results.Ratio{Mean: ratio[0], CILow: ratio[1], CIHigh: ratio[2], CI: 0.999}}
	}
	for _, i := range []int{0, 1, 2, 3} {
		r.Benchmarks[i].Method = results.MethodInterleaved
	}
	return r
}

// syntheticHistogram is n response times in ns around typUs µs with a tail
// of weight tail, spread deterministically (no randomness: goldens are
// byte-exact).
func syntheticHistogram(t testing.TB, typUs, tail float64, n int) *hdrhistogram.Histogram {
	t.Helper()
	h := record.NewHistogram()
	for i := range n {
		u := (float64(i) + 0.5) / float64(n)
		us := typUs * (0.8 + 0.35*u + tail*math.Pow(-math.Log(1-u), 2)/12)
		if err := h.RecordValue(int64(us * 1e3)); err != nil {
			t.Fatal(err)
		}
	}
	return h
}
