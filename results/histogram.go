package results

import (
	"github.com/HdrHistogram/hdrhistogram-go"
)

// LatencyFrom summarises a histogram of values in nanoseconds as a Latency in
// microseconds. Percentiles and Max are HdrHistogram's highest equivalent
// values, so they are exact to the histogram's significant digits. An empty
// (or nil) histogram gives the zero Latency.
func LatencyFrom(h *hdrhistogram.Histogram) Latency {
	if h == nil || h.TotalCount() == 0 {
		return Latency{}
	}
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	return Latency{
		Mean: h.Mean() / 1e3,
		P50:  us(h.ValueAtQuantile(50)),
		P75:  us(h.ValueAtQuantile(75)),
		P90:  us(h.ValueAtQuantile(90)),
		P99:  us(h.ValueAtQuantile(99)),
		P999: us(h.ValueAtQuantile(99.9)),
		Max:  us(h.Max()),
	}
}
