// Package load holds the pacing maths of wirebench's load models, apart from any I/O:
// the closed model (a fixed number of calls in flight) and the open model (arrivals at a
// rate, evenly spaced or Poisson, with a cap on the calls in flight). The engine turns
// these numbers into calls; everything here is a pure function of its inputs (and a
// seed), so it is table-tested.
package load

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Kind names a load model.
type Kind string

const (
	// Closed keeps Concurrency calls in flight: each caller starts its next call when
	// its previous one ends, so the server's speed sets the rate.
	Closed Kind = "closed"
	// Open starts calls at the times a schedule sets, whatever the server does; calls
	// that cannot start on time (every in-flight slot busy) start late and their
	// response time still counts from the scheduled time.
	Open Kind = "open"
)

// Arrival names how an open model spaces its arrivals.
type Arrival string

const (
	// Constant spaces arrivals evenly, 1/rate apart (as wrk2 does).
	Constant Arrival = "constant"
	// Poisson draws exponential gaps of mean 1/rate (a Poisson process), which is how
	// independent users arrive.
	Poisson Arrival = "poisson"
)

// DefaultMaxInFlight caps an open model's calls in flight when the user sets no cap.
const DefaultMaxInFlight = 1000

// Model is a load model. The zero value is not valid; fill it in and call Normalize.
type Model struct {
	Kind Kind `json:"model"`
	// Concurrency is the number of calls in flight (closed), or the cap on calls in
	// flight (open; 0 means DefaultMaxInFlight).
	Concurrency int `json:"concurrency"`
	// Connections is the number of clients the calls are spread over (0 means 1). A
	// client of a multiplexing protocol (gRPC, Cap'n Proto) is one connection; an
	// HTTP/1.1 client opens one connection per call it has in flight.
	Connections int `json:"connections"`
	// Rate is the open model's target in ops per second.
	Rate float64 `json:"rate,omitempty"`
	// Arrival is the open model's spacing; empty means Constant.
	Arrival Arrival `json:"arrival,omitempty"`
}

// Normalize fills in defaults and returns the model, or an error saying which setting
// is wrong and what would be right.
func (m Model) Normalize() (Model, error) {
	switch m.Kind {
	case Closed:
		if m.Concurrency < 1 {
			return m, fmt.Errorf("closed model: concurrency %d, want at least 1", m.Concurrency)
		}
		if m.Rate != 0 {
			return m, errors.New("closed model: a rate needs the open model")
		}
		if m.Arrival != "" {
			return m, fmt.Errorf("closed model: arrival %s needs a rate (it spaces the arrivals of the open loop)", m.Arrival)
		}
	case Open:
		if !(m.Rate > 0) || math.IsInf(m.Rate, 0) {
			return m, fmt.Errorf("open model: rate %v, want a positive number of ops per second", m.Rate)
		}
		if m.Arrival == "" {
			m.Arrival = Constant
		}
		if m.Arrival != Constant && m.Arrival != Poisson {
			return m, fmt.Errorf("open model: arrival %q, want constant or poisson", m.Arrival)
		}
		if m.Concurrency == 0 {
			m.Concurrency = DefaultMaxInFlight
		}
		if m.Concurrency < 1 {
			return m, fmt.Errorf("open model: max in flight %d, want at least 1", m.Concurrency)
		}
	default:
		return m, fmt.Errorf("load model %q, want closed or open", m.Kind)
	}
	if m.Connections == 0 {
		m.Connections = 1
	}
	if m.Connections < 1 || m.Connections > m.Concurrency {
		return m, fmt.Errorf("connections %d, want 1 to %d (the calls in flight): a connection needs a caller", m.Connections, m.Concurrency)
	}
	return m, nil
}

// ConnectionOf returns the connection that caller i of n uses among c connections:
// callers are dealt round-robin, so connection loads differ by at most one caller.
func ConnectionOf(i, c int) int { return i % c }

// Pacer yields the scheduled start times of an open model's arrivals, as offsets from
// the start of the run. Offsets never decrease. A Pacer is owned by one goroutine.
type Pacer interface {
	// Next returns the offset of the next arrival.
	Next() time.Duration
}

// NewPacer returns the pacer of an open model (Normalize it first). seed makes
// Poisson schedules repeatable.
func NewPacer(m Model, seed uint64) Pacer {
	if m.Arrival == Poisson {
		return &poisson{rate: m.Rate, r: rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))}
	}
	return &constant{rate: m.Rate}
}

// constant computes offset i as i/rate from the index rather than by adding gaps, so
// rounding does not accumulate: arrival 1e9 is as exact as arrival 1.
type constant struct {
	rate float64
	i    int64
}

func (c *constant) Next() time.Duration {
	d := time.Duration(float64(c.i) * float64(time.Second) / c.rate)
	c.i++
	return d
}

// poisson adds exponential gaps in float seconds (not rounded Durations) for the same
// reason.
type poisson struct {
	rate float64
	r    *rand.Rand
	t    float64
}

func (p *poisson) Next() time.Duration {
	d := time.Duration(p.t * float64(time.Second))
	p.t += p.r.ExpFloat64() / p.rate
	return d
}

// Share returns the part of model m that load generator k of n runs when n generators
// share one benchmark: the calls in flight (or the open model's cap) and the
// connections are dealt so that they differ by at most one between generators (the
// first ones get the extra), and an open model's rate is divided evenly. Every share
// keeps at least one call in flight and one connection, so n may not exceed the
// model's concurrency. m must be normalized; Share(m, 0, 1) is m.
func Share(m Model, k, n int) (Model, error) {
	switch {
	case n < 1 || k < 0 || k >= n:
		return m, fmt.Errorf("load share %d of %d", k, n)
	case n > m.Concurrency:
		return m, fmt.Errorf("%d load generators for %d calls in flight: each needs at least one", n, m.Concurrency)
	}
	deal := func(total int) int {
		d := total / n
		if k < total%n {
			d++
		}
		return d
	}
	m.Concurrency = deal(m.Concurrency)
	m.Connections = min(max(deal(m.Connections), 1), m.Concurrency)
	if m.Kind == Open {
		m.Rate /= float64(n)
	}
	return m, nil
}
