package link

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Profile
		err  string // a part of the error; "" for none
	}{
		{"", Profile{}, ""},     // no link
		{"none", Profile{}, ""}, // said explicitly
		{"delay=10ms,jitter=1ms,rate=100mbit,loss=0.1%", Profile{Delay: 10 * time.Millisecond, Jitter: time.Millisecond, RateBits: 100_000_000, Loss: 0.001}, ""},
		{"delay=750us", Profile{Delay: 750 * time.Microsecond}, ""},        // sub-millisecond: a cross-zone link
		{" rate=1.5gbit , delay=0s", Profile{RateBits: 1_500_000_000}, ""}, // spaces around pairs; decimal units as tc
		{"rate=512kbit", Profile{RateBits: 512_000}, ""},
		{"rate=8000bit", Profile{RateBits: 8000}, ""}, // the floor, 1 kB/s
		{"loss=0%", Profile{}, ""},
		{"delay=10", Profile{}, "want a duration"},            // no unit
		{"delay=-1ms", Profile{}, "want 0 to 10s"},            // negative
		{"delay=11s", Profile{}, "want 0 to 10s"},             // a typo for 11ms, most likely
		{"jitter=2ms,delay=1ms", Profile{}, "over the delay"}, // the delay would go negative
		{"rate=100mbps", Profile{}, "want a number and a unit"},
		{"rate=100", Profile{}, "want a number and a unit"},
		{"rate=mbit", Profile{}, "want a number and a unit"},
		{"rate=1bit", Profile{}, "want 8kbit to 1000gbit"},
		{"rate=NaNmbit", Profile{}, "want a number and a unit"},
		{"loss=0.1", Profile{}, "percentage"},
		{"loss=60%", Profile{}, "want 0% to 50%"},
		{"loss=-1%", Profile{}, "want 0% to 50%"},
		{"delay=1ms,delay=2ms", Profile{}, "given twice"},
		{"latency=1ms", Profile{}, "unknown key"},
		{"delay", Profile{}, "not KEY=VALUE"},
		{"delay=1ms,", Profile{}, "not KEY=VALUE"},
	} {
		got, err := Parse(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("Parse(%q): %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q) error %v, want one saying %q", tc.in, err, tc.err)
		case got != tc.want:
			t.Errorf("Parse(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestString(t *testing.T) {
	for _, tc := range []struct {
		p    Profile
		want string
	}{
		{Profile{}, "none"},
		{Profile{Delay: 750 * time.Microsecond, RateBits: 2_000_000_000}, "delay=750µs,rate=2gbit"},
		{Profile{RateBits: 1_500_000, Loss: 0.001}, "rate=1500kbit,loss=0.1%"},
		{Profile{Delay: 5 * time.Millisecond, Jitter: time.Millisecond, RateBits: 12345}, "delay=5ms,jitter=1ms,rate=12345bit"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.p, got, tc.want)
		}
	}
}

// Whatever Parse accepts, String writes back in a form Parse reads to the same profile.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"delay=10ms,jitter=1ms,rate=100mbit,loss=0.1%", "rate=1.5gbit", "none", "delay=1h", "loss=%", "rate=1e3kbit"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		q, err := Parse(p.String())
		if err != nil || q != p {
			t.Errorf("Parse(%q) = %+v; String %q reads back as %+v, %v", s, p, p.String(), q, err)
		}
	})
}
