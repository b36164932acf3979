package results

import (
	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/wirebench/wirebench/results/record"
)

// LatencyFrom summarises a histogram of values in nanoseconds as a Latency in
// microseconds. Percentiles and Max are HdrHistogram's highest equivalent
// values, so they are exact to the histogram's significant digits. An empty
// (or nil) histogram gives the zero Latency.
func LatencyFrom(h *hdr.Histogram) Latency {
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

// Histogram merges the response-time histograms of every slice of b (in ns); nil
// when none was recorded or one does not decode (a damaged file: readers fall back
// to the summary's percentiles).
func (b *Benchmark) Histogram() *hdr.Histogram {
	var acc *hdr.Histogram
	for _, t := range b.Forks {
		for _, it := range t.Slices {
			h, err := record.DecodeHistogram(it.Histogram)
			if err != nil {
				return nil
			}
			if h == nil {
				continue
			}
			if acc == nil {
				acc = record.NewHistogram()
			}
			acc.Merge(h)
		}
	}
	if acc == nil || acc.TotalCount() == 0 {
		return nil
	}
	return acc
}
