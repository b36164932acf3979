// Package summary turns what the driver measured into results: one results.Benchmark
// per benchmark, with the score and its error as JMH computes them, latency
// percentiles from the merged histograms, CPU and bytes per op, the stacks of both
// sides, warnings when the load generator rather than the target set the result, and
// (group.go) each benchmark's ratio to its comparison group's baseline.
package summary

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/results/record"
	"github.com/wirebench/wirebench/results/stats"
)

// Confidence is the level of the score's confidence interval and of the ratios'
// (stats.Confidence), JMH's default.
const Confidence = stats.Confidence

// Benchmark completes head, a benchmark's description (driver.DescribeResolved),
// with what the driver measured of it, m. steady is the class of each of m's forks
// (Steadiness, with its group), or nil to classify them alone; each fork is measured
// from its steady state on.
func Benchmark(head results.Benchmark, m *results.Measured, steady []*results.Steady) results.Benchmark {
	return build(head, m, steady, true)
}

// build is Benchmark; judgeGenerator says whether to judge the generator over the
// whole benchmark (judge), which a capacity search's steps have done already.
func build(head results.Benchmark, m *results.Measured, steady []*results.Steady, judgeGenerator bool) results.Benchmark {
	b := head
	b.Method = m.Method
	b.Isolation = m.Isolation
	b.Workers = m.Workers
	if m.Method != results.MethodInterleaved {
		b.KeepAliveSeconds = 0 // measured alone: no neighbour warmed up after it
	}
	open := b.Load.Model == results.ModelOpen
	all := record.NewInterval(open)
	var scores, avgScores []float64
	var seconds, cpuSeconds float64
	var bytesSent, bytesRecv int64
	var serverCPU, linkCPU time.Duration
	// The server's figures are known when every interval has a server reading: none
	// has one without a server worker (in-process protocols, outside targets).
	serverKnown := true
	var rss int64 = -1
	if len(steady) != len(m.Forks) {
		steady = Steadiness([]*results.Measured{m}, open)[0]
	}
	var classes []string
	for k, t := range m.Forks {
		rt := results.ForkResult{Index: t.Index, Steady: steady[k], Warmup: warmupOf(t, open)}
		if t.Err != nil {
			rt.Phase, rt.Error = results.ForkFailure(t.Err)
		}
		classes = append(classes, rt.Steady.Class)
		for _, iv := range t.Intervals {
			rt.Slices = append(rt.Slices, sliceOf(iv))
			if iv.Index < rt.Steady.StartRound {
				continue // before the steady state: kept in the fork, not measured
			}
			all.Add(iv.Interval)
			secs := iv.Seconds()
			seconds += secs
			cpuSeconds += float64(max(iv.ClientCPUs, 1)) * secs
			if iv.BytesSent < 0 || iv.BytesReceived < 0 {
				b.Summary.BytesNotCounted = true
			}
			bytesSent += max(iv.BytesSent, 0)
			bytesRecv += max(iv.BytesReceived, 0)
			b.Summary.ClientCPUUsPerOp += iv.ClientCPU.Seconds() * 1e6
			linkCPU += iv.LinkCPU
			scores = append(scores, iv.Throughput())
			avgScores = append(avgScores, avgMs(iv.Interval, b.Load.Concurrency))
			if iv.Server == nil {
				serverKnown = false
				continue
			}
			serverCPU += iv.ServerCPU
			rss = max(rss, iv.Server.PeakRSS)
		}
		b.Forks = append(b.Forks, rt)
	}
	b.Steady = benchmarkSteady(classes)
	s := &b.Summary
	s.ThroughputOpsS = throughputFrom(stats.Summarize(scores, Confidence))
	if b.Mode == results.ModeAverageTime {
		a := throughputFrom(stats.Summarize(avgScores, Confidence))
		s.AvgTimeMs = &a
	}
	s.LatencyUs = results.LatencyFrom(all.Resp)
	if all.Lag != nil {
		svc, lag := results.LatencyFrom(all.Service), results.LatencyFrom(all.Lag)
		s.ServiceUs, s.LagUs = &svc, &lag
	}
	s.Ops, s.Errors, s.Overflow = all.Ops, all.ErrorCount(), all.Overflow
	if len(all.Errors) > 0 {
		s.ErrorsByKind = map[string]int64{}
		for k, n := range all.Errors {
			if k.IsStatus() {
				if s.ErrorsByStatus == nil {
					s.ErrorsByStatus = map[string]int64{}
				}
				s.ErrorsByStatus[string(k)] = n
				s.ErrorsByKind[statusKind] += n
				continue
			}
			s.ErrorsByKind[string(k)] = n
		}
	}
	if all.Ops > 0 {
		ops := float64(all.Ops)
		s.ClientCPUUsPerOp /= ops
		s.BytesSentPerOp, s.BytesRecvPerOp = float64(bytesSent)/ops, float64(bytesRecv)/ops
		if linkCPU > 0 {
			v := linkCPU.Seconds() * 1e6 / ops
			s.LinkCPUUsPerOp = &v
		}
		if serverKnown && len(m.Forks) > 0 {
			v := serverCPU.Seconds() * 1e6 / ops
			s.ServerCPUUsPerOp = &v
		}
		s.AvgMsPerOp = seconds * float64(b.Load.Concurrency) / ops * 1e3
	} else {
		s.ClientCPUUsPerOp = 0
	}
	if serverKnown && rss >= 0 {
		s.ServerRSSMaxBytes = &rss
	}
	if open && seconds > 0 {
		s.AchievedRate = float64(all.Ops+all.ErrorCount()) / seconds
	}
	if judgeGenerator {
		b.Warnings, b.GeneratorBound = judge(&b, all, seconds, cpuSeconds)
	}
	if w := warmupWarning(b.Forks, time.Duration(b.WarmupMaxSeconds*float64(time.Second))); w != "" {
		b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnWarmupUnsettled, Text: w})
	}
	b.Warnings = append(b.Warnings, steadyWarnings(b.Forks)...)
	if all.Clamped > 0 {
		b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnClamped,
			Text: fmt.Sprintf("%d calls took over %v and were recorded as %v: the maximum is a floor", all.Clamped, time.Duration(record.HighestNs), time.Duration(record.HighestNs))})
	}
	if s.Errors > 0 {
		b.Warnings = append(b.Warnings, results.Warning{Kind: results.WarnErrors, Text: errorWarning(all)})
	}
	if m.Err != nil {
		b.Warnings = append(b.Warnings, results.Failure(m.Err))
	}
	return b
}

// throughputFrom is a stats.Score in the results' form, the NaNs of a score over
// fewer than two slices made 0 (N says there was no interval): JSON has no NaN.
func throughputFrom(s stats.Score) results.Throughput {
	return results.Throughput{Mean: finite(s.Mean), Error: finite(s.Error), CI: s.Conf, N: s.N}
}

func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// avgMs is JMH's average time: the time one caller spends per op, in ms.
func avgMs(iv *record.Interval, callers int) float64 {
	if iv.Ops == 0 {
		return 0
	}
	return iv.Seconds() * float64(callers) / float64(iv.Ops) * 1e3
}

func sliceOf(iv *results.Interval) results.Slice {
	it := results.Slice{Index: iv.Index, Seconds: iv.Seconds(), Ops: iv.Ops, Errors: iv.ErrorCount(),
		ThroughputOpsS: iv.Throughput(), LatencyUs: results.LatencyFrom(iv.Resp)}
	if iv.Lag != nil {
		svc, lag := results.LatencyFrom(iv.Service), results.LatencyFrom(iv.Lag)
		it.ServiceUs, it.LagUs = &svc, &lag
	}
	if h, err := record.EncodeHistogram(iv.Resp); err == nil {
		it.Histogram = h
	}
	return it
}

// judge says whether the generator, not the target, may have set the result.
func judge(b *results.Benchmark, all *record.Interval, seconds, cpuSeconds float64) (warnings results.Warnings, bound bool) {
	bounded := func(format string, args ...any) {
		warnings = append(warnings, results.Warning{Kind: results.WarnGenerator, Text: fmt.Sprintf(format, args...)})
		bound = true
	}
	s := &b.Summary
	if b.Load.Model == results.ModelOpen && s.LagUs != nil {
		if lag := time.Duration(s.LagUs.P99 * 1e3); lag > results.MaxLagP99 {
			bounded("lag p99 %v is over %v; calls started late (see overflow and lag)", lag.Round(time.Microsecond), results.MaxLagP99)
		}
		if s.AchievedRate < results.MinAchieved*b.Load.Rate {
			bounded("achieved %.0f ops/s, under %.0f%% of the target %.0f", s.AchievedRate, results.MinAchieved*100, b.Load.Rate)
		}
	}
	// In-process protocols run the service in the client: a busy client is the point.
	if cpuSeconds > 0 && seconds > 0 && b.Transport != results.InProcess {
		var used float64
		// ClientCPUUsPerOp × ops is the client's CPU time in µs.
		used = s.ClientCPUUsPerOp * float64(all.Ops) / 1e6
		if share := used / cpuSeconds; share > results.MaxClientCPU {
			bounded("the client used %.0f%% of its CPUs", share*100)
		}
	}
	return warnings, bound
}

// errorWarning is the text of a WarnErrors warning: the failed calls by kind, each
// with its first error's message.
func errorWarning(all *record.Interval) string {
	kinds := make([]string, 0, len(all.Errors))
	for k := range all.Errors {
		kinds = append(kinds, string(k))
	}
	sort.Strings(kinds)
	var parts []string
	for _, k := range kinds {
		p := fmt.Sprintf("%d %s", all.Errors[record.ErrorKind(k)], k)
		if msg := all.FirstErrors[record.ErrorKind(k)]; msg != "" {
			p += fmt.Sprintf(" (first: %s)", msg)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// statusKind is the kind (results.Summary.ErrorsByKind) under which the calls an
// outside server answered with an error status are counted together; ErrorsByStatus
// counts them by status.
const statusKind = "status"
