// Package link describes the network conditions put between a load generator and its
// server: a profile (delay, jitter, rate, loss) parsed from the one-line form users
// type. The proxy that adds the delay and, where the kernel cannot, the rate is in
// link/proxy (toxiproxy, in-process). Loss is never the proxy's: over TCP a proxy
// sees a byte stream, not packets, so dropping is left to the kernel of a link
// wirebench owns (see internal/nspair).
package link

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Profile is the network between client and server. The zero Profile is no link.
type Profile struct {
	// Delay is added in each direction (so a round trip gains twice Delay), plus or
	// minus up to Jitter, drawn uniformly for each chunk of data.
	Delay, Jitter time.Duration
	// RateBits limits each direction, in bits per second (0: unlimited).
	RateBits int64
	// Loss is the fraction of packets dropped in each direction (0.001 for 0.1 %).
	Loss float64
}

// Limits: far beyond a sensible link, so a typo (10s for 10ms) fails at once.
const (
	MaxDelay = 10 * time.Second
	MinRate  = 8_000             // 1 kB/s: slower makes a benchmark of time-outs
	MaxRate  = 1_000_000_000_000 // 1 Tbit/s
	MaxLoss  = 0.5
)

// rateUnits are tc's bit-rate units (tc-tbf(8)), decimal as tc reads them. tc's
// byte units (kbps = kilobytes per second) are refused: one letter away from kbit
// and 8 times off, they are a trap in a benchmark's settings.
var rateUnits = []struct {
	suffix string
	mult   float64
}{{"gbit", 1e9}, {"mbit", 1e6}, {"kbit", 1e3}, {"bit", 1}}

// IsZero reports whether p is no link at all.
func (p Profile) IsZero() bool { return p == Profile{} }

// NeedsProxy reports whether p has a delay, which only the proxy can add here (the
// kernel's netem is not available).
func (p Profile) NeedsProxy() bool { return p.Delay > 0 || p.Jitter > 0 }

// Parse reads a profile: comma-separated KEY=VALUE pairs, each key at most once,
// e.g. "delay=10ms,jitter=1ms,rate=100mbit,loss=0.1%". "" and "none" are no link.
func Parse(s string) (Profile, error) {
	var p Profile
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return p, nil
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || k == "" || v == "" {
			return Profile{}, fmt.Errorf("link %q: %q is not KEY=VALUE (keys: delay, jitter, rate, loss; e.g. delay=10ms,rate=100mbit)", s, part)
		}
		if seen[k] {
			return Profile{}, fmt.Errorf("link %q: %s given twice", s, k)
		}
		seen[k] = true
		var err error
		switch k {
		case "delay":
			p.Delay, err = parseDelay(v)
		case "jitter":
			p.Jitter, err = parseDelay(v)
		case "rate":
			p.RateBits, err = ParseRate(v)
		case "loss":
			p.Loss, err = parseLoss(v)
		default:
			err = errors.New("unknown key (keys: delay, jitter, rate, loss)")
		}
		if err != nil {
			return Profile{}, fmt.Errorf("link %q: %s: %w", s, k, err)
		}
	}
	if p.Jitter > p.Delay {
		return Profile{}, fmt.Errorf("link %q: jitter %v is over the delay %v (a delay cannot go below 0)", s, p.Jitter, p.Delay)
	}
	return p, nil
}

func parseDelay(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q: want a duration such as 500us, 1ms or 10ms", v)
	case d < 0 || d > MaxDelay:
		return 0, fmt.Errorf("%v: want 0 to %v", d, MaxDelay)
	}
	return d, nil
}

// ParseRate reads a bit rate in tc's units: 100mbit, 1gbit, 512kbit, 8000bit.
func ParseRate(v string) (int64, error) {
	for _, u := range rateUnits {
		num, ok := strings.CutSuffix(v, u.suffix)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || num == "" || math.IsNaN(f) || math.IsInf(f, 0) {
			break
		}
		r := f * u.mult
		if r < MinRate || r > MaxRate {
			return 0, fmt.Errorf("%q: want %s to %s", v, FormatRate(MinRate), FormatRate(MaxRate))
		}
		return int64(math.Round(r)), nil
	}
	return 0, fmt.Errorf("%q: want a number and a unit: bit, kbit, mbit or gbit (e.g. 100mbit; decimal, as tc reads them)", v)
}

func parseLoss(v string) (float64, error) {
	num, ok := strings.CutSuffix(v, "%")
	if !ok {
		return 0, fmt.Errorf("%q: want a percentage such as 0.1%%", v)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f/100 > MaxLoss {
		return 0, fmt.Errorf("%q: want 0%% to %g%%", v, MaxLoss*100)
	}
	return f / 100, nil
}

// FormatRate writes a bit rate in the largest unit that keeps it whole, as Parse
// reads it back: 100mbit, 1500kbit.
func FormatRate(bits int64) string {
	for _, u := range rateUnits {
		if m := int64(u.mult); bits%m == 0 {
			return strconv.FormatInt(bits/m, 10) + u.suffix
		}
	}
	return strconv.FormatInt(bits, 10) + "bit"
}

// String writes p in the form Parse reads ("none" for no link).
func (p Profile) String() string {
	var parts []string
	if p.Delay > 0 {
		parts = append(parts, "delay="+p.Delay.String())
	}
	if p.Jitter > 0 {
		parts = append(parts, "jitter="+p.Jitter.String())
	}
	if p.RateBits > 0 {
		parts = append(parts, "rate="+FormatRate(p.RateBits))
	}
	if p.Loss > 0 {
		parts = append(parts, "loss="+strconv.FormatFloat(p.Loss*100, 'g', -1, 64)+"%")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}
