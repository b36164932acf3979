// Package bench turns what the driver measured into results: one report.Benchmark per
// benchmark, with the score and its error as JMH computes them, latency percentiles
// from the merged histograms, CPU and bytes per op, and warnings when the load
// generator rather than the target set the result.
package bench

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/wirebench/wirebench/cluster"
	"github.com/wirebench/wirebench/load"
	"github.com/wirebench/wirebench/record"
	"github.com/wirebench/wirebench/report"
	"github.com/wirebench/wirebench/stats"
)

// Confidence is the level of the score's confidence interval, JMH's default.
const Confidence = 0.999

// Thresholds of the generator-bound warnings.
const (
	// MaxLagP99 is the open model's lag p99 above which the generator is late.
	MaxLagP99 = time.Millisecond
	// MinAchieved is the fraction of the target rate below which an open run did not
	// keep its schedule.
	MinAchieved = 0.99
	// MaxClientCPU is the share of the client's CPUs above which it is saturated.
	MaxClientCPU = 0.90
)

// Name returns a benchmark's stable name: protocol/transport/workload[params]/load,
// e.g. "grpc-proto/tcp/echo[payload=1024]/closed-c50"; a labelled benchmark's protocol
// carries its label: "grpc-proto[win-64KiB]/tcp/stream[trades=10000]/closed-c1".
func Name(spec cluster.Spec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s/%s", SeriesName(spec), spec.Transport, spec.Workload)
	if ps := paramString(spec); ps != "" {
		b.WriteString("[" + ps + "]")
	}
	b.WriteString("/" + LoadName(spec.Model))
	return b.String()
}

// SeriesName is the protocol part of a name: the protocol, with its label in brackets
// when it has one.
func SeriesName(spec cluster.Spec) string {
	if spec.Label != "" {
		return spec.Protocol + "[" + spec.Label + "]"
	}
	return spec.Protocol
}

// LoadName names a load model: closed-c50 (and -x4 for 4 connections), or
// open-r14000-poisson-c100.
func LoadName(m load.Model) string {
	s := fmt.Sprintf("closed-c%d", m.Concurrency)
	if m.Kind == load.Open {
		s = fmt.Sprintf("open-r%g-%s-c%d", m.Rate, m.Arrival, m.Concurrency)
	}
	if m.Connections > 1 {
		s += fmt.Sprintf("-x%d", m.Connections)
	}
	return s
}

func paramString(spec cluster.Spec) string {
	var parts []string
	for k, v := range Params(spec) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// Params returns the workload parameters a benchmark used, by name.
func Params(spec cluster.Spec) map[string]any {
	out := map[string]any{}
	switch spec.Workload {
	case "echo", "echo+stats":
		out["payload"] = spec.Params.Payload
	case "pingpong":
		out["increments"] = spec.Params.Increments
	case "stream":
		out["trades"] = spec.Params.Trades
	}
	return out
}

// Summarize builds the result of a benchmark from its trials. mode is
// report.ModeThroughput or report.ModeAverageTime.
func Summarize(spec cluster.Spec, mode string, trials []*cluster.Trial) report.Benchmark {
	b := report.Benchmark{
		Name: Name(spec), Protocol: spec.Protocol, Transport: spec.Transport, Workload: spec.Workload,
		Label: spec.Label, Params: Params(spec), Options: spec.ClientOptions, ServerOptions: spec.ServerOptions, Target: spec.Target,
		Load: report.Load{Model: string(spec.Model.Kind), Concurrency: spec.Model.Concurrency,
			Connections: spec.Model.Connections, Rate: spec.Model.Rate, Arrival: string(spec.Model.Arrival)},
		Mode: mode, WarmupSeconds: spec.Warmup.Seconds(), IterationSeconds: spec.IterationTime.Seconds(),
		IterationOps: spec.IterationOps, Iterations: spec.Iterations,
	}
	if spec.Model.Kind == load.Open {
		b.Load.MaxInFlight = spec.Model.Concurrency
	}
	all := record.NewInterval(spec.Model.Kind == load.Open)
	var scores, avgScores []float64
	var seconds, cpuSeconds float64
	var bytesSent, bytesRecv int64
	var serverCPU time.Duration
	var serverKnown = true
	var rss int64 = -1
	for _, t := range trials {
		rt := report.Trial{Index: t.Index}
		if t.Err != nil {
			rt.Error = t.Err.Error()
		}
		for _, iv := range t.Intervals {
			all.Add(iv.Interval)
			secs := iv.Seconds()
			seconds += secs
			cpuSeconds += float64(max(iv.ClientCPUs, 1)) * secs
			bytesSent += iv.BytesSent
			bytesRecv += iv.BytesReceived
			b.Summary.ClientCPUUsPerOp += iv.ClientCPU.Seconds() * 1e6
			scores = append(scores, iv.Throughput())
			avgScores = append(avgScores, avgMs(iv.Interval, spec.Model.Concurrency))
			rt.Iterations = append(rt.Iterations, iteration(iv))
		}
		b.Trials = append(b.Trials, rt)
		if t.ServerStart == nil || t.ServerEnd == nil {
			serverKnown = false
			continue
		}
		serverCPU += t.ServerEnd.CPU - t.ServerStart.CPU
		rss = max(rss, t.ServerEnd.PeakRSS)
	}
	s := &b.Summary
	s.ThroughputOpsS = report.ThroughputFrom(stats.Summarize(scores, Confidence))
	if mode == report.ModeAverageTime {
		a := report.ThroughputFrom(stats.Summarize(avgScores, Confidence))
		s.AvgTimeMs = &a
	}
	s.LatencyUs = report.LatencyFrom(all.Resp)
	if all.Lag != nil {
		svc, lag := report.LatencyFrom(all.Service), report.LatencyFrom(all.Lag)
		s.ServiceUs, s.LagUs = &svc, &lag
	}
	s.Ops, s.Errors, s.Overflow = all.Ops, all.ErrorCount(), all.Overflow
	if len(all.Errors) > 0 {
		s.ErrorsByKind = map[string]int64{}
		for k, n := range all.Errors {
			s.ErrorsByKind[string(k)] = n
		}
	}
	if all.Ops > 0 {
		ops := float64(all.Ops)
		s.ClientCPUUsPerOp /= ops
		s.BytesSentPerOp, s.BytesRecvPerOp = float64(bytesSent)/ops, float64(bytesRecv)/ops
		if serverKnown && len(trials) > 0 {
			v := serverCPU.Seconds() * 1e6 / ops
			s.ServerCPUUsPerOp = &v
		}
		s.AvgMsPerOp = seconds * float64(spec.Model.Concurrency) / ops * 1e3
	} else {
		s.ClientCPUUsPerOp = 0
	}
	if serverKnown && rss >= 0 {
		s.ServerRSSMaxBytes = &rss
	}
	if spec.Model.Kind == load.Open && seconds > 0 {
		s.AchievedRate = float64(all.Ops+all.ErrorCount()) / seconds
	}
	b.Warnings, b.GeneratorBound = judge(spec, all, s, seconds, cpuSeconds)
	if all.Clamped > 0 {
		b.Warnings = append(b.Warnings, fmt.Sprintf("%d calls took over %v and were recorded as %v: the maximum is a floor", all.Clamped, time.Duration(record.HighestNs), time.Duration(record.HighestNs)))
	}
	if s.Errors > 0 {
		b.Warnings = append(b.Warnings, errorWarning(all.Errors, trials))
	}
	return b
}

// avgMs is JMH's average time: the time one caller spends per op, in ms.
func avgMs(iv *record.Interval, callers int) float64 {
	if iv.Ops == 0 {
		return 0
	}
	return iv.Seconds() * float64(callers) / float64(iv.Ops) * 1e3
}

func iteration(iv *cluster.Interval) report.Iteration {
	it := report.Iteration{Index: iv.Index, Seconds: iv.Seconds(), Ops: iv.Ops, Errors: iv.ErrorCount(),
		ThroughputOpsS: iv.Throughput(), LatencyUs: report.LatencyFrom(iv.Resp)}
	if iv.Lag != nil {
		svc, lag := report.LatencyFrom(iv.Service), report.LatencyFrom(iv.Lag)
		it.ServiceUs, it.LagUs = &svc, &lag
	}
	if h, err := record.EncodeHistogram(iv.Resp); err == nil {
		it.Histogram = h
	}
	return it
}

// judge says whether the generator, not the target, may have set the result.
func judge(spec cluster.Spec, all *record.Interval, s *report.Summary, seconds, cpuSeconds float64) (warnings []string, bound bool) {
	if spec.Model.Kind == load.Open && s.LagUs != nil {
		if lag := time.Duration(s.LagUs.P99 * 1e3); lag > MaxLagP99 {
			warnings = append(warnings, fmt.Sprintf("generator-bound: lag p99 %v is over %v; calls started late (see overflow and lag)", lag.Round(time.Microsecond), MaxLagP99))
			bound = true
		}
		if s.AchievedRate < MinAchieved*spec.Model.Rate {
			warnings = append(warnings, fmt.Sprintf("generator-bound: achieved %.0f ops/s, under %.0f%% of the target %.0f", s.AchievedRate, MinAchieved*100, spec.Model.Rate))
			bound = true
		}
	}
	// In-process protocols run the service in the client: a busy client is the point.
	if cpuSeconds > 0 && seconds > 0 && spec.Transport != report.InProcess {
		var used float64
		// ClientCPUUsPerOp × ops is the client's CPU time in µs.
		used = s.ClientCPUUsPerOp * float64(all.Ops) / 1e6
		if share := used / cpuSeconds; share > MaxClientCPU {
			warnings = append(warnings, fmt.Sprintf("generator-bound: the client used %.0f%% of its CPUs", share*100))
			bound = true
		}
	}
	return warnings, bound
}

func errorWarning(errs map[record.ErrorKind]int64, trials []*cluster.Trial) string {
	kinds := make([]string, 0, len(errs))
	for k := range errs {
		kinds = append(kinds, string(k))
	}
	sort.Strings(kinds)
	var parts []string
	for _, k := range kinds {
		p := fmt.Sprintf("%d %s", errs[record.ErrorKind(k)], k)
		for _, t := range trials {
			if msg := t.FirstErrors[k]; msg != "" {
				p += fmt.Sprintf(" (first: %s)", msg)
				break
			}
		}
		parts = append(parts, p)
	}
	return "errors: " + strings.Join(parts, "; ")
}
