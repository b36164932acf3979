package report

import (
	"math"
	"testing"
)

// The one latency format every renderer uses, the terminal text included.
func TestLatencyUs(t *testing.T) {
	for _, c := range []struct {
		us   float64
		want string
	}{
		{1234.6, "1235"},           // from 100 µs up, whole µs
		{100, "100"},               // 100 itself is whole
		{99.94, "99.9"},            // below 100, one decimal
		{1, "1.0"},                 // 1 µs still one decimal
		{0.347, "0.35"},            // under 1 µs (an in-process call), two decimals
		{-0.001, "0.00"},           // no "-0.00"
		{math.NaN(), notAvailable}, // never NaN
		{math.Inf(1), notAvailable},
	} {
		if got := latencyUs(c.us); got != c.want {
			t.Errorf("latencyUs(%v) = %q, want %q", c.us, got, c.want)
		}
	}
}

// The one score format: JMH's three decimals, four under 1.
func TestScoreNum(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{12345.6789, "12345.679"},  // JMH prints three decimals
		{1, "1.000"},               // 1 is not under 1
		{0.51234, "0.5123"},        // ms/op scores under 1 get four
		{-0.25, "-0.2500"},         // by magnitude
		{math.NaN(), notAvailable}, // never NaN
		{math.Inf(-1), notAvailable},
	} {
		if got := scoreNum(c.f); got != c.want {
			t.Errorf("scoreNum(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}
