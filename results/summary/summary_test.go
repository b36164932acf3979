package summary

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/results/stats"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/load"
	_ "github.com/wirebench/wirebench/stack/all"
)

var t0 = time.Unix(1000, 0)

// interval makes a one-second measured interval of ops calls of lat each, with the
// client's CPU and bytes.
func interval(i int, ops int64, lat, lag time.Duration, cpu time.Duration, open bool) *results.Interval {
	iv := record.NewInterval(open)
	iv.Start, iv.End = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i+1)*time.Second)
	r := record.NewRecorder(open)
	for range ops {
		r.Record(t0, t0.Add(lag), t0.Add(lat))
	}
	r.Drain(iv)
	iv.Start, iv.End = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i+1)*time.Second)
	return &results.Interval{Phase: "measure", Index: i, Interval: iv, BytesSent: 100 * ops, BytesReceived: 300 * ops,
		ClientCPU: cpu, ClientCPUs: 1}
}

func closedSpec() spec.Spec {
	s := spec.Default()
	s.Protocol, s.Workload, s.Params = "grpc-proto", "echo", contract.Params{Payload: 1024}
	s.Load, _ = load.Model{Kind: load.Closed, Concurrency: 4}.Normalize()
	s.Rounds, s.Forks = 3, 2
	return s
}

// resolve is s's description as the driver gives it (driver.DescribeResolved).
func resolve(t *testing.T, s spec.Spec) results.Benchmark {
	t.Helper()
	r, err := control.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	return driver.DescribeResolved(r)
}

// withServer sets an interval's server reading: cpu used during it, peak RSS.
func withServer(iv *results.Interval, cpu time.Duration, rss int64) *results.Interval {
	iv.Server, iv.ServerCPU = &results.ProcReading{CPU: cpu, PeakRSS: rss}, cpu
	return iv
}

// Score and error as JMH: mean of every iteration of every fork, 99.9 % Student t
// half-width; per-op figures are totals over ops; server CPU from the marks.
func TestSummarizeClosed(t *testing.T) {
	sp := closedSpec()
	var forks []*results.Fork
	opsPerIter := []int64{1000, 1100, 900, 1050, 950, 1000}
	for k := range 2 {
		tr := &results.Fork{Index: k}
		for i := range 3 {
			iv := interval(i, opsPerIter[3*k+i], 200*time.Microsecond, 0, 10*time.Millisecond, false)
			tr.Intervals = append(tr.Intervals, withServer(iv, 10*time.Millisecond, (10+int64(k))<<20))
		}
		forks = append(forks, tr)
	}
	b := Benchmark(resolve(t, sp), &results.Measured{Forks: forks, Method: spec.MethodSequential}, nil)
	s := b.Summary
	// Mean 1000; deviations 0, ±100, ±50: sd √(25000/5) = 70.711; t(0.9995, 5) =
	// 6.869 (Student t table), so Error = 6.869 × 70.711 / √6 = 198.3.
	if s.ThroughputOpsS.N != 6 || math.Abs(s.ThroughputOpsS.Mean-1000) > 1e-9 || math.Abs(s.ThroughputOpsS.Error-198.3) > 0.1 {
		t.Errorf("score %+v, want mean 1000, n 6, error 198.3", s.ThroughputOpsS)
	}
	if b.ServerStack == nil || b.ServerStack.Name != "grpc-go" || b.ServerStack.Tier != "production" || b.ClientStack == nil ||
		b.ServerStack.Libraries["go"] == "" || b.Method != spec.MethodSequential {
		t.Errorf("stacks %+v / %+v, method %q", b.ServerStack, b.ClientStack, b.Method)
	}
	// 6000 ops; client CPU 6 × 10 ms = 60 ms → 10 µs/op; server 2 × 30 ms = 60 ms → 10 µs/op.
	if s.Ops != 6000 || math.Abs(s.ClientCPUUsPerOp-10) > 1e-9 || s.ServerCPUUsPerOp == nil || math.Abs(*s.ServerCPUUsPerOp-10) > 1e-9 {
		t.Errorf("ops %d, client %v µs/op, server %v µs/op; want 6000, 10, 10", s.Ops, s.ClientCPUUsPerOp, s.ServerCPUUsPerOp)
	}
	if s.BytesSentPerOp != 100 || s.BytesRecvPerOp != 300 || s.ServerRSSMaxBytes == nil || *s.ServerRSSMaxBytes != 11<<20 {
		t.Errorf("bytes %v/%v, rss %v", s.BytesSentPerOp, s.BytesRecvPerOp, s.ServerRSSMaxBytes)
	}
	if p := s.LatencyUs.P50; math.Abs(p-200) > 0.2 {
		t.Errorf("p50 %vµs, want 200", p)
	}
	// avgt: 6 s × 4 callers / 6000 ops = 4 ms per op per caller.
	if math.Abs(s.AvgMsPerOp-4) > 1e-9 || s.AvgTimeMs != nil {
		t.Errorf("avg %v ms/op (avgt score %v), want 4 and no avgt score in thrpt mode", s.AvgMsPerOp, s.AvgTimeMs)
	}
	if b.GeneratorBound || len(b.Warnings) != 0 {
		t.Errorf("warnings %v on a healthy run", b.Warnings)
	}
	sp.Mode = spec.ModeAverageTime
	b = Benchmark(resolve(t, sp), &results.Measured{Forks: forks}, nil)
	if a := b.Summary.AvgTimeMs; a == nil || a.N != 6 || math.Abs(a.Mean-4) > 0.02 {
		t.Errorf("avgt score %+v, want about 4 ms over 6 slices", a)
	}
}

// The generator-bound checks: lag, achieved rate, client CPU; not CPU for in-process.
func TestSummarizeGeneratorBound(t *testing.T) {
	sp := spec.Default()
	sp.Protocol, sp.Rounds = "http-json", 1
	sp.Load, _ = load.Model{Kind: load.Open, Rate: 1000, Concurrency: 8}.Normalize()
	// 900 of 1000 arrivals, 5 ms lag, 950 ms of CPU in 1 s on 1 CPU.
	tr := &results.Fork{Intervals: []*results.Interval{interval(0, 900, 6*time.Millisecond, 5*time.Millisecond, 950*time.Millisecond, true)}}
	b := Benchmark(resolve(t, sp), &results.Measured{Forks: []*results.Fork{tr}}, nil)
	bound := b.Warnings.Of(results.WarnGenerator)
	all := strings.Join(bound.Strings(), "\n")
	for _, want := range []string{"generator-bound: lag p99", "generator-bound: achieved 900", "generator-bound: the client used 95% of its CPUs"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings %q lack %q", all, want)
		}
	}
	if len(bound) != 3 || len(b.Warnings) != 3 {
		t.Errorf("warnings %+v, want the three generator-bound ones", b.Warnings)
	}
	if !b.GeneratorBound || b.Summary.ServerCPUUsPerOp != nil || b.Summary.ServiceUs == nil || b.Summary.LagUs == nil {
		t.Errorf("bound %v, server %v, service %v, lag %v", b.GeneratorBound, b.Summary.ServerCPUUsPerOp, b.Summary.ServiceUs, b.Summary.LagUs)
	}
	sp.Protocol, sp.Transport, sp.Load = "direct", spec.InProc, closedSpec().Load
	tr = &results.Fork{Intervals: []*results.Interval{interval(0, 900, time.Microsecond, 0, 990*time.Millisecond, false)}}
	if b := Benchmark(resolve(t, sp), &results.Measured{Forks: []*results.Fork{tr}}, nil); b.GeneratorBound {
		t.Errorf("in-process run flagged: %v", b.Warnings)
	}
}

// Errors are summed by kind and said in a warning with the first message.
func TestSummarizeErrors(t *testing.T) {
	iv := interval(0, 10, time.Millisecond, 0, time.Millisecond, false)
	iv.Errors[record.Timeout] = 3
	iv.FirstErrors = map[record.ErrorKind]string{record.Timeout: "call timeout"}
	tr := &results.Fork{Intervals: []*results.Interval{iv}}
	b := Benchmark(resolve(t, closedSpec()), &results.Measured{Forks: []*results.Fork{tr}}, nil)
	want := results.Warnings{{Kind: results.WarnErrors, Text: "3 timeout (first: call timeout)"}}
	if b.Summary.Errors != 3 || b.Summary.ErrorsByKind["timeout"] != 3 || !reflect.DeepEqual(b.Warnings, want) {
		t.Errorf("errors %d %v, warnings %+v", b.Summary.Errors, b.Summary.ErrorsByKind, b.Warnings)
	}
	if got := b.Warnings[0].String(); got != "errors: 3 timeout (first: call timeout)" {
		t.Errorf("printed %q", got)
	}
}

// A fork that failed keeps where (its phase) apart from why, in its fork and in the
// benchmark's failure warning, which names the fork as reports number it (from 1).
func TestSummarizeForkFailure(t *testing.T) {
	ok := &results.Fork{Index: 0, Intervals: []*results.Interval{interval(0, 10, time.Millisecond, 0, time.Millisecond, false)}}
	cut := &results.Fork{Index: 1, Intervals: []*results.Interval{interval(0, 10, time.Millisecond, 0, time.Millisecond, false)}}
	cut.Err = &results.ForkError{Fork: 1, Phase: "round 2", Err: errors.New("worker exited: signal: killed")}
	b := Benchmark(resolve(t, closedSpec()), &results.Measured{Forks: []*results.Fork{ok, cut}, Err: cut.Err}, nil)
	if tr := b.Forks[1]; tr.Phase != "round 2" || tr.Error != "worker exited: signal: killed" || b.Forks[0].Error != "" {
		t.Errorf("forks %+v, want the second cut short in round 2", b.Forks)
	}
	failed := b.Warnings.Of(results.WarnFailed)
	want := results.Warning{Kind: results.WarnFailed, Fork: 2, Phase: "round 2", Text: "worker exited: signal: killed"}
	if len(failed) != 1 || failed[0] != want {
		t.Fatalf("failure warnings %+v, want %+v", failed, want)
	}
	// Printed, it reads as the driver's error always did.
	if got := failed[0].String(); got != "failed: fork 2, round 2: worker exited: signal: killed" {
		t.Errorf("printed %q", got)
	}
}

// A capacity result is judged by its search's verdicts: a confirming run whose lag p99
// (5 ms) trips the benchmark-wide check is not flagged when the search passed it;
// a search that ended on the generator is flagged, and names the cheaper client stack
// the driver found (driver.cheaperClient).
func TestCapacityGeneratorFromSearch(t *testing.T) {
	sp := spec.Default()
	sp.Protocol, sp.Rounds = "http-json", 1
	sp.Load, _ = load.Model{Kind: load.Open, Rate: 1000, Concurrency: 8}.Normalize()
	sp.Capacity = &spec.Capacity{SLOs: []spec.SLO{{Quantile: 99, Max: 10 * time.Millisecond}}, Step: time.Second, Confirm: 5 * time.Second, Budget: time.Minute, Resolution: 0.05}
	iv := interval(0, 1000, 6*time.Millisecond, 5*time.Millisecond, 300*time.Millisecond, true)
	r := &results.Search{Rate: 1000, Low: 1000, Confirmed: true,
		Steps: []results.SearchStep{{Rate: 1000, Interval: iv, Verdict: results.VerdictPass, Confirm: true}}}
	b := Capacity(resolve(t, sp), r, nil)
	if b.GeneratorBound || len(b.Warnings) != 0 {
		t.Errorf("passed search flagged: bound %v, warnings %q", b.GeneratorBound, b.Warnings)
	}
	r.GeneratorBound, r.Confirmed, r.CheaperClient = true, false, "instrument"
	b = Capacity(resolve(t, sp), r, nil)
	if !b.GeneratorBound || len(b.Warnings) != 1 || b.Warnings[0].Kind != results.WarnGenerator ||
		!strings.Contains(b.Warnings[0].Text, "a floor") || !strings.Contains(b.Warnings[0].Text, "--client-stack instrument") {
		t.Errorf("generator-bound search: bound %v, warnings %q", b.GeneratorBound, b.Warnings)
	}
}

func TestThroughputFrom(t *testing.T) {
	tests := []struct {
		name  string
		score stats.Score
		want  results.Throughput
	}{
		// Two or more slices carry their interval through unchanged.
		{"interval", stats.Summarize([]float64{10, 12, 14, 16, 18}, 0.999),
			results.Throughput{Mean: 14, Error: stats.Summarize([]float64{10, 12, 14, 16, 18}, 0.999).Error, CI: 0.999, N: 5}},
		// One slice has no interval: NaN becomes 0, N=1 says why.
		{"single", stats.Summarize([]float64{7}, 0.999), results.Throughput{Mean: 7, Error: 0, CI: 0.999, N: 1}},
		// Nothing measured: all zero, N=0.
		{"empty", stats.Summarize(nil, 0.999), results.Throughput{CI: 0.999}},
	}
	for _, tt := range tests {
		if got := throughputFrom(tt.score); got != tt.want {
			t.Errorf("%s: throughputFrom = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// The calls an outside server answered with an error status are counted by status
// (errors_by_status) and together as "status" by kind.
func TestSummarizeErrorsByStatus(t *testing.T) {
	iv := interval(0, 10, time.Millisecond, 0, time.Millisecond, false)
	iv.Errors[record.StatusKind("grpc:Unavailable")] = 2
	iv.Errors[record.StatusKind("http:503")] = 1
	iv.Errors[record.Timeout] = 4
	b := Benchmark(resolve(t, closedSpec()), &results.Measured{Forks: []*results.Fork{{Intervals: []*results.Interval{iv}}}}, nil)
	s := b.Summary
	if s.Errors != 7 || !reflect.DeepEqual(s.ErrorsByStatus, map[string]int64{"grpc:Unavailable": 2, "http:503": 1}) ||
		!reflect.DeepEqual(s.ErrorsByKind, map[string]int64{"status": 3, "timeout": 4}) {
		t.Errorf("errors %d, by status %v, by kind %v", s.Errors, s.ErrorsByStatus, s.ErrorsByKind)
	}
}
