package driver

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wirebench/wirebench/control"
	"github.com/wirebench/wirebench/results"
	"github.com/wirebench/wirebench/spec"
)

// A real search over worker processes: grpc-proto with a p99 objective a loopback
// server meets at low rates; a small budget ends it. The answer is bracketed by
// passing and failing steps, confirmed, and every step is recorded.
func TestCapacityRun(t *testing.T) {
	s := testSpec("grpc-proto", "tcp")
	s.Load.Kind, s.Load.Rate, s.Load.Concurrency, s.Load.Arrival = "open", 500, 100, "constant"
	s.Warmup = 100 * time.Millisecond
	s.Capacity = &spec.Capacity{SLOs: []spec.SLO{{Quantile: 99, Max: 50 * time.Millisecond}},
		Step: 150 * time.Millisecond, Confirm: 300 * time.Millisecond, Budget: 2 * time.Second, Resolution: 0.2}
	res, err := control.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	var seen int
	out, err := Capacity(t.Context(), res, Options{Binary: binary}, func(results.SearchStep) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(out.Steps) || len(out.Steps) < 2 || out.Warmup == nil {
		t.Fatalf("%d steps observed, %d recorded, warmup %v", seen, len(out.Steps), out.Warmup != nil)
	}
	var measured time.Duration
	for _, st := range out.Steps {
		measured += time.Duration(st.Interval.Seconds() * float64(time.Second))
		if math.Abs(float64(st.Interval.Ops+st.Interval.ErrorCount())/st.Interval.Seconds()-st.Rate) > 0.5*st.Rate && st.Verdict == results.VerdictPass {
			t.Errorf("a passing step at %v/s made %d calls in %v", st.Rate, st.Interval.Ops, st.Interval.Seconds())
		}
	}
	if measured > 3*time.Second {
		t.Errorf("measured %v with a budget of 2s", measured)
	}
	t.Logf("steps: %s; rate %v [%v, %v] confirmed %v generator-bound %v", describe(out), out.Rate, out.Low, out.High, out.Confirmed, out.GeneratorBound)
	if out.Rate <= 0 && !out.GeneratorBound {
		t.Errorf("no answer: %s", describe(out))
	}
}

func describe(out *results.Search) string {
	var b strings.Builder
	for _, st := range out.Steps {
		fmt.Fprintf(&b, "%v:%s(%s) ", st.Rate, st.Verdict, st.Why)
	}
	return b.String()
}

// A generator-bound search advises the instrument client when the protocol has one
// and the search used another client; not when it used the instrument, nor for a
// protocol without it (direct calls the service in-process). The instrument advised
// speaks the HTTP version of the client it replaces.
func TestCheaperClient(t *testing.T) {
	for _, c := range []struct {
		protocol, client, want string
	}{
		{"http-json", "", "instrument"},
		{"http-json", "instrument", ""},
		{"http-json", "go-nethttp-json-h2", "instrument-h2"},
		{"http-json", "instrument-h2", ""},
		{"connect-json", "", "instrument"},
		{"direct", "", ""},
	} {
		s := spec.Default()
		s.Protocol, s.ClientStack = c.protocol, c.client
		res, err := control.Resolve(s)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.protocol, c.client, err)
		}
		if got := cheaperClient(res); got != c.want {
			t.Errorf("%s with client %q: cheaper client %q, want %q", c.protocol, c.client, got, c.want)
		}
	}
}
