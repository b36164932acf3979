package metrics

import (
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/wirebench/wirebench/results/record"
)

// Two intervals fed in come out of a scrape, read by Prometheus's own parser: the
// ops and errors add up, the throughput is the last interval's, and the histogram
// holds every response time in the bucket that covers it.
func TestExporterScrape(t *testing.T) {
	x := New()
	t0 := time.Unix(0, 0)
	for i, ms := range []int64{1, 100} {
		iv := record.NewInterval(false)
		iv.Start, iv.End = t0, t0.Add(time.Second)
		n := int64(100)
		if i == 1 {
			n = 10
		}
		iv.Ops = n
		for range n {
			iv.Resp.RecordValue(ms * 1e6)
		}
		iv.Errors[record.ErrorKind("timeout")] = 2
		x.Observe("http-json/tcp/echo/closed-c1", "measure", iv)
	}
	srv := httptest.NewServer(x.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	value := func(name string) float64 {
		f := families[name]
		if f == nil || len(f.Metric) != 1 {
			t.Fatalf("%s: %v", name, f)
		}
		m := f.Metric[0]
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		}
		return math.NaN()
	}
	if v := value("wirebench_ops_total"); v != 110 {
		t.Errorf("ops %v, want 110", v)
	}
	if v := value("wirebench_errors_total"); v != 4 {
		t.Errorf("errors %v, want 4", v)
	}
	if v := value("wirebench_throughput_ops_per_second"); v != 10 {
		t.Errorf("throughput %v, want the last interval's 10", v)
	}
	h := families["wirebench_response_time_seconds"].Metric[0].Histogram
	if h.GetSampleCount() != 110 || math.Abs(h.GetSampleSum()-1.1) > 0.011 {
		t.Errorf("histogram count %d sum %v, want 110 and 1.1 s", h.GetSampleCount(), h.GetSampleSum())
	}
	// Below 1 ms no value; from the first bound above 1.001 ms (the HdrHistogram's
	// precision) the 100 of 1 ms; from the first above 100.1 ms all 110.
	for _, b := range h.Bucket {
		want := uint64(0)
		switch ub := b.GetUpperBound(); {
		case ub >= 0.1001:
			want = 110
		case ub >= 0.001001:
			want = 100
		case ub >= 0.001:
			continue // the 1 ms bar may straddle this bound
		}
		if b.GetCumulativeCount() != want {
			t.Errorf("bucket le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want)
		}
	}
}
