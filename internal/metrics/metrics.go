// Package metrics serves the measurements of a running benchmark in the Prometheus
// and OpenMetrics text formats (github.com/prometheus/client_golang), for people
// who watch runs in Grafana. It is fed each interval (phase) as the driver finishes
// it, so the figures move at the pace of the benchmark's slices.
package metrics

import (
	"net/http"
	"sort"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/wirebench/wirebench/results/record"
)

// Buckets are the upper bounds, in seconds, of the response-time histogram: from
// 10 µs to 60 s (the recorders' range), three a decade.
var Buckets = prometheus.ExponentialBucketsRange(10e-6, 60, 21)

// Exporter holds what has been measured so far, per benchmark and phase. Safe for
// concurrent use.
type Exporter struct {
	mu     sync.Mutex
	series map[key]*state
	reg    *prometheus.Registry
}

type key struct{ benchmark, phase string }

type state struct {
	ops, intervals int64
	errors         map[string]int64
	throughput     float64 // of the last interval
	counts         []uint64
	sum            float64
	count          uint64
}

var (
	opsDesc = prometheus.NewDesc("wirebench_ops_total",
		"Successful operations (calls of the workload's op) so far.", []string{"benchmark", "phase"}, nil)
	errorsDesc = prometheus.NewDesc("wirebench_errors_total",
		"Failed operations so far, by kind (timeout, unavailable, wrong_answer, ...).", []string{"benchmark", "phase", "kind"}, nil)
	throughputDesc = prometheus.NewDesc("wirebench_throughput_ops_per_second",
		"Successful operations per second over the last finished interval.", []string{"benchmark", "phase"}, nil)
	intervalsDesc = prometheus.NewDesc("wirebench_intervals_total",
		"Intervals (warm-up phases or slices) finished.", []string{"benchmark", "phase"}, nil)
	latencyDesc = prometheus.NewDesc("wirebench_response_time_seconds",
		"Response time of successful operations from their intended start (corrected for coordinated omission).",
		[]string{"benchmark", "phase"}, nil)
)

// New returns an exporter with nothing measured yet. Its registry also holds the Go
// runtime's and the process's own collectors.
func New() *Exporter {
	x := &Exporter{series: map[key]*state{}, reg: prometheus.NewRegistry()}
	x.reg.MustRegister(x, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return x
}

// Observe adds one finished interval of a benchmark in a phase ("warmup",
// "measure"). The interval is read, not kept.
func (x *Exporter) Observe(benchmark, phase string, iv *record.Interval) {
	if iv == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	k := key{benchmark, phase}
	s := x.series[k]
	if s == nil {
		s = &state{errors: map[string]int64{}, counts: make([]uint64, len(Buckets))}
		x.series[k] = s
	}
	s.ops += iv.Ops
	s.intervals++
	s.throughput = iv.Throughput()
	for kind, n := range iv.Errors {
		s.errors[string(kind)] += n
	}
	if iv.Resp != nil {
		// Each bar of the HdrHistogram (values within 0.1 % of each other) goes to
		// the first bucket whose bound is at or above its highest value.
		for _, bar := range iv.Resp.Distribution() {
			if bar.Count == 0 {
				continue
			}
			v := float64(bar.To) / 1e9
			i := sort.SearchFloat64s(Buckets, v)
			if i < len(Buckets) {
				s.counts[i] += uint64(bar.Count)
			}
			s.count += uint64(bar.Count)
			s.sum += float64(bar.Count) * float64(bar.From+bar.To) / 2 / 1e9
		}
	}
}

// Describe implements prometheus.Collector.
func (x *Exporter) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{opsDesc, errorsDesc, throughputDesc, intervalsDesc, latencyDesc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (x *Exporter) Collect(ch chan<- prometheus.Metric) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for k, s := range x.series {
		ch <- prometheus.MustNewConstMetric(opsDesc, prometheus.CounterValue, float64(s.ops), k.benchmark, k.phase)
		ch <- prometheus.MustNewConstMetric(intervalsDesc, prometheus.CounterValue, float64(s.intervals), k.benchmark, k.phase)
		ch <- prometheus.MustNewConstMetric(throughputDesc, prometheus.GaugeValue, s.throughput, k.benchmark, k.phase)
		for kind, n := range s.errors {
			ch <- prometheus.MustNewConstMetric(errorsDesc, prometheus.CounterValue, float64(n), k.benchmark, k.phase, kind)
		}
		cum := map[float64]uint64{}
		var c uint64
		for i, b := range Buckets {
			c += s.counts[i]
			cum[b] = c
		}
		ch <- prometheus.MustNewConstHistogram(latencyDesc, s.count, s.sum, cum, k.benchmark, k.phase)
	}
}

// Handler serves the metrics, in OpenMetrics when the scraper asks for it.
func (x *Exporter) Handler() http.Handler {
	return promhttp.HandlerFor(x.reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}
