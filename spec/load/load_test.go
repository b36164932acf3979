package load

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct {
		in      Model
		want    Model
		wantErr string
	}{
		// One connection unless asked: a multiplexing client carries every call on it.
		{in: Model{Kind: Closed, Concurrency: 50}, want: Model{Kind: Closed, Concurrency: 50, Connections: 1}},
		// A closed model has no arrivals to space: an arrival is refused, as suites
		// and bench refuse one without a rate.
		{in: Model{Kind: Closed, Concurrency: 4, Connections: 4, Arrival: Poisson}, wantErr: "closed model: arrival poisson needs a rate"},
		// Open models default to evenly spaced arrivals and a cap of 1000 in flight.
		{in: Model{Kind: Open, Rate: 100}, want: Model{Kind: Open, Rate: 100, Arrival: Constant, Concurrency: DefaultMaxInFlight, Connections: 1}},
		{in: Model{Kind: Open, Rate: 100, Arrival: Poisson, Concurrency: 8, Connections: 2}, want: Model{Kind: Open, Rate: 100, Arrival: Poisson, Concurrency: 8, Connections: 2}},
		// Errors name the setting and the valid range.
		{in: Model{Kind: Closed}, wantErr: "concurrency 0"},
		{in: Model{Kind: Closed, Concurrency: 2, Rate: 5}, wantErr: "needs the open model"},
		{in: Model{Kind: Closed, Concurrency: 2, Connections: 3}, wantErr: "connections 3, want 1 to 2"},
		{in: Model{Kind: Open}, wantErr: "rate 0"},
		{in: Model{Kind: Open, Rate: math.Inf(1)}, wantErr: "rate +Inf"},
		{in: Model{Kind: Open, Rate: 1, Arrival: "bursty"}, wantErr: `arrival "bursty"`},
		{in: Model{Kind: "sideways"}, wantErr: `load model "sideways"`},
	} {
		got, err := c.in.Normalize()
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%+v: error %v, want one containing %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%+v: got %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestConstantPacer(t *testing.T) {
	for _, c := range []struct {
		rate float64
		i    int
		want time.Duration
	}{
		{1000, 0, 0},                  // the first arrival is at time zero
		{1000, 1, time.Millisecond},   // 1000/s: 1 ms apart
		{3, 1, 333333333},             // a third of a second, truncated to the nanosecond
		{3, 3, time.Second},           // computed from the index, so no rounding builds up
		{1e6, 1_000_000, time.Second}, // a million at 1M/s end at exactly 1 s
		{0.5, 2, 4 * time.Second},     // rates under 1/s work too
	} {
		p := NewPacer(Model{Kind: Open, Rate: c.rate, Arrival: Constant}, 1)
		var got time.Duration
		for range c.i + 1 {
			got = p.Next()
		}
		if got != c.want {
			t.Errorf("rate %v arrival %d at %v, want %v", c.rate, c.i, got, c.want)
		}
	}
}

func TestPoissonPacer(t *testing.T) {
	const rate, n = 10000.0, 200000
	p := NewPacer(Model{Kind: Open, Rate: rate, Arrival: Poisson}, 42)
	var prev, last time.Duration
	var sumSq float64
	for i := range n {
		last = p.Next()
		if last < prev {
			t.Fatalf("arrival %d at %v before the previous at %v", i, last, prev)
		}
		gap := (last - prev).Seconds()
		if i > 0 {
			sumSq += gap * gap
		}
		prev = last
	}
	// n arrivals at rate r take about n/r seconds: within 1 % for 200k draws (the
	// relative standard error is 1/sqrt(n) ≈ 0.22 %).
	if got, want := last.Seconds(), n/rate; math.Abs(got-want)/want > 0.01 {
		t.Errorf("%d arrivals took %.3fs, want about %.3fs", n, got, want)
	}
	// Exponential gaps: E[gap²] = 2/r², unlike constant gaps (1/r²).
	if got, want := sumSq/(n-1), 2/(rate*rate); math.Abs(got-want)/want > 0.05 {
		t.Errorf("mean squared gap %.3g, want about %.3g (exponential)", got, want)
	}
	// The same seed gives the same schedule.
	a, b := NewPacer(Model{Kind: Open, Rate: rate, Arrival: Poisson}, 7), NewPacer(Model{Kind: Open, Rate: rate, Arrival: Poisson}, 7)
	for range 100 {
		if x, y := a.Next(), b.Next(); x != y {
			t.Fatalf("same seed, different arrivals %v and %v", x, y)
		}
	}
}

func TestConnectionOf(t *testing.T) {
	for i, want := range []int{0, 1, 2, 0, 1} {
		if got := ConnectionOf(i, 3); got != want {
			t.Errorf("ConnectionOf(%d, 3) = %d, want %d (round-robin)", i, got, want)
		}
	}
}

func TestShare(t *testing.T) {
	closed := Model{Kind: Closed, Concurrency: 10, Connections: 3}
	open := Model{Kind: Open, Rate: 9000, Arrival: Constant, Concurrency: 100, Connections: 1}
	tests := []struct {
		m      Model
		k, n   int
		want   Model
		errSub string
	}{
		// Alone: the whole model.
		{closed, 0, 1, closed, ""},
		// 10 calls over 3: 4, 3, 3; 3 connections: one each.
		{closed, 0, 3, Model{Kind: Closed, Concurrency: 4, Connections: 1}, ""},
		{closed, 2, 3, Model{Kind: Closed, Concurrency: 3, Connections: 1}, ""},
		// A rate is divided evenly; each share keeps at least one connection.
		{open, 1, 3, Model{Kind: Open, Rate: 3000, Arrival: Constant, Concurrency: 33, Connections: 1}, ""},
		// More generators than calls in flight: one would have none.
		{Model{Kind: Closed, Concurrency: 2, Connections: 1}, 0, 3, Model{}, "each needs at least one"},
		{closed, 3, 3, Model{}, "share 3 of 3"},
	}
	for _, tt := range tests {
		got, err := Share(tt.m, tt.k, tt.n)
		if tt.errSub != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errSub) {
				t.Errorf("Share(%v, %d, %d): err %v, want %q", tt.m, tt.k, tt.n, err, tt.errSub)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Share(%v, %d, %d) = %v, %v; want %v", tt.m, tt.k, tt.n, got, err, tt.want)
		}
	}
}
